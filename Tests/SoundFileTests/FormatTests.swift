import Foundation
import Testing
import SoundFile
import TestSupport

/// Every format the project promises loads with the right shape and the right samples.
@Suite struct FormatTests {
    /// A format, what `inspect` must report, and how close decoded samples must be.
    struct Case: CustomTestStringConvertible, Sendable {
        let format: OutputFormat
        let ext: String
        let container: Container
        let encoding: SampleEncoding
        /// Max |decoded − original| for sample-exact comparisons; nil for lossy codecs (checked by
        /// frequency and level instead).
        let tolerance: Float?
        var testDescription: String { format.name }
    }

    static let cases: [Case] = [
        Case(format: .wavPCM8, ext: "wav", container: .wav, encoding: .pcmU8, tolerance: 0.01),
        Case(format: .wavPCM16, ext: "wav", container: .wav, encoding: .pcm16, tolerance: 1e-4),
        Case(format: .wavPCM24, ext: "wav", container: .wav, encoding: .pcm24, tolerance: 1e-6),
        Case(format: OutputFormat(container: .wav, encoding: .pcm32), ext: "wav", container: .wav, encoding: .pcm32, tolerance: 1e-7),
        Case(format: .wavFloat32, ext: "wav", container: .wav, encoding: .float32, tolerance: 0),
        Case(format: .wavIMA4, ext: "wav", container: .wav, encoding: .imaADPCM, tolerance: 0.05),
        Case(format: .wavMSADPCM, ext: "wav", container: .wav, encoding: .msADPCM, tolerance: 0.05),
        Case(format: .wavULaw, ext: "wav", container: .wav, encoding: .ulaw, tolerance: 0.02),
        Case(format: .wavALaw, ext: "wav", container: .wav, encoding: .alaw, tolerance: 0.02),
        Case(format: .aiffPCM16, ext: "aiff", container: .aiff, encoding: .pcm16, tolerance: 1e-4),
        Case(format: .auPCM16, ext: "au", container: .au, encoding: .pcm16, tolerance: 1e-4),
        Case(format: .cafPCM16, ext: "caf", container: .caf, encoding: .pcm16, tolerance: 1e-4),
        Case(format: .cafULaw, ext: "caf", container: .caf, encoding: .ulaw, tolerance: 0.02),
        Case(format: .cafALAC, ext: "caf", container: .caf, encoding: .alac16, tolerance: 1e-4),
        Case(format: .cafIMA4, ext: "caf", container: .caf, encoding: .imaADPCM, tolerance: 0.05),
        Case(format: .flac, ext: "flac", container: .flac, encoding: .flac, tolerance: 1e-4),
        Case(format: .oggVorbis, ext: "ogg", container: .ogg, encoding: .vorbis, tolerance: nil),
        Case(format: .opus, ext: "opus", container: .ogg, encoding: .opus, tolerance: nil),
        Case(format: .mp3, ext: "mp3", container: .mpeg, encoding: .mpegLayer3, tolerance: nil),
    ]

    @Test(arguments: cases)
    func writesAndReadsBack(_ c: Case) throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("signal.\(c.ext)").path
        let original = Fixtures.stereo
        try SoundFileWriter.write(original, to: path, format: c.format)

        let file = try SoundFile(path: path)
        #expect(file.format.container == c.container)
        #expect(file.format.encoding == c.encoding)
        #expect(file.format.channels == 2)
        #expect(file.format.sampleRate == 48_000)
        let decoded = try file.readAll()
        #expect(decoded.channels == 2)
        // ADPCM pads to its block size; lossy codecs add priming: allow a little, never less.
        let slack = c.tolerance == nil ? 4_096 : (c.encoding == .imaADPCM || c.encoding == .msADPCM ? 2_048 : 0)
        #expect(decoded.frames >= original.frames - (c.encoding == .mpegLayer3 ? 1_152 : 0))
        #expect(decoded.frames <= original.frames + slack, "decoded \(decoded.frames) frames")
        #expect(abs(decoded.duration - 0.5) <= Double(slack) / 48_000 + 1e-9)

        if let tolerance = c.tolerance {
            // ADPCM adapts its step size over the first samples: compare after 256 frames.
            let skip = c.encoding == .imaADPCM || c.encoding == .msADPCM ? 512 : 0
            let worst = zip(decoded.samples.dropFirst(skip), original.samples.dropFirst(skip)).map { abs($0 - $1) }.max() ?? 1
            #expect(worst <= tolerance, "max error \(worst)")
        } else {
            // Lossy: each channel keeps its own frequency and roughly its level.
            for (channel, frequency) in [(0, 440.0), (1, 660.0)] {
                // Skip the codec's priming and fade-in; measure the steady middle.
                let steady = Array(decoded.channel(channel)[4_800..<19_200])
                let heard = Fixtures.frequency(steady, rate: 48_000)
                #expect(abs(heard - frequency) < 1, "channel \(channel): \(heard) Hz")
                let level = Fixtures.rms(steady)
                #expect(abs(level - 0.3536) < 0.03, "level \(level)")
            }
        }
    }

    @Test(arguments: cases)
    func readsFromMemoryLikeFromAFile(_ c: Case) throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("signal.\(c.ext)").path
        try SoundFileWriter.write(Fixtures.stereo, to: path, format: c.format)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let fromMemory = try SoundFile(data: bytes, name: "memory.\(c.ext)")
        let fromFile = try SoundFile(path: path)
        #expect(fromMemory.format == fromFile.format)
        #expect(try fromMemory.readAll() == fromFile.readAll())
    }

    /// libvorbis takes a stack buffer the size of the first write: one call with a minute of
    /// audio (2.9 million frames, 11.5 MB) overflowed an 8 MB stack and killed the process.
    @Test func aMinuteWrittenInOneCallEncodesToVorbis() throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rate = 48_000
        let minute = AudioBuffer(samples: (0..<(60 * rate)).map { Float(0.3 * sin(2 * Double.pi * 330 * Double($0) / Double(rate))) },
                                 channels: 1, sampleRate: rate)
        let path = dir.appendingPathComponent("minute.ogg").path
        try SoundFileWriter.write(minute, to: path, format: .oggVorbis)
        let decoded = try SoundFile.decode(path: path)
        #expect(decoded.frames == minute.frames)
        #expect(abs(Fixtures.frequency(Array(decoded.samples[100_000..<200_000]), rate: rate) - 330) < 0.1)
    }

    @Test func chunkedReadsEqualAWholeRead() throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for format in [OutputFormat.wavPCM16, .cafIMA4, .flac] {
            let path = dir.appendingPathComponent("chunks.\(format.name)").path
            try SoundFileWriter.write(Fixtures.stereo, to: path, format: format)
            let whole = try SoundFile.decode(path: path)
            let file = try SoundFile(path: path)
            var pieces: [Float] = []
            while true {
                let chunk = try file.read(frames: 1_000)
                if chunk.frames == 0 { break }
                pieces += chunk.samples
            }
            #expect(pieces == whole.samples, "\(format.name)")
            try file.seek(toFrame: 12_000)
            let tail = try file.read(frames: 100)
            #expect(Signals.difference(tail.samples, Array(whole.samples[24_000..<24_200])) == nil, "\(format.name) after seek")
            #expect(try file.readInt16(frames: 2).count == 4)
        }
    }

    @Test func namedFormatsRoundTripTheirNames() {
        for (name, format) in OutputFormat.named {
            #expect(OutputFormat(name: name) == format)
            #expect(format.name == name)
        }
        #expect(OutputFormat(name: "nope") == nil)
        #expect(OutputFormat(pathExtensionOf: "a/b.CAF") == .cafPCM16)
        #expect(OutputFormat(pathExtensionOf: "x.txt") == nil)
    }

    @Test func resamplingKeepsPitchAndLength() {
        let resampled = Fixtures.stereo.resampled(to: 44_100)
        #expect(resampled.sampleRate == 44_100)
        #expect(resampled.frames == 22_050)
        #expect(abs(Fixtures.frequency(resampled.channel(0), rate: 44_100) - 440) < 0.5)
        #expect(abs(Fixtures.rms(Array(resampled.channel(1)[1_000..<21_000])) - 0.3536) < 0.005)
    }

    @Test func remixingChannels() {
        let mono = Fixtures.stereo.remixed(toChannels: 1)
        #expect(mono.channels == 1)
        #expect(mono.samples[100] == (Fixtures.stereo.samples[200] + Fixtures.stereo.samples[201]) / 2)
        let back = mono.remixed(toChannels: 2)
        #expect(back.channel(0) == back.channel(1))
    }

    @Test func opusRefusesRatesItCannotCode() throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("x.opus").path
        let error = #expect(throws: SoundstageError.self) {
            _ = try SoundFileWriter(path: path, format: .opus, sampleRate: 44_100, channels: 2)
        }
        #expect(error?.code == .unsupportedFormat)
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}

/// Samples beyond full scale (a hot mix, a Vorbis overshoot of 1.67) are clipped in integer
/// formats: never wrapped around into a loud glitch, never a failed write.
@Suite struct ClippingTests {
    @Test(arguments: [OutputFormat.wavPCM16, .flac, .aiffPCM16, .cafALAC, .wavPCM24])
    func hotSamplesAreClipped(_ format: OutputFormat) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("soundstage-clip-\(getpid())-\(format.name)").path
        defer { unlink(path) }
        let samples: [Float] = (0..<48_000).map { Float(1.6 * sin(2 * Double.pi * 440 * Double($0) / 48_000)) }
        try SoundFileWriter.write(AudioBuffer(samples: samples, channels: 1, sampleRate: 48_000), to: path, format: format)
        let back = try SoundFile.decode(path: path)
        #expect(back.frames == 48_000)
        for (index, value) in back.samples.enumerated() where abs(samples[index]) > 1 {
            #expect(abs(value) > 0.99 && (value > 0) == (samples[index] > 0), "frame \(index): \(samples[index]) came back as \(value)")
            break
        }
        let wrapped = zip(samples, back.samples).filter { abs($0) > 0.5 && ($0 > 0) != ($1 > 0) }.count
        #expect(wrapped == 0, "\(wrapped) samples wrapped around")
    }
}
