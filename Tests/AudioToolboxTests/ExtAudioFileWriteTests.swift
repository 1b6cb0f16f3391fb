import AudioToolbox
import Foundation
import SoundFile
import Testing

/// Extended Audio File Services writing, as iOS code writes a recording: ExtAudioFileCreateWithURL
/// with a compressed format stating only its ID, rate and channels, the client format set, frames
/// written with ExtAudioFileWrite (or WriteAsync), ExtAudioFileDispose. Each file is read back by
/// Extended Audio File Services, by Audio File Services (format, cookie, packet table) and, where it
/// reads the type, by SoundFile, which shares no code with the writer.
@Suite struct ExtAudioFileWriteTests {
    /// A case: the file type, the file's format as iOS code states it, a file name, and whether
    /// the file reads back to exactly the frames written (a container without a packet table
    /// cannot say where IMA4's padding or AAC's priming is).
    struct Case: CustomStringConvertible, Sendable {
        let type: AudioFileTypeID
        let format: AudioStreamBasicDescription
        let name: String
        let exactLength: Bool
        let lossless: Bool
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(type: kAudioFileM4AType, format: compressedFormat(kAudioFormatMPEG4AAC), name: "aac.m4a", exactLength: true, lossless: false),
        Case(type: kAudioFileCAFType, format: compressedFormat(kAudioFormatMPEG4AAC), name: "aac.caf", exactLength: true, lossless: false),
        Case(type: kAudioFileM4AType, format: compressedFormat(kAudioFormatAppleLossless), name: "alac.m4a", exactLength: true, lossless: true),
        Case(type: kAudioFileCAFType, format: compressedFormat(kAudioFormatAppleLossless, flags: kAppleLosslessFormatFlag_16BitSourceData),
             name: "alac.caf", exactLength: true, lossless: true),
        Case(type: kAudioFileCAFType, format: compressedFormat(kAudioFormatAppleIMA4), name: "ima4.caf", exactLength: true, lossless: false),
        Case(type: kAudioFileAIFCType, format: compressedFormat(kAudioFormatAppleIMA4), name: "ima4.aifc", exactLength: false, lossless: false),
        Case(type: kAudioFileCAFType, format: compressedFormat(kAudioFormatULaw), name: "ulaw.caf", exactLength: true, lossless: false),
        Case(type: kAudioFileWAVEType, format: compressedFormat(kAudioFormatULaw), name: "ulaw.wav", exactLength: true, lossless: false),
        Case(type: kAudioFileAIFCType, format: compressedFormat(kAudioFormatALaw), name: "alaw.aifc", exactLength: true, lossless: false),
        Case(type: kAudioFileWAVEType, format: compressedFormat(kAudioFormatALaw), name: "alaw.wav", exactLength: true, lossless: false),
        Case(type: kAudioFileWAVEType, format: int16Format(), name: "pcm16.wav", exactLength: true, lossless: true),
        Case(type: kAudioFileAIFFType, format: pcmFormat(bits: 24, bigEndian: true), name: "pcm24.aiff", exactLength: true, lossless: true),
        Case(type: kAudioFileCAFType, format: floatFormat(), name: "float.caf", exactLength: true, lossless: true),
        Case(type: kAudioFileAIFCType, format: pcmFormat(bits: 32, float: true, bigEndian: true), name: "float.aifc", exactLength: true, lossless: true),
        Case(type: kAudioFileAAC_ADTSType, format: compressedFormat(kAudioFormatMPEG4AAC), name: "aac.adts", exactLength: false, lossless: false),
    ]

    /// The signal written: a 1 kHz sine at half scale in both channels, 16-bit values (so that a
    /// lossless file is compared exactly in 16 or more bits).
    static func tone(frames: Int, rate: Double = 44_100) -> [Int16] {
        (0..<frames).flatMap { i -> [Int16] in
            let v = Int16((0.5 * sin(2 * Double.pi * 1_000 * Double(i) / rate) * 32_767).rounded())
            return [v, v]
        }
    }

    @Test(arguments: cases)
    func writtenFilesReadBackToTheFramesWritten(_ test: Case) throws {
        let needsFFmpeg = [kAudioFormatMPEG4AAC, kAudioFormatAppleLossless].contains(test.format.mFormatID)
        if needsFFmpeg { try #require(FFmpeg.isAvailable) }
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent(test.name)
        let frames = 30_001
        let samples = Self.tone(frames: frames)
        // Written in calls of 1,000 frames from 16-bit client buffers.
        let status = extWrite(url, type: test.type, fileFormat: test.format, client: int16Format(), bytes: bytes(of: samples))
        #expect(status == noErr, "\(test.name)")
        guard status == noErr else { return }

        // Audio File Services: the format, a cookie for AAC and ALAC, a packet table that adds up.
        let fileID = try AudioFileWriteTests.open(url)
        let format = property(fileID, kAudioFilePropertyDataFormat, AudioStreamBasicDescription()).1
        #expect(format.mFormatID == test.format.mFormatID && format.mChannelsPerFrame == 2 && format.mSampleRate == 44_100)
        var cookieSize: UInt32 = 0
        let hasCookie = AudioFileGetPropertyInfo(fileID, kAudioFilePropertyMagicCookieData, &cookieSize, nil) == noErr && cookieSize > 0
        #expect(hasCookie == needsFFmpeg, "\(test.name): cookie \(cookieSize) bytes")
        let (tableStatus, table) = property(fileID, kAudioFilePropertyPacketTableInfo, AudioFilePacketTableInfo())
        if tableStatus == noErr {
            #expect(table.mNumberValidFrames == Int64(frames), "\(test.name): \(table)")
            if test.format.mFormatID == kAudioFormatMPEG4AAC { #expect(table.mPrimingFrames == 2_112) }
        }
        AudioFileClose(fileID)

        // Extended Audio File Services: the length, the tone's frequency and level; PCM and ALAC exactly.
        var file: ExtAudioFileRef?
        #expect(ExtAudioFileOpenURL(url as CFURL, &file) == noErr)
        let length = extProperty(file!, kExtAudioFileProperty_FileLengthFrames, Int64(0)).1
        ExtAudioFileDispose(file!)
        let read = extRead(url, client: int16Format())
        #expect(read.status == noErr)
        if test.exactLength {
            #expect(read.frames == frames && length == Int64(frames), "\(test.name): \(read.frames) frames read, length \(length)")
        } else {
            #expect(read.frames >= frames, "\(test.name): \(read.frames)")
        }
        let back = int16s(of: read.buffers[0])
        if test.lossless {
            #expect(back == samples, "\(test.name): not the samples written")
        }
        let left = back.enumerated().filter { $0.offset % 2 == 0 }.map { Float($0.element) / 32_768 }
        let offset = test.exactLength ? 0 : (test.format.mFormatID == kAudioFormatMPEG4AAC ? 2_112 : 0)
        let middle = left[(offset + 5_000)..<min(left.count, offset + 25_000)]
        #expect(abs(zeroCrossingFrequency(middle, rate: 44_100) - 1_000) < 0.5, "\(test.name)")
        let level = amplitude(of: middle, frequency: 1_000, rate: 44_100)
        #expect(abs(20 * log10(level / 0.5)) < 0.5, "\(test.name): level \(level)")

        // SoundFile (libsndfile, FFmpeg) reads the same frames, where it reads the type.
        if !test.name.hasSuffix(".adts") && !test.name.hasSuffix(".aifc") {
            let theirs = try AudioFileFixture.decoded(url)
            if test.exactLength { #expect(theirs.count == frames * 2, "\(test.name): SoundFile reads \(theirs.count / 2) frames") }
            if test.lossless {
                #expect(zip(theirs, samples).allSatisfy { $0 == Float($1) / 32_768 }, "\(test.name): SoundFile's samples")
            }
        }
    }

    @Test func theCookieComesBeforeTheDataInACAF() throws {
        try #require(FFmpeg.isAvailable)
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (format, name) in [(kAudioFormatMPEG4AAC, "aac.caf"), (kAudioFormatAppleLossless, "alac.caf")] {
            let url = directory.appendingPathComponent(name)
            #expect(extWrite(url, type: kAudioFileCAFType, fileFormat: compressedFormat(format), client: floatFormat(),
                             bytes: bytes(of: sine(frequency: 500, rate: 44_100, frames: 10_000, channels: 2))) == noErr)
            let data = try Data(contentsOf: url)
            let kuki = data.range(of: Data("kuki".utf8)), chunk = data.range(of: Data("data".utf8)), free = data.range(of: Data("free".utf8))
            #expect(kuki != nil && chunk != nil && kuki!.lowerBound < chunk!.lowerBound, "\(name)")
            #expect(free == nil, "\(name): the cookie was rewritten after the data")
        }
    }

    /// iOS code sets the bit rate on the file's converter, then ConverterConfig to NULL.
    @Test func theConvertersBitRateIsTheFiles() throws {
        try #require(FFmpeg.isAvailable)
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var sizes: [UInt32: Int] = [:]
        let noise = (0..<88_200).map { (i: Int) -> Float in
            let a: Double = sin(Double(i) * 0.37) * 0.3
            let b: Double = sin(Double(i * i % 7_919) * 0.01) * 0.2
            return Float(a + b)
        }
        for rate: UInt32 in [64_000, 192_000] {
            let url = directory.appendingPathComponent("rate\(rate).m4a")
            let status = extWrite(url, type: kAudioFileM4AType, fileFormat: compressedFormat(kAudioFormatMPEG4AAC), client: floatFormat(),
                                  bytes: bytes(of: noise)) { file in
                var converter: AudioConverterRef?
                var size = UInt32(MemoryLayout<AudioConverterRef>.size)
                #expect(ExtAudioFileGetProperty(file, kExtAudioFileProperty_AudioConverter, &size, &converter) == noErr)
                var bitRate = rate
                #expect(AudioConverterSetProperty(converter!, kAudioConverterEncodeBitRate, UInt32(MemoryLayout<UInt32>.size), &bitRate) == noErr)
                var config: UnsafeRawPointer?
                #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ConverterConfig, UInt32(MemoryLayout<UnsafeRawPointer?>.size),
                                                &config) == noErr)
            }
            #expect(status == noErr)
            let fileID = try AudioFileWriteTests.open(url)
            sizes[rate] = Int(property(fileID, kAudioFilePropertyAudioDataByteCount, UInt64(0)).1)
            let bitRate = property(fileID, kAudioFilePropertyBitRate, UInt32(0)).1
            AudioFileClose(fileID)
            #expect(abs(Double(bitRate) - Double(rate)) < Double(rate) * 0.25, "asked \(rate), the file's \(bitRate)")
        }
        #expect(Double(sizes[192_000]!) > 2 * Double(sizes[64_000]!), "\(sizes)")
    }

    @Test func aClientRateIsResampledToTheFilesRate() throws {
        try #require(FFmpeg.isAvailable)
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("48k.m4a")
        let frames = 48_000
        #expect(extWrite(url, type: kAudioFileM4AType, fileFormat: compressedFormat(kAudioFormatMPEG4AAC), client: floatFormat(rate: 48_000),
                         bytes: bytes(of: sine(frequency: 1_000, rate: 48_000, frames: frames, channels: 2))) == noErr)
        let read = extRead(url, client: floatFormat())
        #expect(read.frames == 44_100, "\(read.frames)")
        let left = floats(of: read.buffers[0]).enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        #expect(abs(zeroCrossingFrequency(left[4_000..<40_000], rate: 44_100) - 1_000) < 0.5)
    }

    @Test func tellAndLengthFollowTheWrites() throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("t.caf")
        var format = int16Format(channels: 1)
        var file: ExtAudioFileRef?
        #expect(ExtAudioFileCreateWithURL(url as CFURL, kAudioFileCAFType, &format, nil, AudioFileFlags.eraseFile.rawValue, &file) == noErr)
        let samples = [Int16](repeating: 1_000, count: 5_000)
        var list = AudioBufferList()
        for written in 1...3 {
            samples.withUnsafeBytes { raw in
                list.mNumberBuffers = 1
                list.mBuffers = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(raw.count), mData: UnsafeMutableRawPointer(mutating: raw.baseAddress))
                #expect(ExtAudioFileWrite(file!, 5_000, &list) == noErr)
            }
            var position: Int64 = 0
            #expect(ExtAudioFileTell(file!, &position) == noErr)
            #expect(position == Int64(written * 5_000))
            #expect(extProperty(file!, kExtAudioFileProperty_FileLengthFrames, Int64(0)).1 == Int64(written * 5_000))
        }
        #expect(ExtAudioFileDispose(file!) == noErr)
        #expect(extRead(url, client: nil).frames == 15_000)
    }

    /// A recorder's pattern: the priming call from an ordinary thread, then WriteAsync from the
    /// audio callback many times (here a loop), then a synchronous write (after what was queued),
    /// then Dispose, which writes what is still queued.
    @Test(arguments: ["caf", "m4a"])
    func writeAsyncFromManyCallsKeepsEveryFrameInOrder(_ kind: String) throws {
        if kind == "m4a" { try #require(FFmpeg.isAvailable) }
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("async.\(kind)")
        var fileFormat = kind == "caf" ? int16Format() : compressedFormat(kAudioFormatAppleLossless)
        var file: ExtAudioFileRef?
        #expect(ExtAudioFileCreateWithURL(url as CFURL, kind == "caf" ? kAudioFileCAFType : kAudioFileM4AType, &fileFormat, nil,
                                          AudioFileFlags.eraseFile.rawValue, &file) == noErr)
        var client = int16Format()
        #expect(ExtAudioFileSetProperty(file!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size),
                                        &client) == noErr)
        #expect(ExtAudioFileWriteAsync(file!, 0, nil) == noErr)   // priming: the queue and the thread
        let samples = (0..<(2 * 100_000)).map { Int16(truncatingIfNeeded: $0 &* 37) }
        var list = AudioBufferList()
        var position = 0
        var calls = 0
        while position < 90_000 {
            let n = 512 + calls % 7 * 100   // a callback's varying sizes
            let status = samples.withUnsafeBytes { raw in
                list.mNumberBuffers = 1
                list.mBuffers = AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(n * 4), mData: UnsafeMutableRawPointer(mutating: raw.baseAddress! + position * 4))
                return ExtAudioFileWriteAsync(file!, UInt32(n), &list)
            }
            if status == kExtAudioFileError_AsyncWriteBufferOverflow {
                usleep(1_000)   // the thread has not kept up: this callback's frames would be lost; try again
                continue
            }
            #expect(status == noErr)
            position += n
            calls += 1
        }
        // The rest synchronously: it must follow what was queued.
        let rest = 100_000 - position
        samples.withUnsafeBytes { raw in
            list.mBuffers = AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(rest * 4), mData: UnsafeMutableRawPointer(mutating: raw.baseAddress! + position * 4))
            #expect(ExtAudioFileWrite(file!, UInt32(rest), &list) == noErr)
        }
        #expect(ExtAudioFileDispose(file!) == noErr)
        let read = extRead(url, client: int16Format())
        #expect(read.frames == 100_000)
        #expect(int16s(of: read.buffers[0]) == samples, "\(kind): the frames are not those written, in order")
    }

    /// Frames written as NaN and infinities become finite samples (0, ±full scale) in the file.
    @Test func nonFiniteFramesAreWrittenFinite() throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("nan.caf")
        let samples: [Float] = [.nan, .infinity, -.infinity, 0.5, .signalingNaN, 2, -2, 0]
        #expect(extWrite(url, type: kAudioFileCAFType, fileFormat: floatFormat(channels: 1), client: floatFormat(channels: 1),
                         bytes: bytes(of: samples)) == noErr)
        let back = floats(of: extRead(url, client: floatFormat(channels: 1)).buffers[0])
        #expect(back.allSatisfy { $0.isFinite }, "\(back)")
        #expect(back == [0, 1, -1, 0.5, 0, 2, -2, 0], "\(back)")
    }
}
