// A network player's parser and reader, as Swift streaming players write them (the Parser and
// Reader of the open-source AudioStreamer, after Apple's AudioFileStreamExample): the parser
// passes itself to AudioFileStreamOpen as the client data
// (`Unmanaged.passUnretained(self).toOpaque()`); its property listener and packets callback are
// C function pointers that find it again; the listener reads the data format, the packet count,
// the magic cookie and the packet table as they are announced; the packets callback copies each
// packet out by its description. The reader decodes those packets with an AudioConverter:
// AudioConverterFillComplexBuffer pulls them one at a time through an input procedure that hands
// the converter each packet with its description, and says "not enough data yet" when the
// download is behind (the reader then returns what it has, and is called again later).
// The imports are iOS's.
import AudioToolbox
import Foundation

// MARK: - Parser

enum ParserError: Error {
    case streamCouldNotOpen(OSStatus)
    case failedToParseBytes(OSStatus)
}

final class Parser {
    /// The stream's ID, nil until opened.
    fileprivate(set) var streamID: AudioFileStreamID?
    /// The data format, once the stream has said it.
    var dataFormat: AudioStreamBasicDescription?
    /// The packets, each with its description (offsets into its own data).
    var packets = [(Data, AudioStreamPacketDescription?)]()
    /// What the header states, when it does.
    var packetCount: UInt64 = 0
    var magicCookie: Data?
    var packetTable: AudioFilePacketTableInfo?
    var isReadyToProducePackets = false
    /// Whether the whole stream was given (the download ended).
    var isParsingComplete = false

    init(fileTypeHint: AudioFileTypeID = 0) throws {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let result = AudioFileStreamOpen(context, ParserPropertyChangeCallback, ParserPacketCallback, fileTypeHint, &streamID)
        guard result == noErr else { throw ParserError.streamCouldNotOpen(result) }
    }

    deinit {
        if let streamID = streamID { AudioFileStreamClose(streamID) }
    }

    /// Parses what the network delivered.
    func parse(data: Data) throws {
        guard let streamID = streamID else { return }
        let count = data.count
        try data.withUnsafeBytes { (rawBufferPointer: UnsafeRawBufferPointer) in
            let result = AudioFileStreamParseBytes(streamID, UInt32(count), rawBufferPointer.baseAddress, [])
            guard result == noErr else { throw ParserError.failedToParseBytes(result) }
        }
    }

    /// The download ended: the parser gives what it still holds.
    func finish() throws {
        guard let streamID = streamID else { return }
        let result = AudioFileStreamParseBytes(streamID, 0, nil, [])
        guard result == noErr else { throw ParserError.failedToParseBytes(result) }
        isParsingComplete = true
    }
}

/// Reads a property of the stream into `value`, as the listener does.
func GetPropertyValue<T>(_ value: inout T, _ streamID: AudioFileStreamID, _ propertyID: AudioFileStreamPropertyID) {
    var propSize: UInt32 = 0
    guard AudioFileStreamGetPropertyInfo(streamID, propertyID, &propSize, nil) == noErr else { return }
    let result = withUnsafeMutablePointer(to: &value) { pointer in
        AudioFileStreamGetProperty(streamID, propertyID, &propSize, pointer)
    }
    guard result == noErr else { return }
}

func ParserPropertyChangeCallback(_ context: UnsafeMutableRawPointer, _ streamID: AudioFileStreamID,
                                  _ propertyID: AudioFileStreamPropertyID, _ flags: UnsafeMutablePointer<AudioFileStreamPropertyFlags>) {
    let parser = Unmanaged<Parser>.fromOpaque(context).takeUnretainedValue()
    switch propertyID {
    case kAudioFileStreamProperty_DataFormat:
        var format = AudioStreamBasicDescription()
        GetPropertyValue(&format, streamID, propertyID)
        parser.dataFormat = format
    case kAudioFileStreamProperty_AudioDataPacketCount:
        GetPropertyValue(&parser.packetCount, streamID, propertyID)
    case kAudioFileStreamProperty_PacketTableInfo:
        var packetTable = AudioFilePacketTableInfo()
        GetPropertyValue(&packetTable, streamID, propertyID)
        parser.packetTable = packetTable
    case kAudioFileStreamProperty_MagicCookieData:
        var size: UInt32 = 0
        guard AudioFileStreamGetPropertyInfo(streamID, propertyID, &size, nil) == noErr, size > 0 else { break }
        var cookie = Data(count: Int(size))
        let result = cookie.withUnsafeMutableBytes { bytes in
            AudioFileStreamGetProperty(streamID, propertyID, &size, bytes.baseAddress!)
        }
        if result == noErr { parser.magicCookie = cookie }
    case kAudioFileStreamProperty_ReadyToProducePackets:
        parser.isReadyToProducePackets = true
    default:
        break
    }
}

func ParserPacketCallback(_ context: UnsafeMutableRawPointer, _ byteCount: UInt32, _ packetCount: UInt32, _ data: UnsafeRawPointer,
                          _ packetDescriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?) {
    let parser = Unmanaged<Parser>.fromOpaque(context).takeUnretainedValue()
    guard let dataFormat = parser.dataFormat else { return }

    if let packetDescriptions = packetDescriptions {
        // Variable packets (MP3, AAC): each one where its description says.
        for i in 0 ..< Int(packetCount) {
            let packetDescription = packetDescriptions[i]
            let packetStart = Int(packetDescription.mStartOffset)
            let packetSize = Int(packetDescription.mDataByteSize)
            let packetData = Data(bytes: data.advanced(by: packetStart), count: packetSize)
            parser.packets.append((packetData, packetDescription))
        }
    } else {
        // Constant packets (PCM, IMA4): cut them by the format's size.
        let packetSize = Int(dataFormat.mBytesPerPacket)
        for i in 0 ..< Int(packetCount) {
            let packetData = Data(bytes: data.advanced(by: i * packetSize), count: packetSize)
            parser.packets.append((packetData, nil))
        }
    }
}

// MARK: - Reader

enum ReaderError: Error {
    case parserMissingDataFormat
    case unableToCreateConverter(OSStatus)
    case converterFailed(OSStatus)
}

/// The input procedure's "the download has not brought the next packet yet" (not an Apple code).
let ReaderNotEnoughDataError: OSStatus = 932332582
/// The input procedure's "no format" (not an Apple code).
let ReaderMissingSourceFormatError: OSStatus = 932332583

final class Reader {
    let parser: Parser
    let readFormat: AudioStreamBasicDescription
    private(set) var converter: AudioConverterRef?
    /// The next packet to give the converter.
    var currentPacket = 0
    /// Where the input procedure puts the packet it hands out, and its description: both must
    /// stay valid until the converter calls again.
    fileprivate var packetBuffer: UnsafeMutableRawPointer
    fileprivate var packetBufferSize = 4096
    fileprivate let packetDescription = UnsafeMutablePointer<AudioStreamPacketDescription>.allocate(capacity: 1)

    /// A reader that decodes the parser's packets to `readFormat` (linear PCM, the stream's rate).
    init(parser: Parser, readFormat: AudioStreamBasicDescription) throws {
        self.parser = parser
        self.readFormat = readFormat
        packetBuffer = UnsafeMutableRawPointer.allocate(byteCount: packetBufferSize, alignment: 16)

        guard var sourceFormat = parser.dataFormat else { throw ReaderError.parserMissingDataFormat }
        var destinationFormat = readFormat
        let result = AudioConverterNew(&sourceFormat, &destinationFormat, &converter)
        guard result == noErr else { throw ReaderError.unableToCreateConverter(result) }

        if let cookie = parser.magicCookie, let converter = converter {
            _ = cookie.withUnsafeBytes { bytes in
                AudioConverterSetProperty(converter, kAudioConverterDecompressionMagicCookie, UInt32(cookie.count), bytes.baseAddress!)
            }
        }
    }

    deinit {
        if let converter = converter { AudioConverterDispose(converter) }
        packetBuffer.deallocate()
        packetDescription.deallocate()
    }

    /// Decodes up to `frames` frames (interleaved samples of `readFormat`'s channels). Fewer when
    /// the download is behind (`isEndOfData` false: read again later) or at the end of the stream.
    func read(_ frames: UInt32) throws -> (samples: [Float], isEndOfData: Bool) {
        guard let converter = converter else { throw ReaderError.parserMissingDataFormat }
        let channels = Int(readFormat.mChannelsPerFrame)
        var samples = [Float](repeating: 0, count: Int(frames) * channels)
        var packets = frames
        let context = Unmanaged.passUnretained(self).toOpaque()
        let status = samples.withUnsafeMutableBytes { (bytes: UnsafeMutableRawBufferPointer) -> OSStatus in
            var bufferList = AudioBufferList(mNumberBuffers: 1,
                                             mBuffers: AudioBuffer(mNumberChannels: UInt32(channels), mDataByteSize: UInt32(bytes.count),
                                                                   mData: bytes.baseAddress))
            return AudioConverterFillComplexBuffer(converter, ReaderConverterCallback, context, &packets, &bufferList, nil)
        }
        switch status {
        case noErr, ReaderNotEnoughDataError:
            samples.removeLast(samples.count - Int(packets) * channels)
            return (samples, status == noErr && packets < frames)
        case ReaderMissingSourceFormatError:
            throw ReaderError.parserMissingDataFormat
        default:
            throw ReaderError.converterFailed(status)
        }
    }
}

func ReaderConverterCallback(_ converter: AudioConverterRef, _ packetCount: UnsafeMutablePointer<UInt32>,
                             _ ioData: UnsafeMutablePointer<AudioBufferList>,
                             _ outPacketDescriptions: UnsafeMutablePointer<UnsafeMutablePointer<AudioStreamPacketDescription>?>?,
                             _ context: UnsafeMutableRawPointer?) -> OSStatus {
    let reader = Unmanaged<Reader>.fromOpaque(context!).takeUnretainedValue()

    guard reader.parser.dataFormat != nil else {
        packetCount.pointee = 0
        return ReaderMissingSourceFormatError
    }

    // No packet left: the end of the stream, or the download is behind.
    let packetIndex = reader.currentPacket
    let packets = reader.parser.packets
    if packetIndex >= packets.count {
        packetCount.pointee = 0
        return reader.parser.isParsingComplete ? noErr : ReaderNotEnoughDataError
    }

    // One packet, copied where it stays until the converter calls again, with its description.
    let packet = packets[packetIndex]
    let dataCount = packet.0.count
    if dataCount > reader.packetBufferSize {
        reader.packetBuffer.deallocate()
        reader.packetBufferSize = dataCount
        reader.packetBuffer = UnsafeMutableRawPointer.allocate(byteCount: dataCount, alignment: 16)
    }
    packet.0.copyBytes(to: reader.packetBuffer.assumingMemoryBound(to: UInt8.self), count: dataCount)
    ioData.pointee.mNumberBuffers = 1
    ioData.pointee.mBuffers.mData = reader.packetBuffer
    ioData.pointee.mBuffers.mDataByteSize = UInt32(dataCount)

    if let description = packet.1 {
        reader.packetDescription.pointee = AudioStreamPacketDescription(mStartOffset: 0,
                                                                        mVariableFramesInPacket: description.mVariableFramesInPacket,
                                                                        mDataByteSize: UInt32(dataCount))
        outPacketDescriptions?.pointee = reader.packetDescription
    }
    packetCount.pointee = 1
    reader.currentPacket += 1
    return noErr
}
