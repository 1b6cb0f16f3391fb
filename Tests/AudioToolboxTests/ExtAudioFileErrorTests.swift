import AudioToolbox
import Foundation
import SoundFile
import Testing

/// Extended Audio File Services' error paths: every misuse is one of Apple's codes, never a crash
/// or a hang (leaks: the C programs run under LeakSanitizer, CProgramTests).
@Suite struct ExtAudioFileErrorTests {
    private static let asbdSize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)

    private func open(_ url: URL) throws -> ExtAudioFileRef {
        var file: ExtAudioFileRef?
        try #require(ExtAudioFileOpenURL(url as CFURL, &file) == noErr)
        return try #require(file)
    }

    @Test func nullArgumentsAreParamErrors() throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try AudioFileFixture.write(frames: 100, channels: 1, .wavPCM16, name: "a.wav", in: directory)
        #expect(_ExtAudioFileOpenURL(nil, nil) == kAudio_ParamError)
        var file: ExtAudioFileRef?
        #expect(_ExtAudioFileOpenURL(nil, &file) == kAudio_ParamError && file == nil)
        var format = int16Format()
        #expect(_ExtAudioFileCreateWithURL(nil, kAudioFileCAFType, &format, nil, 0, &file) == kAudio_ParamError)
        #expect(ExtAudioFileWrapAudioFileID(nil, false, &file) == kAudio_ParamError)
        #expect(ExtAudioFileDispose(nil) == kAudio_ParamError)
        #expect(ExtAudioFileRead(nil, nil, nil) == kAudio_ParamError)
        #expect(ExtAudioFileWrite(nil, 0, nil) == kAudio_ParamError)
        #expect(ExtAudioFileWriteAsync(nil, 0, nil) == kAudio_ParamError)
        #expect(ExtAudioFileSeek(nil, 0) == kAudio_ParamError)
        #expect(ExtAudioFileTell(nil, nil) == kAudio_ParamError)
        #expect(ExtAudioFileGetPropertyInfo(nil, kExtAudioFileProperty_FileDataFormat, nil, nil) == kAudio_ParamError)
        #expect(ExtAudioFileGetProperty(nil, kExtAudioFileProperty_FileDataFormat, nil, nil) == kAudio_ParamError)
        #expect(ExtAudioFileSetProperty(nil, kExtAudioFileProperty_ClientDataFormat, 0, nil) == kAudio_ParamError)

        let open = try open(url)
        defer { ExtAudioFileDispose(open) }
        var frames: UInt32 = 10
        #expect(ExtAudioFileRead(open, &frames, nil) == kAudio_ParamError && frames == 0)
        #expect(ExtAudioFileRead(open, nil, nil) == kAudio_ParamError)
        #expect(ExtAudioFileTell(open, nil) == kAudio_ParamError)
        var size: UInt32 = 40
        #expect(ExtAudioFileGetProperty(open, kExtAudioFileProperty_FileDataFormat, &size, nil) == kAudio_ParamError)
        #expect(ExtAudioFileGetProperty(open, kExtAudioFileProperty_FileDataFormat, nil, &format) == kAudio_ParamError)
        #expect(ExtAudioFileSetProperty(open, kExtAudioFileProperty_ClientDataFormat, Self.asbdSize, nil) == kAudio_ParamError)
        #expect(ExtAudioFileGetPropertyInfo(open, kExtAudioFileProperty_FileDataFormat, nil, nil) == noErr)   // both may be NULL
    }

    @Test func disposedAndNeverGivenHandlesAreRefusedEverywhere() throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try AudioFileFixture.write(frames: 100, channels: 1, .wavPCM16, name: "a.wav", in: directory)
        let file = try open(url)
        var client = floatFormat(channels: 1)
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, Self.asbdSize, &client) == noErr)
        #expect(ExtAudioFileDispose(file) == noErr)
        let never = OpaquePointer(bitPattern: 0x1234_5678)!
        for handle in [file, never] {
            var frames: UInt32 = 10
            var list = AudioBufferList()
            var position: Int64 = 0
            var size: UInt32 = 40
            var format = AudioStreamBasicDescription()
            #expect(ExtAudioFileDispose(handle) == kAudio_ParamError)
            #expect(ExtAudioFileRead(handle, &frames, &list) == kAudio_ParamError)
            #expect(ExtAudioFileWrite(handle, 1, &list) == kAudio_ParamError)
            #expect(ExtAudioFileWriteAsync(handle, 0, nil) == kAudio_ParamError)
            #expect(ExtAudioFileSeek(handle, 0) == kAudio_ParamError)
            #expect(ExtAudioFileTell(handle, &position) == kAudio_ParamError)
            #expect(ExtAudioFileGetPropertyInfo(handle, kExtAudioFileProperty_FileDataFormat, &size, nil) == kAudio_ParamError)
            #expect(ExtAudioFileGetProperty(handle, kExtAudioFileProperty_FileDataFormat, &size, &format) == kAudio_ParamError)
            #expect(ExtAudioFileSetProperty(handle, kExtAudioFileProperty_ClientDataFormat, Self.asbdSize, &client) == kAudio_ParamError)
        }
        // An AudioFileID is not an ExtAudioFileRef, nor the reverse.
        var fileID: AudioFileID?
        #expect(AudioFileOpenURL(url as CFURL, .readPermission, 0, &fileID) == noErr)
        var position: Int64 = 0
        #expect(ExtAudioFileTell(fileID!, &position) == kAudio_ParamError)
        AudioFileClose(fileID!)
    }

    @Test func clientFormatsAreChecked() throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try AudioFileFixture.write(frames: 1_000, channels: 2, .cafIMA4, name: "a.caf", in: directory)
        let file = try open(url)
        defer { ExtAudioFileDispose(file) }
        // A compressed file's client format starts as the file's: reading needs a PCM one.
        let (status, start) = extProperty(file, kExtAudioFileProperty_ClientDataFormat, AudioStreamBasicDescription())
        #expect(status == noErr && start.mFormatID == kAudioFormatAppleIMA4)
        var frames: UInt32 = 10
        var samples = [Int16](repeating: 0, count: 20)
        let read = samples.withUnsafeMutableBytes { raw -> OSStatus in
            var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: 40, mData: raw.baseAddress))
            return ExtAudioFileRead(file, &frames, &list)
        }
        #expect(read == kExtAudioFileError_NonPCMClientFormat)
        var aac = compressedFormat(kAudioFormatMPEG4AAC)
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, Self.asbdSize, &aac) == kExtAudioFileError_NonPCMClientFormat)
        var float24 = pcmFormat(bits: 24, float: true)
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, Self.asbdSize, &float24) == kExtAudioFileError_InvalidDataFormat)
        var noChannels = int16Format(channels: 0)
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, Self.asbdSize, &noChannels) == kExtAudioFileError_InvalidDataFormat)
        var hugeRate = int16Format(rate: 1e9)
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, Self.asbdSize, &hugeRate)
                == kAudioConverterErr_OutputSampleRateOutOfRange)
        var nanRate = int16Format(rate: .nan)
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, Self.asbdSize, &nanRate) == kExtAudioFileError_InvalidDataFormat)
        var good = int16Format()
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, Self.asbdSize - 1, &good) == kExtAudioFileError_InvalidPropertySize)
        // After every refusal the file still reads.
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, Self.asbdSize, &good) == noErr)
        #expect(extReadAll(file, format: good).frames == 1_000)
    }

    @Test func propertiesAnswerAndRefuseAsApplesDo() throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try AudioFileFixture.write(frames: 2_000, channels: 2, .wavPCM16, name: "a.wav", in: directory)
        let file = try open(url)
        defer { ExtAudioFileDispose(file) }
        var size: UInt32 = 0
        var writable = false
        for (id, expectedSize, expectWritable) in [(kExtAudioFileProperty_FileDataFormat, 40, false), (kExtAudioFileProperty_ClientDataFormat, 40, true),
                                                   (kExtAudioFileProperty_FileChannelLayout, 12, false), (kExtAudioFileProperty_ClientChannelLayout, 12, true),
                                                   (kExtAudioFileProperty_CodecManufacturer, 4, true), (kExtAudioFileProperty_AudioConverter, 8, false),
                                                   (kExtAudioFileProperty_AudioFile, 8, false), (kExtAudioFileProperty_FileMaxPacketSize, 4, false),
                                                   (kExtAudioFileProperty_ClientMaxPacketSize, 4, false), (kExtAudioFileProperty_FileLengthFrames, 8, false),
                                                   (kExtAudioFileProperty_ConverterConfig, 8, true), (kExtAudioFileProperty_IOBufferSizeBytes, 4, true),
                                                   (kExtAudioFileProperty_IOBuffer, 8, true)] as [(ExtAudioFilePropertyID, Int, Bool)] {
            #expect(ExtAudioFileGetPropertyInfo(file, id, &size, &writable) == noErr)
            #expect(Int(size) == expectedSize && writable == expectWritable, "\(StreamText.code(id)): \(size) \(writable)")
        }
        #expect(ExtAudioFileGetPropertyInfo(file, 0x7A7A_7A7A, &size, &writable) == kExtAudioFileError_InvalidProperty)
        var format = AudioStreamBasicDescription()
        size = 39
        #expect(ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileDataFormat, &size, &format) == kExtAudioFileError_InvalidPropertySize)
        size = 40
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_FileDataFormat, size, &format) == kExtAudioFileError_InvalidProperty)
        var manufacturer: UInt32 = kAppleHardwareAudioCodecManufacturer   // iOS code asks for the hardware codec: accepted
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_CodecManufacturer, 4, &manufacturer) == noErr)
        #expect(extProperty(file, kExtAudioFileProperty_AudioFile, AudioFileID(bitPattern: 1)).1 != nil)
        // A WAVE file has no packet table: asking is Audio File Services' 'pty?'.
        #expect(extProperty(file, kExtAudioFileProperty_PacketTable, AudioFilePacketTableInfo()).0 == kAudioFileUnsupportedPropertyError)
        // Reading files: their length is not set.
        var length: Int64 = 10
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_FileLengthFrames, 8, &length) == kAudioFilePermissionsError)
        // A layout of another channel count.
        var mono = AudioChannelLayout(mChannelLayoutTag: kAudioChannelLayoutTag_Mono, mChannelBitmap: [], mNumberChannelDescriptions: 0,
                                      mChannelDescriptions: AudioChannelDescription())
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientChannelLayout, 12, &mono) == kExtAudioFileError_InvalidChannelMap)
        // The I/O buffer's size: at least a packet.
        var tiny: UInt32 = 1
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_IOBufferSizeBytes, 4, &tiny) == kAudio_ParamError)
        // ConverterConfig: NULL only (there is no settings list here).
        var config = UnsafeRawPointer(bitPattern: 0x10)
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ConverterConfig, 8, &config) == kAudioConverterErr_PropertyNotSupported)
        config = nil
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ConverterConfig, 8, &config) == noErr)
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ConverterConfig, 0, nil) == noErr)
    }

    @Test func readingAndWritingStayApart() throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try AudioFileFixture.write(frames: 100, channels: 1, .wavPCM16, name: "a.wav", in: directory)
        let reading = try open(url)
        defer { ExtAudioFileDispose(reading) }
        var samples = [Int16](repeating: 0, count: 100)
        let written = samples.withUnsafeMutableBytes { raw -> OSStatus in
            var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 1, mDataByteSize: 200, mData: raw.baseAddress))
            return ExtAudioFileWrite(reading, 100, &list)
        }
        #expect(written == kExtAudioFileError_InvalidOperationOrder)
        #expect(ExtAudioFileWriteAsync(reading, 0, nil) == kExtAudioFileError_InvalidOperationOrder)

        var format = int16Format(channels: 1)
        var writing: ExtAudioFileRef?
        let out = directory.appendingPathComponent("out.caf")
        #expect(ExtAudioFileCreateWithURL(out as CFURL, kAudioFileCAFType, &format, nil, AudioFileFlags.eraseFile.rawValue, &writing) == noErr)
        var frames: UInt32 = 10
        let read = samples.withUnsafeMutableBytes { raw -> OSStatus in
            var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 1, mDataByteSize: 200, mData: raw.baseAddress))
            return ExtAudioFileRead(writing!, &frames, &list)
        }
        #expect(read == kExtAudioFileError_InvalidOperationOrder)
        #expect(ExtAudioFileSeek(writing!, 0) == kExtAudioFileError_InvalidOperationOrder)
        // Once data is written the client format stays: the same again is noErr, another is not
        // (as Apple's, measured by others).
        samples.withUnsafeMutableBytes { raw in
            var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 1, mDataByteSize: 200, mData: raw.baseAddress))
            #expect(ExtAudioFileWrite(writing!, 100, &list) == noErr)
            // A buffer list that does not hold the frames said.
            list.mBuffers.mDataByteSize = 10
            #expect(ExtAudioFileWrite(writing!, 100, &list) == kAudio_ParamError)
            list.mNumberBuffers = 2
            #expect(ExtAudioFileWrite(writing!, 1, &list) == kAudio_ParamError)
        }
        #expect(ExtAudioFileSetProperty(writing!, kExtAudioFileProperty_ClientDataFormat, Self.asbdSize, &format) == noErr)
        var other = floatFormat(channels: 1)
        #expect(ExtAudioFileSetProperty(writing!, kExtAudioFileProperty_ClientDataFormat, Self.asbdSize, &other) == kExtAudioFileError_InvalidOperationOrder)
        #expect(ExtAudioFileDispose(writing!) == noErr)
        #expect(extRead(out, client: nil).frames == 100)

        // Wrapping an AudioFileID opened to read, for writing.
        var fileID: AudioFileID?
        #expect(AudioFileOpenURL(url as CFURL, .readPermission, 0, &fileID) == noErr)
        var wrapped: ExtAudioFileRef?
        #expect(ExtAudioFileWrapAudioFileID(fileID!, true, &wrapped) == kAudioFilePermissionsError && wrapped == nil)
        #expect(ExtAudioFileWrapAudioFileID(fileID!, false, &wrapped) == noErr)
        #expect(extReadAll(wrapped!, format: int16Format(channels: 1)).frames == 100)
        #expect(ExtAudioFileDispose(wrapped!) == noErr)
        #expect(AudioFileClose(fileID!) == noErr)   // still open: the caller's to close
    }

    @Test func creatingRefusesWhatCannotBeWritten() throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("x.caf")
        var file: ExtAudioFileRef?
        var pcm = int16Format()
        #expect(ExtAudioFileCreateWithURL(url as CFURL, kAudioFileCAFType, &pcm, nil, AudioFileFlags.eraseFile.rawValue, &file) == noErr)
        #expect(ExtAudioFileDispose(file!) == noErr)
        // An existing file without EraseFile: -48, as iOS.
        #expect(ExtAudioFileCreateWithURL(url as CFURL, kAudioFileCAFType, &pcm, nil, 0, &file) == -48 && file == nil)
        var mp3 = compressedFormat(kAudioFormatMPEGLayer3)
        #expect(ExtAudioFileCreateWithURL(directory.appendingPathComponent("x.mp3") as CFURL, kAudioFileMP3Type, &mp3, nil, 0, &file)
                == kAudioConverterErr_FormatNotSupported)   // no MP3 encoder: refused before the type
        #expect(ExtAudioFileCreateWithURL(directory.appendingPathComponent("y.mp3") as CFURL, kAudioFileMP3Type, &pcm, nil, 0, &file)
                == kAudioFileUnsupportedFileTypeError)
        if FFmpeg.isAvailable {
            var aac = compressedFormat(kAudioFormatMPEG4AAC)
            #expect(ExtAudioFileCreateWithURL(directory.appendingPathComponent("z.wav") as CFURL, kAudioFileWAVEType, &aac, nil, 0, &file)
                    == kAudioFileUnsupportedDataFormatError)
            var oddRate = compressedFormat(kAudioFormatMPEG4AAC, rate: 44_101)
            #expect(ExtAudioFileCreateWithURL(directory.appendingPathComponent("z.m4a") as CFURL, kAudioFileM4AType, &oddRate, nil, 0, &file)
                    == kAudioConverterErr_OutputSampleRateOutOfRange)
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("z.m4a").path))
        }
        var zero = compressedFormat(kAudioFormatMPEG4AAC, rate: 0)
        #expect(ExtAudioFileCreateWithURL(directory.appendingPathComponent("w.m4a") as CFURL, kAudioFileM4AType, &zero, nil, 0, &file)
                == kExtAudioFileError_InvalidDataFormat)
        // A compressed file's writes need a client format; its maximum packet size an encoder.
        if FFmpeg.isAvailable {
            var aac = compressedFormat(kAudioFormatMPEG4AAC)
            #expect(ExtAudioFileCreateWithURL(directory.appendingPathComponent("v.m4a") as CFURL, kAudioFileM4AType, &aac, nil, 0, &file) == noErr)
            var samples = [Float](repeating: 0, count: 20)
            samples.withUnsafeMutableBytes { raw in
                var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: 80, mData: raw.baseAddress))
                #expect(ExtAudioFileWrite(file!, 10, &list) == kExtAudioFileError_NonPCMClientFormat)
            }
            #expect(extProperty(file!, kExtAudioFileProperty_FileMaxPacketSize, UInt32(0)).0 == kExtAudioFileError_MaxPacketSizeUnknown)
            #expect(ExtAudioFileDispose(file!) == noErr)   // nothing written: an empty file that still opens
            #expect(extRead(directory.appendingPathComponent("v.m4a"), client: floatFormat()).frames == 0)
        }
    }

    /// A file of more channels than a file states is kExtAudioFileError_InvalidDataFormat (fuzz-capi:
    /// a compressed format of 2³² − 1 channels trapped making the float description it tries
    /// encoding from).
    @Test func absurdChannelCountsAreRefused() throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var file: ExtAudioFileRef?
        for id in [kAudioFormatMPEG4AAC, kAudioFormatAppleIMA4, kAudioFormatULaw, kAudioFormatLinearPCM] {
            var format = id == kAudioFormatLinearPCM ? int16Format(channels: 1_025) : compressedFormat(id, channels: .max)
            #expect(ExtAudioFileCreateWithURL(directory.appendingPathComponent("x.caf") as CFURL, kAudioFileCAFType, &format, nil,
                                              AudioFileFlags.eraseFile.rawValue, &file) == kExtAudioFileError_InvalidDataFormat)
            #expect(file == nil)
        }
    }

    @Test func badFilesAreCodesNotCrashes() throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = directory.appendingPathComponent("notes.txt")
        try "not audio at all".write(to: text, atomically: true, encoding: .utf8)
        var file: ExtAudioFileRef?
        #expect(ExtAudioFileOpenURL(text as CFURL, &file) == kAudioFileUnsupportedFileTypeError && file == nil)
        #expect(ExtAudioFileOpenURL(directory.appendingPathComponent("missing.wav") as CFURL, &file) == kAudioFileFileNotFoundError)
        #expect(ExtAudioFileOpenURL(URL(string: "https://example.com/a.wav")! as CFURL, &file) == kAudio_BadFilePathError)
        // A compressed file cut short reads what is there, every sample finite.
        if FFmpeg.isAvailable {
            let url = try AudioFileFixture.write(frames: 40_000, channels: 2, .cafALAC, name: "cut.caf", in: directory)
            var data = try Data(contentsOf: url)
            data.removeLast(data.count / 3)
            try data.write(to: url)
            let read = extRead(url, client: floatFormat())
            #expect(read.status == noErr && read.frames > 0 && read.frames < 40_000)
            #expect(floats(of: read.buffers[0]).allSatisfy { $0.isFinite })
        }
    }

    @Test func writeAsyncRefusesWhatItCannotQueue() throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("a.caf")
        var format = int16Format()
        var file: ExtAudioFileRef?
        #expect(ExtAudioFileCreateWithURL(url as CFURL, kAudioFileCAFType, &format, nil, AudioFileFlags.eraseFile.rawValue, &file) == noErr)
        let samples = [Int16](repeating: 7, count: 2 * 20_000)
        var list = AudioBufferList()
        samples.withUnsafeBytes { raw in
            list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(raw.count),
                                                                             mData: UnsafeMutableRawPointer(mutating: raw.baseAddress)))
            #expect(ExtAudioFileWriteAsync(file!, 20_000, &list) == kExtAudioFileError_AsyncWriteTooLarge)
            #expect(ExtAudioFileWriteAsync(file!, 10, nil) == kAudio_ParamError)
            list.mBuffers.mDataByteSize = 4
            #expect(ExtAudioFileWriteAsync(file!, 10, &list) == kAudio_ParamError)
            list.mBuffers.mDataByteSize = UInt32(raw.count)
            #expect(ExtAudioFileWriteAsync(file!, 1_000, &list) == noErr)
        }
        #expect(ExtAudioFileDispose(file!) == noErr)
        #expect(extRead(url, client: nil).frames == 1_000)
    }

    /// A queue the thread cannot keep up with refuses the frames it has no room for (and only
    /// those): the file holds exactly the frames of the calls that returned noErr.
    @Test func anOverflowingQueueDropsOnlyWhatItRefused() throws {
        try #require(FFmpeg.isAvailable)
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("o.m4a")
        var format = compressedFormat(kAudioFormatMPEG4AAC)
        var file: ExtAudioFileRef?
        #expect(ExtAudioFileCreateWithURL(url as CFURL, kAudioFileM4AType, &format, nil, AudioFileFlags.eraseFile.rawValue, &file) == noErr)
        var client = floatFormat()
        #expect(ExtAudioFileSetProperty(file!, kExtAudioFileProperty_ClientDataFormat, Self.asbdSize, &client) == noErr)
        #expect(ExtAudioFileWriteAsync(file!, 0, nil) == noErr)
        let samples = sine(frequency: 440, rate: 44_100, frames: 16_384, channels: 2)
        var accepted = 0, refused = 0
        samples.withUnsafeBytes { raw in
            var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(raw.count),
                                                                                 mData: UnsafeMutableRawPointer(mutating: raw.baseAddress)))
            for _ in 0..<12 {
                switch ExtAudioFileWriteAsync(file!, 16_384, &list) {
                case noErr: accepted += 1
                case kExtAudioFileError_AsyncWriteBufferOverflow: refused += 1
                case let other: Issue.record("WriteAsync returned \(other)")
                }
            }
        }
        #expect(refused > 0, "the queue (65,536 frames) took \(accepted) calls of 16,384 without refusing one")
        #expect(ExtAudioFileDispose(file!) == noErr)
        #expect(extRead(url, client: floatFormat()).frames == accepted * 16_384)
    }
}

/// A four-character code as text, for messages.
enum StreamText {
    static func code(_ value: UInt32) -> String {
        String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }, as: UTF8.self)
    }
}
