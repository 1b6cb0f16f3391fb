import AudioToolbox
import Foundation
import SoundFile
import Testing

/// ExtAudioFileSeek and ExtAudioFileTell: a seek to any frame, inside a packet or across a
/// resampling client rate, reads what a read from the start reads there; positions are the file's
/// frames (Apple's QA1609); and the same file read three ways gives the same samples.
@Suite struct ExtAudioFileSeekTests {
    /// Opens `url` with `client` as its client format.
    private func open(_ url: URL, _ client: AudioStreamBasicDescription) -> ExtAudioFileRef? {
        var file: ExtAudioFileRef?
        guard ExtAudioFileOpenURL(url as CFURL, &file) == noErr, let file else { return nil }
        var format = client
        guard ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size),
                                      &format) == noErr else {
            ExtAudioFileDispose(file)
            return nil
        }
        return file
    }

    private func tell(_ file: ExtAudioFileRef) -> Int64 {
        var position: Int64 = -1
        #expect(ExtAudioFileTell(file, &position) == noErr)
        return position
    }

    /// For each kind of file: a read from the start, then seeks to frames inside packets (and to 0
    /// and the end) whose next 3,000 frames must equal that read's, sample for sample: PCM, IMA4,
    /// ALAC and µ-law (independent packets), MP3 (decoding restarts 3 packets early), and AAC but
    /// for its noise-substituted bands (below).
    @Test(arguments: ["wav", "ima4", "alac", "aac", "mp3", "ulaw"])
    func aSeekReadsWhatAReadFromTheStartReads(_ kind: String) throws {
        if ["alac", "aac", "mp3"].contains(kind) { try #require(FFmpeg.isAvailable) }
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let format: OutputFormat = switch kind {
        case "wav": .wavPCM16
        case "ima4": .cafIMA4
        case "alac": .cafALAC
        case "aac": .m4aAAC
        case "mp3": .mp3
        default: .cafULaw
        }
        let url = try AudioFileFixture.write(frames: 50_000, channels: 2, format, name: "seek.\(kind)", in: directory)
        let client = floatFormat()
        let whole = floats(of: extRead(url, client: client).buffers[0])
        let frames = whole.count / 2
        let file = try #require(open(url, client))
        defer { ExtAudioFileDispose(file) }
        #expect(tell(file) == 0)
        var worst: Float = 0
        var worstRatio = 0.0
        for target in [Int64(33_333), 0, 1, 4_095, 4_096, 12_345, Int64(frames - 1_000), 2_048, Int64(frames)] {
            #expect(ExtAudioFileSeek(file, target) == noErr, "\(kind): seek to \(target)")
            #expect(tell(file) == target, "\(kind): tell after seeking to \(target)")
            let read = extReadAll(file, format: client, chunk: 777, limit: 3_000)
            #expect(read.status == noErr)
            let expected = min(3_000, frames - Int(target))
            #expect(read.frames == expected, "\(kind): \(read.frames) frames after \(target)")
            #expect(tell(file) == target + Int64(read.frames))
            let got = floats(of: read.buffers[0])
            let want = whole[(Int(target) * 2)..<((Int(target) + expected) * 2)]
            for (a, b) in zip(got, want) { worst = max(worst, abs(a - b)) }
            if !want.isEmpty { worstRatio = max(worstRatio, rms(zip(got, want).map { $0 - $1 }) / rms(want)) }
            // The same seek twice reads the same samples.
            #expect(ExtAudioFileSeek(file, target) == noErr)
            #expect(floats(of: extReadAll(file, format: client, chunk: 777, limit: 3_000).buffers[0]) == got, "\(kind): \(target) twice")
        }
        print("ExtAudioFileSeekTests: \(kind): largest difference after a seek \(worst), RMS of the difference / RMS \(worstRatio)")
        // AAC: FFmpeg's encoder fills noise-like bands by perceptual noise substitution, and the
        // decoder draws that noise from a generator a fresh decoder starts from its seed: after a
        // seek those bands are other noise of the same level, all through (measured: the largest
        // difference 0.083, the difference's RMS 2.8 % of the signal's, −31 dB, on this sawtooth-
        // and-sine signal; a pure tone, below, seeks exactly). Everything else is exact, MP3
        // (restarted 3 frames early) included.
        if kind == "aac" {
            #expect(worst <= 0.15 && worstRatio <= 0.05, "\(kind): \(worst), \(worstRatio)")
        } else {
            #expect(worst == 0, "\(kind): \(worst)")
        }
    }

    @Test func anAACToneSeeksExactly() throws {
        try #require(FFmpeg.isAvailable)
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("tone.m4a")
        try SoundFileWriter.write(.init(samples: sine(frequency: 440, rate: 44_100, frames: 44_100, channels: 2, amplitude: 0.4), channels: 2,
                                        sampleRate: 44_100), to: url.path, format: .m4aAAC)
        let whole = floats(of: extRead(url, client: floatFormat()).buffers[0])
        let file = try #require(open(url, floatFormat()))
        defer { ExtAudioFileDispose(file) }
        var worst: Float = 0
        for target in [5_000, 20_000, 100, 30_000] {
            #expect(ExtAudioFileSeek(file, Int64(target)) == noErr)
            let got = floats(of: extReadAll(file, format: floatFormat(), limit: 2_000).buffers[0])
            for (a, b) in zip(got, whole[(target * 2)...]) { worst = max(worst, abs(a - b)) }
        }
        print("ExtAudioFileSeekTests: AAC tone: largest difference after a seek \(worst)")
        #expect(worst <= 1e-6)
    }

    /// A client rate of 48 kHz from 44.1 kHz files: after a seek to file frame F the reads give the
    /// continuous read's client frames from ⌈F × 48000 / 44100⌉, exactly (the resampler restarts
    /// where its output instant is a whole client frame, early enough that its filter sees only real
    /// input at F). Tell stays in the file's frames.
    @Test(arguments: ["wav", "alac"])
    func aSeekAcrossAResamplingClientRateIsExact(_ kind: String) throws {
        if kind == "alac" { try #require(FFmpeg.isAvailable) }
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try AudioFileFixture.write(frames: 40_000, channels: 2, kind == "wav" ? .wavPCM16 : .cafALAC, name: "rate.\(kind)", in: directory)
        let client = floatFormat(rate: 48_000)
        let whole = floats(of: extRead(url, client: client).buffers[0])
        #expect(whole.count / 2 == Int((40_000.0 * 48_000 / 44_100).rounded(.up)))
        let file = try #require(open(url, client))
        defer { ExtAudioFileDispose(file) }
        var worst: Float = 0
        for target in [Int64(10_007), 1, 300, 39_000, 20_000] {
            #expect(ExtAudioFileSeek(file, target) == noErr)
            #expect(tell(file) == target)
            let start = Int((Double(target) * 48_000 / 44_100).rounded(.up))
            let read = extReadAll(file, format: client, limit: 1_500)
            #expect(read.frames == min(1_500, whole.count / 2 - start), "\(kind) after \(target)")
            for (a, b) in zip(floats(of: read.buffers[0]), whole[(start * 2)...]) { worst = max(worst, abs(a - b)) }
            let position = tell(file)
            #expect(abs(position - (target + Int64(Double(read.frames) * 44_100 / 48_000))) <= 1, "tell \(position)")
        }
        #expect(worst == 0, "\(kind): \(worst)")
    }

    @Test func seeksOutsideTheFileAreRefused() throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try AudioFileFixture.write(frames: 1_000, channels: 1, .wavPCM16, name: "short.wav", in: directory)
        let file = try #require(open(url, int16Format(channels: 1)))
        defer { ExtAudioFileDispose(file) }
        #expect(ExtAudioFileSeek(file, -1) == kExtAudioFileError_InvalidSeek)
        #expect(ExtAudioFileSeek(file, 1_001) == kExtAudioFileError_InvalidSeek)
        #expect(ExtAudioFileSeek(file, .max) == kExtAudioFileError_InvalidSeek)
        #expect(ExtAudioFileSeek(file, 1_000) == noErr)   // the end: the next read gives 0 frames
        let read = extReadAll(file, format: int16Format(channels: 1))
        #expect(read.frames == 0 && read.status == noErr)
        #expect(ExtAudioFileSeek(file, 500) == noErr)
        #expect(extReadAll(file, format: int16Format(channels: 1)).frames == 500)
    }

    /// The same file read through ExtAudioFileRead, through AudioFileReadPacketData and a converter
    /// (trimmed by the packet table, as iOS code that does it by hand trims), and through SoundFile.
    /// ExtAudioFileRead and the hand-made path are the same decoder and code: equal exactly.
    /// SoundFile: AAC is FFmpeg's decoder there too (equal exactly); MP3 is libsndfile's mpg123
    /// against FFmpeg's mp3float (their float synthesis rounds differently: 1e-5, measured about
    /// 1.5e-6); PCM, ALAC (FFmpeg both) and IMA4 (one codec) exactly.
    @Test(arguments: ["wav", "aac", "mp3", "alac", "ima4"])
    func threeWaysOfReadingAgree(_ kind: String) throws {
        if ["alac", "aac", "mp3"].contains(kind) { try #require(FFmpeg.isAvailable) }
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let format: OutputFormat = switch kind {
        case "wav": .wavPCM24
        case "aac": .m4aAAC
        case "mp3": .mp3
        case "alac": .m4aALAC
        default: .cafIMA4
        }
        let url = try AudioFileFixture.write(frames: 25_000, channels: 2, format, name: "three.\(kind)", in: directory)
        let viaExt = floats(of: extRead(url, client: floatFormat(), chunk: 1_000).buffers[0])
        let packets = try ConverterCodecTests.packets(of: url)
        var byHand: [Float]
        if packets.format.mFormatID == kAudioFormatLinearPCM {
            byHand = floats(of: convertPCM([packets.packets.flatMap { $0 }], from: packets.format, to: floatFormat()).output[0])
        } else {
            let decoded = try ConverterCodecTests.decode(packets.packets, format: packets.format, cookie: packets.cookie,
                                                         constant: packets.format.mBytesPerPacket > 0)
            #expect(decoded.status == noErr)
            let start = Int(packets.priming) * 2
            let valid = packets.valid > 0 ? Int(packets.valid) * 2 : decoded.samples.count   // no table: every frame
            byHand = Array(decoded.samples[start..<min(decoded.samples.count, start + valid)])
        }
        let viaSoundFile = try AudioFileFixture.decoded(url)
        #expect(viaExt.count == byHand.count && viaExt.count == viaSoundFile.count,
                "\(kind): \(viaExt.count / 2), \(byHand.count / 2), \(viaSoundFile.count / 2) frames")
        let byHandDifference = zip(viaExt, byHand).map { abs($0 - $1) }.max() ?? 1
        let soundFileDifference = zip(viaExt, viaSoundFile).map { abs($0 - $1) }.max() ?? 1
        print("ExtAudioFileSeekTests: \(kind): against the converter by hand \(byHandDifference), against SoundFile \(soundFileDifference)")
        #expect(byHandDifference == 0, "\(kind)")
        #expect(soundFileDifference <= (kind == "mp3" ? 1e-5 : 0), "\(kind)")
    }
}
