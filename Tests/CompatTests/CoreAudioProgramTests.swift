import AudioToolbox
import COpenAL
@testable import CompatPrograms
import Foundation
import SoundFile
import Testing
import TestSupport

/// The Swift programs of Programs/ that use Core Audio's C interfaces as iOS code does
/// (ExtAudioFileConvert, OpenALAudioData, StreamingParser, AACFileRecorder: the Swift counterparts
/// of Tests/C/audio_converter.c, openal_loader.c, audio_file_stream.c and recorder_to_file.c), run
/// offline on files the tests write. What they produce is checked against SoundFile's decode of
/// the same input, which shares no code with Core Audio's names: sample for sample where the
/// codec is lossless, by frequency, level and length where it is lossy. No device, no session:
/// the programs run on the test's thread, their callbacks too.
@Suite struct CoreAudioProgramTests {
    static let rate = 44_100

    /// A fresh directory for one test's files.
    final class Scratch {
        let url: URL
        init(_ name: String) throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(at: url) }
        func path(_ name: String) -> URL { url.appendingPathComponent(name) }
    }

    /// `seconds` of a sine per channel (440 Hz at 0.5 left, 660 Hz at 0.25 right; mono: the left),
    /// written by SoundFile in `format`.
    static func tone(_ url: URL, _ format: OutputFormat, channels: Int = 2, seconds: Double = 1, rate: Int = rate) throws {
        let frames = Int(seconds * Double(rate))
        var samples = [Float](repeating: 0, count: frames * channels)
        for i in 0..<frames {
            let t = Double(i) / Double(rate)
            samples[i * channels] = Float(0.5 * sin(2 * Double.pi * 440 * t))
            if channels > 1 { samples[i * channels + 1] = Float(0.25 * sin(2 * Double.pi * 660 * t)) }
            for extra in stride(from: 2, to: channels, by: 1) { samples[i * channels + extra] = 0.1 }
        }
        try SoundFileWriter.write(SoundBuffer(samples: samples, channels: channels, sampleRate: rate), to: url.path, format: format)
    }

    /// One channel of interleaved samples.
    static func channel(_ samples: [Float], _ index: Int, of channels: Int) -> [Float] {
        stride(from: index, to: samples.count, by: channels).map { samples[$0] }
    }

    /// Checks that `samples` (interleaved) hold the tone of ``tone(_:_:channels:seconds:rate:)``:
    /// each channel's frequency within 0.5 Hz and level within 0.5 dB, away from the ends.
    static func expectTone(_ samples: [Float], channels: Int, rate: Int = rate, _ what: String,
                           sourceLocation: SourceLocation = #_sourceLocation) {
        let tones: [(frequency: Double, amplitude: Double)] = [(440, 0.5), (660, 0.25)]
        for index in 0..<min(channels, 2) {
            let mono = channel(samples, index, of: channels)
            guard mono.count > 8_192 else {
                Issue.record("\(what): \(mono.count) frames", sourceLocation: sourceLocation)
                return
            }
            let middle = Array(mono[4_096..<(mono.count - 4_096)])
            let frequency = Signals.frequency(middle, rate: rate)
            let level = Signals.toneLevel(middle, frequency: tones[index].frequency, rate: rate)
            #expect(abs(frequency - tones[index].frequency) < 0.5, "\(what), channel \(index): \(frequency) Hz",
                    sourceLocation: sourceLocation)
            #expect(abs(20 * log10(level / tones[index].amplitude)) < 0.5, "\(what), channel \(index): level \(level)",
                    sourceLocation: sourceLocation)
        }
    }

    /// A property of an Audio File Services file, as iOS code reads one.
    static func property<T: BitwiseCopyable>(_ file: AudioFileID, _ id: AudioFilePropertyID, _ initial: T) -> (OSStatus, T) {
        var value = initial
        var size = UInt32(MemoryLayout<T>.size)
        let status = AudioFileGetProperty(file, id, &size, &value)
        return (status, value)
    }

    /// What Audio File Services says of a file: its description, packets, cookie size and packet table.
    struct FileFacts {
        var format = AudioStreamBasicDescription()
        var packets: UInt64 = 0
        var cookieSize: UInt32 = 0
        var packetTable: AudioFilePacketTableInfo?
    }

    static func facts(_ url: URL, sourceLocation: SourceLocation = #_sourceLocation) throws -> FileFacts {
        var fileID: AudioFileID?
        #expect(AudioFileOpenURL(url as CFURL, .readPermission, 0, &fileID) == noErr, sourceLocation: sourceLocation)
        let file = try #require(fileID, sourceLocation: sourceLocation)
        defer { AudioFileClose(file) }
        var facts = FileFacts()
        facts.format = property(file, kAudioFilePropertyDataFormat, AudioStreamBasicDescription()).1
        facts.packets = property(file, kAudioFilePropertyAudioDataPacketCount, UInt64(0)).1
        if AudioFileGetPropertyInfo(file, kAudioFilePropertyMagicCookieData, &facts.cookieSize, nil) != noErr { facts.cookieSize = 0 }
        let table = property(file, kAudioFilePropertyPacketTableInfo, AudioFilePacketTableInfo())
        if table.0 == noErr { facts.packetTable = table.1 }
        return facts
    }

    // MARK: - The converter

    struct ConversionCase: CustomStringConvertible, Sendable {
        let arguments: [String]
        let name: String
        let formatID: AudioFormatID
        let rate: Int
        let lossless: Bool
        var description: String { name }
    }

    static let conversions: [ConversionCase] = [
        ConversionCase(arguments: ["-d", "aac", "-f", "m4af"], name: "tone.m4a", formatID: kAudioFormatMPEG4AAC, rate: 44_100, lossless: false),
        ConversionCase(arguments: ["-d", "aac", "-f", "m4af", "-r", "48000"], name: "tone-48k.m4a", formatID: kAudioFormatMPEG4AAC, rate: 48_000,
                       lossless: false),
        ConversionCase(arguments: ["-d", "alac", "-f", "caff"], name: "tone-alac.caf", formatID: kAudioFormatAppleLossless, rate: 44_100,
                       lossless: true),
        ConversionCase(arguments: ["-d", "alac", "-f", "m4af"], name: "tone-alac.m4a", formatID: kAudioFormatAppleLossless, rate: 44_100,
                       lossless: true),
        ConversionCase(arguments: ["-d", "ima4", "-f", "caff"], name: "tone-ima4.caf", formatID: kAudioFormatAppleIMA4, rate: 44_100,
                       lossless: false),
        ConversionCase(arguments: ["-d", "lpcm", "-f", "WAVE"], name: "copy.wav", formatID: kAudioFormatLinearPCM, rate: 44_100, lossless: true),
        ConversionCase(arguments: ["-d", "lpcm", "-f", "WAVE", "-r", "48000"], name: "tone-48k.wav", formatID: kAudioFormatLinearPCM,
                       rate: 48_000, lossless: false),
    ]

    /// The books' converter, run as its command line is: a WAV file in, the format and container
    /// asked for out. SoundFile reads the result: the same samples as its decode of the WAV where
    /// the codec is lossless; where it is not, both tones, at their levels, and the input's length
    /// (the encoder's priming and padding trimmed by the packet table the dispose wrote).
    @Test(arguments: conversions)
    func theConverterConvertsAWaveFile(_ conversion: ConversionCase) throws {
        if [kAudioFormatMPEG4AAC, kAudioFormatAppleLossless].contains(conversion.formatID) { try #require(FFmpeg.isAvailable) }
        let scratch = try Scratch("convertfile")
        let input = scratch.path("in.wav"), output = scratch.path(conversion.name)
        try Self.tone(input, .wavPCM16)
        #expect(ConvertFile.main(["convertfile"] + conversion.arguments + [input.path, output.path]) == 0)

        let facts = try Self.facts(output)
        #expect(facts.format.mFormatID == conversion.formatID && facts.format.mChannelsPerFrame == 2
                && facts.format.mSampleRate == Double(conversion.rate), "\(conversion): \(facts.format)")
        if [kAudioFormatMPEG4AAC, kAudioFormatAppleLossless].contains(conversion.formatID) {
            #expect(facts.cookieSize > 0, "\(conversion): no magic cookie")
        }
        // One second at the destination's rate: 44,100 frames resampled to 48 kHz are 48,000.
        let frames = (Self.rate * conversion.rate + Self.rate - 1) / Self.rate
        if conversion.formatID == kAudioFormatMPEG4AAC {
            #expect(facts.packetTable?.mPrimingFrames == 2_112 && facts.packetTable?.mNumberValidFrames == Int64(frames),
                    "\(conversion): \(String(describing: facts.packetTable))")
        }

        let original = try SoundFile.decode(path: input.path)
        let converted = try SoundFile.decode(path: output.path)
        #expect(converted.channels == 2 && converted.sampleRate == conversion.rate)
        if conversion.lossless {
            #expect(Signals.difference(converted.samples, original.samples) == nil, "\(conversion)")
        } else {
            #expect(converted.frames == frames, "\(conversion): \(converted.frames) frames, not \(frames)")
            Self.expectTone(converted.samples, channels: 2, rate: conversion.rate, "\(conversion)")
        }
    }

    /// A compressed source takes the other road: the client format is float, and the destination's
    /// 16-bit PCM is SoundFile's decode of the AAC file, its priming trimmed, to within one step.
    @Test func theConverterDecodesACompressedFile() throws {
        try #require(FFmpeg.isAvailable)
        let scratch = try Scratch("convertfile-decode")
        let input = scratch.path("in.m4a"), output = scratch.path("out.wav")
        try Self.tone(input, .m4aAAC)
        #expect(ConvertFile.main(["convertfile", "-d", "lpcm", "-f", "WAVE", input.path, output.path]) == 0)
        let facts = try Self.facts(output)
        #expect(facts.format.mFormatID == kAudioFormatLinearPCM && facts.format.mBitsPerChannel == 16 && facts.packets == UInt64(Self.rate),
                "\(facts.format), \(facts.packets) frames")
        let theirs = try SoundFile.decode(path: input.path)
        let converted = try SoundFile.decode(path: output.path)
        #expect(converted.samples.count == theirs.samples.count, "\(converted.frames) frames, the source \(theirs.frames)")
        let steps = zip(converted.samples, theirs.samples).map { abs($0 - $1) * 32_768 }.max() ?? .infinity
        #expect(steps <= 1, "\(steps) 16-bit steps from SoundFile's decode")
        Self.expectTone(converted.samples, channels: 2, "the decoded AAC")
    }

    /// What the command line refuses, it says, with the books' four-character codes, and exits 1.
    @Test func theConverterReportsWhatFails() throws {
        let scratch = try Scratch("convertfile-errors")
        let input = scratch.path("in.wav")
        try Self.tone(input, .wavPCM16, seconds: 0.1)
        #expect(ConvertFile.main(["convertfile", input.path]) == 2, "no output named: the usage")
        #expect(ConvertFile.main(["convertfile", scratch.path("missing.wav").path, scratch.path("out.caf").path]) == 1)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("out.caf").path))
        // AAC in a WAVE file: the destination cannot be made, and nothing is left half-written.
        do {
            try ConvertFile.DoConvertFile(input, scratch.path("out.wav"), kAudioFormatMPEG4AAC, 0, kAudioFileWAVEType)
            Issue.record("AAC in WAVE was converted")
        } catch let failure as ConvertFile.Failure {
            #expect(failure.operation == "ExtAudioFileCreateWithURL failed!" && failure.status == kAudioFileUnsupportedDataFormatError,
                    "\(failure)")
            #expect(failure.description == "Error: ExtAudioFileCreateWithURL failed! ('fmt?')")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("out.wav").path))
    }

    // MARK: - The OpenAL loader

    struct LoaderCase: CustomStringConvertible, Sendable {
        let name: String
        let format: OutputFormat
        let channels: Int
        let rate: Int
        let lossless: Bool
        var description: String { name }
    }

    static let loads: [LoaderCase] = [
        LoaderCase(name: "tone.wav", format: .wavPCM16, channels: 2, rate: 44_100, lossless: true),
        LoaderCase(name: "tone.aiff", format: .aiffPCM16, channels: 1, rate: 22_050, lossless: true),
        LoaderCase(name: "tone-alac.caf", format: .cafALAC, channels: 1, rate: 44_100, lossless: true),
        LoaderCase(name: "tone-ima4.caf", format: .cafIMA4, channels: 1, rate: 44_100, lossless: false),
        LoaderCase(name: "tone.m4a", format: .m4aAAC, channels: 2, rate: 44_100, lossless: false),
        LoaderCase(name: "tone.mp3", format: .mp3, channels: 1, rate: 44_100, lossless: false),
    ]

    /// oalTouch's loader hands back one second of the file as 16-bit PCM, with the OpenAL format and
    /// the rate: for PCM and Apple Lossless exactly SoundFile's samples; for IMA4, AAC and MP3 one
    /// second to the frame (priming trimmed), within one 16-bit step of SoundFile's float decode,
    /// holding the tone at its level.
    @Test(arguments: loads)
    func theOpenALLoaderReadsAWholeFile(_ load: LoaderCase) throws {
        if [OutputFormat.cafALAC, .m4aAAC, .mp3].contains(load.format) { try #require(FFmpeg.isAvailable) }
        let scratch = try Scratch("openal-loader")
        let url = scratch.path(load.name)
        try Self.tone(url, load.format, channels: load.channels, rate: load.rate)
        var size: ALsizei = 0, format: ALenum = 0, rate: ALsizei = 0
        let data = try #require(MyGetOpenALAudioData(url as CFURL, &size, &format, &rate), "\(load)")
        defer { free(data) }
        #expect(format == (load.channels == 2 ? AL_FORMAT_STEREO16 : AL_FORMAT_MONO16) && rate == ALsizei(load.rate), "\(load)")
        #expect(Int(size) == load.rate * load.channels * 2, "\(load): \(size) bytes")
        let samples = Array(UnsafeBufferPointer(start: data.assumingMemoryBound(to: Int16.self), count: Int(size) / 2))
        let floats = samples.map { Float($0) / 32_768 }
        let theirs = try SoundFile.decode(path: url.path)
        if load.lossless {
            #expect(Signals.difference(floats, theirs.samples) == nil, "\(load)")
        } else {
            // The same decoders (FFmpeg's AAC; IMA4's), or two MP3 decoders within 1e-5: what
            // differs is the rounding to 16 bits, never more than one step.
            #expect(floats.count == theirs.samples.count, "\(load): SoundFile decodes \(theirs.frames) frames")
            let steps = zip(floats, theirs.samples).map { abs($0 - $1) * 32_768 }.max() ?? .infinity
            #expect(steps <= 1, "\(load): \(steps) 16-bit steps from SoundFile's decode")
        }
        Self.expectTone(floats, channels: load.channels, rate: load.rate, "\(load)")
    }

    /// What the loader cannot load gives nil, not a crash: a missing file, a file that is no sound,
    /// more channels than stereo.
    @Test func theOpenALLoaderRefusesWhatItCannotLoad() throws {
        let scratch = try Scratch("openal-loader-refused")
        let text = scratch.path("notes.wav")
        try Data("Not a sound: a sentence.".utf8).write(to: text)
        let surround = scratch.path("surround.wav")
        try Self.tone(surround, .wavPCM16, channels: 3, seconds: 0.1)
        for url in [scratch.path("missing.caf"), text, surround] {
            var size: ALsizei = 0, format: ALenum = 0, rate: ALsizei = 0
            let data = MyGetOpenALAudioData(url as CFURL, &size, &format, &rate)
            #expect(data == nil, "\(url.lastPathComponent)")
            free(data)
            #expect(size == 0 && format == 0 && rate == 0)
        }
    }

    // MARK: - The streaming parser

    /// Feeds `bytes` to a new parser in pieces, `pieces` giving each one's size; with `readWhileFeeding`
    /// the reader decodes what has arrived after every piece, as a player does while it downloads.
    static func stream(_ bytes: [UInt8], pieces: () -> Int, readWhileFeeding: Bool) throws -> (parser: Parser, samples: [Float], reads: Int) {
        let parser = try Parser(fileTypeHint: kAudioFileMP3Type)
        var reader: Reader?
        var samples: [Float] = []
        var reads = 0
        func readAvailable() throws {
            if reader == nil, parser.isReadyToProducePackets, let format = parser.dataFormat {
                reader = try Reader(parser: parser, readFormat: AudioStreamBasicDescription(
                    mSampleRate: format.mSampleRate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagsNativeFloatPacked,
                    mBytesPerPacket: 4 * format.mChannelsPerFrame, mFramesPerPacket: 1, mBytesPerFrame: 4 * format.mChannelsPerFrame,
                    mChannelsPerFrame: format.mChannelsPerFrame, mBitsPerChannel: 32, mReserved: 0))
            }
            guard let reader else { return }
            while true {
                let read = try reader.read(4_096)
                reads += 1
                samples += read.samples
                if read.samples.isEmpty || read.isEndOfData { return }
            }
        }
        var at = 0
        while at < bytes.count {
            let count = min(bytes.count - at, max(1, pieces()))
            try parser.parse(data: Data(bytes[at..<(at + count)]))
            at += count
            if readWhileFeeding { try readAvailable() }
        }
        try parser.finish()
        try readAvailable()
        return (parser, samples, reads)
    }

    /// An MP3 download parsed whole, a byte at a time and in random pieces (a socket's reads: up to
    /// 4 KB, now and then 1 to 3 bytes): each gives the same packets, as many as Audio File Services
    /// counts in the file, and the format; the reader decodes them (while the download goes on, or
    /// after it) to the same samples, which trimmed by the packet table the stream announced are
    /// SoundFile's decode of the file (mpg123 there, FFmpeg here: within 1e-5).
    @Test func theStreamingParserCollectsAndDecodesAnMP3Download() throws {
        try #require(FFmpeg.isAvailable)
        let scratch = try Scratch("streaming-parser")
        let url = scratch.path("song.mp3")
        try Self.tone(url, .mp3, seconds: 2)
        let bytes = Array(try Data(contentsOf: url))
        let file = try Self.facts(url)
        #expect(file.packets > 70)

        var random = SplitMix64(seed: 46)
        let splits: [(String, () -> Int, Bool)] = [
            ("whole", { bytes.count }, false),
            ("a byte at a time", { 1 }, false),
            ("random pieces, read while downloading", {
                Int.random(in: 0..<8, using: &random) == 0 ? Int.random(in: 1...3, using: &random) : Int.random(in: 1...4_096, using: &random)
            }, true),
        ]
        var results: [(String, Parser, [Float])] = []
        for (name, pieces, readWhileFeeding) in splits {
            let (parser, samples, reads) = try Self.stream(bytes, pieces: pieces, readWhileFeeding: readWhileFeeding)
            let format = try #require(parser.dataFormat, "\(name)")
            #expect(format.mFormatID == kAudioFormatMPEGLayer3 && format.mSampleRate == 44_100 && format.mChannelsPerFrame == 2
                    && format.mFramesPerPacket == 1_152, "\(name): \(format)")
            #expect(parser.packets.count == Int(file.packets), "\(name): \(parser.packets.count) packets, the file \(file.packets)")
            #expect(parser.packets.allSatisfy { $0.0.count >= 4 && $0.0[0] == 0xFF && $0.0[1] & 0xE0 == 0xE0 && $0.1 != nil },
                    "\(name): a packet that is not an MPEG frame")
            #expect(samples.count == parser.packets.count * 1_152 * 2, "\(name): \(samples.count / 2) frames decoded")
            if readWhileFeeding { #expect(reads > 20, "\(name): \(reads) reads") }
            results.append((name, parser, samples))
        }
        for (name, parser, samples) in results.dropFirst() {
            #expect(parser.packets.map(\.0) == results[0].1.packets.map(\.0), "\(name): not the packets of the whole stream")
            #expect(Signals.difference(samples, results[0].2) == nil, "\(name): not the samples of the whole stream")
        }

        // The packet table LAME's header gives, and the decode trimmed by it.
        let (_, parser, samples) = results[0]
        let table = try #require(parser.packetTable, "no packet table announced")
        #expect(table.mNumberValidFrames == Int64(2 * Self.rate))
        #expect(Int64(table.mPrimingFrames) + table.mNumberValidFrames + Int64(table.mRemainderFrames) == Int64(parser.packets.count * 1_152))
        let start = Int(table.mPrimingFrames) * 2
        let trimmed = Array(samples[start..<(start + Int(table.mNumberValidFrames) * 2)])
        let theirs = try SoundFile.decode(path: url.path)
        #expect(theirs.samples.count == trimmed.count, "SoundFile decodes \(theirs.frames) frames")
        let difference = zip(trimmed, theirs.samples).map { abs($0 - $1) }.max() ?? 1
        #expect(difference <= 1e-5, "the largest difference from SoundFile's decode is \(difference)")
        Self.expectTone(trimmed, channels: 2, "the decoded stream")
    }

    // MARK: - The AAC recorder

    /// The recorder fed 100,000 frames of a 440 Hz tone in buffers of uneven sizes (as an input
    /// tap delivers them) writes an AAC file that Audio File Services reads with its cookie, the
    /// packets for the priming and the frames, and a packet table of 2112 priming frames and exactly
    /// the frames recorded; SoundFile (FFmpeg) decodes the tone at its level, and the M4A's edit
    /// list (written from that packet table) gives exactly the frames recorded.
    @Test(arguments: [kAudioFileM4AType, kAudioFileCAFType])
    func theRecorderWritesAACPacketsWithTheirCookieAndPriming(_ fileType: AudioFileTypeID) throws {
        try #require(FFmpeg.isAvailable)
        let scratch = try Scratch("aac-recorder")
        let url = scratch.path(fileType == kAudioFileM4AType ? "memo.m4a" : "memo.caf")
        let frames = 100_000
        let input = (0..<frames).map { Float(0.5 * sin(2 * Double.pi * 440 * Double($0) / Double(Self.rate))) }
        let recorder = try AACFileRecorder(url: url, fileType: fileType)
        var random = SplitMix64(seed: 7)
        var at = 0
        while at < frames {
            let count = min(frames - at, [4_096, 1_024, 512, 333, 2_000][Int.random(in: 0..<5, using: &random)])
            try input.withUnsafeBufferPointer { try recorder.append($0.baseAddress! + at, frames: UInt32(count)) }
            at += count
        }
        try recorder.stop()

        let packets = (2_112 + frames + 1_023) / 1_024
        let facts = try Self.facts(url)
        #expect(facts.format.mFormatID == kAudioFormatMPEG4AAC && facts.format.mSampleRate == 44_100 && facts.format.mChannelsPerFrame == 1
                && facts.format.mFramesPerPacket == 1_024, "\(facts.format)")
        #expect(facts.cookieSize > 0, "no magic cookie")
        #expect(facts.packets == UInt64(packets), "\(facts.packets) packets, not \(packets)")
        let table = try #require(facts.packetTable, "no packet table")
        #expect(table.mPrimingFrames == 2_112 && table.mNumberValidFrames == Int64(frames)
                && Int(table.mRemainderFrames) == packets * 1_024 - 2_112 - frames, "\(table)")

        let decoded = try SoundFile.decode(path: url.path)
        #expect(decoded.channels == 1 && decoded.sampleRate == Self.rate)
        if fileType == kAudioFileM4AType { #expect(decoded.frames == frames, "\(decoded.frames) frames decoded, \(frames) recorded") }
        Self.expectTone(decoded.samples, channels: 1, "the recording")
    }
}
