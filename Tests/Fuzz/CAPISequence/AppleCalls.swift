import AudioToolbox
import FuzzSupport
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

// The second half of the C API program: Core Audio's C interfaces by Apple's names (AudioToolbox/
// and CoreFoundation/ headers, issue 46), called through their C declarations as a C caller does.
// Opcodes 0x80–0xFF of FuzzTarget.swift's program land here (0x00–0x7F are the ss_ calls, as
// before). The handles — AudioFileID, AudioFileStreamID, AudioConverterRef, ExtAudioFileRef — are
// picked live, closed (stale), of another kind (any of the four, or an ss_ handle), forged (another
// kind's index and generation with this kind's tag), garbage or NULL; formats are presets or
// hostile (NaN, infinite, zero and huge rates, odd bit depths, any flags, zero or huge packet
// sizes and channel counts); sizes and counts are anything, over buffers that are what they say
// they are (a C caller's lies about its own memory are its own bugs, not the library's). Files are
// written to a private temporary folder (and /dev/null and /dev/full) and read back; the corpus's
// sound files are read.

// MARK: Codes

/// What the fuzzer's file callbacks return when told to fail (ioErr): "returned as it is".
let callbackFailure: OSStatus = -36
/// What the fuzzer's converter input procedure returns when told to fail: 'fzz!'.
let procFailure = OSStatus(bitPattern: 0x667A_7A21)

/// Every code the Core Audio headers name (and the callbacks' own): any other result is a finding.
let appleCodes: Set<OSStatus> = [
    noErr, -48, callbackFailure, procFailure,
    kAudio_UnimplementedError, kAudio_FileNotFoundError, kAudio_FilePermissionError, kAudio_TooManyFilesOpenError,
    kAudio_BadFilePathError, kAudio_ParamError, kAudio_MemFullError,
    kAudioFileUnspecifiedError, kAudioFileUnsupportedFileTypeError, kAudioFileUnsupportedDataFormatError,
    kAudioFileUnsupportedPropertyError, kAudioFileBadPropertySizeError, kAudioFilePermissionsError, kAudioFileNotOptimizedError,
    kAudioFileInvalidChunkError, kAudioFileDoesNotAllow64BitDataSizeError, kAudioFileInvalidPacketOffsetError,
    kAudioFileInvalidPacketDependencyError, kAudioFileInvalidFileError, kAudioFileOperationNotSupportedError,
    kAudioFileNotOpenError, kAudioFileEndOfFileError, kAudioFilePositionError, kAudioFileFileNotFoundError,
    kAudioFileStreamError_UnsupportedFileType, kAudioFileStreamError_UnsupportedDataFormat, kAudioFileStreamError_UnsupportedProperty,
    kAudioFileStreamError_BadPropertySize, kAudioFileStreamError_NotOptimized, kAudioFileStreamError_InvalidPacketOffset,
    kAudioFileStreamError_InvalidFile, kAudioFileStreamError_ValueUnknown, kAudioFileStreamError_DataUnavailable,
    kAudioFileStreamError_IllegalOperation, kAudioFileStreamError_UnspecifiedError, kAudioFileStreamError_DiscontinuityCantRecover,
    kAudioConverterErr_FormatNotSupported, kAudioConverterErr_OperationNotSupported, kAudioConverterErr_PropertyNotSupported,
    kAudioConverterErr_InvalidInputSize, kAudioConverterErr_InvalidOutputSize, kAudioConverterErr_UnspecifiedError,
    kAudioConverterErr_BadPropertySizeError, kAudioConverterErr_RequiresPacketDescriptionsError,
    kAudioConverterErr_InputSampleRateOutOfRange, kAudioConverterErr_OutputSampleRateOutOfRange,
    kExtAudioFileError_InvalidProperty, kExtAudioFileError_InvalidPropertySize, kExtAudioFileError_NonPCMClientFormat,
    kExtAudioFileError_InvalidChannelMap, kExtAudioFileError_InvalidOperationOrder, kExtAudioFileError_InvalidDataFormat,
    kExtAudioFileError_MaxPacketSizeUnknown, kExtAudioFileError_InvalidSeek, kExtAudioFileError_AsyncWriteTooLarge,
    kExtAudioFileError_AsyncWriteBufferOverflow,
    kAudioFormatUnspecifiedError, kAudioFormatUnsupportedPropertyError, kAudioFormatBadPropertySizeError,
    kAudioFormatBadSpecifierSizeError, kAudioFormatUnsupportedDataFormatError, kAudioFormatUnknownFormatError,
]

/// The code for a stale or bad handle of each kind.
func staleCode(_ kind: AppleKind) -> OSStatus {
    switch kind {
    case .audioFile, .stream: kAudioFileNotOpenError
    case .converter, .extFile, .queue: kAudio_ParamError
    }
}

/// CFRelease of an object the program owns by its C pointer (a Create or Copy function's, or a
/// property's new object), as C releases it. NULL is ignored, as Soundstage documents.
func releaseCF(_ pointer: UnsafeRawPointer?) {
    CFRelease(pointer.map { Unmanaged<AnyObject>.fromOpaque($0).takeUnretainedValue() })
}

// MARK: Handles

/// Apple's handle kinds, as the library's handle tags spell them (bits 48–55).
enum AppleKind: UInt8, CaseIterable {
    case audioFile = 1, converter, stream, extFile
    case queue = 6
}

/// An Apple handle the program holds.
struct AppleHeld {
    var bits: UInt
    var kind: AppleKind
    /// An ext file's converter or audio file, as its property gave it: the ext file's to free, not the program's.
    var owner: UInt = 0
    /// Audio files and ext files: made to be written.
    var writing = false
    /// Ext files: the AudioFileID it closes when disposed (0: it wraps one the program closes).
    var closesFile: UInt = 0
    /// Ext files: the AudioFileID it wraps (the program's to close).
    var wraps: UInt = 0
    /// Files made on disk: where (for the reopen rules).
    var path: String?
    /// A preset format and nothing hostile done to it: reopened, the file must agree with what it said.
    var sane = false
    /// Ext files being written: the frames every write took (for the reopen rule).
    var framesWritten: Int64 = 0
    /// Ext files: an IOBuffer of the program's is set, this long (sizes set must fit it).
    var externalBuffer = 0
    /// Streams: its callbacks' state.
    var client: StreamClient?
}

/// The CF objects, callback clients and memory the Apple calls keep until the program ends.
final class AppleState {
    var live: [AppleHeld] = []
    var dead: [(bits: UInt, kind: AppleKind)] = []
    /// File URLs the program owns (CFRelease at the end), and whether one may be created.
    var urls: [(url: UnsafeRawPointer, path: String, writable: Bool)] = []
    /// Strings the program owns (CFRelease at the end).
    var strings: [UnsafeRawPointer] = []
    /// Callback clients: alive until every handle is closed.
    var clients: [AnyObject] = []
    /// IOBuffers given to ext files: freed after every ext file is disposed.
    var ioBuffers: [UnsafeMutableRawPointer] = []
    /// Memory files made by AudioFileInitializeWithCallbacks (their bytes feed streams and opens).
    var memoryFiles: [MemoryFile] = []
    /// The live queues' buffers and callbacks (QueueCalls.swift), and the addresses of buffers freed.
    var queues: [UInt: QueueInfo] = [:]
    var freedBuffers: [UInt] = []
}

/// A file kept in memory by AudioFile_WriteProc and friends. Its callbacks run under the library's
/// lock of the one AudioFileID using it; the bytes are behind a Mutex all the same, since the
/// program also reads them to feed streams and opens.
final class MemoryFile: Sendable {
    let bytes = Mutex<[UInt8]>([])
    /// After this many write calls, writes fail (callbackFailure); `Int.max`: never.
    let failAfter: Int
    let writes = Atomic<Int>(0)
    /// The most a memory file holds.
    static let capacity = 1 << 22

    init(failAfter: Int, bytes: [UInt8] = []) {
        self.failAfter = failAfter
        self.bytes.withLock { $0 = bytes }
    }

    var snapshot: [UInt8] { bytes.withLock { $0 } }
}

private let memoryRead: AudioFile_ReadProc = { client, position, count, buffer, actual in
    let file = Unmanaged<MemoryFile>.fromOpaque(client).takeUnretainedValue()
    guard position >= 0 else { return kAudio_ParamError }
    return file.bytes.withLock { bytes in
        let start = Int(min(position, Int64(bytes.count)))
        let end = min(start + Int(count), bytes.count)
        bytes.withUnsafeBytes { if end > start { buffer.copyMemory(from: $0.baseAddress! + start, byteCount: end - start) } }
        actual.pointee = UInt32(end - start)
        return noErr
    }
}

private let memoryWrite: AudioFile_WriteProc = { client, position, count, buffer, actual in
    let file = Unmanaged<MemoryFile>.fromOpaque(client).takeUnretainedValue()
    if file.writes.add(1, ordering: .relaxed).newValue > file.failAfter { return callbackFailure }
    guard position >= 0, position + Int64(count) <= Int64(MemoryFile.capacity) else { return callbackFailure }
    file.bytes.withLock { bytes in
        let end = Int(position) + Int(count)
        if bytes.count < end { bytes += repeatElement(0, count: end - bytes.count) }
        bytes.withUnsafeMutableBytes { $0.baseAddress!.advanced(by: Int(position)).copyMemory(from: buffer, byteCount: Int(count)) }
    }
    actual.pointee = count
    return noErr
}

private let memorySize: AudioFile_GetSizeProc = { client in
    Int64(Unmanaged<MemoryFile>.fromOpaque(client).takeUnretainedValue().bytes.withLock { $0.count })
}

private let memorySetSize: AudioFile_SetSizeProc = { client, size in
    let file = Unmanaged<MemoryFile>.fromOpaque(client).takeUnretainedValue()
    guard size >= 0, size <= Int64(MemoryFile.capacity) else { return callbackFailure }
    file.bytes.withLock { bytes in
        if bytes.count > Int(size) { bytes.removeLast(bytes.count - Int(size)) } else { bytes += repeatElement(0, count: Int(size) - bytes.count) }
    }
    return noErr
}

/// The private folder files are written in (made once a process, emptied after every input,
/// removed at exit).
let temporaryFolder: String = {
    var template = Array("/tmp/soundstage-fuzz-capi-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { return "/tmp" }
    atexit { _ = rmdir(temporaryFolder) }
    return String(cString: made)
}()

/// Sound files the program reads (never writes): the repository's assets, relative to its root
/// (where the fuzzers run), and the sound files of the audio-file target's corpus (read through a
/// copy of what follows their first 5 bytes, which steer that target).
let assetFiles = ["assets/sounds/bee.wav", "assets/sounds/chime.aiff", "assets/sounds/click.wav", "assets/sounds/footstep.caf"]
let corpusFiles = ["s16.wav", "f32.wav", "ulaw.wav", "a.aiff", "a.caf", "ima4.caf", "a.m4a", "alac.m4a", "a.mp3", "a.aac",
                   "tagged.caf", "tagged.wav", "tagged.m4a", "tagged.mp3", "tagged.aac", "tagged.aiff"]

/// A file's bytes (at most 1 MB); empty when it cannot be read.
func readFile(_ path: String) -> [UInt8] {
    guard let file = fopen(path, "rb") else { return [] }
    defer { fclose(file) }
    var bytes = [UInt8](repeating: 0, count: 1 << 20)
    let count = fread(&bytes, 1, bytes.count, file)
    return Array(bytes.prefix(count))
}

// MARK: Formats

enum Formats {
    static func pcm(_ rate: Double, _ channels: UInt32, bits: UInt32, float: Bool = false, bigEndian: Bool = false,
                    nonInterleaved: Bool = false, signed: Bool = true, container: UInt32? = nil) -> AudioStreamBasicDescription {
        var flags: AudioFormatFlags = float ? kAudioFormatFlagIsFloat : (signed ? kAudioFormatFlagIsSignedInteger : 0)
        flags |= kAudioFormatFlagIsPacked
        if bigEndian { flags |= kAudioFormatFlagIsBigEndian }
        if nonInterleaved { flags |= kAudioFormatFlagIsNonInterleaved }
        let sample = container ?? (bits + 7) / 8
        let frame = nonInterleaved ? sample : sample * channels
        return AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: flags, mBytesPerPacket: frame,
                                           mFramesPerPacket: 1, mBytesPerFrame: frame, mChannelsPerFrame: channels, mBitsPerChannel: bits,
                                           mReserved: 0)
    }

    static func coded(_ id: AudioFormatID, _ rate: Double, _ channels: UInt32, framesPerPacket: UInt32 = 0, bytesPerPacket: UInt32 = 0,
                      flags: UInt32 = 0) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(mSampleRate: rate, mFormatID: id, mFormatFlags: flags, mBytesPerPacket: bytesPerPacket,
                                    mFramesPerPacket: framesPerPacket, mBytesPerFrame: 0, mChannelsPerFrame: channels, mBitsPerChannel: 0,
                                    mReserved: 0)
    }

    /// Formats a program means (index 0–15).
    static let presets: [AudioStreamBasicDescription] = [
        pcm(44_100, 2, bits: 32, float: true),
        pcm(8_000, 1, bits: 16),
        pcm(48_000, 2, bits: 16),
        pcm(96_000, 2, bits: 24),
        pcm(22_050, 1, bits: 32, bigEndian: true),
        pcm(44_100, 2, bits: 64, float: true, nonInterleaved: true),
        pcm(11_025, 1, bits: 8, signed: false),
        AudioStreamBasicDescription(mSampleRate: 8_000, mFormatID: kAudioFormatULaw, mFormatFlags: 0, mBytesPerPacket: 1, mFramesPerPacket: 1,
                                    mBytesPerFrame: 1, mChannelsPerFrame: 1, mBitsPerChannel: 8, mReserved: 0),
        AudioStreamBasicDescription(mSampleRate: 8_000, mFormatID: kAudioFormatALaw, mFormatFlags: 0, mBytesPerPacket: 2, mFramesPerPacket: 1,
                                    mBytesPerFrame: 2, mChannelsPerFrame: 2, mBitsPerChannel: 8, mReserved: 0),
        coded(kAudioFormatAppleIMA4, 44_100, 2, framesPerPacket: 64, bytesPerPacket: 68),
        coded(kAudioFormatMPEG4AAC, 44_100, 2, framesPerPacket: 1024),
        coded(kAudioFormatAppleLossless, 44_100, 2, framesPerPacket: 4096, flags: kAppleLosslessFormatFlag_16BitSourceData),
        coded(kAudioFormatMPEGLayer3, 44_100, 2, framesPerPacket: 1152),
        {
            // 8.24 fixed point, one buffer a channel (iOS's old canonical audio unit format).
            var asbd = pcm(44_100, 2, bits: 32, nonInterleaved: true)
            asbd.mFormatFlags |= 24 << kLinearPCMFormatFlagsSampleFractionShift
            return asbd
        }(),
        pcm(48_000, 1, bits: 32, float: true),
        pcm(48_000, 6, bits: 16),
    ]

    /// Whether a converter's output of `asbd` (as source) can only be finite: integers, G.711, IMA4.
    static func givesFinite(_ asbd: AudioStreamBasicDescription) -> Bool {
        switch asbd.mFormatID {
        case kAudioFormatLinearPCM: asbd.mFormatFlags & kAudioFormatFlagIsFloat == 0
        case kAudioFormatULaw, kAudioFormatALaw, kAudioFormatAppleIMA4: true
        default: false
        }
    }

    static let formatIDs: [AudioFormatID] = [
        kAudioFormatLinearPCM, kAudioFormatULaw, kAudioFormatALaw, kAudioFormatAppleIMA4, kAudioFormatMPEG4AAC, kAudioFormatMPEG4AAC_HE,
        kAudioFormatMPEG4AAC_HE_V2, kAudioFormatAppleLossless, kAudioFormatMPEGLayer1, kAudioFormatMPEGLayer2, kAudioFormatMPEGLayer3,
        kAudioFormatiLBC, kAudioFormatMicrosoftGSM, kAudioFormatAC3, kAudioFormatFLAC, kAudioFormatOpus, 0,
    ]

    static let fileTypes: [AudioFileTypeID] = [
        kAudioFileCAFType, kAudioFileWAVEType, kAudioFileAIFFType, kAudioFileAIFCType, kAudioFileM4AType, kAudioFileMPEG4Type,
        kAudioFileAAC_ADTSType, kAudioFileCAFType, kAudioFileMP3Type, kAudioFileFLACType, kAudioFileM4BType, kAudioFileWAVEType, 0,
    ]
}

/// A description for a format a program means or a hostile one, and whether it is a preset.
extension Program {
    func asbd() -> (AudioStreamBasicDescription, sane: Bool) {
        let selector = input.byte()
        var d = Formats.presets[Int(selector % 16)]
        switch selector >> 4 {
        case 0..<10:
            return (d, true)
        case 15:
            withUnsafeMutableBytes(of: &d) { raw in for i in 0..<raw.count { raw[i] = input.byte() } }
            return (d, false)
        default:
            for _ in 0..<(1 + Int(input.byte() % 3)) {
                switch input.byte() % 9 {
                case 0: d.mSampleRate = input.choice([.nan, .infinity, -.infinity, 0, -44_100, 1, 768_000, 768_001, 1e300,
                                                      .leastNonzeroMagnitude, 44_100.5, 7_350, 4e9, -0.0])
                case 1: d.mFormatID = input.byte() % 8 == 0 ? input.u32() : input.choice(Formats.formatIDs)
                case 2: d.mFormatFlags = input.byte() % 2 == 0 ? input.u32() : d.mFormatFlags ^ (1 << UInt32(input.byte() % 32))
                case 3: d.mBytesPerPacket = input.choice([0, 1, 2, 3, 4, 6, 8, 34, 68, 4096, 0x8000_0000, .max, input.u32()])
                case 4: d.mFramesPerPacket = input.choice([0, 1, 2, 64, 1024, 4096, 0x10_0000, .max, input.u32()])
                case 5: d.mBytesPerFrame = input.choice([0, 1, 2, 3, 4, 5, 8, 12, 64, .max, input.u32()])
                case 6: d.mChannelsPerFrame = input.choice([0, 1, 2, 3, 7, 8, 9, 64, 1024, 1025, 0xFFFF, 0x1_0000, .max])
                case 7: d.mBitsPerChannel = input.choice([0, 1, 7, 8, 12, 16, 20, 24, 31, 32, 33, 48, 64, 128, .max])
                default: d.mReserved = input.u32()
                }
            }
            return (d, false)
        }
    }
}

// MARK: Buffers

/// A buffer list and its buffers, malloc'd to the byte (AddressSanitizer sees every overrun), each
/// buffer's mDataByteSize its true size.
final class Buffers {
    let list: UnsafeMutableAudioBufferListPointer
    let rooms: [Int]
    private let data: [UnsafeMutableRawPointer?]

    /// `count` buffers (0 gives a list of none) of `room` bytes each, filled by `fill`.
    init(count: Int, room: Int, channels: UInt32, fill: (UnsafeMutableRawBufferPointer) -> Void) {
        list = AudioBufferList.allocate(maximumBuffers: max(1, count))
        list.count = count
        var data: [UnsafeMutableRawPointer?] = []
        for index in 0..<count {
            let memory = room > 0 ? malloc(room) : nil
            if let memory { fill(UnsafeMutableRawBufferPointer(start: memory, count: room)) }
            list[index] = AudioBuffer(mNumberChannels: channels, mDataByteSize: UInt32(room), mData: memory)
            data.append(memory)
        }
        self.data = data
        rooms = Array(repeating: room, count: count)
    }

    deinit {
        for memory in data { free(memory) }
        free(list.unsafeMutablePointer)
    }

    var pointer: UnsafeMutablePointer<AudioBufferList> { list.unsafeMutablePointer }
}

extension Program {
    /// Fills `buffer` with what the next bytes say: bytes of the input repeated, a sine in 16-bit
    /// or float samples, silence, or extremes.
    func fillAudio(_ buffer: UnsafeMutableRawBufferPointer) {
        guard buffer.count > 0 else { return }
        switch input.byte() % 5 {
        case 0:
            let pattern = input.bytes(1 + Int(input.byte() % 32))
            for i in 0..<buffer.count { buffer[i] = pattern.isEmpty ? 0 : pattern[i % pattern.count] }
        case 1:
            let samples = buffer.count / 2
            for i in 0..<samples { buffer.storeBytes(of: Int16(sin(Double(i) * 0.05) * 12_000), toByteOffset: i * 2, as: Int16.self) }
        case 2:
            let samples = buffer.count / 4
            for i in 0..<samples { buffer.storeBytes(of: Float(sin(Double(i) * 0.05) * 0.5), toByteOffset: i * 4, as: Float.self) }
        case 3:
            for i in 0..<buffer.count { buffer[i] = 0 }
        default:
            let byte = input.choice([UInt8(0x7F), 0x80, 0xFF, 0x00])
            for i in 0..<buffer.count { buffer[i] = i % 4 == 3 ? byte : (byte == 0x7F ? 0xFF : byte) }
        }
    }

    /// A buffer list for frames of `asbd` (one buffer, or one a channel), room for about `frames`
    /// frames — or a list of the wrong shape, when the next byte says so. At most 64 KB in all.
    func bufferList(for asbd: AudioStreamBasicDescription, frames: Int, filled: Bool) -> Buffers {
        let channels = Int(asbd.mChannelsPerFrame)
        let nonInterleaved = asbd.mFormatID == kAudioFormatLinearPCM && asbd.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0 && channels > 1
        var count = nonInterleaved ? channels : 1
        var bytesPerFrame = Int(asbd.mBytesPerFrame != 0 ? asbd.mBytesPerFrame : max(asbd.mBytesPerPacket, 1))
        switch input.byte() % 10 {
        case 0: count += 1
        case 1: count -= 1
        case 2: bytesPerFrame = max(1, bytesPerFrame / 2)
        case 3: bytesPerFrame += 1
        default: break
        }
        count = max(0, min(count, 16))
        bytesPerFrame = max(1, min(bytesPerFrame, 65_536))
        let perBuffer = 65_536 / max(count, 1)
        var room = max(0, min(max(frames, 0) * bytesPerFrame, perBuffer))
        if input.byte() % 8 == 0 { room = Int(input.u16()) % (perBuffer + 1) }
        let buffers = Buffers(count: count, room: room, channels: UInt32(nonInterleaved ? 1 : min(channels, 1 << 16))) { buffer in
            if filled { fillAudio(buffer) } else { for i in 0..<buffer.count { buffer[i] = 0xA5 } }
        }
        return buffers
    }
}

// MARK: Stream callbacks

/// A stream's callbacks' state. They run during AudioFileStreamParseBytes, which only the program's
/// own thread calls (the second thread never parses), so only that thread touches it.
final class StreamClient: @unchecked Sendable {
    var stream: AudioFileStreamID?
    var ready = false
    var packets = 0
    /// What a callback does besides checking: 1 closes the stream from the listener, 2 from the packets callback.
    var action: UInt8 = 0
    var closedInside = false
}

private let streamListener: AudioFileStream_PropertyListenerProc = { clientData, streamID, propertyID, ioFlags in
    let client = Unmanaged<StreamClient>.fromOpaque(clientData).takeUnretainedValue()
    Fuzzing.require(!client.closedInside, "a callback after the stream was closed from its own callback")
    Fuzzing.require(ioFlags.pointee.contains(.propertyIsCached), "a stream property that is not kept")
    var size: UInt32 = 0
    let info = AudioFileStreamGetPropertyInfo(streamID, propertyID, &size, nil)
    Fuzzing.require(info == noErr && size > 0 && size < 1 << 28, "announced stream property \(propertyID) has no size: \(info)")
    if size <= 1 << 20 {
        var value = [UInt8](repeating: 0, count: Int(size) + 8)
        var room = size
        let status = AudioFileStreamGetProperty(streamID, propertyID, &room, &value)
        Fuzzing.require(status == noErr && room <= size, "announced stream property \(propertyID) has no value: \(status)")
        if propertyID == kAudioFileStreamProperty_InfoDictionary {
            releaseCF(value.withUnsafeBytes { $0.loadUnaligned(as: UnsafeRawPointer?.self) })
        }
    }
    if propertyID == kAudioFileStreamProperty_ReadyToProducePackets {
        Fuzzing.require(!client.ready, "ReadyToProducePackets announced twice")
        client.ready = true
        var byte: UInt8 = 0
        Fuzzing.require(AudioFileStreamParseBytes(streamID, 1, &byte, []) == kAudioFileStreamError_IllegalOperation,
                        "a parse from inside the listener was not refused")
    }
    if client.action == 1 && !client.closedInside {
        Fuzzing.require(AudioFileStreamClose(streamID) == noErr, "a stream's close from its listener failed")
        client.closedInside = true
    }
}

private let streamPackets: AudioFileStream_PacketsProc = { clientData, numberBytes, numberPackets, inputData, descriptions in
    let client = Unmanaged<StreamClient>.fromOpaque(clientData).takeUnretainedValue()
    Fuzzing.require(!client.closedInside, "a callback after the stream was closed from its own callback")
    Fuzzing.require(client.ready && numberPackets > 0 && numberBytes > 0, "packets before ReadyToProducePackets, or none")
    if let descriptions {
        for index in 0..<Int(numberPackets) {
            let d = descriptions[index]
            Fuzzing.require(d.mStartOffset >= 0 && d.mStartOffset + Int64(d.mDataByteSize) <= Int64(numberBytes), "a packet outside the bytes given")
        }
    }
    let bytes = UnsafeRawBufferPointer(start: inputData, count: Int(numberBytes))
    var sum: UInt8 = 0
    for byte in bytes { sum &+= byte }   // every byte given is there (AddressSanitizer)
    _ = sum
    client.packets += Int(numberPackets)
    if client.action == 2, let stream = client.stream {
        Fuzzing.require(AudioFileStreamClose(stream) == noErr, "a stream's close from its packets callback failed")
        client.closedInside = true
    }
}

// MARK: The converter's input procedure

/// What one AudioConverterFillComplexBuffer call's input procedure gives: its own slice of the
/// input, and the memory it gave last (valid until the next call, as Apple requires).
final class ConverterFeed {
    var input: FuzzInput
    let source: AudioStreamBasicDescription
    var calls = 0
    var given: [UnsafeMutableRawPointer] = []
    var descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?
    var disposedInside = false
    /// Reentrant calls made, and whether each was refused as it must be.
    var reentered = 0

    init(_ input: FuzzInput, source: AudioStreamBasicDescription) {
        self.input = input
        self.source = source
    }

    func release() {
        for memory in given { free(memory) }
        given = []
        descriptions?.deallocate()
        descriptions = nil
    }

    deinit { release() }
}

private let converterInput: AudioConverterComplexInputDataProc = { converter, ioPackets, ioData, outDescriptions, userData in
    let feed = Unmanaged<ConverterFeed>.fromOpaque(userData!).takeUnretainedValue()
    feed.release()
    feed.calls += 1
    let asked = ioPackets.pointee
    if feed.calls > 48 || feed.input.isAtEnd {
        ioPackets.pointee = 0
        return noErr
    }
    let action = feed.input.byte()
    switch action % 16 {
    case 0:
        ioPackets.pointee = 0
        return procFailure
    case 1:
        // Back into the converter from its own procedure: refused.
        var size: UInt32 = 4
        var value: UInt32 = 0
        let results = [AudioConverterReset(converter), AudioConverterGetProperty(converter, kAudioConverterPrimeMethod, &size, &value)]
        for result in results {
            Fuzzing.require(result == kAudioConverterErr_OperationNotSupported || result == kAudio_ParamError,
                            "a call from a converter's input procedure into it gave \(result)")
        }
        feed.reentered += 1
    case 2 where feed.input.byte() % 4 == 0:
        Fuzzing.require(AudioConverterDispose(converter) == noErr, "a converter's dispose from its input procedure failed")
        feed.disposedInside = true
        ioPackets.pointee = 0
        return noErr
    default:
        break
    }
    // How many packets to give: what is asked, fewer, more, or a lie.
    var packets: UInt32
    switch feed.input.byte() % 8 {
    case 0: packets = 0
    case 1: packets = asked &* 2
    case 2: packets = feed.input.u32()
    case 3: packets = UInt32(feed.input.byte())
    default: packets = min(asked, 4096)
    }
    let source = feed.source
    let pcm = source.mFormatID == kAudioFormatLinearPCM
    let bytesPerPacket = Int(pcm ? max(source.mBytesPerFrame, 1) : (source.mBytesPerPacket > 0 ? source.mBytesPerPacket : 0))
    let wantedBytes = bytesPerPacket > 0 ? Int(min(packets, 16_384)) * min(bytesPerPacket, 1 << 16) : Int(min(packets, 64)) * 64
    let room = min(wantedBytes, 32_768) + (feed.input.byte() % 4 == 0 ? 3 : 0)
    let pattern = feed.input.bytes(1 + Int(feed.input.byte() % 16))
    let buffers = UnsafeMutableAudioBufferListPointer(ioData)
    let count = buffers.count
    for index in 0..<count {
        let memory = malloc(max(room, 1))!
        let raw = UnsafeMutableRawBufferPointer(start: memory, count: room)
        for i in 0..<room { raw[i] = pattern.isEmpty ? 0 : pattern[i % pattern.count] }
        feed.given.append(memory)
        buffers[index] = AudioBuffer(mNumberChannels: buffers[index].mNumberChannels == 0 ? source.mChannelsPerFrame : buffers[index].mNumberChannels,
                                     mDataByteSize: UInt32(room), mData: room > 0 || feed.input.byte() % 2 == 0 ? memory : nil)
    }
    if feed.input.byte() % 16 == 0 { ioData.pointee.mNumberBuffers = min(UInt32(count), UInt32(feed.input.byte() % 3)) }   // fewer buffers than asked
    if let outDescriptions {
        // Variable packets: the procedure's own descriptions (one a packet given), the converter's
        // array filled (as many as it has), or none.
        switch feed.input.byte() % 4 {
        case 0:
            outDescriptions.pointee = nil
        case 1 where packets <= 4096:
            let own = UnsafeMutablePointer<AudioStreamPacketDescription>.allocate(capacity: max(Int(packets), 1))
            var offset: Int64 = 0
            for i in 0..<Int(packets) {
                let size = UInt32(feed.input.byte() % 2 == 0 ? room / max(Int(packets), 1) : Int(feed.input.u16()))
                own[i] = AudioStreamPacketDescription(mStartOffset: feed.input.byte() % 8 == 0 ? Int64(feed.input.u32()) : offset,
                                                      mVariableFramesInPacket: 0, mDataByteSize: size)
                offset += Int64(size)
            }
            feed.descriptions = own
            outDescriptions.pointee = own
        default:
            // The converter's own array: as many as asked, filled evenly.
            if let theirs = outDescriptions.pointee {
                let each = room / max(Int(min(packets, asked)), 1)
                for i in 0..<Int(min(packets, asked)) {
                    theirs[i] = AudioStreamPacketDescription(mStartOffset: Int64(i * each), mVariableFramesInPacket: 0, mDataByteSize: UInt32(each))
                }
            }
        }
    }
    ioPackets.pointee = packets
    return noErr
}

// MARK: The calls

extension Program {
    func appleTrace(_ text: @autoclosure () -> String) {
        if Program.tracing { Fuzzing.printError("  " + text()) }
    }

    /// Checks an Apple call's result: one of the headers' codes, never noErr for a bad handle.
    func appleCheck(_ status: OSStatus, _ what: String, _ picks: [Pick] = []) {
        appleTrace("\(what) \(picks) -> \(status) '\(fourCC(status))'")
        Fuzzing.require(appleCodes.contains(status) || queueCodes.contains(status),
                        "\(what) returned \(status) '\(fourCC(status))', not a code of the headers")
        let bad = picks.first { $0 == .dead || $0 == .wrongKind || $0 == .forged || $0 == .garbage || $0 == .null }
        Fuzzing.require(bad == nil || status != noErr, "\(what) succeeded with a \(bad.map { "\($0)" } ?? "") handle")
        applyCallbacks()
    }

    func fourCC(_ status: OSStatus) -> String {
        let bytes = withUnsafeBytes(of: UInt32(bitPattern: status).bigEndian) { Array($0) }
        return bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) ? String(decoding: bytes, as: UTF8.self) : "\(status)"
    }

    /// The live handle with these bits, if the program holds one.
    func appleHeld(_ bits: UInt) -> AppleHeld? { apple.live.first { $0.bits == bits } }

    /// A handle argument for a parameter of `kind`: usually a live one, sometimes a bad one.
    func applePick(_ kind: AppleKind) -> (handle: OpaquePointer?, pick: Pick) {
        let selector = input.byte()
        let ofKind = apple.live.filter { $0.kind == kind }
        var bits: UInt?
        var pick = Pick.live
        switch selector % 16 {
        case 0:
            return (nil, .null)
        case 1:
            let dead = apple.dead.filter { $0.kind == kind }
            if !dead.isEmpty { bits = dead[Int(selector / 16) % dead.count].bits; pick = .dead }
        case 2:
            let others = apple.live.filter { $0.kind != kind }.map(\.bits) + live.map(\.bits)
            if !others.isEmpty { bits = others[Int(selector / 16) % others.count]; pick = .wrongKind }
        case 3:
            let others = apple.live.filter { $0.kind != kind }
            if !others.isEmpty {
                bits = others[Int(selector / 16) % others.count].bits & ~(UInt(0xFF) << 48) | UInt(kind.rawValue) << 48
                pick = .forged
            }
        case 4:
            bits = UInt(input.u64())
            pick = .garbage
        default:
            break
        }
        if bits == nil {
            guard !ofKind.isEmpty else { return (nil, .null) }
            bits = ofKind[Int(input.byte()) % ofKind.count].bits
            pick = .live
        }
        // Bits that happen to be a live handle of this kind are one: the program's, or one an ext
        // file holds for itself (its converter, its AudioFileID), which a forged handle can hit.
        if let bits, ofKind.contains(where: { $0.bits == bits }) || (pick != .live && extFilesOwn(bits)) { pick = .live }
        if bits == 0 { return (nil, .null) }
        return (OpaquePointer(bitPattern: bits!), pick)
    }

    /// Whether a live ext file holds `bits` as its converter or AudioFileID.
    func extFilesOwn(_ bits: UInt) -> Bool {
        apple.live.contains { held in
            guard held.kind == .extFile else { return false }
            for id in [kExtAudioFileProperty_AudioConverter, kExtAudioFileProperty_AudioFile] {
                var value: UInt = 0
                var size = UInt32(MemoryLayout<UInt>.size)
                if ExtAudioFileGetProperty(OpaquePointer(bitPattern: held.bits), id, &size, &value) == noErr && value == bits { return true }
            }
            return false
        }
    }

    /// Holds a handle a create gave, after checking the create's rules: a failed create leaves
    /// NULL; a new handle is not one the program holds already.
    func appleCreated(_ status: OSStatus, _ out: OpaquePointer?, _ what: String, _ picks: [Pick] = [], _ held: (UInt) -> AppleHeld) {
        if status == noErr {
            Fuzzing.require(out != nil, "\(what) succeeded without a handle")
            Fuzzing.require(appleHeld(bits(out)) == nil, "\(what) gave a handle the program holds already")
            if let out { apple.live.append(held(bits(out))) }
        } else {
            Fuzzing.require(out == nil, "\(what) failed (\(status)) but left a handle")
        }
        appleCheck(status, what, picks)
    }

    /// Forgets `bits` (closed or disposed, by this thread or another), and what it owned.
    func appleRemove(_ bits: UInt) {
        guard let index = apple.live.firstIndex(where: { $0.bits == bits }) else { return }
        let held = apple.live.remove(at: index)
        apple.dead.append((held.bits, held.kind))
        if held.kind == .queue { forgetQueue(held.bits) }
        for borrowed in apple.live where borrowed.owner == bits { appleRemove(borrowed.bits) }
        if held.closesFile != 0, let file = appleHeld(held.closesFile), file.owner == bits { appleRemove(file.bits) }
    }

    /// Notes a close or dispose that returned noErr: no handle is closed twice so.
    func appleNoteClosed(_ bits: UInt, byOtherThread: Bool) {
        let twice = record.withLock { record in
            if byOtherThread { record.appleClosed.append(bits) }
            return !record.appleClosedOK.insert(bits).inserted
        }
        Fuzzing.require(!twice, "an Apple handle was closed twice with noErr")
    }

    // MARK: Dispatch

    func appleStep(_ opcode: UInt8) {
        if Program.tracing { Fuzzing.printError("apple step \(opcode % 32)") }
        switch opcode % 32 {
        case 0: makeURL()
        case 1: createFile()
        case 2: openFile()
        case 3: initializeWithCallbacks()
        case 4: openWithCallbacks()
        case 5: writePackets()
        case 6: queueStep()
        case 18: unitStep()
        case 7: writeBytes()
        case 8: readPackets()
        case 9: readBytes()
        case 10: fileProperty()
        case 11: closeFile()
        case 12: openStream()
        case 13: parseStream()
        case 14: streamProperty()
        case 15: closeStream()
        case 16: newConverter()
        case 17: fillComplexBuffer()
        case 19: convertBuffer()
        case 20: converterProperty()
        case 21: resetOrDisposeConverter()
        case 22: openExtFile()
        case 23: createExtFile()
        case 24: extProperty()
        case 25: extRead()
        case 26: extWrite()
        case 27: extSeek()
        case 28: disposeExtFile()
        case 29: formatProperty()
        case 30: coreFoundation()
        default: borrow()
        }
    }

    // MARK: CFURL, CFString, CFDictionary, CFRelease

    /// A path: in the private folder (writable), /dev/null, /dev/full, a missing folder, the folder
    /// itself, empty; or (to read only) a sound file of the corpus.
    func path(writable: Bool) -> String {
        let names = ["a.caf", "b.wav", "c.aif", "d.m4a", "e.aac", "f.caf", "g.aifc", "h.wav"]
        switch input.byte() % 16 {
        case 0..<8: return temporaryFolder + "/" + names[Int(input.byte()) % names.count]
        case 8 where !writable, 9 where !writable: return soundFile()
        case 10: return "/nonexistent-soundstage-folder/x.caf"
        case 11: return temporaryFolder
        case 12: return "/dev/null"
        case 13: return "/dev/full"
        case 14: return ""
        default:
            // Any name in the private folder (no slash: it stays there).
            let name = input.bytes(Int(input.byte() % 12)).map { $0 == 0x2F || $0 == 0 ? 0x5F : $0 }
            return temporaryFolder + "/" + String(decoding: name, as: UTF8.self)
        }
    }

    /// One of the sound files to read: an asset, or a corpus file's payload copied into the private folder.
    func soundFile() -> String {
        let index = Int(input.byte()) % (assetFiles.count + corpusFiles.count)
        if index < assetFiles.count { return assetFiles[index] }
        let name = corpusFiles[index - assetFiles.count]
        let copy = temporaryFolder + "/corpus-" + name
        if access(copy, F_OK) != 0, let file = fopen(copy, "wb") {
            let bytes = Array(readFile("Tests/Fuzz/corpus/audio-file/" + name).dropFirst(5))
            _ = fwrite(bytes, 1, bytes.count, file)
            fclose(file)
        }
        return copy
    }

    /// A new file URL (CFURLCreateFromFileSystemRepresentation, or CFURLCreateWithFileSystemPath
    /// of a CFString), kept by the program; NULL when it cannot be made.
    func newURL(writable: Bool) -> (url: UnsafeRawPointer?, path: String) {
        let path = path(writable: writable)
        let bytes = Array(path.utf8)
        let url: CFURLObject?
        if input.byte() % 2 == 0 {
            url = CFURLCreateFromFileSystemRepresentation(nil, bytes, bytes.count, input.byte() % 8 == 0)
        } else {
            let string = path.withCString { CFStringCreateWithCString(kCFAllocatorDefault, $0, CFStringBuiltInEncodings.UTF8.rawValue) }
            let style = input.byte() % 8 == 0 ? CFURLPathStyle.cfurlWindowsPathStyle : .cfurlposixPathStyle
            url = CFURLCreateWithFileSystemPath(nil, string, style, false)
            if style != .cfurlposixPathStyle { Fuzzing.require(url == nil, "a Windows-style URL was made") }
        }
        if path.isEmpty { Fuzzing.require(url == nil, "a URL of an empty path was made") }
        guard let url else { return (nil, path) }
        // The program owns it as a C caller does: one reference, released at the end.
        let pointer = UnsafeRawPointer(Unmanaged.passRetained(url).toOpaque())
        apple.urls.append((pointer, path, writable))
        return (pointer, path)
    }

    /// A URL argument: a kept one, a new one, or NULL.
    func urlArgument(writable: Bool) -> (url: CFURLObject?, path: String) {
        switch input.byte() % 8 {
        case 0:
            return (nil, "")
        case 1, 2, 3:
            let kept = apple.urls.filter { $0.writable || !writable }
            if !kept.isEmpty {
                let chosen = kept[Int(input.byte()) % kept.count]
                return (Unmanaged<CFURLObject>.fromOpaque(chosen.url).takeUnretainedValue(), chosen.path)
            }
            fallthrough
        default:
            let (pointer, path) = newURL(writable: writable)
            return (pointer.map { Unmanaged<CFURLObject>.fromOpaque($0).takeUnretainedValue() }, path)
        }
    }

    func makeURL() {
        guard apple.urls.count < 8 else { return }
        let (url, path) = newURL(writable: input.byte() % 2 == 0)
        guard let url else { return }
        let object = Unmanaged<CFURLObject>.fromOpaque(url).takeUnretainedValue()
        // Its path back, into buffers of every size: true means it fits with its NUL.
        let room = Int(input.byte() % 80)
        var buffer = [UInt8](repeating: 0xEE, count: max(room, 1))
        if CFURLGetFileSystemRepresentation(object, true, &buffer, room) {
            Fuzzing.require(buffer.prefix(room).contains(0), "a URL's path was given without its NUL in \(room) bytes")
            // A path already in its standard form (absolute, no "." or ".." or empty component) comes back as it was.
            let components = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            if path.hasPrefix("/"), !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) {
                Fuzzing.require(Array(buffer.prefix { $0 != 0 }) == Array(path.utf8), "a URL's path changed")
            }
        }
        if let copied = CFURLCopyFileSystemPath(object, .cfurlposixPathStyle) { Fuzzing.require(CFStringGetLength(copied) >= 1, "an empty path") }
        _ = CFURLCopyLastPathComponent(object)
        _ = CFURLCopyPathExtension(object)
        _ = CFURLHasDirectoryPath(object)
    }

    func coreFoundation() {
        switch input.byte() % 6 {
        case 0:
            // Strings from bytes in an encoding, and back into buffers of every size.
            let bytes = input.bytes(Int(input.byte() % 24))
            let encoding = input.choice([CFStringBuiltInEncodings.UTF8.rawValue, CFStringBuiltInEncodings.ASCII.rawValue,
                                         CFStringBuiltInEncodings.isoLatin1.rawValue, CFStringBuiltInEncodings.macRoman.rawValue,
                                         CFStringBuiltInEncodings.UTF16.rawValue, input.u32()])
            guard let string = CFStringCreateWithBytes(nil, bytes, bytes.count, encoding, input.byte() % 2 == 0) else { return }
            let length = CFStringGetLength(string)
            Fuzzing.require(length >= 0 && length <= bytes.count, "a string of \(bytes.count) bytes has length \(length)")
            let room = Int(input.byte() % 64)
            var buffer = [CChar](repeating: 0x55, count: max(room, 1))
            let out = input.choice([CFStringBuiltInEncodings.UTF8.rawValue, CFStringBuiltInEncodings.ASCII.rawValue,
                                    CFStringBuiltInEncodings.isoLatin1.rawValue, input.u32()])
            if CFStringGetCString(string, &buffer, room, out) {
                Fuzzing.require(buffer.prefix(room).contains(0), "a string was given without its NUL in \(room) bytes")
            }
            if let pointer = CFStringGetCStringPtr(string, CFStringBuiltInEncodings.UTF8.rawValue) { _ = strlen(pointer) }
            _ = CFStringGetMaximumSizeForEncoding(length, out)
            let copy = CFStringCreateCopy(nil, string)
            Fuzzing.require(copy.map { CFStringCompare(string, $0, []) == .compareEqualTo } ?? false, "a copy of a string is not equal to it")
            if apple.strings.count < 8 { apple.strings.append(UnsafeRawPointer(Unmanaged.passRetained(string).toOpaque())) }
        case 1:
            // CFRetain and CFRelease as C counts them.
            let objects = apple.urls.map(\.url) + apple.strings
            guard !objects.isEmpty else { return }
            let object = objects[Int(input.byte()) % objects.count]
            let reference = Unmanaged<AnyObject>.fromOpaque(object).takeUnretainedValue()
            Fuzzing.require(CFGetRetainCount(reference) >= 1, "a live object has no references")
            Fuzzing.require(CFRetain(reference)?.takeUnretainedValue() === reference, "CFRetain gave another object")
            CFRelease(reference)
            Fuzzing.require(CFEqual(reference, reference), "an object is not equal to itself")
            CFRetain(nil)
            CFRelease(nil)
            Fuzzing.require(CFGetRetainCount(nil) == 0, "NULL has a retain count")
        case 2:
            // An open file's information dictionary, read every way, released.
            let (file, pick) = applePick(.audioFile)
            var pointer: UnsafeRawPointer?
            var size = UInt32(MemoryLayout<UnsafeRawPointer>.size)
            let status = AudioFileGetProperty(file, kAudioFilePropertyInfoDictionary, &size, &pointer)
            appleCheck(status, "AudioFileGetProperty(info)", [pick])
            if status == noErr, let pointer { readDictionary(pointer) }
        case 3:
            // CFSTR's interned strings: one object a text.
            let text = input.choice(["artist", "title", "approximate duration in seconds", ""])
            let a = text.withCString { __CFStringMakeConstantString($0) }
            let b = text.withCString { __CFStringMakeConstantString($0) }
            Fuzzing.require(a === b, "CFSTR gave two objects for one text")
        case 4:
            // A string compared with another.
            guard apple.strings.count >= 2 else { return }
            let a = Unmanaged<CFStringObject>.fromOpaque(apple.strings[Int(input.byte()) % apple.strings.count]).takeUnretainedValue()
            let b = Unmanaged<CFStringObject>.fromOpaque(apple.strings[Int(input.byte()) % apple.strings.count]).takeUnretainedValue()
            let forward = CFStringCompare(a, b, CFStringCompareFlags(rawValue: CFOptionFlags(input.byte() % 2)))
            let backward = CFStringCompare(b, a, CFStringCompareFlags(rawValue: CFOptionFlags(input.byte() % 2)))
            _ = (forward, backward)
        default:
            // Audio File Services' global information: lists and new objects (released).
            globalInfo()
        }
    }

    /// Reads a dictionary Audio File Services made every way C can, and releases it.
    func readDictionary(_ pointer: UnsafeRawPointer) {
        let dictionary = Unmanaged<CFDictionary>.fromOpaque(pointer).takeUnretainedValue()
        let count = CFDictionaryGetCount(dictionary)
        Fuzzing.require(count >= 1 && count <= 65, "an information dictionary of \(count) entries")
        var keys = [UnsafeRawPointer?](repeating: nil, count: count)
        var values = [UnsafeRawPointer?](repeating: nil, count: count)
        CFDictionaryGetKeysAndValues(dictionary, &keys, &values)
        for index in 0..<count {
            guard let key = keys[index], let value = values[index] else {
                Fuzzing.require(false, "a dictionary entry without its key or value")
                return
            }
            Fuzzing.require(CFDictionaryGetValue(dictionary, key) == value, "a dictionary's value for its own key differs")
            Fuzzing.require(CFDictionaryContainsKey(dictionary, key), "a dictionary does not contain its own key")
            Fuzzing.require(CFDictionaryGetValueIfPresent(dictionary, key, nil), "a dictionary's key is not present")
            _ = CFStringGetLength(Unmanaged<CFStringObject>.fromOpaque(value).takeUnretainedValue())
        }
        let absent = "no such key".withCString { __CFStringMakeConstantString($0) }
        let absentKey = absent.map { UnsafeRawPointer(Unmanaged.passUnretained($0).toOpaque()) }
        Fuzzing.require(CFDictionaryGetValue(dictionary, absentKey) == nil, "a dictionary has a key it was never given")
        CFDictionaryGetKeysAndValues(dictionary, nil, nil)
        releaseCF(pointer)
    }

    func globalInfo() {
        let ids: [AudioFilePropertyID] = [kAudioFileGlobalInfo_ReadableTypes, kAudioFileGlobalInfo_WritableTypes, kAudioFileGlobalInfo_FileTypeName,
                                          kAudioFileGlobalInfo_AvailableFormatIDs, kAudioFileGlobalInfo_AllExtensions,
                                          kAudioFileGlobalInfo_ExtensionsForType, kAudioFileGlobalInfo_TypesForExtension,
                                          kAudioFileGlobalInfo_AvailableStreamDescriptionsForFormat, input.u32()]
        let id = input.choice(ids)
        var specifier: [UInt8]
        if id == kAudioFileGlobalInfo_TypesForExtension {
            // Its specifier is a CFStringRef: a real one or NULL.
            let text = input.choice(["caf", "WAV", "m4a", "", "x"])
            let string = text.withCString { __CFStringMakeConstantString($0) }
            let pointer = input.byte() % 4 == 0 ? nil : string.map { UnsafeRawPointer(Unmanaged.passUnretained($0).toOpaque()) }
            specifier = withUnsafeBytes(of: pointer) { Array($0) }
        } else {
            specifier = withUnsafeBytes(of: input.choice(Formats.fileTypes)) { Array($0) }
            if input.byte() % 4 == 0 { specifier = input.bytes(Int(input.byte() % 12)) }
        }
        var size: UInt32 = 0
        let info = specifier.withUnsafeMutableBytes { AudioFileGetGlobalInfoSize(id, UInt32($0.count), $0.baseAddress, &size) }
        appleCheck(info, "AudioFileGetGlobalInfoSize")
        let room = input.byte() % 4 == 0 ? Int(input.byte()) : Int(min(size, 1 << 16))
        var value = [UInt8](repeating: 0, count: max(room, 1))
        var ioSize = UInt32(room)
        let status = specifier.withUnsafeMutableBytes { AudioFileGetGlobalInfo(id, UInt32($0.count), $0.baseAddress, &ioSize, &value) }
        appleCheck(status, "AudioFileGetGlobalInfo")
        guard status == noErr else { return }
        Fuzzing.require(Int(ioSize) <= room, "global info wrote \(ioSize) bytes into \(room)")
        if [kAudioFileGlobalInfo_FileTypeName, kAudioFileGlobalInfo_AllExtensions, kAudioFileGlobalInfo_ExtensionsForType].contains(id) {
            let object = value.withUnsafeBytes { $0.loadUnaligned(as: UnsafeRawPointer?.self) }
            if id != kAudioFileGlobalInfo_FileTypeName, let object {
                let array = Unmanaged<CFArray>.fromOpaque(object).takeUnretainedValue()
                let count = CFArrayGetCount(array)
                for index in 0..<count { Fuzzing.require(CFArrayGetValueAtIndex(array, index) != nil, "a hole in an array") }
                Fuzzing.require(CFArrayGetValueAtIndex(array, count) == nil, "an array answered past its end")
            }
            releaseCF(object)
        }
    }

    // MARK: Audio File Services

    func createFile() {
        guard apple.live.count < 12 else { return }
        let (url, path) = urlArgument(writable: true)
        let type = input.choice(Formats.fileTypes)
        let (format, sane) = asbd()
        let flags = AudioFileFlags(rawValue: input.choice([1, 1, 0, 3, 2, input.u32()]))
        var format2 = format
        var out: AudioFileID?
        let status: OSStatus
        switch input.byte() % 16 {
        case 0: status = AudioFileCreateWithURL(url, type, nil, flags, &out)
        case 1: status = AudioFileCreateWithURL(url, type, &format2, flags, nil)
        default: status = AudioFileCreateWithURL(url, type, &format2, flags, &out)
        }
        if status == noErr && path.hasPrefix(temporaryFolder) {
            Fuzzing.require(access(path, F_OK) == 0, "a created file is not there")
        }
        appleCreated(status, out, "AudioFileCreateWithURL(\(path), '\(fourCC(OSStatus(bitPattern: type)))')") {
            AppleHeld(bits: $0, kind: .audioFile, writing: true, path: path.hasPrefix(temporaryFolder + "/") ? path : nil, sane: sane)
        }
    }

    func openFile() {
        guard apple.live.count < 12 else { return }
        let (url, path) = urlArgument(writable: false)
        let permissions = AudioFilePermissions(rawValue: Int8(bitPattern: input.choice([1, 1, 1, 2, 3, 0, input.byte()])))!
        var out: AudioFileID?
        let status = input.byte() % 16 == 0 ? AudioFileOpenURL(url, permissions, 0, nil)
                                            : AudioFileOpenURL(url, permissions, input.choice(Formats.fileTypes), &out)
        appleCreated(status, out, "AudioFileOpenURL(\(path))") { AppleHeld(bits: $0, kind: .audioFile, path: path) }
    }

    func initializeWithCallbacks() {
        guard apple.live.count < 12, apple.memoryFiles.count < 6 else { return }
        let failAfter = input.byte() % 4 == 0 ? Int(input.byte() % 16) : Int.max
        let file = MemoryFile(failAfter: failAfter)
        apple.memoryFiles.append(file)
        let client = Unmanaged.passUnretained(file).toOpaque()
        let type = input.choice(Formats.fileTypes)
        var (format, sane) = asbd()
        var out: AudioFileID?
        let status: OSStatus
        switch input.byte() % 12 {
        case 0: status = AudioFileInitializeWithCallbacks(client, memoryRead, nil, memorySize, memorySetSize, type, &format, [], &out)
        case 1: status = AudioFileInitializeWithCallbacks(client, memoryRead, memoryWrite, memorySize, nil, type, &format, [], &out)
        case 2: status = AudioFileInitializeWithCallbacks(client, nil, memoryWrite, nil, memorySetSize, type, &format, [], &out)
        case 3: status = AudioFileInitializeWithCallbacks(client, memoryRead, memoryWrite, memorySize, memorySetSize, type, nil, [], &out)
        default: status = AudioFileInitializeWithCallbacks(client, memoryRead, memoryWrite, memorySize, memorySetSize, type, &format,
                                                             AudioFileFlags(rawValue: input.u32() & 3), &out)
        }
        if failAfter != .max { sane = false }
        appleCreated(status, out, "AudioFileInitializeWithCallbacks") { AppleHeld(bits: $0, kind: .audioFile, writing: true, sane: sane) }
    }

    /// Bytes of a file to serve: one written in memory or on disk, a corpus file, or the input's.
    func someFileBytes() -> [UInt8] {
        switch input.byte() % 4 {
        case 0 where !apple.memoryFiles.isEmpty:
            return apple.memoryFiles[Int(input.byte()) % apple.memoryFiles.count].snapshot
        case 1:
            return readFile(input.byte() % 2 == 0 ? soundFile() : self.path(writable: true))
        case 2:
            return input.bytes(Int(input.u16() % 2048))
        default:
            // A small WAVE header around the input's bytes.
            let data = input.bytes(Int(input.byte()))
            var b: [UInt8] = Array("RIFF".utf8) + le32(UInt32(36 + data.count)) + Array("WAVEfmt ".utf8) + le32(16)
            b += [1, 0, 1, 0] + le32(8_000) + le32(16_000) + [2, 0, 16, 0] + Array("data".utf8) + le32(UInt32(data.count))
            return b + data
        }
    }

    func le32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }

    func openWithCallbacks() {
        guard apple.live.count < 12 else { return }
        let file = MemoryFile(failAfter: .max, bytes: someFileBytes())
        apple.clients.append(file)
        let client = Unmanaged.passUnretained(file).toOpaque()
        var out: AudioFileID?
        let status: OSStatus
        switch input.byte() % 10 {
        case 0: status = AudioFileOpenWithCallbacks(client, nil, nil, memorySize, nil, 0, &out)
        case 1: status = AudioFileOpenWithCallbacks(client, memoryRead, nil, nil, nil, 0, &out)
        case 2: status = AudioFileOpenWithCallbacks(client, memoryRead, nil, memorySize, nil, 0, nil)
        default: status = AudioFileOpenWithCallbacks(client, memoryRead, input.byte() % 2 == 0 ? memoryWrite : nil, memorySize, nil,
                                                       input.choice(Formats.fileTypes), &out)
        }
        appleCreated(status, out, "AudioFileOpenWithCallbacks") { AppleHeld(bits: $0, kind: .audioFile) }
    }

    /// A file's data format as the file states it (nil when it does not answer).
    func dataFormat(_ file: OpaquePointer?) -> AudioStreamBasicDescription? {
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        guard AudioFileGetProperty(file, kAudioFilePropertyDataFormat, &size, &format) == noErr else { return nil }
        Fuzzing.require(size == UInt32(MemoryLayout<AudioStreamBasicDescription>.size), "a data format of \(size) bytes")
        return format
    }

    /// Random packet descriptions for `count` packets over `bytes` bytes: even, random, or lying.
    func packetDescriptions(_ count: Int, bytes: Int) -> [AudioStreamPacketDescription] {
        let mode = input.byte() % 4
        var offset: Int64 = 0
        return (0..<count).map { index in
            let size: UInt32
            switch mode {
            case 0: size = UInt32(bytes / max(count, 1))
            case 1: size = UInt32(input.u16() % 600)
            case 2: size = index == count - 1 ? input.u32() : UInt32(bytes / max(count, 1))
            default: size = UInt32(input.byte())
            }
            let start = mode == 3 && input.byte() % 4 == 0 ? Int64(bitPattern: input.u64()) : offset
            offset += Int64(size)
            let frames = input.byte() % 8 == 0 ? input.u32() : 0
            return AudioStreamPacketDescription(mStartOffset: start, mVariableFramesInPacket: frames, mDataByteSize: size)
        }
    }

    func writePackets() {
        let (file, pick) = applePick(.audioFile)
        let format = dataFormat(file)
        let bytesPerPacket = Int(format?.mBytesPerPacket ?? 0)
        let room = min(Int(input.u16() % 16_384), 65_536)
        var buffer = [UInt8](repeating: 0, count: max(room, 1))
        buffer.withUnsafeMutableBytes { fillAudio(UnsafeMutableRawBufferPointer(rebasing: $0.prefix(room))) }
        // How many packets: what fits, a few, or anything (then without descriptions the library
        // must find the lie in the byte count; with them, there are as many as said).
        var packets: UInt32
        switch input.byte() % 6 {
        case 0: packets = input.u32()
        case 1: packets = UInt32(input.byte())
        case 2: packets = 0
        default: packets = UInt32(bytesPerPacket > 0 ? room / bytesPerPacket : max(1, room / 256))
        }
        let withDescriptions = input.byte() % 8 != 0
        var descriptions = packets <= 4096 && withDescriptions ? packetDescriptions(Int(packets), bytes: room) : []
        let start: Int64
        switch input.byte() % 6 {
        case 0: start = Int64(bitPattern: input.u64())
        case 1: start = -1
        case 2: start = 0
        default:
            var count: UInt64 = 0
            var size: UInt32 = 8
            _ = AudioFileGetProperty(file, kAudioFilePropertyAudioDataPacketCount, &size, &count)
            start = Int64(bitPattern: count) - Int64(input.byte() % 2)
        }
        let bytes = input.byte() % 8 == 0 ? input.u32() : UInt32(room)
        let inNumBytes = min(bytes, UInt32(room))   // the buffer is what it says
        var io = packets
        let status: OSStatus
        if input.byte() % 16 == 0 {
            status = AudioFileWritePackets(file, false, inNumBytes, nil, start, &io, nil)
        } else if descriptions.isEmpty {
            status = AudioFileWritePackets(file, false, inNumBytes, nil, start, &io, buffer)
        } else {
            status = AudioFileWritePackets(file, false, inNumBytes, &descriptions, start, &io, buffer)
        }
        appleCheck(status, "AudioFileWritePackets(\(packets) at \(start))", [pick])
        Fuzzing.require(io <= packets, "AudioFileWritePackets wrote \(io) of \(packets) packets")
        if status != noErr, let held = appleHeld(bits(file)), pick == .live { markInsane(held.bits) }
    }

    func markInsane(_ bits: UInt) {
        if let index = apple.live.firstIndex(where: { $0.bits == bits }) { apple.live[index].sane = false }
    }

    func writeBytes() {
        let (file, pick) = applePick(.audioFile)
        let room = Int(input.u16() % 8192)
        var buffer = [UInt8](repeating: 0, count: max(room, 1))
        buffer.withUnsafeMutableBytes { fillAudio(UnsafeMutableRawBufferPointer(rebasing: $0.prefix(room))) }
        let start: Int64 = input.byte() % 4 == 0 ? Int64(bitPattern: input.u64()) : Int64(input.u16())
        var count = UInt32(room)
        let status = input.byte() % 16 == 0 ? AudioFileWriteBytes(file, false, start, &count, nil)
                                             : AudioFileWriteBytes(file, input.byte() % 2 == 0, start, &count, buffer)
        appleCheck(status, "AudioFileWriteBytes(\(room) at \(start))", [pick])
        Fuzzing.require(Int(count) <= room, "AudioFileWriteBytes says it wrote \(count) of \(room) bytes")
        if status != noErr, pick == .live { markInsane(bits(file)) }
    }

    func readPackets() {
        let (file, pick) = applePick(.audioFile)
        let room = Int(input.u16() % 32_768)
        var buffer = [UInt8](repeating: 0, count: max(room, 1))
        let asked: UInt32 = input.byte() % 4 == 0 ? input.u32() : UInt32(input.byte())
        let start: Int64 = input.byte() % 4 == 0 ? Int64(bitPattern: input.u64()) : Int64(input.u16() % 512)
        let describe = input.byte() % 4 != 0
        var descriptions = [AudioStreamPacketDescription](repeating: AudioStreamPacketDescription(), count: Int(min(asked, 4096)))
        var bytes = UInt32(room)
        var packets = asked
        var requested = asked
        let status: OSStatus
        if input.byte() % 2 == 0 {
            // ReadPacketData: the room is the buffer's.
            status = describe && asked <= 4096 ? AudioFileReadPacketData(file, false, &bytes, &descriptions, start, &packets, &buffer)
                                               : AudioFileReadPacketData(file, false, &bytes, nil, start, &packets, &buffer)
            appleCheck(status, "AudioFileReadPacketData(\(asked) at \(start))", [pick])
        } else {
            // ReadPackets: the buffer must hold the packets asked at the maximum packet size: ask only that many.
            var maximum: UInt32 = 0
            var size: UInt32 = 4
            _ = AudioFileGetProperty(file, kAudioFilePropertyMaximumPacketSize, &size, &maximum)
            packets = min(asked, UInt32(room / Int(max(maximum, 1))))
            requested = packets
            status = describe && packets <= 4096 ? AudioFileReadPackets(file, false, &bytes, &descriptions, start, &packets, &buffer)
                                                 : AudioFileReadPackets(file, false, &bytes, nil, start, &packets, &buffer)
            appleCheck(status, "AudioFileReadPackets(at \(start))", [pick])
        }
        Fuzzing.require(Int(bytes) <= room && packets <= requested, "a packet read gave \(bytes) bytes, \(packets) packets for \(room), \(requested)")
        if status == noErr && describe && asked <= 4096 && packets > 0 {
            for d in descriptions.prefix(Int(packets)) where d.mDataByteSize > 0 || d.mStartOffset > 0 {
                Fuzzing.require(d.mStartOffset >= 0 && d.mStartOffset + Int64(d.mDataByteSize) <= Int64(bytes), "a packet described outside the bytes read")
            }
        }
    }

    func readBytes() {
        let (file, pick) = applePick(.audioFile)
        let room = Int(input.u16() % 16_384)
        var buffer = [UInt8](repeating: 0, count: max(room, 1))
        let start: Int64 = input.byte() % 4 == 0 ? Int64(bitPattern: input.u64()) : Int64(input.u16())
        var count = UInt32(room)
        let status = input.byte() % 16 == 0 ? AudioFileReadBytes(file, false, start, &count, nil)
                                             : AudioFileReadBytes(file, false, start, &count, &buffer)
        appleCheck(status, "AudioFileReadBytes(\(room) at \(start))", [pick])
        Fuzzing.require(Int(count) <= room, "AudioFileReadBytes read \(count) bytes into \(room)")
    }

    static let fileProperties: [AudioFilePropertyID] = [
        kAudioFilePropertyFileFormat, kAudioFilePropertyDataFormat, kAudioFilePropertyIsOptimized, kAudioFilePropertyMagicCookieData,
        kAudioFilePropertyAudioDataByteCount, kAudioFilePropertyAudioDataPacketCount, kAudioFilePropertyMaximumPacketSize,
        kAudioFilePropertyDataOffset, kAudioFilePropertyChannelLayout, kAudioFilePropertyDeferSizeUpdates, kAudioFilePropertyMarkerList,
        kAudioFilePropertyInfoDictionary, kAudioFilePropertyPacketTableInfo, kAudioFilePropertyFormatList,
        kAudioFilePropertyPacketSizeUpperBound, kAudioFilePropertyPacketRangeByteCountUpperBound, kAudioFilePropertyEstimatedDuration,
        kAudioFilePropertyBitRate, kAudioFilePropertySourceBitDepth, kAudioFilePropertyAudioTrackCount, kAudioFilePropertyFrameToPacket,
        kAudioFilePropertyPacketToFrame, kAudioFilePropertyRestrictsRandomAccess, kAudioFilePropertyPacketToByte,
        kAudioFilePropertyByteToPacket, kAudioFilePropertyPacketToRollDistance,
    ]

    /// A property value to set: right-sized or not, sensible or not.
    func propertyBytes(_ sensible: [UInt8]) -> [UInt8] {
        switch input.byte() % 6 {
        case 0: return input.bytes(Int(input.byte() % 48))
        case 1: return Array(sensible.dropLast())
        case 2: return sensible + [0]
        case 3: return []
        default: return sensible
        }
    }

    /// A channel layout's bytes: a tag, or descriptions (as many as it says, or a count past the
    /// limit), or a bitmap.
    func channelLayoutBytes() -> [UInt8] {
        let count = input.byte() % 4 == 0 ? input.u32() | 0x1000 : UInt32(input.byte() % 9)
        let tag = input.choice([kAudioChannelLayoutTag_UseChannelDescriptions, kAudioChannelLayoutTag_UseChannelBitmap,
                                kAudioChannelLayoutTag_Stereo, input.u32()])
        var bytes = le32(tag) + le32(input.byte() % 2 == 0 ? 3 : input.u32()) + le32(count)
        for _ in 0..<(count > 64 ? 1 : count) {
            bytes += le32(input.choice([1, 2, 3, 4, 5, 6, 0, 0xFFFF_FFFF, input.u32()])) + le32(0) + le32(0) + le32(0) + le32(0)
        }
        return bytes
    }

    func fileProperty() {
        let (file, pick) = applePick(.audioFile)
        let id = input.byte() % 8 == 0 ? input.u32() : input.choice(Program.fileProperties)
        switch input.byte() % 4 {
        case 0:
            var size: UInt32 = 0xDEAD
            var writable: UInt32 = 0xDEAD
            let status = input.byte() % 4 == 0 ? AudioFileGetPropertyInfo(file, id, nil, nil) : AudioFileGetPropertyInfo(file, id, &size, &writable)
            appleCheck(status, "AudioFileGetPropertyInfo", [pick])
            if status == noErr && size != 0xDEAD {
                Fuzzing.require(writable <= 1, "writable is \(writable)")
                // A size answered means a value of that size, whatever the question.
                if size <= 1 << 20 && id != kAudioFilePropertyInfoDictionary && !threadRunning && pick == .live {
                    var value = [UInt8](repeating: 0, count: Int(size) + 16)
                    var room = size
                    let answer = AudioFileGetProperty(file, id, &room, &value)
                    appleCheck(answer, "AudioFileGetProperty (sized by its info)", [pick])
                    Fuzzing.require(room <= size, "a property wrote \(room) bytes into the \(size) its info gave")
                }
            }
        case 1, 2:
            let room = input.byte() % 2 == 0 ? Int(input.byte() % 64) : Int(input.u16() % 4096)
            var value = [UInt8](repeating: 0, count: max(room, 16))
            for i in 0..<min(room, 32) { value[i] = input.byte() }   // the question of a translation
            var size = UInt32(room)
            let status = input.byte() % 16 == 0 ? AudioFileGetProperty(file, id, nil, &value) : AudioFileGetProperty(file, id, &size, &value)
            appleCheck(status, "AudioFileGetProperty('\(fourCC(OSStatus(bitPattern: id)))', \(room))", [pick])
            if status == noErr {
                Fuzzing.require(Int(size) <= room, "AudioFileGetProperty wrote \(size) bytes into \(room)")
                if id == kAudioFilePropertyInfoDictionary, let pointer = value.withUnsafeBytes({ $0.loadUnaligned(as: UnsafeRawPointer?.self) }) {
                    readDictionary(pointer)
                }
            }
        default:
            var data: [UInt8]
            let setID = input.choice([kAudioFilePropertyMagicCookieData, kAudioFilePropertyChannelLayout, kAudioFilePropertyPacketTableInfo,
                                      kAudioFilePropertyDataFormat, id])
            switch setID {
            case kAudioFilePropertyChannelLayout: data = channelLayoutBytes()
            case kAudioFilePropertyDataFormat:
                var (format, _) = asbd()
                data = withUnsafeBytes(of: &format) { propertyBytes(Array($0)) }
            case kAudioFilePropertyPacketTableInfo:
                var table = AudioFilePacketTableInfo(mNumberValidFrames: Int64(bitPattern: input.u64() % 1_000_000),
                                                     mPrimingFrames: Int32(bitPattern: input.u32() % 4096), mRemainderFrames: Int32(input.byte()))
                data = withUnsafeBytes(of: &table) { propertyBytes(Array($0)) }
            default: data = input.bytes(Int(input.byte() % 80))
            }
            let status = data.isEmpty && input.byte() % 2 == 0 ? AudioFileSetProperty(file, setID, input.byte() % 2 == 0 ? 0 : 8, nil)
                                                                : AudioFileSetProperty(file, setID, UInt32(data.count), data)
            appleCheck(status, "AudioFileSetProperty('\(fourCC(OSStatus(bitPattern: setID)))', \(data.count) bytes)", [pick])
            if pick == .live { markInsane(bits(file)) }
        }
    }

    func closeFile() {
        let (file, pick) = applePick(.audioFile)
        let held = pick == .live ? appleHeld(bits(file)) : nil
        if input.byte() % 4 == 0 {
            let status = AudioFileOptimize(file)
            appleCheck(status, "AudioFileOptimize", [pick])
            if status == noErr, !threadRunning, let held, held.writing {
                var optimized: UInt32 = 0
                var size: UInt32 = 4
                if AudioFileGetProperty(file, kAudioFilePropertyIsOptimized, &size, &optimized) == noErr {
                    Fuzzing.require(optimized == 1, "a file just optimized says it is not")
                }
            }
            return
        }
        closeFile(file, pick: pick, held: held)
    }

    /// Closes a file and checks what follows: the ID is stale; a file written to disk with a
    /// preset format reopens with the packets and format it stated.
    func closeFile(_ file: OpaquePointer?, pick: Pick, held: AppleHeld?) {
        var packets: Int64 = -1
        var format: AudioStreamBasicDescription?
        let check = held.map { $0.sane && $0.writing && $0.path != nil && $0.owner == 0 && !threadRunning } ?? false
        if check {
            var size: UInt32 = 8
            if AudioFileGetProperty(file, kAudioFilePropertyAudioDataPacketCount, &size, &packets) != noErr { packets = -1 }
            format = dataFormat(file)
        }
        let status = AudioFileClose(file)
        if status == noErr { appleNoteClosed(bits(file), byOtherThread: false) }
        if pick == .live, let held {
            // Closed, whatever the code (a trailer that could not be written is reported, the ID closed all the same).
            if !threadRunning { Fuzzing.require(status != kAudioFileNotOpenError, "closing a live file said it was not open") }
            appleRemove(held.bits)
        }
        appleCheck(status, "AudioFileClose", [pick])
        if pick == .live && !threadRunning {
            Fuzzing.require(AudioFileClose(file) == kAudioFileNotOpenError, "a closed file closed again")
        }
        guard check, status == noErr, packets > 0, let format, let path = held?.path else { return }
        let url = Array(path.utf8).withUnsafeBufferPointer { CFURLCreateFromFileSystemRepresentation(nil, $0.baseAddress, $0.count, false) }
        var reopened: AudioFileID?
        let open = AudioFileOpenURL(url, .readPermission, 0, &reopened)
        Fuzzing.require(open == noErr, "a file written as '\(fourCC(OSStatus(bitPattern: format.mFormatID)))' and closed does not reopen: \(open) '\(fourCC(open))'")
        var again: Int64 = 0
        var size: UInt32 = 8
        _ = AudioFileGetProperty(reopened, kAudioFilePropertyAudioDataPacketCount, &size, &again)
        let reread = dataFormat(reopened)
        Fuzzing.require(again == packets, "a file said \(packets) packets when written, \(again) when reopened")
        Fuzzing.require(reread?.mFormatID == format.mFormatID && reread?.mChannelsPerFrame == format.mChannelsPerFrame
                        && reread?.mSampleRate == format.mSampleRate, "a file's format changed on reopening: \(format) then \(String(describing: reread))")
        Fuzzing.require(AudioFileClose(reopened) == noErr, "a reopened file did not close")
    }

    // MARK: Audio File Stream Services

    func openStream() {
        guard apple.live.count < 12 else { return }
        let client = StreamClient()
        client.action = input.byte() % 8 == 0 ? 1 + input.byte() % 2 : 0
        apple.clients.append(client)
        let data = Unmanaged.passUnretained(client).toOpaque()
        var out: AudioFileStreamID?
        let hint = input.choice(Formats.fileTypes)
        let status: OSStatus
        switch input.byte() % 12 {
        case 0: status = AudioFileStreamOpen(data, nil, streamPackets, hint, &out)
        case 1: status = AudioFileStreamOpen(data, streamListener, nil, hint, &out)
        case 2: status = AudioFileStreamOpen(data, streamListener, streamPackets, hint, nil)
        default: status = AudioFileStreamOpen(data, streamListener, streamPackets, hint, &out)
        }
        client.stream = out
        appleCreated(status, out, "AudioFileStreamOpen") { AppleHeld(bits: $0, kind: .stream, client: client) }
    }

    func parseStream() {
        let (stream, pick) = applePick(.stream)
        let bytes = someFileBytes()
        let client = pick == .live ? appleHeld(bits(stream))?.client : nil
        var at = 0
        let largest = input.choice([1, 7, 64, 1000, 70_000])
        var pieces = 0
        var status: OSStatus = noErr
        repeat {
            let piece = min(bytes.count - at, 1 + Int(input.u16()) % largest)
            var flags: AudioFileStreamParseFlags = input.byte() % 16 == 0 ? .discontinuity : []
            if input.byte() % 32 == 0 { flags = AudioFileStreamParseFlags(rawValue: input.u32()) }
            status = bytes.withUnsafeBytes { raw in
                if input.byte() % 32 == 0 { return AudioFileStreamParseBytes(stream, UInt32(piece), nil, flags) }
                return AudioFileStreamParseBytes(stream, UInt32(piece), raw.baseAddress.map { $0 + at }, flags)
            }
            appleCheck(status, "AudioFileStreamParseBytes(\(piece))", [pick])
            at += max(piece, 0)
            pieces += 1
            if client?.closedInside == true { break }
        } while at < bytes.count && pieces < 64 && status == noErr
        if input.byte() % 2 == 0 && client?.closedInside != true {
            appleCheck(AudioFileStreamParseBytes(stream, 0, nil, []), "AudioFileStreamParseBytes (the end)", [pick])
        }
        if let client, client.closedInside {
            appleNoteClosed(bits(stream), byOtherThread: false)
            appleRemove(bits(stream))
            Fuzzing.require(AudioFileStreamClose(stream) == kAudioFileNotOpenError, "a stream closed from its callback is open")
        }
    }

    static let streamProperties: [AudioFileStreamPropertyID] = [
        kAudioFileStreamProperty_ReadyToProducePackets, kAudioFileStreamProperty_FileFormat, kAudioFileStreamProperty_DataFormat,
        kAudioFileStreamProperty_FormatList, kAudioFileStreamProperty_MagicCookieData, kAudioFileStreamProperty_AudioDataByteCount,
        kAudioFileStreamProperty_AudioDataPacketCount, kAudioFileStreamProperty_MaximumPacketSize, kAudioFileStreamProperty_DataOffset,
        kAudioFileStreamProperty_ChannelLayout, kAudioFileStreamProperty_PacketToFrame, kAudioFileStreamProperty_FrameToPacket,
        kAudioFileStreamProperty_PacketToByte, kAudioFileStreamProperty_ByteToPacket, kAudioFileStreamProperty_PacketTableInfo,
        kAudioFileStreamProperty_PacketSizeUpperBound, kAudioFileStreamProperty_AverageBytesPerPacket, kAudioFileStreamProperty_BitRate,
        kAudioFileStreamProperty_InfoDictionary, kAudioFileStreamProperty_RestrictsRandomAccess,
    ]

    func streamProperty() {
        let (stream, pick) = applePick(.stream)
        let id = input.byte() % 8 == 0 ? input.u32() : input.choice(Program.streamProperties)
        switch input.byte() % 5 {
        case 0:
            var size: UInt32 = 0xDEAD
            var writable = true
            let status = input.byte() % 4 == 0 ? AudioFileStreamGetPropertyInfo(stream, id, nil, nil)
                                                : AudioFileStreamGetPropertyInfo(stream, id, &size, &writable)
            appleCheck(status, "AudioFileStreamGetPropertyInfo", [pick])
            if status == noErr && size != 0xDEAD { Fuzzing.require(!writable && size < 1 << 28, "a stream property of \(size) bytes, writable \(writable)") }
        case 1, 2:
            let room = input.byte() % 2 == 0 ? Int(input.byte() % 64) : Int(input.u16() % 4096)
            var value = [UInt8](repeating: 0, count: max(room, 16))
            for i in 0..<min(room, 32) { value[i] = input.byte() }
            var size = UInt32(room)
            let status = input.byte() % 16 == 0 ? AudioFileStreamGetProperty(stream, id, &size, nil)
                                                 : AudioFileStreamGetProperty(stream, id, &size, &value)
            appleCheck(status, "AudioFileStreamGetProperty('\(fourCC(OSStatus(bitPattern: id)))', \(room))", [pick])
            if status == noErr {
                Fuzzing.require(Int(size) <= room, "AudioFileStreamGetProperty wrote \(size) bytes into \(room)")
                if id == kAudioFileStreamProperty_InfoDictionary, let pointer = value.withUnsafeBytes({ $0.loadUnaligned(as: UnsafeRawPointer?.self) }) {
                    releaseCF(pointer)
                }
            }
        case 3:
            let data = input.bytes(Int(input.byte() % 16))
            let status = AudioFileStreamSetProperty(stream, id, UInt32(data.count), data)
            appleCheck(status, "AudioFileStreamSetProperty", [pick])
            Fuzzing.require(status != noErr, "a stream property was set")
        default:
            var offset: Int64 = 0x7777
            var flags = AudioFileStreamSeekFlags(rawValue: input.u32())
            let packet: Int64 = input.byte() % 4 == 0 ? Int64(bitPattern: input.u64()) : Int64(input.u16() % 300) - 2
            let status = input.byte() % 16 == 0 ? AudioFileStreamSeek(stream, packet, nil, &flags) : AudioFileStreamSeek(stream, packet, &offset, &flags)
            appleCheck(status, "AudioFileStreamSeek(\(packet))", [pick])
            if status == noErr { Fuzzing.require(offset >= 0, "a seek to packet \(packet) gave byte \(offset)") }
        }
    }

    func closeStream() {
        let (stream, pick) = applePick(.stream)
        let status = AudioFileStreamClose(stream)
        if status == noErr { appleNoteClosed(bits(stream), byOtherThread: false) }
        if pick == .live {
            if !threadRunning { Fuzzing.require(status == noErr, "closing a live stream gave \(status)") }
            appleRemove(bits(stream))
        }
        appleCheck(status, "AudioFileStreamClose", [pick])
        if pick == .live && !threadRunning {
            Fuzzing.require(AudioFileStreamClose(stream) == kAudioFileNotOpenError, "a closed stream closed again")
        }
    }

    // MARK: Audio Converter Services

    func newConverter() {
        guard apple.live.count < 12 else { return }
        var (source, _) = asbd()
        var (destination, _) = asbd()
        if input.byte() % 2 == 0 {
            // A conversion to or from float, as programs mostly make.
            destination = Formats.presets[input.byte() % 2 == 0 ? 0 : 14]
        }
        var out: AudioConverterRef?
        let status: OSStatus
        switch input.byte() % 16 {
        case 0: status = AudioConverterNew(nil, &destination, &out)
        case 1: status = AudioConverterNew(&source, &destination, nil)
        case 2, 3:
            var codecs = (0..<Int(input.byte() % 3)).map { _ in
                AudioClassDescription(mType: input.choice([kAudioDecoderComponentType, kAudioEncoderComponentType, input.u32()]),
                                      mSubType: input.choice([source.mFormatID, destination.mFormatID, input.u32()]),
                                      mManufacturer: input.choice([kAppleSoftwareAudioCodecManufacturer, 0, input.u32()]))
            }
            let count = input.byte() % 8 == 0 ? UInt32(input.byte()) : UInt32(codecs.count)
            status = codecs.isEmpty ? AudioConverterNewSpecific(&source, &destination, count == 0 ? 0 : min(count, 64), nil, &out)
                                    : AudioConverterNewSpecific(&source, &destination, min(count, UInt32(codecs.count)), &codecs, &out)
        default: status = AudioConverterNew(&source, &destination, &out)
        }
        appleCreated(status, out, "AudioConverterNew(\(source.mFormatID) -> \(destination.mFormatID))") { AppleHeld(bits: $0, kind: .converter) }
    }

    /// A converter's source and destination as it reports them.
    func streamDescriptions(_ converter: OpaquePointer?) -> (AudioStreamBasicDescription, AudioStreamBasicDescription)? {
        var source = AudioStreamBasicDescription()
        var destination = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        guard AudioConverterGetProperty(converter, kAudioConverterCurrentInputStreamDescription, &size, &source) == noErr else { return nil }
        size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        guard AudioConverterGetProperty(converter, kAudioConverterCurrentOutputStreamDescription, &size, &destination) == noErr else { return nil }
        return (source, destination)
    }

    func fillComplexBuffer() {
        let (converter, pick) = applePick(.converter)
        let formats = streamDescriptions(converter)
        let destination = formats?.1 ?? Formats.presets[0]
        let pcmOut = destination.mFormatID == kAudioFormatLinearPCM
        let asked: UInt32 = input.byte() % 8 == 0 ? input.u32() : UInt32(input.u16() % 4096)
        let frames = pcmOut ? Int(min(asked, 8192)) : Int(min(asked, 16)) * 2048
        let output = bufferList(for: pcmOut ? destination : Formats.pcm(1, 1, bits: 8), frames: frames, filled: false)
        let describe = asked <= 8192 && input.byte() % 8 != 0
        var descriptions = [AudioStreamPacketDescription](repeating: AudioStreamPacketDescription(), count: describe ? Int(asked) : 0)
        let feed = ConverterFeed(FuzzInput(input.bytes(Int(input.byte()))), source: formats?.0 ?? Formats.presets[0])
        let user = Unmanaged.passUnretained(feed).toOpaque()
        var io = asked
        let status: OSStatus
        switch input.byte() % 16 {
        case 0: status = AudioConverterFillComplexBuffer(converter, nil, user, &io, output.pointer, nil)
        case 1: status = AudioConverterFillComplexBuffer(converter, converterInput, user, nil, output.pointer, nil)
        case 2: status = AudioConverterFillComplexBuffer(converter, converterInput, user, &io, nil, nil)
        default:
            status = describe ? AudioConverterFillComplexBuffer(converter, converterInput, user, &io, output.pointer, &descriptions)
                              : AudioConverterFillComplexBuffer(converter, converterInput, user, &io, output.pointer, nil)
        }
        withExtendedLifetime(feed) {}
        appleCheck(status, "AudioConverterFillComplexBuffer(\(asked))", [pick])
        Fuzzing.require(io <= asked, "AudioConverterFillComplexBuffer gave \(io) packets of \(asked)")
        for index in 0..<min(output.list.count, output.rooms.count) {
            Fuzzing.require(Int(output.list[index].mDataByteSize) <= output.rooms[index], "a converter filled \(output.list[index].mDataByteSize) bytes of \(output.rooms[index])")
        }
        if let formats, io > 0, pcmOut, Formats.givesFinite(formats.0) {
            checkFinite(output, destination, frames: Int(io))
        }
        if describe && !pcmOut && io > 0 && (status == noErr || status == procFailure) {
            let filled = Int64(output.list.count > 0 ? output.list[0].mDataByteSize : 0)
            for d in descriptions.prefix(Int(io)) {
                Fuzzing.require(d.mStartOffset >= 0 && d.mStartOffset + Int64(d.mDataByteSize) <= filled, "an encoded packet described outside the bytes given")
            }
        }
        feed.release()
        if feed.disposedInside {
            appleNoteClosed(bits(converter), byOtherThread: false)
            appleRemove(bits(converter))
            Fuzzing.require(AudioConverterReset(converter) == kAudio_ParamError, "a converter disposed from its input procedure lives on")
        }
    }

    /// Float samples out of a conversion whose source has no NaN or infinity are finite.
    func checkFinite(_ buffers: Buffers, _ format: AudioStreamBasicDescription, frames: Int, bound: Double = 16) {
        guard format.mFormatFlags & kAudioFormatFlagIsFloat != 0, format.mFormatFlags & kAudioFormatFlagIsBigEndian == 0 else { return }
        let bits = format.mBitsPerChannel
        guard bits == 32 || bits == 64 else { return }
        for index in 0..<buffers.list.count {
            let buffer = buffers.list[index]
            guard let data = buffer.mData else { continue }
            let count = Int(buffer.mDataByteSize) / Int(bits / 8)
            for i in 0..<count {
                let value = bits == 32 ? Double(data.load(fromByteOffset: i * 4, as: Float.self)) : data.load(fromByteOffset: i * 8, as: Double.self)
                Fuzzing.require(value.isFinite && abs(value) <= bound, "a conversion from integer samples gave \(value)")
            }
        }
    }

    func convertBuffer() {
        let (converter, pick) = applePick(.converter)
        let formats = streamDescriptions(converter)
        let source = formats?.0 ?? Formats.presets[1]
        let destination = formats?.1 ?? Formats.presets[0]
        let frames = Int(input.u16() % 2048)
        let inputList = bufferList(for: source, frames: frames, filled: true)
        let outputList = bufferList(for: destination, frames: frames + Int(input.byte() % 3) - 1, filled: false)
        if input.byte() % 2 == 0 {
            let inSize = inputList.list.count > 0 ? inputList.list[0].mDataByteSize : 0
            var outSize = UInt32(outputList.rooms.first ?? 0)
            let room = outSize
            let inData = inputList.list.count > 0 ? inputList.list[0].mData : nil
            let outData = outputList.list.count > 0 ? outputList.list[0].mData : nil
            let status = input.byte() % 16 == 0 ? AudioConverterConvertBuffer(converter, inSize, inData, nil, outData)
                                                 : AudioConverterConvertBuffer(converter, inSize, inData, &outSize, outData)
            appleCheck(status, "AudioConverterConvertBuffer(\(inSize) bytes)", [pick])
            Fuzzing.require(outSize <= room, "AudioConverterConvertBuffer wrote \(outSize) bytes into \(room)")
            if status == noErr, outputList.list.count > 0, let formats, Formats.givesFinite(formats.0) {
                outputList.list[0].mDataByteSize = outSize
                checkFinite(outputList, destination, frames: frames)
            }
        } else {
            let count = input.byte() % 8 == 0 ? input.u32() : UInt32(frames)
            let status = input.byte() % 16 == 0 ? AudioConverterConvertComplexBuffer(converter, count, nil, outputList.pointer)
                                                 : AudioConverterConvertComplexBuffer(converter, count, inputList.pointer, outputList.pointer)
            appleCheck(status, "AudioConverterConvertComplexBuffer(\(count))", [pick])
            for index in 0..<outputList.list.count {
                Fuzzing.require(Int(outputList.list[index].mDataByteSize) <= outputList.rooms[index], "AudioConverterConvertComplexBuffer overfilled a buffer")
            }
            if status == noErr, let formats, Formats.givesFinite(formats.0) { checkFinite(outputList, destination, frames: Int(count)) }
        }
    }

    static let converterProperties: [AudioConverterPropertyID] = [
        kAudioConverterPropertyMinimumInputBufferSize, kAudioConverterPropertyMinimumOutputBufferSize, kAudioConverterPropertyMaximumInputBufferSize,
        kAudioConverterPropertyMaximumInputPacketSize, kAudioConverterPropertyMaximumOutputPacketSize, kAudioConverterPropertyCalculateInputBufferSize,
        kAudioConverterPropertyCalculateOutputBufferSize, kAudioConverterSampleRateConverterComplexity, kAudioConverterSampleRateConverterQuality,
        kAudioConverterSampleRateConverterInitialPhase, kAudioConverterCodecQuality, kAudioConverterPrimeMethod, kAudioConverterPrimeInfo,
        kAudioConverterChannelMap, kAudioConverterDecompressionMagicCookie, kAudioConverterCompressionMagicCookie, kAudioConverterEncodeBitRate,
        kAudioConverterInputChannelLayout, kAudioConverterOutputChannelLayout, kAudioConverterApplicableEncodeBitRates,
        kAudioConverterAvailableEncodeBitRates, kAudioConverterApplicableEncodeSampleRates, kAudioConverterAvailableEncodeSampleRates,
        kAudioConverterAvailableEncodeChannelLayoutTags, kAudioConverterCurrentOutputStreamDescription,
        kAudioConverterCurrentInputStreamDescription, kAudioConverterPropertySettings, kAudioConverterPropertyBitDepthHint,
        kAudioConverterPropertyFormatList, kAudioConverterPropertyCanResumeFromInterruption, kAudioConverterPropertyDithering,
        kAudioConverterSampleRateConverterAlgorithm, kAudioConverterPropertyPerformDownmix,
    ]

    func converterProperty() {
        let (converter, pick) = applePick(.converter)
        let id = input.byte() % 8 == 0 ? input.u32() : input.choice(Program.converterProperties)
        switch input.byte() % 4 {
        case 0:
            var size: UInt32 = 0
            var writable = false
            let status = input.byte() % 4 == 0 ? AudioConverterGetPropertyInfo(converter, id, nil, nil)
                                                : AudioConverterGetPropertyInfo(converter, id, &size, &writable)
            appleCheck(status, "AudioConverterGetPropertyInfo", [pick])
        case 1:
            let room = input.byte() % 2 == 0 ? Int(input.byte() % 64) : Int(input.u16() % 4096)
            var value = [UInt8](repeating: 0, count: max(room, 16))
            for i in 0..<min(room, 32) { value[i] = input.byte() }
            var size = UInt32(room)
            let status = input.byte() % 16 == 0 ? AudioConverterGetProperty(converter, id, nil, &value)
                                                 : AudioConverterGetProperty(converter, id, &size, &value)
            appleCheck(status, "AudioConverterGetProperty('\(fourCC(OSStatus(bitPattern: id)))', \(room))", [pick])
            if status == noErr { Fuzzing.require(Int(size) <= room, "AudioConverterGetProperty wrote \(size) bytes into \(room)") }
        default:
            let setID = input.choice([kAudioConverterChannelMap, kAudioConverterSampleRateConverterQuality, kAudioConverterSampleRateConverterComplexity,
                                      kAudioConverterPrimeMethod, kAudioConverterPrimeInfo, kAudioConverterDecompressionMagicCookie,
                                      kAudioConverterInputChannelLayout, kAudioConverterOutputChannelLayout, kAudioConverterEncodeBitRate,
                                      kAudioConverterSampleRateConverterInitialPhase, kAudioConverterPropertyDithering, id])
            var data: [UInt8]
            switch setID {
            case kAudioConverterChannelMap:
                data = (0..<Int(input.byte() % 10)).flatMap { _ in withUnsafeBytes(of: Int32(Int8(bitPattern: input.byte()))) { Array($0) } }
            case kAudioConverterInputChannelLayout, kAudioConverterOutputChannelLayout: data = channelLayoutBytes()
            case kAudioConverterSampleRateConverterInitialPhase:
                data = withUnsafeBytes(of: input.double()) { propertyBytes(Array($0)) }
            case kAudioConverterDecompressionMagicCookie: data = input.bytes(Int(input.byte() % 64))
            default:
                data = propertyBytes(le32(input.choice([0, 1, 2, 0x7F, 0x60, kAudioConverterSampleRateConverterComplexity_Mastering,
                                                        kAudioConverterSampleRateConverterComplexity_Linear, 128_000, input.u32()])))
            }
            let status = input.byte() % 16 == 0 ? AudioConverterSetProperty(converter, setID, UInt32(data.count), nil)
                                                 : AudioConverterSetProperty(converter, setID, UInt32(data.count), data)
            appleCheck(status, "AudioConverterSetProperty('\(fourCC(OSStatus(bitPattern: setID)))', \(data.count) bytes)", [pick])
        }
    }

    func resetOrDisposeConverter() {
        let (converter, pick) = applePick(.converter)
        if input.byte() % 2 == 0 {
            appleCheck(AudioConverterReset(converter), "AudioConverterReset", [pick])
            return
        }
        let held = pick == .live ? appleHeld(bits(converter)) : nil
        let status = AudioConverterDispose(converter)
        if status == noErr { appleNoteClosed(bits(converter), byOtherThread: false) }
        if let held {
            if !threadRunning && held.owner == 0 { Fuzzing.require(status == noErr, "disposing a live converter gave \(status)") }
            appleRemove(held.bits)
        }
        appleCheck(status, "AudioConverterDispose", [pick])
        if pick == .live && !threadRunning {
            Fuzzing.require(AudioConverterDispose(converter) == kAudio_ParamError, "a disposed converter disposed again")
        }
    }

    // MARK: Extended Audio File Services

    func openExtFile() {
        guard apple.live.count < 12 else { return }
        var out: ExtAudioFileRef?
        if input.byte() % 3 == 0 {
            let (file, pick) = applePick(.audioFile)
            let writing = input.byte() % 2 == 0
            let status = input.byte() % 16 == 0 ? ExtAudioFileWrapAudioFileID(file, writing, nil) : ExtAudioFileWrapAudioFileID(file, writing, &out)
            appleCreated(status, out, "ExtAudioFileWrapAudioFileID", [pick]) {
                AppleHeld(bits: $0, kind: .extFile, writing: writing, wraps: self.bits(file))
            }
            return
        }
        let (url, path) = urlArgument(writable: false)
        let status = input.byte() % 16 == 0 ? ExtAudioFileOpenURL(url, nil) : ExtAudioFileOpenURL(url, &out)
        appleCreated(status, out, "ExtAudioFileOpenURL(\(path))") { AppleHeld(bits: $0, kind: .extFile, path: path) }
        if status == noErr, let out { noteExtFile(out) }
    }

    /// Learns the AudioFileID an ext file opened for itself (it closes it when disposed).
    func noteExtFile(_ ext: ExtAudioFileRef) {
        var file: UInt = 0
        var size = UInt32(MemoryLayout<UInt>.size)
        guard ExtAudioFileGetProperty(ext, kExtAudioFileProperty_AudioFile, &size, &file) == noErr, file != 0,
              let index = apple.live.firstIndex(where: { $0.bits == bits(ext) }) else { return }
        apple.live[index].closesFile = file
    }

    func createExtFile() {
        guard apple.live.count < 12 else { return }
        let (url, path) = urlArgument(writable: true)
        let type = input.choice(Formats.fileTypes)
        var (format, sane) = asbd()
        var layout = channelLayoutBytes()
        let withLayout = input.byte() % 4 == 0
        let flags = input.choice([1, 1, 0, input.u32()])
        var out: ExtAudioFileRef?
        let status = layout.withUnsafeMutableBytes { raw in
            let pointer = withLayout ? UnsafePointer(raw.baseAddress!.assumingMemoryBound(to: AudioChannelLayout.self)) : nil
            switch input.byte() % 16 {
            case 0: return ExtAudioFileCreateWithURL(url, type, nil, pointer, flags, &out)
            case 1: return ExtAudioFileCreateWithURL(url, type, &format, pointer, flags, nil)
            default: return ExtAudioFileCreateWithURL(url, type, &format, pointer, flags, &out)
            }
        }
        appleCreated(status, out, "ExtAudioFileCreateWithURL(\(path), '\(fourCC(OSStatus(bitPattern: type)))')") {
            AppleHeld(bits: $0, kind: .extFile, writing: true, path: path.hasPrefix(temporaryFolder + "/") ? path : nil, sane: sane && !withLayout)
        }
        if status == noErr, let out { noteExtFile(out) }
    }

    static let extProperties: [ExtAudioFilePropertyID] = [
        kExtAudioFileProperty_FileDataFormat, kExtAudioFileProperty_FileChannelLayout, kExtAudioFileProperty_ClientDataFormat,
        kExtAudioFileProperty_ClientChannelLayout, kExtAudioFileProperty_CodecManufacturer, kExtAudioFileProperty_AudioConverter,
        kExtAudioFileProperty_AudioFile, kExtAudioFileProperty_FileMaxPacketSize, kExtAudioFileProperty_ClientMaxPacketSize,
        kExtAudioFileProperty_FileLengthFrames, kExtAudioFileProperty_ConverterConfig, kExtAudioFileProperty_IOBufferSizeBytes,
        kExtAudioFileProperty_IOBuffer, kExtAudioFileProperty_PacketTable,
    ]

    func extProperty() {
        let (ext, pick) = applePick(.extFile)
        let held = pick == .live ? appleHeld(bits(ext)) : nil
        let id = input.byte() % 8 == 0 ? input.u32() : input.choice(Program.extProperties)
        switch input.byte() % 6 {
        case 0:
            var size: UInt32 = 0
            var writable = false
            let status = input.byte() % 4 == 0 ? ExtAudioFileGetPropertyInfo(ext, id, nil, nil) : ExtAudioFileGetPropertyInfo(ext, id, &size, &writable)
            appleCheck(status, "ExtAudioFileGetPropertyInfo", [pick])
        case 1:
            let room = input.byte() % 2 == 0 ? Int(input.byte() % 64) : Int(input.u16() % 4096)
            var value = [UInt8](repeating: 0, count: max(room, 16))
            var size = UInt32(room)
            let status = input.byte() % 16 == 0 ? ExtAudioFileGetProperty(ext, id, &size, nil) : ExtAudioFileGetProperty(ext, id, &size, &value)
            appleCheck(status, "ExtAudioFileGetProperty('\(fourCC(OSStatus(bitPattern: id)))', \(room))", [pick])
            if status == noErr { Fuzzing.require(Int(size) <= room, "ExtAudioFileGetProperty wrote \(size) bytes into \(room)") }
        case 2, 3:
            // The client format: linear PCM (a preset, or hostile), or another format.
            var (format, sane) = asbd()
            if input.byte() % 2 == 0 { format = Formats.presets[input.choice([0, 1, 2, 5, 14, 13, 3])]; sane = true }
            let data = withUnsafeBytes(of: &format) { input.byte() % 8 == 0 ? propertyBytes(Array($0)) : Array($0) }
            let status = ExtAudioFileSetProperty(ext, kExtAudioFileProperty_ClientDataFormat, UInt32(data.count), data)
            appleCheck(status, "ExtAudioFileSetProperty(ClientDataFormat)", [pick])
            if status == noErr && !sane, let held { markInsane(held.bits) }
        case 4:
            // The IO buffer: the program's memory, as long as the size in force or longer; then sizes that fit it.
            guard let held, !threadRunning else { return }
            var inForce: UInt32 = 0
            var size: UInt32 = 4
            guard ExtAudioFileGetProperty(ext, kExtAudioFileProperty_IOBufferSizeBytes, &size, &inForce) == noErr else { return }
            if held.externalBuffer == 0 {
                guard inForce <= 1 << 20, apple.ioBuffers.count < 8 else { return }
                let length = max(Int(inForce), 65_536)
                let memory = malloc(length)!
                apple.ioBuffers.append(memory)
                var pointer = UInt(bitPattern: memory)
                let status = ExtAudioFileSetProperty(ext, kExtAudioFileProperty_IOBuffer, UInt32(MemoryLayout<UInt>.size), &pointer)
                appleCheck(status, "ExtAudioFileSetProperty(IOBuffer)", [pick])
                if status == noErr, let index = apple.live.firstIndex(where: { $0.bits == held.bits }) { apple.live[index].externalBuffer = length }
            } else {
                var bytes = UInt32(min(Int(input.u16()) * 16, held.externalBuffer))
                if input.byte() % 4 == 0 { bytes = UInt32(input.byte()) }
                let status = ExtAudioFileSetProperty(ext, kExtAudioFileProperty_IOBufferSizeBytes, 4, &bytes)
                appleCheck(status, "ExtAudioFileSetProperty(IOBufferSizeBytes \(bytes))", [pick])
                if input.byte() % 4 == 0 {
                    var null: UInt = 0
                    appleCheck(ExtAudioFileSetProperty(ext, kExtAudioFileProperty_IOBuffer, UInt32(MemoryLayout<UInt>.size), &null),
                               "ExtAudioFileSetProperty(IOBuffer NULL)", [pick])
                }
            }
        default:
            var data: [UInt8]
            let setID = input.choice([kExtAudioFileProperty_ClientChannelLayout, kExtAudioFileProperty_FileChannelLayout,
                                      kExtAudioFileProperty_PacketTable, kExtAudioFileProperty_ConverterConfig,
                                      kExtAudioFileProperty_CodecManufacturer, kExtAudioFileProperty_FileLengthFrames,
                                      kExtAudioFileProperty_IOBufferSizeBytes, id])
            switch setID {
            case kExtAudioFileProperty_ClientChannelLayout, kExtAudioFileProperty_FileChannelLayout: data = channelLayoutBytes()
            case kExtAudioFileProperty_PacketTable:
                var table = AudioFilePacketTableInfo(mNumberValidFrames: Int64(bitPattern: input.u64() % 100_000) - 2,
                                                     mPrimingFrames: input.choice([-1, -2, 0, 2112, Int32(bitPattern: input.u32())]),
                                                     mRemainderFrames: input.choice([-1, -2, 0, 100, Int32(bitPattern: input.u32())]))
                data = withUnsafeBytes(of: &table) { propertyBytes(Array($0)) }
            case kExtAudioFileProperty_ConverterConfig: data = propertyBytes(withUnsafeBytes(of: UInt(input.byte() % 4 == 0 ? 1 : 0)) { Array($0) })
            case kExtAudioFileProperty_FileLengthFrames: data = propertyBytes(withUnsafeBytes(of: Int64(input.u16())) { Array($0) })
            case kExtAudioFileProperty_IOBufferSizeBytes:
                // Only while the buffer is the ext file's own (a size past the program's buffer would be the program's lie).
                guard held?.externalBuffer == 0 || held == nil else { return }
                data = propertyBytes(le32(input.choice([0, 63, 64, 4096, 65_536, 1 << 24, (1 << 24) + 1, input.u32()])))
            case kExtAudioFileProperty_IOBuffer: return   // only as above
            default: data = input.bytes(Int(input.byte() % 32))
            }
            let status = data.isEmpty && input.byte() % 2 == 0 ? ExtAudioFileSetProperty(ext, setID, 4, nil)
                                                                : ExtAudioFileSetProperty(ext, setID, UInt32(data.count), data)
            appleCheck(status, "ExtAudioFileSetProperty('\(fourCC(OSStatus(bitPattern: setID)))', \(data.count) bytes)", [pick])
            if status == noErr, setID != kExtAudioFileProperty_ClientChannelLayout, setID != kExtAudioFileProperty_CodecManufacturer,
               let held { markInsane(held.bits) }
        }
    }

    /// An ext file's client format, as it says (nil when it does not).
    func clientFormat(_ ext: OpaquePointer?) -> AudioStreamBasicDescription? {
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        guard ExtAudioFileGetProperty(ext, kExtAudioFileProperty_ClientDataFormat, &size, &format) == noErr else { return nil }
        return format
    }

    func fileFormat(_ ext: OpaquePointer?) -> AudioStreamBasicDescription? {
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        guard ExtAudioFileGetProperty(ext, kExtAudioFileProperty_FileDataFormat, &size, &format) == noErr else { return nil }
        return format
    }

    func extRead() {
        let (ext, pick) = applePick(.extFile)
        let client = clientFormat(ext) ?? Formats.presets[0]
        let asked: UInt32 = input.byte() % 8 == 0 ? input.u32() : UInt32(input.u16() % 4096)
        let buffers = bufferList(for: client, frames: Int(min(asked, 8192)), filled: false)
        var frames = asked
        let status: OSStatus
        switch input.byte() % 16 {
        case 0: status = ExtAudioFileRead(ext, nil, buffers.pointer)
        case 1: status = ExtAudioFileRead(ext, &frames, nil)
        default: status = ExtAudioFileRead(ext, &frames, buffers.pointer)
        }
        appleCheck(status, "ExtAudioFileRead(\(asked))", [pick])
        Fuzzing.require(frames <= asked, "ExtAudioFileRead read \(frames) frames of \(asked)")
        for index in 0..<buffers.list.count {
            Fuzzing.require(Int(buffers.list[index].mDataByteSize) <= buffers.rooms[index], "ExtAudioFileRead overfilled a buffer")
        }
        if status == noErr, frames > 0, let file = fileFormat(ext), Formats.givesFinite(file) {
            checkFinite(buffers, client, frames: Int(frames))
        }
    }

    func extWrite() {
        let (ext, pick) = applePick(.extFile)
        let held = pick == .live ? appleHeld(bits(ext)) : nil
        let client = clientFormat(ext) ?? Formats.presets[0]
        let frames: UInt32 = input.byte() % 8 == 0 ? input.u32() : UInt32(input.u16() % 4096)
        let buffers = bufferList(for: client, frames: Int(min(frames, 8192)), filled: true)
        let status: OSStatus
        let async = input.byte() % 4 == 0
        var given = frames
        switch input.byte() % 16 {
        case 0:
            // The priming call (0 frames, NULL), or frames without their buffers.
            given = async ? 0 : frames
            status = async ? ExtAudioFileWriteAsync(ext, 0, nil) : ExtAudioFileWrite(ext, frames, nil)
        default: status = async ? ExtAudioFileWriteAsync(ext, frames, buffers.pointer) : ExtAudioFileWrite(ext, frames, buffers.pointer)
        }
        appleCheck(status, async ? "ExtAudioFileWriteAsync(\(frames))" : "ExtAudioFileWrite(\(frames))", [pick])
        if let held, let index = apple.live.firstIndex(where: { $0.bits == held.bits }) {
            if status == noErr { apple.live[index].framesWritten += Int64(given) } else { apple.live[index].sane = false }
            // Frames are counted in the file's rate: a client at another rate resamples them.
            if fileFormat(ext)?.mSampleRate != client.mSampleRate { apple.live[index].sane = false }
        }
    }

    func extSeek() {
        let (ext, pick) = applePick(.extFile)
        if input.byte() % 2 == 0 {
            let frame: Int64 = input.byte() % 4 == 0 ? Int64(bitPattern: input.u64()) : Int64(input.u16()) - 8
            appleCheck(ExtAudioFileSeek(ext, frame), "ExtAudioFileSeek(\(frame))", [pick])
        } else {
            var frame: Int64 = -7
            let status = input.byte() % 16 == 0 ? ExtAudioFileTell(ext, nil) : ExtAudioFileTell(ext, &frame)
            appleCheck(status, "ExtAudioFileTell", [pick])
            if status == noErr { Fuzzing.require(frame >= 0, "ExtAudioFileTell says \(frame)") }
        }
    }

    func disposeExtFile() {
        let (ext, pick) = applePick(.extFile)
        disposeExtFile(ext, pick: pick)
    }

    /// Disposes an ext file and checks what follows: it is stale, and so are its converter and
    /// the AudioFileID it opened; an AudioFileID it wrapped is still open; a file it wrote with
    /// presets reads back the frames written.
    func disposeExtFile(_ ext: OpaquePointer?, pick: Pick) {
        let held = pick == .live ? appleHeld(bits(ext)) : nil
        var converter: UInt = 0
        var size = UInt32(MemoryLayout<UInt>.size)
        if held != nil && !threadRunning { _ = ExtAudioFileGetProperty(ext, kExtAudioFileProperty_AudioConverter, &size, &converter) }
        let status = ExtAudioFileDispose(ext)
        if status == noErr { appleNoteClosed(bits(ext), byOtherThread: false) }
        if let held {
            appleRemove(held.bits)
            if !threadRunning {
                if converter != 0 {
                    Fuzzing.require(AudioConverterReset(OpaquePointer(bitPattern: converter)) == kAudio_ParamError, "an ext file's converter outlived it")
                }
                if held.closesFile != 0 {
                    Fuzzing.require(AudioFileClose(OpaquePointer(bitPattern: held.closesFile)) == kAudioFileNotOpenError, "an ext file's own AudioFileID outlived it")
                }
                if held.wraps != 0 && appleHeld(held.wraps) != nil {
                    var format = AudioStreamBasicDescription()
                    var formatSize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
                    Fuzzing.require(AudioFileGetProperty(OpaquePointer(bitPattern: held.wraps), kAudioFilePropertyDataFormat, &formatSize, &format)
                                    != kAudioFileNotOpenError, "the AudioFileID an ext file wrapped was closed with it")
                }
            }
        }
        appleCheck(status, "ExtAudioFileDispose", [pick])
        if pick == .live && !threadRunning {
            Fuzzing.require(ExtAudioFileDispose(ext) == kAudio_ParamError, "a disposed ext file disposed again")
        }
        if let held, status == noErr, held.sane, held.writing, held.framesWritten > 0, let path = held.path, !threadRunning {
            readBack(path, frames: held.framesWritten)
        }
    }

    /// A file an ext file wrote with presets: it reopens with exactly the frames written, and reads them.
    func readBack(_ path: String, frames: Int64) {
        let url = Array(path.utf8).withUnsafeBufferPointer { CFURLCreateFromFileSystemRepresentation(nil, $0.baseAddress, $0.count, false) }
        var ext: ExtAudioFileRef?
        let open = ExtAudioFileOpenURL(url, &ext)
        Fuzzing.require(open == noErr, "a file an ext file wrote does not reopen: \(open) '\(fourCC(open))'")
        guard let ext else { return }
        defer { Fuzzing.require(ExtAudioFileDispose(ext) == noErr, "a reopened ext file did not dispose") }
        var length: Int64 = 0
        var size: UInt32 = 8
        Fuzzing.require(ExtAudioFileGetProperty(ext, kExtAudioFileProperty_FileLengthFrames, &size, &length) == noErr, "no length")
        var client = Formats.presets[0]
        let file = fileFormat(ext) ?? client
        client.mSampleRate = file.mSampleRate
        client.mChannelsPerFrame = file.mChannelsPerFrame
        client.mBytesPerFrame = 4 * file.mChannelsPerFrame
        client.mBytesPerPacket = client.mBytesPerFrame
        Fuzzing.require(ExtAudioFileSetProperty(ext, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size),
                                                &client) == noErr, "a written file takes no float client format")
        Fuzzing.require(length == frames, "\(frames) frames written, \(length) in the file")
        var total: Int64 = 0
        let buffers = Buffers(count: 1, room: 4096 * Int(client.mBytesPerFrame), channels: client.mChannelsPerFrame) { _ in }
        while total <= frames {
            var count: UInt32 = 4096
            buffers.list[0].mDataByteSize = UInt32(buffers.rooms[0])
            let status = ExtAudioFileRead(ext, &count, buffers.pointer)
            Fuzzing.require(status == noErr, "reading back a written file: \(status)")
            if count == 0 || status != noErr { break }
            total += Int64(count)
        }
        Fuzzing.require(total == frames, "\(frames) frames written, \(total) read back")
    }

    // MARK: Audio Format Services

    static let formatProperties: [AudioFormatPropertyID] = [
        kAudioFormatProperty_FormatInfo, kAudioFormatProperty_FormatName, kAudioFormatProperty_EncodeFormatIDs, kAudioFormatProperty_DecodeFormatIDs,
        kAudioFormatProperty_FormatList, kAudioFormatProperty_ASBDFromESDS, kAudioFormatProperty_FormatIsVBR, kAudioFormatProperty_FormatIsExternallyFramed,
        kAudioFormatProperty_FormatIsEncrypted, kAudioFormatProperty_Encoders, kAudioFormatProperty_Decoders, kAudioFormatProperty_AvailableEncodeBitRates,
        kAudioFormatProperty_AvailableEncodeSampleRates, kAudioFormatProperty_BitmapForLayoutTag, kAudioFormatProperty_NumberOfChannelsForLayout,
        kAudioFormatProperty_ValidateChannelLayout, kAudioFormatProperty_ChannelLayoutForTag, kAudioFormatProperty_TagForChannelLayout,
        kAudioFormatProperty_ChannelLayoutName, kAudioFormatProperty_ChannelLayoutSimpleName, kAudioFormatProperty_ChannelLayoutForBitmap,
        kAudioFormatProperty_ChannelName, kAudioFormatProperty_ChannelShortName, kAudioFormatProperty_TagsForNumberOfChannels,
        kAudioFormatProperty_HardwareCodecCapabilities, kAudioFormatProperty_ChannelMap,
    ]

    func formatProperty() {
        let id = input.byte() % 8 == 0 ? input.u32() : input.choice(Program.formatProperties)
        // The specifier: a format ID, a description, a layout, a tag, a bitmap, or any bytes.
        var specifier: [UInt8]
        switch input.byte() % 6 {
        case 0: specifier = le32(input.choice(Formats.formatIDs))
        case 1:
            var (format, _) = asbd()
            specifier = withUnsafeBytes(of: &format) { Array($0) }
        case 2: specifier = channelLayoutBytes()
        case 3: specifier = le32(input.choice([kAudioChannelLayoutTag_Stereo, (102 << 16) | 1, (113 << 16) | 6, input.u32()]))
        case 4: specifier = []
        default: specifier = input.bytes(Int(input.byte() % 64))
        }
        let specifierSize = input.byte() % 16 == 0 ? UInt32(input.byte()) % UInt32(specifier.count + 1) : UInt32(specifier.count)
        var size: UInt32 = 0
        let info = specifier.withUnsafeBytes { raw in
            input.byte() % 16 == 0 ? AudioFormatGetPropertyInfo(id, specifierSize, nil, &size)
                                   : AudioFormatGetPropertyInfo(id, specifierSize, raw.baseAddress, &size)
        }
        appleCheck(info, "AudioFormatGetPropertyInfo('\(fourCC(OSStatus(bitPattern: id)))')")
        let room = input.byte() % 2 == 0 && info == noErr ? Int(min(size, 1 << 16)) : Int(input.u16() % 2048)
        var value = [UInt8](repeating: 0, count: max(room, 64))
        if id == kAudioFormatProperty_FormatInfo {
            // In and out: a description to complete.
            var (format, _) = asbd()
            withUnsafeBytes(of: &format) { raw in for i in 0..<min(raw.count, value.count) { value[i] = raw[i] } }
        }
        var ioSize = UInt32(room)
        let status = specifier.withUnsafeBytes { raw in
            input.byte() % 16 == 0 ? AudioFormatGetProperty(id, specifierSize, raw.baseAddress, &ioSize, nil)
                                   : AudioFormatGetProperty(id, specifierSize, raw.baseAddress, &ioSize, &value)
        }
        appleCheck(status, "AudioFormatGetProperty('\(fourCC(OSStatus(bitPattern: id)))', \(room))")
        guard status == noErr else { return }
        Fuzzing.require(Int(ioSize) <= room, "AudioFormatGetProperty wrote \(ioSize) bytes into \(room)")
        if info == noErr && id != kAudioFormatProperty_ValidateChannelLayout && room >= Int(size) {
            Fuzzing.require(ioSize <= size, "AudioFormatGetProperty wrote \(ioSize) bytes where its info said \(size)")
        }
        if [kAudioFormatProperty_FormatName, kAudioFormatProperty_ChannelLayoutName, kAudioFormatProperty_ChannelLayoutSimpleName,
            kAudioFormatProperty_ChannelName, kAudioFormatProperty_ChannelShortName].contains(id) {
            // A new CFStringRef, the caller's to release.
            let pointer = value.withUnsafeBytes { $0.loadUnaligned(as: UnsafeRawPointer?.self) }
            Fuzzing.require(pointer != nil, "a name property gave NULL")
            if let pointer { _ = CFStringGetLength(Unmanaged<CFStringObject>.fromOpaque(pointer).takeUnretainedValue()) }
            releaseCF(pointer)
        }
    }

    // MARK: An ext file's own handles

    /// Takes an ext file's converter or AudioFileID (its properties) into the program's hands:
    /// Apple lets a program set the converter's properties; the fuzzer also disposes and closes them.
    func borrow() {
        let (ext, pick) = applePick(.extFile)
        guard pick == .live, !threadRunning else { return }
        let id = input.byte() % 2 == 0 ? kExtAudioFileProperty_AudioConverter : kExtAudioFileProperty_AudioFile
        var value: UInt = 0
        var size = UInt32(MemoryLayout<UInt>.size)
        let status = ExtAudioFileGetProperty(ext, id, &size, &value)
        appleCheck(status, "ExtAudioFileGetProperty(borrow)", [pick])
        guard status == noErr, value != 0, appleHeld(value) == nil else { return }
        apple.live.append(AppleHeld(bits: value, kind: id == kExtAudioFileProperty_AudioConverter ? .converter : .audioFile, owner: bits(ext)))
        if id == kExtAudioFileProperty_AudioConverter && input.byte() % 2 == 0 {
            // What Apple documents: a converter property set, then ConverterConfig NULL to apply it.
            var quality = kAudioConverterQuality_Max
            appleCheck(AudioConverterSetProperty(OpaquePointer(bitPattern: value), kAudioConverterSampleRateConverterQuality, 4, &quality),
                       "AudioConverterSetProperty (an ext file's converter)")
            var null: UInt = 0
            appleCheck(ExtAudioFileSetProperty(ext, kExtAudioFileProperty_ConverterConfig, UInt32(MemoryLayout<UInt>.size), &null),
                       "ExtAudioFileSetProperty(ConverterConfig NULL)", [pick])
        }
    }

    // MARK: The end

    /// Closes what is left (streams, converters, ext files, files), checks every handle is then
    /// stale, releases the CF objects and empties the folder.
    func finishApple() {
        finishUnits()
        for kind in [AppleKind.queue, .stream, .converter, .extFile, .audioFile] {
            for held in apple.live where held.kind == kind && held.owner == 0 {
                guard appleHeld(held.bits) != nil else { continue }   // gone with its owner
                let handle = OpaquePointer(bitPattern: held.bits)
                switch kind {
                case .queue:
                    let status = AudioQueueDispose(handle, true)
                    let disposedInCallback = apple.queues[held.bits]?.client.disposed.load(ordering: .relaxed) ?? false
                    Fuzzing.require(status == noErr || disposedInCallback, "the final AudioQueueDispose gave \(status)")
                    if status == noErr { appleNoteClosed(held.bits, byOtherThread: false) }
                    appleRemove(held.bits)
                case .stream:
                    let status = AudioFileStreamClose(handle)
                    Fuzzing.require(status == noErr, "the final AudioFileStreamClose gave \(status)")
                    appleNoteClosed(held.bits, byOtherThread: false)
                    appleRemove(held.bits)
                case .converter:
                    let status = AudioConverterDispose(handle)
                    Fuzzing.require(status == noErr, "the final AudioConverterDispose gave \(status)")
                    appleNoteClosed(held.bits, byOtherThread: false)
                    appleRemove(held.bits)
                case .extFile: disposeExtFile(handle, pick: .live)
                case .audioFile: closeFile(handle, pick: .live, held: held)
                }
            }
        }
        // Borrowed handles left were their owners'; all are gone now.
        for held in apple.live { apple.dead.append((held.bits, held.kind)) }
        apple.live = []
        for (bits, kind) in apple.dead {
            let handle = OpaquePointer(bitPattern: bits)
            let status: OSStatus
            switch kind {
            case .audioFile: status = AudioFileClose(handle)
            case .stream: status = AudioFileStreamClose(handle)
            case .converter: status = AudioConverterDispose(handle)
            case .extFile: status = ExtAudioFileDispose(handle)
            case .queue: status = AudioQueueDispose(handle, true)
            }
            Fuzzing.require(status == staleCode(kind), "a \(kind) closed before is still open (\(status))")
        }
        apple.dead = []
        for url in apple.urls { releaseCF(url.url) }
        apple.urls = []
        for string in apple.strings { releaseCF(string) }
        apple.strings = []
        for memory in apple.ioBuffers { free(memory) }
        apple.ioBuffers = []
        apple.clients = []
        apple.memoryFiles = []
        apple.queues = [:]
        apple.freedBuffers = []
        if let folder = opendir(temporaryFolder) {
            while let entry = readdir(folder) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name != "." && name != ".." { unlink(temporaryFolder + "/" + name) }
            }
            closedir(folder)
        }
    }
}

// MARK: The second thread

extension SecondThread {
    /// One Apple call on the snapshot's handles, racing the program's thread (which may close them).
    func appleCall(_ opcode: UInt8) {
        func handle(_ kind: AppleKind) -> OpaquePointer? {
            let ofKind = appleHandles.filter { $0.kind == kind }
            guard !ofKind.isEmpty else { return nil }
            return OpaquePointer(bitPattern: ofKind[Int(input.byte()) % ofKind.count].bits)
        }
        var status: OSStatus = noErr
        switch opcode % 8 {
        case 0:
            var buffer = [UInt8](repeating: 0, count: 4096)
            var descriptions = [AudioStreamPacketDescription](repeating: AudioStreamPacketDescription(), count: 16)
            var bytes: UInt32 = 4096
            var packets: UInt32 = 16
            status = AudioFileReadPacketData(handle(.audioFile), false, &bytes, &descriptions, Int64(input.byte()), &packets, &buffer)
            Fuzzing.require(bytes <= 4096 && packets <= 16, "a read on the second thread overran")
        case 1:
            var format = AudioStreamBasicDescription()
            var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
            status = AudioFileGetProperty(handle(.audioFile), input.choice([kAudioFilePropertyDataFormat, kAudioFilePropertyAudioDataPacketCount,
                                                                            kAudioFilePropertyMagicCookieData]), &size, &format)
        case 2:
            let ext = handle(.extFile)
            var client = AudioStreamBasicDescription()
            var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
            _ = ExtAudioFileGetProperty(ext, kExtAudioFileProperty_ClientDataFormat, &size, &client)
            let bytesPerFrame = max(Int(client.mBytesPerFrame), 1)
            let count = client.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0 ? min(Int(client.mChannelsPerFrame), 16) : 1
            let buffers = Buffers(count: count, room: 256 * min(bytesPerFrame, 256), channels: 1) { raw in
                for i in 0..<raw.count { raw[i] = UInt8(truncatingIfNeeded: i) }
            }
            var frames: UInt32 = 256
            switch input.byte() % 3 {
            case 0: status = ExtAudioFileRead(ext, &frames, buffers.pointer)
            case 1: status = ExtAudioFileWrite(ext, frames, buffers.pointer)
            default: status = ExtAudioFileWriteAsync(ext, frames, buffers.pointer)
            }
        case 3:
            let ext = handle(.extFile)
            var frame: Int64 = 0
            status = input.byte() % 2 == 0 ? ExtAudioFileSeek(ext, Int64(input.byte())) : ExtAudioFileTell(ext, &frame)
        case 4:
            let converter = handle(.converter)
            var value = [UInt8](repeating: 0, count: 64)
            var size: UInt32 = 64
            status = input.byte() % 2 == 0 ? AudioConverterReset(converter)
                                           : AudioConverterGetProperty(converter, kAudioConverterCurrentOutputStreamDescription, &size, &value)
        case 5:
            let converter = handle(.converter)
            var source = AudioStreamBasicDescription()
            var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
            _ = AudioConverterGetProperty(converter, kAudioConverterCurrentInputStreamDescription, &size, &source)
            let output = Buffers(count: 1, room: 4096, channels: 2) { _ in }
            let feed = ConverterFeed(FuzzInput(input.bytes(Int(input.byte() % 64))), source: source)
            var packets: UInt32 = 256
            status = AudioConverterFillComplexBuffer(converter, converterInput, Unmanaged.passUnretained(feed).toOpaque(), &packets,
                                                     output.pointer, nil)
            Fuzzing.require(packets <= 256 && output.list[0].mDataByteSize <= 4096, "a fill on the second thread overran")
            feed.release()
            if feed.disposedInside, let converter { noteAppleClosed(UInt(bitPattern: converter)) }
        case 6:
            // Closes race the other thread's calls and closes (the same handle too).
            let kind = input.choice(AppleKind.allCases)
            let target = handle(kind)
            switch kind {
            case .audioFile: status = AudioFileClose(target)
            case .converter: status = AudioConverterDispose(target)
            case .extFile: status = ExtAudioFileDispose(target)
            case .stream: status = AudioFileStreamClose(target)
            case .queue:
                // Two threads starting and disposing of one queue.
                if input.byte() % 2 == 0 {
                    status = AudioQueueStart(target, nil)
                    if status == noErr, let target, input.byte() % 2 == 1 { status = AudioQueueStop(target, true) }
                    Fuzzing.require(appleCodes.contains(status) || queueCodes.contains(status), "a start on the second thread returned \(status)")
                    return
                }
                status = AudioQueueDispose(target, true)
            }
            if status == noErr, let target { noteAppleClosed(UInt(bitPattern: target)) }
            if kind == .audioFile && status != kAudioFileNotOpenError && status != kAudio_ParamError, let target {
                noteAppleClosed(UInt(bitPattern: target), maybe: true)   // a failed trailer write closes the file all the same
            }
            if kind == .extFile && status != kAudio_ParamError, status != noErr, let target {
                noteAppleClosed(UInt(bitPattern: target), maybe: true)   // disposed all the same
            }
        default:
            let stream = handle(.stream)
            var value = [UInt8](repeating: 0, count: 64)
            var size: UInt32 = 64
            var offset: Int64 = 0
            var flags: AudioFileStreamSeekFlags = []
            let id = input.choice(Program.streamProperties)
            status = input.byte() % 2 == 0 ? AudioFileStreamGetProperty(stream, id, &size, &value)
                                           : AudioFileStreamSeek(stream, Int64(input.byte()), &offset, &flags)
            if status == noErr && id == kAudioFileStreamProperty_InfoDictionary && size == 8 {
                // A new dictionary: this thread's to release.
                releaseCF(value.withUnsafeBytes { $0.loadUnaligned(as: UnsafeRawPointer?.self) })
            }
        }
        Fuzzing.require(appleCodes.contains(status) || queueCodes.contains(status), "an Apple call on the second thread returned \(status)")
    }

    func noteAppleClosed(_ bits: UInt, maybe: Bool = false) {
        let twice = record.withLock { record in
            record.appleClosed.append(bits)
            return maybe ? false : !record.appleClosedOK.insert(bits).inserted
        }
        Fuzzing.require(!twice, "an Apple handle was closed twice with noErr")
    }
}
