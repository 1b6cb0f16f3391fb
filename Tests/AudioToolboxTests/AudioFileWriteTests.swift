import AudioToolbox
import Foundation
import SoundFile
import Testing

/// Audio File Services' writing side as iOS code calls it: `AudioFileCreateWithURL(url as CFURL,
/// kAudioFileCAFType, &format, .eraseFile, &fileID)`, `AudioFileSetProperty` for the cookie and the
/// packet table, `AudioFileWritePackets`, `AudioFileClose`. Every file written is read back twice:
/// by Audio File Services (the same packets, format, cookie and priming) and by SoundFile, whose
/// libsndfile and FFmpeg know nothing of this code (the same samples).
@Suite struct AudioFileWriteTests {
    /// Writes `packets` (of `packetBytes` each, or described) to a new file and closes it.
    static func create(_ url: URL, _ type: AudioFileTypeID, _ format: AudioStreamBasicDescription, bytes: [UInt8],
                       descriptions: [AudioStreamPacketDescription]? = nil, cookie: [UInt8]? = nil,
                       packetTable: AudioFilePacketTableInfo? = nil, packetsPerWrite: Int = 100) throws {
        var format = format
        var fileID: AudioFileID?
        try #require(AudioFileCreateWithURL(url as CFURL, type, &format, .eraseFile, &fileID) == noErr)
        let file = try #require(fileID)
        if var cookie {
            #expect(AudioFileSetProperty(file, kAudioFilePropertyMagicCookieData, UInt32(cookie.count), &cookie) == noErr)
        }
        var isOptimized: UInt32 = 1
        var size = UInt32(4)
        #expect(AudioFileGetProperty(file, kAudioFilePropertyIsOptimized, &size, &isOptimized) == noErr)
        #expect(isOptimized == 0)
        if let descriptions {
            var index = 0
            while index < descriptions.count {
                let count = min(packetsPerWrite, descriptions.count - index)
                let first = descriptions[index].mStartOffset
                let last = descriptions[index + count - 1]
                let chunk = Array(bytes[Int(first)..<Int(last.mStartOffset + Int64(last.mDataByteSize))])
                var local = descriptions[index..<(index + count)].map {
                    AudioStreamPacketDescription(mStartOffset: $0.mStartOffset - first, mVariableFramesInPacket: $0.mVariableFramesInPacket,
                                                 mDataByteSize: $0.mDataByteSize)
                }
                var written = UInt32(count)
                #expect(AudioFileWritePackets(file, false, UInt32(chunk.count), &local, Int64(index), &written, chunk) == noErr)
                #expect(written == UInt32(count))
                index += count
            }
        } else {
            let packetBytes = Int(format.mBytesPerPacket)
            let total = bytes.count / packetBytes
            var index = 0
            while index < total {
                let count = min(packetsPerWrite, total - index)
                let chunk = Array(bytes[(index * packetBytes)..<((index + count) * packetBytes)])
                var written = UInt32(count)
                #expect(AudioFileWritePackets(file, false, UInt32(chunk.count), nil, Int64(index), &written, chunk) == noErr)
                #expect(written == UInt32(count))
                index += count
            }
        }
        if var packetTable {
            #expect(AudioFileSetProperty(file, kAudioFilePropertyPacketTableInfo, UInt32(MemoryLayout<AudioFilePacketTableInfo>.size),
                                         &packetTable) == noErr)
        }
        #expect(AudioFileClose(file) == noErr)
    }

    /// Opens a file for reading.
    static func open(_ url: URL) throws -> AudioFileID {
        var fileID: AudioFileID?
        try #require(AudioFileOpenURL(url as CFURL, .readPermission, 0, &fileID) == noErr)
        return try #require(fileID)
    }

    /// Integer samples of the test signal, interleaved, as `bits`-bit values.
    static func pcmBytes(frames: Int, channels: Int, bits: Int, bigEndian: Bool, float: Bool) -> [UInt8] {
        var out: [UInt8] = []
        for sample in AudioFileFixture.signal(frames: frames, channels: channels) {
            var b = [UInt8]()
            if float {
                if bits == 32 { withUnsafeBytes(of: sample.bitPattern) { b = Array($0) } }
                else { withUnsafeBytes(of: Double(sample).bitPattern) { b = Array($0) } }
            } else {
                let value = Int64((Double(sample) * Double(1 << (bits - 1) - 1)).rounded())
                b = (0..<(bits / 8)).map { UInt8(truncatingIfNeeded: (bits == 8 ? value + 128 : value) >> ($0 * 8)) }
            }
            out += bigEndian ? b.reversed() : b
        }
        return out
    }

    @Test(arguments: [
        (kAudioFileWAVEType, "wav", 16, false, false), (kAudioFileWAVEType, "wav", 24, false, false),
        (kAudioFileWAVEType, "wav", 8, false, false), (kAudioFileWAVEType, "wav", 32, false, true),
        (kAudioFileAIFFType, "aiff", 16, true, false), (kAudioFileAIFFType, "aiff", 24, true, false),
        (kAudioFileAIFCType, "aifc", 16, false, false), (kAudioFileAIFCType, "aifc", 32, true, true),
        (kAudioFileCAFType, "caf", 16, true, false), (kAudioFileCAFType, "caf", 32, false, true),
        (kAudioFileCAFType, "caf", 64, false, true),
    ])
    func linearPCMFilesHoldTheirSamples(type: AudioFileTypeID, ext: String, bits: Int, bigEndian: Bool, float: Bool) throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("written.\(ext)")
        let frames = 10_007, channels = 2
        var format = AudioStreamBasicDescription()
        FillOutASBDForLPCM(&format, 44_100, UInt32(channels), UInt32(bits), UInt32(bits), float, bigEndian, false)
        if bits == 8 { format.mFormatFlags &= ~kAudioFormatFlagIsSignedInteger }   // WAVE's 8-bit samples are unsigned
        let bytes = Self.pcmBytes(frames: frames, channels: channels, bits: bits, bigEndian: bigEndian, float: float)
        try Self.create(url, type, format, bytes: bytes, packetsPerWrite: 4_000)

        // Audio File Services reads back the format and every byte.
        let file = try Self.open(url)
        defer { #expect(AudioFileClose(file) == noErr) }
        let (_, read) = property(file, kAudioFilePropertyDataFormat, AudioStreamBasicDescription())
        #expect(read.mFormatID == kAudioFormatLinearPCM && read.mBitsPerChannel == UInt32(bits) && read.mChannelsPerFrame == 2)
        #expect(read.mFormatFlags == format.mFormatFlags, "\(read)")
        #expect(property(file, kAudioFilePropertyFileFormat, UInt32(0)).1 == type)
        #expect(property(file, kAudioFilePropertyAudioDataPacketCount, UInt64(0)).1 == UInt64(frames))
        let packets = readAllPackets(file)
        #expect(packets.bytes == bytes)

        // SoundFile (libsndfile) hears the same samples.
        let decoded = try AudioFileFixture.decoded(url)
        let expected = floats(fromLinearPCM: bytes, format)
        #expect(decoded.count == expected.count)
        let worst = zip(decoded, expected).map { abs($0 - $1) }.max() ?? 1
        #expect(worst <= (bits == 8 ? 1.0 / 127 : 1e-6), "worst difference \(worst)")
    }

    /// µ-law, A-law and IMA4 in the containers that hold them: the packets come back as written and
    /// SoundFile decodes the file to the length written.
    @Test(arguments: [
        (kAudioFileWAVEType, "wav", kAudioFormatULaw), (kAudioFileWAVEType, "wav", kAudioFormatALaw),
        (kAudioFileAIFCType, "aifc", kAudioFormatULaw), (kAudioFileAIFCType, "aifc", kAudioFormatAppleIMA4),
        (kAudioFileCAFType, "caf", kAudioFormatAppleIMA4), (kAudioFileCAFType, "caf", kAudioFormatALaw),
    ])
    func companderAndIMA4FilesHoldTheirPackets(type: AudioFileTypeID, ext: String, formatID: AudioFormatID) throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("written.\(ext)")
        let ima4 = formatID == kAudioFormatAppleIMA4
        var format = AudioStreamBasicDescription(mSampleRate: 22_050, mFormatID: formatID, mFormatFlags: 0,
                                                 mBytesPerPacket: ima4 ? 34 : 1, mFramesPerPacket: ima4 ? 64 : 1,
                                                 mBytesPerFrame: ima4 ? 0 : 1, mChannelsPerFrame: 1, mBitsPerChannel: ima4 ? 0 : 8,
                                                 mReserved: 0)
        // IMA4 packets of silence with a step index of 0 (what a quiet passage encodes to); companded
        // bytes of a ramp.
        let packets = 400
        let bytes: [UInt8] = ima4 ? (0..<packets).flatMap { _ in [0x00, 0x00] + [UInt8](repeating: 0, count: 32) }
            : (0..<packets * 64).map { UInt8(truncatingIfNeeded: $0) }
        try Self.create(url, type, format, bytes: bytes)
        let file = try Self.open(url)
        defer { #expect(AudioFileClose(file) == noErr) }
        let (_, read) = property(file, kAudioFilePropertyDataFormat, AudioStreamBasicDescription())
        #expect(read.mFormatID == formatID && read.mSampleRate == 22_050 && read.mBytesPerPacket == format.mBytesPerPacket)
        #expect(readAllPackets(file).bytes == bytes)
        let decoded = try AudioFileFixture.decoded(url)
        #expect(decoded.count == packets * 64, "SoundFile decoded \(decoded.count) frames")
        format.mReserved = 0
    }

    /// The packets, cookie and priming of an M4A file (AAC from FFmpeg's encoder, or ALAC), copied
    /// packet by packet into CAF, M4A and (AAC) ADTS as a recorder writes them: each reads back with
    /// the same packets, and SoundFile decodes each to the original's samples.
    @Test(arguments: [(OutputFormat.m4aAAC, kAudioFileCAFType, "caf"), (.m4aAAC, kAudioFileM4AType, "m4a"),
                      (.m4aAAC, kAudioFileAAC_ADTSType, "aac"), (.m4aALAC, kAudioFileCAFType, "caf"),
                      (.m4aALAC, kAudioFileM4AType, "m4a")])
    func compressedPacketsCopyIntoEveryContainer(source: OutputFormat, type: AudioFileTypeID, ext: String) throws {
        guard source.encoding != .aac || FFmpeg.hasEncoder(named: "aac") else { return }   // FFmpeg with an AAC encoder
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = try AudioFileFixture.write(frames: 30_000, channels: 2, source, name: "source.m4a", in: directory)
        let input = try Self.open(original)
        let (_, format) = property(input, kAudioFilePropertyDataFormat, AudioStreamBasicDescription())
        var cookieSize: UInt32 = 0
        #expect(AudioFileGetPropertyInfo(input, kAudioFilePropertyMagicCookieData, &cookieSize, nil) == noErr)
        var cookie = [UInt8](repeating: 0, count: Int(cookieSize))
        #expect(AudioFileGetProperty(input, kAudioFilePropertyMagicCookieData, &cookieSize, &cookie) == noErr)
        let (_, table) = property(input, kAudioFilePropertyPacketTableInfo, AudioFilePacketTableInfo())
        let packets = readAllPackets(input)
        #expect(packets.status == noErr && !packets.descriptions.isEmpty)
        #expect(AudioFileClose(input) == noErr)

        let url = directory.appendingPathComponent("copy.\(ext)")
        try Self.create(url, type, format, bytes: packets.bytes, descriptions: packets.descriptions, cookie: cookie,
                        packetTable: type == kAudioFileAAC_ADTSType ? nil : table, packetsPerWrite: 7)

        let copy = try Self.open(url)
        defer { #expect(AudioFileClose(copy) == noErr) }
        #expect(property(copy, kAudioFilePropertyFileFormat, UInt32(0)).1 == type)
        let (_, copied) = property(copy, kAudioFilePropertyDataFormat, AudioStreamBasicDescription())
        #expect(copied.mFormatID == format.mFormatID && copied.mSampleRate == format.mSampleRate
                && copied.mChannelsPerFrame == format.mChannelsPerFrame && copied.mFramesPerPacket == format.mFramesPerPacket)
        let again = readAllPackets(copy)
        #expect(again.bytes == packets.bytes)
        #expect(again.descriptions.map(\.mDataByteSize) == packets.descriptions.map(\.mDataByteSize))
        if type != kAudioFileAAC_ADTSType {
            let (status, copiedTable) = property(copy, kAudioFilePropertyPacketTableInfo, AudioFilePacketTableInfo())
            #expect(status == noErr && copiedTable.mPrimingFrames == table.mPrimingFrames
                    && copiedTable.mNumberValidFrames == table.mNumberValidFrames, "\(copiedTable) against \(table)")
        }

        // FFmpeg (through SoundFile) decodes the copy to the original's samples: the same packets,
        // the same priming. ADTS states no priming, so its decode carries the encoder's delay.
        let heard = try AudioFileFixture.decoded(url)
        let expected = try AudioFileFixture.decoded(original)
        if type == kAudioFileAAC_ADTSType {
            #expect(abs(heard.count - expected.count) <= 2 * 2048, "\(heard.count) samples against \(expected.count)")
        } else {
            #expect(heard.count == expected.count, "\(heard.count) samples against \(expected.count)")
            let worst = zip(heard, expected).map { abs($0 - $1) }.max() ?? 1
            #expect(worst <= 1e-6, "worst difference \(worst)")
        }
    }

    /// Descriptions a container cannot state are kAudioFileUnsupportedDataFormatError, not a trap:
    /// linear PCM of 2³² − 1 bits (fuzz-capi: CAF took any format, and the source bit depth trapped
    /// converting it to Int32, through AudioFileCreateWithURL and AudioFileInitializeWithCallbacks
    /// alike), and a WAVE frame wider than WAVE's 16-bit block align (the header trapped).
    @Test func descriptionsNoFileCanStateAreRefused() throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var fileID: AudioFileID?
        var bits = AudioStreamBasicDescription()
        FillOutASBDForLPCM(&bits, 44_100, 2, 32, 32, true, false, false)
        bits.mBitsPerChannel = .max
        let caf = directory.appendingPathComponent("bits.caf")
        #expect(AudioFileCreateWithURL(caf as CFURL, kAudioFileCAFType, &bits, .eraseFile, &fileID) == kAudioFileUnsupportedDataFormatError)
        #expect(fileID == nil && !FileManager.default.fileExists(atPath: caf.path))
        let write: AudioFile_WriteProc = { _, _, count, _, actual in actual.pointee = count; return noErr }
        let setSize: AudioFile_SetSizeProc = { _, _ in noErr }
        #expect(AudioFileInitializeWithCallbacks(nil, nil, write, nil, setSize, kAudioFileCAFType, &bits, [], &fileID)
                == kAudioFileUnsupportedDataFormatError)
        // What CAF's own reader would refuse, its writer refuses too: a file written is a file that reopens.
        var noRate = AudioStreamBasicDescription()
        FillOutASBDForLPCM(&noRate, .nan, 1, 16, 16, false, false, false)
        var narrow = noRate   // 16 bits in a byte
        narrow.mSampleRate = 8_000
        narrow.mBytesPerPacket = 1
        narrow.mBytesPerFrame = 1
        var tooManyChannels = narrow
        tooManyChannels.mBytesPerPacket = 2 * 1_025
        tooManyChannels.mBytesPerFrame = 2 * 1_025
        tooManyChannels.mChannelsPerFrame = 1_025
        var ima4 = compressedFormat(kAudioFormatAppleIMA4, channels: 2)
        ima4.mFramesPerPacket = 64
        ima4.mBytesPerPacket = 67
        for format in [noRate, narrow, tooManyChannels, ima4] {
            var format = format
            #expect(AudioFileCreateWithURL(caf as CFURL, kAudioFileCAFType, &format, .eraseFile, &fileID) == kAudioFileUnsupportedDataFormatError,
                    "\(format)")
        }
        var wide = AudioStreamBasicDescription()
        FillOutASBDForLPCM(&wide, 8_000, 65_535, 32, 32, false, false, false)
        #expect(wide.mBytesPerFrame == 262_140)
        let wav = directory.appendingPathComponent("wide.wav")
        #expect(AudioFileCreateWithURL(wav as CFURL, kAudioFileWAVEType, &wide, .eraseFile, &fileID) == kAudioFileUnsupportedDataFormatError)
        // A file being written takes no such description as its data format either.
        var pcm = AudioStreamBasicDescription()
        FillOutASBDForLPCM(&pcm, 8_000, 1, 16, 16, false, false, false)
        #expect(AudioFileCreateWithURL(caf as CFURL, kAudioFileCAFType, &pcm, .eraseFile, &fileID) == noErr)
        let file = try #require(fileID)
        #expect(AudioFileSetProperty(file, kAudioFilePropertyDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &bits)
                == kAudioFileUnsupportedDataFormatError)
        #expect(AudioFileClose(file) == noErr)
    }

    /// A file built in memory through AudioFileInitializeWithCallbacks, read back through
    /// AudioFileOpenWithCallbacks: the same packets.
    @Test func callbacksKeepTheFile() throws {
        final class Storage { var bytes: [UInt8] = [] }
        let storage = Storage()
        let context = Unmanaged.passUnretained(storage).toOpaque()
        let read: AudioFile_ReadProc = { data, position, count, buffer, actual in
            let storage = Unmanaged<Storage>.fromOpaque(data).takeUnretainedValue()
            let start = min(Int(position), storage.bytes.count)
            let n = min(Int(count), storage.bytes.count - start)
            storage.bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + start, byteCount: n) }
            actual.pointee = UInt32(n)
            return noErr
        }
        let write: AudioFile_WriteProc = { data, position, count, buffer, actual in
            let storage = Unmanaged<Storage>.fromOpaque(data).takeUnretainedValue()
            let end = Int(position) + Int(count)
            if storage.bytes.count < end { storage.bytes += [UInt8](repeating: 0, count: end - storage.bytes.count) }
            storage.bytes.withUnsafeMutableBytes { ($0.baseAddress! + Int(position)).copyMemory(from: buffer, byteCount: Int(count)) }
            actual.pointee = count
            return noErr
        }
        let getSize: AudioFile_GetSizeProc = { data in Int64(Unmanaged<Storage>.fromOpaque(data).takeUnretainedValue().bytes.count) }
        let setSize: AudioFile_SetSizeProc = { data, size in
            let storage = Unmanaged<Storage>.fromOpaque(data).takeUnretainedValue()
            if storage.bytes.count > Int(size) { storage.bytes.removeLast(storage.bytes.count - Int(size)) }
            else { storage.bytes += [UInt8](repeating: 0, count: Int(size) - storage.bytes.count) }
            return noErr
        }
        var format = AudioStreamBasicDescription()
        FillOutASBDForLPCM(&format, 8_000, 1, 16, 16, false, false, false)
        var fileID: AudioFileID?
        #expect(AudioFileInitializeWithCallbacks(context, read, write, getSize, setSize, kAudioFileWAVEType, &format, [], &fileID) == noErr)
        let file = try #require(fileID)
        let bytes = Self.pcmBytes(frames: 1_000, channels: 1, bits: 16, bigEndian: false, float: false)
        var count = UInt32(1_000)
        #expect(AudioFileWritePackets(file, false, UInt32(bytes.count), nil, 0, &count, bytes) == noErr)
        // Read back while still open, then closed and reopened.
        #expect(readAllPackets(file).bytes == bytes)
        #expect(AudioFileClose(file) == noErr)
        #expect(storage.bytes.count == 44 + bytes.count)
        var reopened: AudioFileID?
        #expect(AudioFileOpenWithCallbacks(context, read, nil, getSize, nil, 0, &reopened) == noErr)
        let again = try #require(reopened)
        #expect(readAllPackets(again).bytes == bytes)
        #expect(AudioFileClose(again) == noErr)
    }

    /// What a writer gets wrong is Apple's error code, and leaves nothing behind.
    @Test func writingErrorsAreApplesCodes() throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var pcm = AudioStreamBasicDescription()
        FillOutASBDForLPCM(&pcm, 44_100, 2, 16, 16, false, false, false)
        var aac = AudioStreamBasicDescription(mSampleRate: 44_100, mFormatID: kAudioFormatMPEG4AAC, mFormatFlags: 0,
                                              mBytesPerPacket: 0, mFramesPerPacket: 1024, mBytesPerFrame: 0,
                                              mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0)
        var fileID: AudioFileID?
        let url = directory.appendingPathComponent("x.wav")
        // A type nothing writes, a format the type cannot hold: nothing is created.
        #expect(AudioFileCreateWithURL(url as CFURL, kAudioFileMP3Type, &pcm, .eraseFile, &fileID) == kAudioFileUnsupportedFileTypeError)
        #expect(AudioFileCreateWithURL(url as CFURL, kAudioFileWAVEType, &aac, .eraseFile, &fileID) == kAudioFileUnsupportedDataFormatError)
        var bigEndian = pcm
        bigEndian.mFormatFlags |= kAudioFormatFlagIsBigEndian
        #expect(AudioFileCreateWithURL(url as CFURL, kAudioFileWAVEType, &bigEndian, .eraseFile, &fileID) == kAudioFileUnsupportedDataFormatError)
        #expect(!FileManager.default.fileExists(atPath: url.path) && fileID == nil)
        // An existing file without .eraseFile: dupFNErr (-48), the file untouched.
        try Data([1, 2, 3]).write(to: url)
        #expect(AudioFileCreateWithURL(url as CFURL, kAudioFileWAVEType, &pcm, [], &fileID) == -48)
        #expect(try Data(contentsOf: url) == Data([1, 2, 3]))
        #expect(AudioFileCreateWithURL(URL(string: "https://example.com/x.wav")! as CFURL, kAudioFileWAVEType, &pcm, .eraseFile,
                                       &fileID) == kAudio_BadFilePathError)
        #expect(AudioFileCreateWithURL(directory.appendingPathComponent("no/such/dir.wav") as CFURL, kAudioFileWAVEType, &pcm,
                                       .eraseFile, &fileID) == kAudioFileFileNotFoundError)

        // Variable packets: descriptions needed, appended only.
        let m4a = directory.appendingPathComponent("x.m4a")
        #expect(AudioFileCreateWithURL(m4a as CFURL, kAudioFileM4AType, &aac, .eraseFile, &fileID) == noErr)
        let file = try #require(fileID)
        var packet = [UInt8](repeating: 0x21, count: 10)
        var count: UInt32 = 1
        #expect(AudioFileWritePackets(file, false, 10, nil, 0, &count, packet) == kAudio_ParamError)
        var description = AudioStreamPacketDescription(mStartOffset: 0, mVariableFramesInPacket: 0, mDataByteSize: 10)
        count = 1
        #expect(AudioFileWritePackets(file, false, 10, &description, 5, &count, packet) == kAudioFileInvalidPacketOffsetError)
        var lying = AudioStreamPacketDescription(mStartOffset: 4, mVariableFramesInPacket: 0, mDataByteSize: 10)
        count = 1
        #expect(AudioFileWritePackets(file, false, 10, &lying, 0, &count, packet) == kAudio_ParamError)
        count = 1
        #expect(AudioFileWritePackets(file, false, 10, &description, 0, &count, &packet) == noErr && count == 1)
        // The format is fixed once data is written; WAVE's properties are not M4A's.
        #expect(AudioFileSetProperty(file, kAudioFilePropertyDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size),
                                     &aac) == kAudioFileOperationNotSupportedError)
        var bytesCount: UInt32 = 4
        #expect(AudioFileWriteBytes(file, false, 0, &bytesCount, packet) == kAudioFileOperationNotSupportedError)
        // The packet table must add up to the frames written (one packet of 1,024 here), as Apple documents.
        var wrongSum = AudioFilePacketTableInfo(mNumberValidFrames: 1_000, mPrimingFrames: 100, mRemainderFrames: 0)
        #expect(AudioFileSetProperty(file, kAudioFilePropertyPacketTableInfo, UInt32(MemoryLayout<AudioFilePacketTableInfo>.size),
                                     &wrongSum) == kAudio_ParamError)
        var rightSum = AudioFilePacketTableInfo(mNumberValidFrames: 924, mPrimingFrames: 100, mRemainderFrames: 0)
        #expect(AudioFileSetProperty(file, kAudioFilePropertyPacketTableInfo, UInt32(MemoryLayout<AudioFilePacketTableInfo>.size),
                                     &rightSum) == noErr)
        var table = AudioFilePacketTableInfo(mNumberValidFrames: 0, mPrimingFrames: -1, mRemainderFrames: 0)
        #expect(AudioFileSetProperty(file, kAudioFilePropertyPacketTableInfo, 3, &table) == kAudioFileBadPropertySizeError)
        #expect(AudioFileSetProperty(file, kAudioFilePropertyPacketTableInfo, UInt32(MemoryLayout<AudioFilePacketTableInfo>.size),
                                     &table) == kAudio_ParamError)
        var writable: UInt32 = 0
        #expect(AudioFileGetPropertyInfo(file, kAudioFilePropertyMagicCookieData, nil, &writable) == noErr && writable == 1)
        #expect(AudioFileGetPropertyInfo(file, kAudioFilePropertyBitRate, nil, &writable) == noErr && writable == 0)
        #expect(AudioFileOptimize(file) == noErr)
        #expect(property(file, kAudioFilePropertyIsOptimized, UInt32(0)).1 == 1)
        #expect(AudioFileClose(file) == noErr)
        count = 1
        #expect(AudioFileWritePackets(file, false, 10, &description, 1, &count, packet) == kAudioFileNotOpenError)

        // A file opened to read refuses writes; opening an existing file to write is not offered yet.
        let reader = try AudioFileWriteTests.open(m4a)
        count = 1
        #expect(AudioFileWritePackets(reader, false, 10, &description, 1, &count, packet) == kAudioFilePermissionsError)
        var cookie: [UInt8] = [1, 2]
        #expect(AudioFileSetProperty(reader, kAudioFilePropertyMagicCookieData, 2, &cookie) == kAudioFilePermissionsError)
        #expect(AudioFileClose(reader) == noErr)
        #expect(AudioFileOpenURL(m4a as CFURL, .readWritePermission, 0, &fileID) == kAudioFileOperationNotSupportedError)
        #expect(AudioFileWritePackets(nil, false, 10, &description, 0, &count, packet) == kAudio_ParamError)
    }
}
