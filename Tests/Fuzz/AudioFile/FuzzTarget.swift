import AudioToolbox
import FuzzSupport

// Audio File Services fed any bytes through AudioFileOpenWithCallbacks: every container parser
// (WAVE, AIFF, AIFC, CAF, MPEG-4, MP3, ADTS), chosen by content. The first byte picks how the
// read callback serves the bytes (whole, a few at a time, or failing past the offset in the next
// four bytes). Whatever the bytes, the open is noErr or an Audio File error; an open file answers
// every property with noErr or a documented code, its packets read whole and in range, and it
// closes exactly once.
//
// The same bytes then go to Audio File Stream Services (AudioFileStreamParseBytes), in pieces whose
// sizes, a file type hint, a seek and a discontinuity are drawn from those first five bytes (so the
// seeds mean what they meant before). Every parse returns noErr or a documented code, every property
// announced can be read in the listener, packets come only after ReadyToProducePackets, whole and
// inside the bytes given, a call back into the stream from its callback is refused, and the stream
// closes exactly once.

@main struct FuzzAudioFile {
    static func main() { Fuzzing.main(testOneInput) }
}

/// The bytes the callbacks serve, and how.
final class Served {
    let bytes: [UInt8]
    let mode: UInt8
    let failAt: Int
    init(_ bytes: [UInt8], mode: UInt8, failAt: Int) {
        self.bytes = bytes
        self.mode = mode
        self.failAt = failAt
    }
}

private let read: AudioFile_ReadProc = { client, position, count, buffer, actual in
    let served = Unmanaged<Served>.fromOpaque(client).takeUnretainedValue()
    guard position >= 0 else { return kAudio_ParamError }
    if served.mode % 3 == 2, position >= Int64(served.failAt) { return -36 }   // an I/O error past a point
    let start = Int(min(position, Int64(served.bytes.count)))
    var end = min(start + Int(count), served.bytes.count)
    if served.mode % 3 == 1 { end = min(end, start + 7) }   // a few bytes at a time
    served.bytes.withUnsafeBytes { if end > start { buffer.copyMemory(from: $0.baseAddress! + start, byteCount: end - start) } }
    actual.pointee = UInt32(end - start)
    return noErr
}

private let size: AudioFile_GetSizeProc = { client in
    Int64(Unmanaged<Served>.fromOpaque(client).takeUnretainedValue().bytes.count)
}

/// The codes an open may return.
private let openCodes: Set<OSStatus> = [noErr, kAudioFileInvalidFileError, kAudioFileUnsupportedFileTypeError,
                                        kAudioFileUnsupportedDataFormatError, -36]

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = FuzzInput(Fuzzing.bytes(data, count))
    let mode = input.byte()
    let failAt = Int(input.u32())
    let served = Served(input.rest(), mode: mode, failAt: failAt)
    stream(served.bytes, mode: mode, seed: UInt64(failAt))
    openFile(served)
    return 0
}

/// Audio File Services' open, properties and reads of the bytes.
private func openFile(_ served: Served) {
    var fileID: AudioFileID?
    let status = withExtendedLifetime(served) {
        AudioFileOpenWithCallbacks(Unmanaged.passUnretained(served).toOpaque(), read, nil, size, nil, 0, &fileID)
    }
    Fuzzing.require(openCodes.contains(status), "the open returned \(status)")
    guard status == noErr, let file = fileID else {
        Fuzzing.require(fileID == nil, "a failed open set its ID")
        return
    }
    defer { _ = served }
    var asbd = AudioStreamBasicDescription()
    var propertySize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
    Fuzzing.require(AudioFileGetProperty(file, kAudioFilePropertyDataFormat, &propertySize, &asbd) == noErr, "no data format")
    Fuzzing.require(asbd.mChannelsPerFrame >= 1 && asbd.mSampleRate > 0, "an opened file describes \(asbd)")
    for id in [kAudioFilePropertyFileFormat, kAudioFilePropertyMagicCookieData, kAudioFilePropertyAudioDataByteCount,
               kAudioFilePropertyAudioDataPacketCount, kAudioFilePropertyMaximumPacketSize, kAudioFilePropertyPacketSizeUpperBound,
               kAudioFilePropertyDataOffset, kAudioFilePropertyChannelLayout, kAudioFilePropertyPacketTableInfo,
               kAudioFilePropertyFormatList, kAudioFilePropertyEstimatedDuration, kAudioFilePropertyBitRate,
               kAudioFilePropertySourceBitDepth] {
        var size: UInt32 = 0
        let info = AudioFileGetPropertyInfo(file, id, &size, nil)
        Fuzzing.require(info == noErr || info == kAudioFileUnsupportedPropertyError, "property info returned \(info)")
        guard info == noErr else { continue }
        var value = [UInt8](repeating: 0, count: Int(size))
        Fuzzing.require(AudioFileGetProperty(file, id, &size, &value) == noErr, "a property with a size has no value")
    }
    // The information dictionary (the file's tags): a new object, every entry a string, released.
    var info: UnsafeRawPointer?
    propertySize = UInt32(MemoryLayout<UnsafeRawPointer>.size)
    Fuzzing.require(AudioFileGetProperty(file, kAudioFilePropertyInfoDictionary, &propertySize, &info) == noErr && info != nil,
                    "no information dictionary")
    if let info {
        let dictionary = Unmanaged<CFDictionary>.fromOpaque(info).takeRetainedValue()
        Fuzzing.require(CFDictionaryGetCount(dictionary) >= 1 && CFDictionaryGetCount(dictionary) <= 65, "a dictionary of \(CFDictionaryGetCount(dictionary))")
    }
    // Every packet, a bounded number of reads.
    var upper: UInt32 = 0
    propertySize = 4
    _ = AudioFileGetProperty(file, kAudioFilePropertyPacketSizeUpperBound, &propertySize, &upper)
    let room = Int(max(upper, 1)) * 16
    var buffer = [UInt8](repeating: 0, count: room)
    var descriptions = [AudioStreamPacketDescription](repeating: AudioStreamPacketDescription(), count: 16)
    var packet: Int64 = 0
    for _ in 0..<256 {
        var bytes = UInt32(room)
        var packets: UInt32 = 16
        let result = AudioFileReadPacketData(file, false, &bytes, &descriptions, packet, &packets, &buffer)
        if result == kAudioFileEndOfFileError || packets == 0 { break }
        Fuzzing.require(result == noErr || result == kAudioFileInvalidFileError || result == -36, "a read returned \(result)")
        guard result == noErr else { break }
        Fuzzing.require(Int(bytes) <= room && packets <= 16, "a read overran: \(bytes) bytes, \(packets) packets")
        packet += Int64(packets)
    }
    Fuzzing.require(AudioFileClose(file) == noErr, "the close failed")
    Fuzzing.require(AudioFileClose(file) == kAudioFileNotOpenError, "a second close did not say the file is not open")
}

// MARK: Audio File Stream Services

/// What the stream's callbacks saw.
final class StreamCheck {
    var stream: AudioFileStreamID?
    var ready = false
    var packets = 0
}

/// The codes a parse may return.
private let parseCodes: Set<OSStatus> = [noErr, kAudioFileStreamError_UnsupportedFileType, kAudioFileStreamError_UnsupportedDataFormat,
                                         kAudioFileStreamError_InvalidFile, kAudioFileStreamError_NotOptimized,
                                         kAudioFileStreamError_DiscontinuityCantRecover]

/// The codes a property may answer.
private let propertyCodes: Set<OSStatus> = [noErr, kAudioFileStreamError_DataUnavailable, kAudioFileStreamError_ValueUnknown,
                                            kAudioFileStreamError_UnsupportedProperty, kAudioFileStreamError_BadPropertySize,
                                            kAudioFileStreamError_InvalidPacketOffset, kAudio_ParamError]

private let streamProperties: [AudioFileStreamPropertyID] = [
    kAudioFileStreamProperty_ReadyToProducePackets, kAudioFileStreamProperty_FileFormat, kAudioFileStreamProperty_DataFormat,
    kAudioFileStreamProperty_FormatList, kAudioFileStreamProperty_MagicCookieData, kAudioFileStreamProperty_AudioDataByteCount,
    kAudioFileStreamProperty_AudioDataPacketCount, kAudioFileStreamProperty_MaximumPacketSize, kAudioFileStreamProperty_DataOffset,
    kAudioFileStreamProperty_ChannelLayout, kAudioFileStreamProperty_PacketToFrame, kAudioFileStreamProperty_FrameToPacket,
    kAudioFileStreamProperty_PacketToByte, kAudioFileStreamProperty_ByteToPacket, kAudioFileStreamProperty_PacketTableInfo,
    kAudioFileStreamProperty_PacketSizeUpperBound, kAudioFileStreamProperty_AverageBytesPerPacket, kAudioFileStreamProperty_BitRate,
    kAudioFileStreamProperty_InfoDictionary,
]

private let listener: AudioFileStream_PropertyListenerProc = { clientData, streamID, propertyID, ioFlags in
    let check = Unmanaged<StreamCheck>.fromOpaque(clientData).takeUnretainedValue()
    Fuzzing.require(ioFlags.pointee.contains(.propertyIsCached), "a property that is not kept")
    var size: UInt32 = 0
    let info = AudioFileStreamGetPropertyInfo(streamID, propertyID, &size, nil)
    Fuzzing.require(info == noErr && size > 0 && size < 1 << 28, "announced property \(propertyID) has no size: \(info)")
    var value = [UInt8](repeating: 0, count: Int(size))
    Fuzzing.require(AudioFileStreamGetProperty(streamID, propertyID, &size, &value) == noErr, "announced property \(propertyID) has no value")
    if propertyID == kAudioFileStreamProperty_ReadyToProducePackets {
        Fuzzing.require(!check.ready && value == [1, 0, 0, 0], "ReadyToProducePackets twice, or not 1")
        check.ready = true
        var byte: UInt8 = 0
        Fuzzing.require(AudioFileStreamParseBytes(streamID, 1, &byte, []) == kAudioFileStreamError_IllegalOperation,
                        "a parse from inside the listener was not refused")
    }
}

private let packetsProc: AudioFileStream_PacketsProc = { clientData, numberBytes, numberPackets, inputData, descriptions in
    let check = Unmanaged<StreamCheck>.fromOpaque(clientData).takeUnretainedValue()
    Fuzzing.require(check.ready && numberPackets > 0 && numberBytes > 0, "packets before ReadyToProducePackets, or none")
    if let descriptions {
        for index in 0..<Int(numberPackets) {
            let description = descriptions[index]
            Fuzzing.require(description.mStartOffset >= 0 && description.mStartOffset + Int64(description.mDataByteSize) <= Int64(numberBytes),
                            "a packet outside the bytes given")
        }
    }
    // Touch every byte given (AddressSanitizer checks they are there).
    let bytes = UnsafeRawBufferPointer(start: inputData, count: Int(numberBytes))
    var sum: UInt8 = 0
    for byte in bytes { sum &+= byte }
    _ = sum
    check.packets += Int(numberPackets)
    if let stream = check.stream, check.packets % 7 == 1 {
        var offset: Int64 = 0
        var flags: AudioFileStreamSeekFlags = []
        Fuzzing.require(AudioFileStreamSeek(stream, 0, &offset, &flags) == kAudioFileStreamError_IllegalOperation,
                        "a seek from inside the packets callback was not refused")
    }
}

/// Streams `bytes` through a parser: pieces, hint, seek and discontinuity drawn from `mode` and `seed`.
private func stream(_ bytes: [UInt8], mode: UInt8, seed: UInt64) {
    let hints: [AudioFileTypeID] = [0, 0, kAudioFileMP3Type, kAudioFileAAC_ADTSType, kAudioFileCAFType, kAudioFileWAVEType, 0, kAudioFileMP2Type]
    let check = StreamCheck()
    var streamID: AudioFileStreamID?
    let status = AudioFileStreamOpen(Unmanaged.passUnretained(check).toOpaque(), listener, packetsProc, hints[Int(mode >> 5)], &streamID)
    Fuzzing.require(status == noErr && streamID != nil, "the stream did not open")
    guard let stream = streamID else { return }
    check.stream = stream
    var state = seed | 1
    func random(_ bound: Int) -> Int {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Int(state % UInt64(max(bound, 1)))
    }
    let largest = [1, 4, 64, 1_000, 70_000][Int(mode >> 2) % 5]
    let seekAt = random(max(bytes.count, 1))
    var at = 0
    var seeked = false
    while at < bytes.count {
        let piece = min(bytes.count - at, 1 + random(largest))
        var flags: AudioFileStreamParseFlags = []
        if !seeked && at >= seekAt && mode & 2 != 0 {
            seeked = true
            var offset: Int64 = 0
            var seekFlags: AudioFileStreamSeekFlags = []
            let packet = Int64(random(64)) - 1
            let result = AudioFileStreamSeek(stream, packet, &offset, &seekFlags)
            Fuzzing.require([noErr, kAudioFileStreamError_DataUnavailable, kAudioFileStreamError_InvalidPacketOffset].contains(result),
                            "a seek returned \(result)")
            flags = .discontinuity
        }
        let result = bytes.withUnsafeBytes { AudioFileStreamParseBytes(stream, UInt32(piece), $0.baseAddress! + at, flags) }
        Fuzzing.require(parseCodes.contains(result), "a parse returned \(result)")
        at += piece
    }
    let flush = AudioFileStreamParseBytes(stream, 0, nil, [])
    Fuzzing.require(parseCodes.contains(flush), "the flush returned \(flush)")
    // Every property, with room and with too little.
    for id in streamProperties {
        var size: UInt32 = 0
        let info = AudioFileStreamGetPropertyInfo(stream, id, &size, nil)
        Fuzzing.require(propertyCodes.contains(info), "property info returned \(info)")
        guard info == noErr, size < 1 << 28 else { continue }
        var value = [UInt8](repeating: 0, count: Int(size) + 8)
        var room = UInt32(random(Int(size) + 8))
        let answer = AudioFileStreamGetProperty(stream, id, &room, &value)
        Fuzzing.require(propertyCodes.contains(answer) && room <= UInt32(value.count), "a property returned \(answer)")
        if id == kAudioFileStreamProperty_InfoDictionary && answer == noErr {   // a new dictionary: the caller's to release
            let pointer = value.withUnsafeBytes { $0.loadUnaligned(as: UnsafeRawPointer.self) }
            _ = Unmanaged<CFDictionary>.fromOpaque(pointer).takeRetainedValue()
        }
    }
    Fuzzing.require(AudioFileStreamClose(stream) == noErr, "the stream's close failed")
    Fuzzing.require(AudioFileStreamClose(stream) == kAudioFileNotOpenError, "a second close did not say the stream is not open")
}
