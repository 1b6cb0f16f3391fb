import AudioToolbox
import Foundation
import SoundFile
import Testing

/// Every way to call Audio File Services wrongly, and every truncated or hostile file, is one of
/// Apple's codes, never a crash.
@Suite struct AudioFileErrorTests {
    /// A small WAVE file's bytes and an open ID for them.
    static func wave(frames: Int = 100) throws -> [UInt8] {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try AudioFileFixture.write(frames: frames, channels: 1, .wavPCM16, name: "w.wav", in: directory)
        return Array(try Data(contentsOf: url))
    }

    /// Opens `bytes` through the callbacks.
    static func open(_ bytes: [UInt8]) -> (OSStatus, AudioFileID?, MemoryFile) {
        let box = MemoryFile(bytes: bytes)
        var fileID: AudioFileID?
        let status = AudioFileOpenWithCallbacks(Unmanaged.passUnretained(box).toOpaque(), MemoryFile.read, nil, MemoryFile.size,
                                                nil, 0, &fileID)
        return (status, fileID, box)
    }

    @Test func openingWhatCannotBeOpened() throws {
        var fileID: AudioFileID?
        let missing = URL(fileURLWithPath: "/nonexistent/soundstage/missing.wav")
        #expect(AudioFileOpenURL(missing as CFURL, .readPermission, 0, &fileID) == kAudioFileFileNotFoundError)
        #expect(fileID == nil)
        #expect(AudioFileOpenURL(URL(string: "https://example.com/a.wav")! as CFURL, .readPermission, 0, &fileID) == kAudio_BadFilePathError)
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(AudioFileOpenURL(directory as CFURL, .readPermission, 0, &fileID) == kAudioFileInvalidFileError)
        let text = directory.appendingPathComponent("notes.txt")
        try "not audio at all, just words".write(to: text, atomically: true, encoding: .utf8)
        #expect(AudioFileOpenURL(text as CFURL, .readPermission, 0, &fileID) == kAudioFileUnsupportedFileTypeError)
        let wav = directory.appendingPathComponent("ok.wav")
        try Data(try Self.wave()).write(to: wav)
        // Reopening a file to write it is not offered yet (create a new one).
        #expect(AudioFileOpenURL(wav as CFURL, .writePermission, 0, &fileID) == kAudioFileOperationNotSupportedError)
        #expect(AudioFileOpenURL(wav as CFURL, .readWritePermission, 0, &fileID) == kAudioFileOperationNotSupportedError)
        #expect(AudioFileOpenURL(wav as CFURL, AudioFilePermissions(rawValue: 9)!, 0, &fileID) == kAudio_ParamError)
        #expect(fileID == nil)
        // The C function: a NULL URL or a NULL ID pointer.
        #expect(AudioFileOpenURL(nil as CFURLObject?, .readPermission, 0, &fileID) == kAudio_ParamError)
        let path = Array(wav.path.utf8)
        let cfURL = CFURLCreateFromFileSystemRepresentation(nil, path, path.count, false)
        #expect(AudioFileOpenURL(cfURL, .readPermission, 0, nil) == kAudio_ParamError)
        #expect(AudioFileOpenURL(cfURL, .readPermission, 0, &fileID) == noErr)
        #expect(AudioFileClose(fileID) == noErr)
        // Callbacks: both the read and size callbacks are required.
        #expect(AudioFileOpenWithCallbacks(nil, nil, nil, MemoryFile.size, nil, 0, &fileID) == kAudio_ParamError)
        #expect(AudioFileOpenWithCallbacks(nil, MemoryFile.read, nil, nil, nil, 0, &fileID) == kAudio_ParamError)
        // Creating with an empty description: a format no file holds, and the file is left alone.
        var asbd = AudioStreamBasicDescription()
        #expect(AudioFileCreateWithURL(wav as CFURL, kAudioFileWAVEType, &asbd, .eraseFile, &fileID) == kAudioFileUnsupportedDataFormatError)
        #expect(try Data(contentsOf: wav) == Data(try Self.wave()))
    }

    @Test func aClosedFileIsNotOpen() throws {
        let (status, fileID, box) = Self.open(try Self.wave())
        #expect(status == noErr)
        let file = try #require(fileID)
        #expect(AudioFileClose(file) == noErr)
        #expect(AudioFileClose(file) == kAudioFileNotOpenError)
        var asbd = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioFileGetProperty(file, kAudioFilePropertyDataFormat, &size, &asbd) == kAudioFileNotOpenError)
        #expect(AudioFileGetPropertyInfo(file, kAudioFilePropertyDataFormat, &size, nil) == kAudioFileNotOpenError)
        var buffer = [UInt8](repeating: 0, count: 64)
        var numBytes: UInt32 = 64
        var numPackets: UInt32 = 4
        #expect(AudioFileReadPacketData(file, false, &numBytes, nil, 0, &numPackets, &buffer) == kAudioFileNotOpenError)
        #expect(AudioFileReadBytes(file, false, 0, &numBytes, &buffer) == kAudioFileNotOpenError)
        #expect(AudioFileClose(nil) == kAudio_ParamError)
        #expect(AudioFileClose(OpaquePointer(bitPattern: 0x7777_0001)) == kAudioFileNotOpenError)   // never given out
        _ = box
    }

    @Test func propertiesAskedWrongly() throws {
        let (status, fileID, box) = Self.open(try Self.wave())
        #expect(status == noErr)
        let file = try #require(fileID)
        defer { _ = AudioFileClose(file); _ = box }
        var asbd = AudioStreamBasicDescription()
        var size: UInt32 = 4
        #expect(AudioFileGetProperty(file, kAudioFilePropertyDataFormat, &size, &asbd) == kAudioFileBadPropertySizeError)
        #expect(asbd.mFormatID == 0)   // untouched
        size = 64
        #expect(AudioFileGetProperty(file, 0x7A7A7A7A, &size, &asbd) == kAudioFileUnsupportedPropertyError)
        #expect(AudioFileGetPropertyInfo(file, kAudioFilePropertyMagicCookieData, &size, nil) == kAudioFileUnsupportedPropertyError)
        #expect(AudioFileGetPropertyInfo(file, kAudioFilePropertyPacketTableInfo, &size, nil) == kAudioFileUnsupportedPropertyError)
        #expect(AudioFileGetPropertyInfo(file, kAudioFilePropertyMarkerList, &size, nil) == kAudioFileUnsupportedPropertyError)
        #expect(AudioFileGetProperty(file, kAudioFilePropertyDataFormat, nil, &asbd) == kAudio_ParamError)
        #expect(AudioFileGetProperty(file, kAudioFilePropertyDataFormat, &size, nil) == kAudio_ParamError)
        var writable: UInt32 = 9
        #expect(AudioFileGetPropertyInfo(file, kAudioFilePropertyDataFormat, &size, &writable) == noErr)
        #expect(size == 40 && writable == 0)
        #expect(AudioFileGetPropertyInfo(file, kAudioFilePropertyDataFormat, nil, nil) == noErr)
        #expect(AudioFileSetProperty(file, kAudioFilePropertyDataFormat, 40, &asbd) == kAudioFilePermissionsError)
        #expect(AudioFileSetProperty(file, 0x7A7A7A7A, 40, &asbd) == kAudioFileUnsupportedPropertyError)
        #expect(AudioFileOptimize(file) == kAudioFilePermissionsError)
        var translation = AudioFramePacketTranslation()
        size = 4
        #expect(AudioFileGetProperty(file, kAudioFilePropertyFrameToPacket, &size, &translation) == kAudioFileBadPropertySizeError)
    }

    @Test func readingOutsideTheData() throws {
        let (status, fileID, box) = Self.open(try Self.wave(frames: 100))
        #expect(status == noErr)
        let file = try #require(fileID)
        defer { _ = AudioFileClose(file); _ = box }
        var buffer = [UInt8](repeating: 0, count: 400)
        var numBytes: UInt32 = 400
        var numPackets: UInt32 = 50
        #expect(AudioFileReadPacketData(file, false, &numBytes, nil, 100, &numPackets, &buffer) == kAudioFileEndOfFileError)
        #expect(numPackets == 0 && numBytes == 0)
        numBytes = 400; numPackets = 50
        #expect(AudioFileReadPacketData(file, false, &numBytes, nil, -1, &numPackets, &buffer) == kAudioFileInvalidPacketOffsetError)
        numBytes = 400; numPackets = 50
        #expect(AudioFileReadPacketData(file, false, &numBytes, nil, 90, &numPackets, &buffer) == noErr)
        #expect(numPackets == 10 && numBytes == 20)   // fewer at the end: noErr
        numBytes = 1; numPackets = 50
        #expect(AudioFileReadPacketData(file, false, &numBytes, nil, 0, &numPackets, &buffer) == kAudio_ParamError)   // no room for one
        numBytes = 400; numPackets = 50
        #expect(AudioFileReadPacketData(file, false, nil, nil, 0, &numPackets, &buffer) == kAudio_ParamError)
        #expect(AudioFileReadPacketData(file, false, &numBytes, nil, 0, nil, &buffer) == kAudio_ParamError)
        #expect(AudioFileReadPacketData(file, false, &numBytes, nil, 0, &numPackets, nil) == kAudio_ParamError)
        numPackets = 50
        #expect(AudioFileReadPackets(file, false, &numBytes, nil, 500, &numPackets, &buffer) == noErr)
        #expect(numPackets == 0)
        numPackets = 50
        #expect(AudioFileReadPackets(file, false, &numBytes, nil, -5, &numPackets, &buffer) == kAudioFileInvalidPacketOffsetError)
        numBytes = 10
        #expect(AudioFileReadBytes(file, false, -1, &numBytes, &buffer) == kAudioFilePositionError)
        numBytes = 10
        #expect(AudioFileReadBytes(file, false, 1_000, &numBytes, &buffer) == kAudioFileEndOfFileError)
        #expect(numBytes == 0)
        #expect(AudioFileWriteBytes(file, false, 0, &numBytes, &buffer) == kAudioFilePermissionsError)
        numPackets = 1
        #expect(AudioFileWritePackets(file, false, 2, nil, 0, &numPackets, &buffer) == kAudioFilePermissionsError)
    }

    /// The files the truncation and hostile-bytes tests start from: one of each container read here.
    private func originals() throws -> [[UInt8]] {
        var files = [try Self.wave(frames: 300), try cafFile(.cafIMA4), try cafFile(.cafALAC), try cafFile(.aiffPCM16),
                     try cafFile(.m4aALAC), try cafFile(.mp3)]
        if FFmpeg.hasEncoder(named: "aac") { files.append(try cafFile(.adtsAAC)) }
        return files
    }

    @Test func truncatedFilesAreErrorsOrShorter() throws {
        for bytes in try originals() {
            for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 300)) {
                let (status, fileID, box) = Self.open(Array(bytes[0..<cut]))
                if status == noErr, let file = fileID {
                    let packets = readAllPackets(file)
                    #expect(packets.status == noErr)
                    #expect(packets.bytes.count <= cut)
                    #expect(AudioFileClose(file) == noErr)
                } else {
                    #expect(fileID == nil)
                    #expect([kAudioFileInvalidFileError, kAudioFileUnsupportedFileTypeError, kAudioFileUnsupportedDataFormatError]
                            .contains(status), "cut at \(cut) of \(bytes.count): \(status)")
                }
                _ = box
            }
        }
    }

    @Test func hostileBytesAreErrorsNotCrashes() throws {
        var generator = SplitMix(seed: 46)
        for original in try originals() {
            for _ in 0..<400 {
                var bytes = original
                for _ in 0..<Int(generator.next() % 6 + 1) {
                    // Headers first: the first 160 bytes, or (for MPEG-4's 'moov' at the end) the last 600.
                    let tail = generator.next() % 2 == 0
                    let span = min(bytes.count, tail ? 600 : 160)
                    let within = Int(generator.next() % UInt64(span))
                    let at = tail ? bytes.count - 1 - within : within
                    bytes[at] = UInt8(truncatingIfNeeded: generator.next())
                }
                let (status, fileID, box) = Self.open(bytes)
                if status == noErr, let file = fileID {
                    _ = readAllPackets(file)
                    for id in [kAudioFilePropertyChannelLayout, kAudioFilePropertyMagicCookieData, kAudioFilePropertyPacketTableInfo,
                               kAudioFilePropertyEstimatedDuration, kAudioFilePropertyBitRate, kAudioFilePropertyFormatList] {
                        var size: UInt32 = 0
                        if AudioFileGetPropertyInfo(file, id, &size, nil) == noErr {
                            var value = [UInt8](repeating: 0, count: Int(size))
                            #expect(AudioFileGetProperty(file, id, &size, &value) == noErr)
                        }
                    }
                    #expect(AudioFileClose(file) == noErr)
                }
                _ = box
            }
        }
        // A callback that fails: its own code comes back.
        let failing: AudioFile_ReadProc = { _, _, _, _, _ in -12345 }
        var fileID: AudioFileID?
        #expect(AudioFileOpenWithCallbacks(nil, failing, nil, { _ in 1000 }, nil, 0, &fileID) == -12345)
        // A size callback that lies (negative).
        let box = MemoryFile(bytes: try Self.wave())
        #expect(AudioFileOpenWithCallbacks(Unmanaged.passUnretained(box).toOpaque(), MemoryFile.read, nil, { _ in -1 }, nil, 0, &fileID)
                == kAudioFileInvalidFileError)
        _ = box
    }

    /// A WAVE file whose data is MP3 ('fmt ' tag 0x55): a type read here, a format not.
    @Test func anUnsupportedFormatInAKnownContainer() throws {
        var bytes = try Self.wave()
        bytes[20] = 0x55
        bytes[21] = 0x00
        #expect(Self.open(bytes).0 == kAudioFileUnsupportedDataFormatError)
    }

    /// Numbers near Int64's limits, in a header or in a translation's question, are answers or
    /// codes, never an arithmetic trap.
    @Test func hugeNumbersAreCodesNotTraps() throws {
        // A packet table claiming Int64.max valid frames: the table is believed as far as it adds up.
        var ima4 = try cafFile(.cafIMA4)
        let pakt = try #require(cafChunks(ima4).firstIndex { $0.0 == "pakt" })
        let paktAt = cafChunks(ima4)[..<pakt].reduce(8) { $0 + $1.1.count } + 12
        ima4.replaceSubrange((paktAt + 8)..<(paktAt + 16), with: [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        let (status, fileID, box) = Self.open(ima4)
        #expect(status == noErr)
        let file = try #require(fileID)
        let table = property(file, kAudioFilePropertyPacketTableInfo, AudioFilePacketTableInfo()).1
        #expect(table.mNumberValidFrames <= 9_000 + 64)
        #expect(AudioFileClose(file) == noErr)
        #expect(streamed(ima4, split: .random).errors.isEmpty)
        // Questions about a packet far past the end of an MP3 (1152 frames each).
        let (mp3Status, mp3ID, mp3Box) = Self.open(try cafFile(.mp3))
        #expect(mp3Status == noErr)
        let mp3 = try #require(mp3ID)
        var frames = AudioFramePacketTranslation(mFrame: 0, mPacket: Int64.max / 1_000, mFrameOffsetInPacket: 0)
        var size = UInt32(MemoryLayout<AudioFramePacketTranslation>.size)
        #expect(AudioFileGetProperty(mp3, kAudioFilePropertyPacketToFrame, &size, &frames) == kAudioFileInvalidPacketOffsetError)
        var bytes = AudioBytePacketTranslation(mByte: 0, mPacket: Int64.max - 1, mByteOffsetInPacket: 0, mFlags: [])
        size = UInt32(MemoryLayout<AudioBytePacketTranslation>.size)
        #expect(AudioFileGetProperty(mp3, kAudioFilePropertyPacketToByte, &size, &bytes) == kAudioFileInvalidPacketOffsetError)
        #expect(AudioFileClose(mp3) == noErr)
        withExtendedLifetime((box, mp3Box)) {}
    }

    private func cafFile(_ format: OutputFormat) throws -> [UInt8] {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try AudioFileFixture.write(frames: 9_000, channels: 2, format, name: "f.\(format.container.fileExtension)",
                                             in: directory)
        return Array(try Data(contentsOf: url))
    }
}

/// A small deterministic generator for the hostile bytes.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
