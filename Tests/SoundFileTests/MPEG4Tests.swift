import Foundation
import Testing
import TestSupport
@testable import SoundFile

/// AAC and ALAC in M4A, CAF and ADTS, decoded and encoded through FFmpeg. Every fixture is
/// made here with the FFmpeg encoder Soundstage loads (no binary files are committed).
@Suite(.enabled(if: FFmpeg.isAvailable, "FFmpeg's libraries are not installed")) struct MPEG4Tests {
    /// 1 s of stereo at 48 kHz, amplitude 0.5, with 5 ms fades so the encoder sees no edge: a
    /// 440 Hz sine on the left (to measure frequency), a 200 → 2000 Hz sweep on the right (which
    /// repeats nowhere, so its alignment is unambiguous).
    static let source: AudioBuffer = {
        let rate = 48_000, n = 48_000
        var samples = [Float](repeating: 0, count: n * 2)
        for i in 0..<n {
            let t = Double(i) / Double(rate)
            let fade = Float(min(1, Double(min(i, n - 1 - i)) / 240))
            samples[2 * i] = fade * Float(0.5 * sin(2 * Double.pi * 440 * t))
            samples[2 * i + 1] = fade * Float(0.5 * sin(2 * Double.pi * (200 * t + 900 * t * t)))
        }
        return AudioBuffer(samples: samples, channels: 2, sampleRate: rate)
    }()

    static func write(_ buffer: AudioBuffer, _ format: OutputFormat, in directory: URL, name: String, bitRate: Int? = nil) throws -> String {
        let path = directory.appendingPathComponent(name).path
        let writer = try SoundFileWriter(path: path, format: format, sampleRate: buffer.sampleRate, channels: buffer.channels, bitRate: bitRate)
        try writer.write(buffer)
        try writer.finish()
        return path
    }

    /// The lag (in frames, within ±`range`) at which `decoded` best matches `reference` on a channel.
    static func bestLag(_ decoded: AudioBuffer, _ reference: AudioBuffer, channel: Int, range: Int = 2048) -> Int {
        let a = decoded.channel(channel), b = reference.channel(channel)
        var best = (lag: 0, score: -Double.infinity)
        for lag in -range...range {
            var sum = 0.0
            for i in stride(from: 4096, to: min(a.count, b.count) - 4096, by: 3) { sum += Double(a[i + lag]) * Double(b[i]) }
            if sum > best.score { best = (lag, sum) }
        }
        return best.lag
    }

    @Test func aacDecodesToTheSourceSignalAlignedAndGapless() throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.write(Self.source, .m4aAAC, in: dir, name: "tone.m4a", bitRate: 192_000)
        let file = try SoundFile(path: path)
        #expect(file.format.container == .mp4)
        #expect(file.format.encoding == .aac)
        #expect(file.format.frames == 48_000)
        let details = try #require(file.codecDetails)
        #expect(details.codec == "aac")
        #expect(details.profile == "LC")
        #expect(details.primingFrames == 1024)
        #expect(details.remainderFrames == 128)
        #expect(details.gapless)
        #expect(abs((details.bitRate ?? 0) - 192_000) < 20_000)
        let decoded = try file.readAll()
        // Gapless: exactly the frames written, the priming and the remainder cut.
        #expect(decoded.frames == Self.source.frames)
        #expect(abs(Fixtures.frequency(Array(decoded.channel(0)[2400..<45_600]), rate: 48_000) - 440) < 0.05)
        for channel in 0..<2 {
            let body = Array(decoded.channel(channel)[2400..<45_600])
            let level = 20 * log10(Fixtures.rms(body) / Fixtures.rms(Array(Self.source.channel(channel)[2400..<45_600])))
            #expect(abs(level) < 0.5, "channel \(channel): \(level) dB")
        }
        // Aligned: the priming is trimmed to the frame (the sweep matches at lag 0).
        #expect(Self.bestLag(decoded, Self.source, channel: 1) == 0)
    }

    /// The length survives to the frame, whatever it is: the edit list counts in samples, not in
    /// the movie's default milliseconds (which rounded 1000 frames to 1008, 63175 to 63168).
    @Test(arguments: [1, 1000, 2047, 2049, 63_175])
    func anyLengthDecodesToExactlyItsFrames(_ frames: Int) throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let audio = AudioBuffer(samples: Array(repeating: Self.source.samples, count: 2).flatMap { $0 }.prefix(frames * 2).map { $0 },
                                channels: 2, sampleRate: 48_000)
        for format in [OutputFormat.m4aAAC, .m4aALAC] {
            let file = try SoundFile(path: Self.write(audio, format, in: dir, name: "\(frames).\(format.name).m4a"))
            #expect(file.format.frames == Int64(frames), "\(format.name)")
            #expect(try file.readAll().frames == frames, "\(format.name)")
        }
    }

    @Test func alacDecodesBitExact() throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 16-bit values (k / 32768) with noise on top of the tones, so every bit matters; the
        // same samples as 16-bit WAV (libsndfile) decode to the same floats.
        var random = SplitMix64(seed: 7)
        let samples = Self.source.samples.map { sample -> Float in
            let noisy = Double(sample) * 0.9 + Double(Int64(bitPattern: random.next() >> 1) % 2000) / 32_768
            return Float(Int16(clamping: Int((noisy * 32_768).rounded()))) / 32_768
        }
        let original = AudioBuffer(samples: samples, channels: 2, sampleRate: 44_100)
        let wav = try SoundFile.decode(path: Self.write(original, .wavPCM16, in: dir, name: "reference.wav"))
        let file = try SoundFile(path: Self.write(original, .m4aALAC, in: dir, name: "lossless.m4a"))
        #expect(file.format.encoding == .alac16)
        #expect(file.codecDetails?.codec == "alac")
        #expect(file.codecDetails?.primingFrames == 0 && file.codecDetails?.remainderFrames == 0)
        let alac = try file.readAll()
        #expect(alac.frames == original.frames)
        #expect(alac.samples == original.samples)
        #expect(wav.samples == original.samples)
    }

    @Test func aStreamedFileEqualsTheDecodedOneAndSeeksAreExact() throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (format, name) in [(OutputFormat.m4aAAC, "seek.m4a"), (.m4aALAC, "seek-alac.m4a"), (.adtsAAC, "seek.aac")] {
            let path = try Self.write(Self.source, format, in: dir, name: name)
            let whole = try SoundFile.decode(path: path)
            let file = try SoundFile(path: path)
            var streamed: [Float] = []
            while true {
                let chunk = try file.read(frames: 777)
                if chunk.frames == 0 { break }
                streamed += chunk.samples
            }
            #expect(streamed == whole.samples, "\(name): streamed in chunks")
            // ALAC is bit-exact after a seek. AAC is exact in position; its samples may differ by
            // the noise FFmpeg's decoder substitutes (perceptual noise substitution draws from a
            // generator a seek does not rewind), far below -60 dB — while one frame off would
            // differ by the signal itself (the sweep moves every sample).
            let tolerance: Float = format == .m4aALAC ? 0 : 1e-3
            for target in [0, 1, 1023, 1024, 1025, 4095, 5000, 24_321, 47_000, 47_990] {
                try file.seek(toFrame: Int64(target))
                let got = try file.read(frames: 512)
                let expected = Array(whole.samples[(target * 2)..<min(whole.samples.count, (target + 512) * 2)])
                #expect(got.samples.count == expected.count, "\(name): seek to \(target)")
                let worst = zip(got.samples, expected).map { abs($0 - $1) }.max() ?? 0
                #expect(worst <= tolerance, "\(name): seek to \(target) differs by \(worst)")
                if (2048..<47_000).contains(target) {  // (before 2048: ADTS still holds its silent priming)
                    let shifted = zip(got.samples, whole.samples[((target - 1) * 2)...]).map { abs($0 - $1) }.max() ?? 0
                    #expect(shifted > 10 * max(tolerance, 1e-5), "\(name): one frame early would match as well")
                }
            }
            // Seeking back to the start replays the start, and past the end reads nothing.
            try file.seek(toFrame: 0)
            let start = try file.read(frames: 100).samples
            #expect(zip(start, whole.samples[0..<200]).allSatisfy { abs($0 - $1) <= tolerance })
            try file.seek(toFrame: 1_000_000)
            #expect(try file.read(frames: 100).frames == 0)
        }
    }

    @Test func aLoopedAACSoundHasNoGapOrClickAtItsSeam() throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A tone of a whole number of periods: looped, it is one continuous sine.
        let tone = Tone(frequency: 480, amplitude: 0.5)
        let loop = tone.render(seconds: tone.loopLength, sampleRate: 48_000, fades: false)
        let path = try Self.write(loop, .m4aAAC, in: dir, name: "loop.m4a", bitRate: 192_000)
        let decoded = try SoundFile.decode(path: path)
        #expect(decoded.frames == loop.frames)  // no gap: not one frame more or less
        let twice = decoded.samples + decoded.samples
        // The seam's step is no bigger than the largest step anywhere else in the sound.
        func step(_ i: Int) -> Float { abs(twice[i] - twice[i - 1]) }
        let seam = decoded.frames
        let largest = (1..<decoded.frames).map(step).max() ?? 0
        // (Priming left in would put 1024 frames of near-silence here: a step of the full amplitude.)
        #expect(step(seam) <= largest * 1.5, "seam step \(step(seam)) vs \(largest)")
        // ... and the wave goes on in phase: the seam region matches the source's own seam.
        let reference = loop.samples + loop.samples
        let error = ((seam - 48)..<(seam + 48)).map { Double(abs(twice[$0] - reference[$0])) }.max() ?? 1
        #expect(error < 0.02, "the seam differs from a continuous sine by \(error)")
    }

    @Test func adtsDecodesButStatesNoPriming() throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.write(Self.source, .adtsAAC, in: dir, name: "raw.aac")
        let file = try SoundFile(path: path)
        #expect(file.format.container == .adts)
        let details = try #require(file.codecDetails)
        #expect(details.primingFrames == nil)
        #expect(!details.gapless)
        let decoded = try file.readAll()
        // Priming and padding stay: 1024 frames of encoder delay, then the signal.
        #expect(decoded.frames >= Self.source.frames + 1024)
        #expect(Self.bestLag(decoded, Self.source, channel: 1) == 1024)
        #expect(abs(Fixtures.frequency(Array(decoded.channel(0)[4000..<44_000]), rate: 48_000) - 440) < 0.05)
    }

    @Test func aacInCAFIsTrimmedByItsPacketTable() throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let adts = try Self.write(Self.source, .adtsAAC, in: dir, name: "for-caf.aac")
        let caf = try CAFAACFixture.make(fromADTS: [UInt8](Data(contentsOf: URL(fileURLWithPath: adts))),
                                         validFrames: Int64(Self.source.frames), priming: 1024)
        let path = dir.appendingPathComponent("ios.caf").path
        try Data(caf).write(to: URL(fileURLWithPath: path))
        for file in [try SoundFile(path: path), try SoundFile(data: caf, name: "ios.caf")] {
            #expect(file.format.container == .caf)
            #expect(file.format.encoding == .aac)
            #expect(file.format.frames == Int64(Self.source.frames))
            #expect(file.codecDetails?.primingFrames == 1024)
            #expect(file.codecDetails?.gapless == true)
            let decoded = try file.readAll()
            #expect(decoded.frames == Self.source.frames)
            #expect(Self.bestLag(decoded, Self.source, channel: 1) == 0)
            // Seeks count from the first frame of the audio, the priming skipped.
            for target in [0, 700, 5_000, 40_000] {
                try file.seek(toFrame: Int64(target))
                let got = try file.read(frames: 256).samples
                let worst = zip(got, decoded.samples[(target * 2)...]).map { abs($0 - $1) }.max() ?? 1
                #expect(got.count == 512 && worst < 1e-3, "seek to \(target): off by \(worst)")
            }
        }
    }

    /// HE-AAC: Debian's FFmpeg has no HE-AAC encoder, so this fixture is made by hand: an AAC-LC
    /// stream encoded at 24 kHz, declared HE-AAC (SBR, explicit signalling, output at 48 kHz) in
    /// a CAF's cookie, with no SBR data in its frames. FFmpeg's decoder then runs its SBR path
    /// (QMF analysis and synthesis at the doubled rate) with an empty high band. That exercises
    /// what Soundstage must get right for HE-AAC — the rate and frame size known only once a frame
    /// is decoded, the packet table counted at the output rate — though not real SBR content.
    @Test func heAACSignallingDoublesTheRateAndKeepsTheLength() throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let core = AudioBuffer(samples: (0..<24_000).map { Float(0.5 * sin(2 * Double.pi * 440 * Double($0) / 24_000)) },
                               channels: 1, sampleRate: 24_000)
        let adts = try Self.write(core, .adtsAAC, in: dir, name: "core.aac")
        let caf = try CAFAACFixture.make(fromADTS: [UInt8](Data(contentsOf: URL(fileURLWithPath: adts))),
                                         validFrames: 48_000, priming: 2048, explicitSBR: true)
        let file = try SoundFile(data: caf, name: "he-aac.caf")
        #expect(file.format.sampleRate == 48_000)
        // FFmpeg decodes mono HE-AAC as stereo (parametric stereo may appear in any frame).
        #expect(file.format.channels == 2)
        #expect(file.format.frames == 48_000)
        #expect(file.codecDetails?.primingFrames == 2048)
        // (The profile reads "LC" here: FFmpeg names HE-AAC from SBR data in the frames, which
        // this fixture lacks.)
        let decoded = try file.readAll()
        #expect(decoded.frames == 48_000)
        #expect(decoded.sampleRate == 48_000)
        let left = Array(decoded.channel(0)[6_000..<42_000])
        #expect(abs(Fixtures.frequency(left, rate: 48_000) - 440) < 0.5)
        #expect(Fixtures.rms(left) > 0.2)
        #expect(decoded.channel(0) == decoded.channel(1))
    }

    @Test func bytesInMemoryDecodeAsTheFileDoes() throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.write(Self.source, .m4aAAC, in: dir, name: "memory.m4a")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(try SoundFile(data: bytes, name: "memory.m4a").readAll() == SoundFile.decode(path: path))
    }

    @Test func theDecoderIsChosenByContentNotByName() throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let m4a = try Self.write(Self.source, .m4aAAC, in: dir, name: "really-aac.wav")
        #expect(try SoundFile(path: m4a).format.container == .mp4)
        let wav = try Self.write(Self.source, .wavPCM16, in: dir, name: "really-wav.m4a")
        #expect(try SoundFile(path: wav).format.container == .wav)
        #expect(try SoundFile(path: wav).codecDetails == nil)
    }

    /// An `.mp4` as other tools write it (the `ffmpeg` command, brand `mp42`, not the `M4A ` of
    /// Soundstage's own writer) is found by content and decodes to exactly its frames.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "needs the ffmpeg tool"))
    func anMP4FromTheFFmpegToolDecodesToItsFrames() throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("clip.mp4").path
        let made = try ChildProcess.run("/usr/bin/ffmpeg", ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=1",
                                                            "-c:a", "aac", "-b:a", "128k", "-f", "mp4", "-brand", "mp42", path],
                                        environment: ProcessInfo.processInfo.environment)
        #expect(made.status == 0, "\(made.output)")
        let file = try SoundFile(path: path)
        #expect(file.format.container == .mp4 && file.format.encoding == .aac)
        #expect(file.format.frames == 44_100, "the tool's 1 s at 44.1 kHz, priming and remainder trimmed")
        let audio = try file.readAll()
        #expect(audio.frames == 44_100)
        #expect(abs(Signals.frequency(Array(audio.channel(0)[4_410..<39_690]), rate: 44_100) - 440) < 0.5)
    }

    @Test func cafAACIsRefusedByName() throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let error = #expect(throws: SoundstageError.self) { _ = try Self.write(Self.source, .cafAAC, in: dir, name: "x.caf") }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message.contains("m4a-aac") == true)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.caf").path))
    }

    @Test func aacRefusesWhatItCannotHold() throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let odd = AudioBuffer(samples: [Float](repeating: 0, count: 1000), channels: 1, sampleRate: 45_000)
        let error = #expect(throws: SoundstageError.self) { _ = try Self.write(odd, .m4aAAC, in: dir, name: "odd.m4a") }
        #expect(error?.code == .unsupportedFormat)
        let rate = #expect(throws: SoundstageError.self) { _ = try Self.write(Self.source, .m4aAAC, in: dir, name: "b.m4a", bitRate: 1) }
        #expect(rate?.code == .invalidArgument)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }
}

/// Builds a CAF file holding AAC, as iOS writes them and FFmpeg cannot: the frames of an ADTS
/// stream, a `kuki` (the MPEG-4 elementary stream descriptor), and a `pakt` with the priming.
enum CAFAACFixture {
    /// `explicitSBR` declares the stream HE-AAC (SBR at twice the core rate, explicit
    /// hierarchical signalling): the frames stay LC, the output rate and frame size double.
    static func make(fromADTS adts: [UInt8], validFrames: Int64, priming: Int32, explicitSBR: Bool = false) throws -> [UInt8] {
        var frames: [ArraySlice<UInt8>] = []
        var offset = 0
        var config: (profile: Int, rateIndex: Int, channels: Int) = (0, 0, 0)
        while offset + 7 <= adts.count {
            guard adts[offset] == 0xFF, adts[offset + 1] & 0xF6 == 0xF0 else { throw SoundstageError(.corruptData, "not ADTS") }
            let protectionAbsent = adts[offset + 1] & 1 == 1
            config = (Int(adts[offset + 2] >> 6), Int((adts[offset + 2] >> 2) & 0xF),
                      Int((adts[offset + 2] & 1) << 2 | adts[offset + 3] >> 6))
            let length = (Int(adts[offset + 3] & 3) << 11) | (Int(adts[offset + 4]) << 3) | Int(adts[offset + 5] >> 5)
            let header = protectionAbsent ? 7 : 9
            frames.append(adts[(offset + header)..<(offset + length)])
            offset += length
        }
        let rates = [96_000, 88_200, 64_000, 48_000, 44_100, 32_000, 24_000, 22_050, 16_000, 12_000, 11_025, 8_000, 7_350]
        let objectType = config.profile + 1
        var asc: [UInt8] = [UInt8(objectType << 3 | config.rateIndex >> 1), UInt8((config.rateIndex & 1) << 7 | config.channels << 3)]
        let outputRate = explicitSBR ? 2 * rates[config.rateIndex] : rates[config.rateIndex]
        let framesPerPacket = explicitSBR ? 2048 : 1024
        if explicitSBR {
            // audioObjectType 5 (SBR), core sampling index, channels, extension sampling index,
            // audioObjectType 2 (LC), GASpecificConfig (3 zero bits): 25 bits.
            let extensionIndex = try #require(rates.firstIndex(of: outputRate))
            let bits = [(5, 5), (config.rateIndex, 4), (config.channels, 4), (extensionIndex, 4), (2, 5), (0, 3)]
            var value: UInt32 = 0, count = 0
            for (field, width) in bits { value = value << UInt32(width) | UInt32(field); count += width }
            value <<= UInt32(32 - count)
            asc = [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
        }
        func descriptor(_ tag: UInt8, _ body: [UInt8]) -> [UInt8] { [tag, UInt8(body.count)] + body }
        let decoderConfig = descriptor(4, [0x40, 0x15, 0, 0, 0] + [0, 0, 0, 0] + [0, 0, 0, 0] + descriptor(5, asc))
        let es = descriptor(3, [0, 0, 0] + decoderConfig + descriptor(6, [2]))
        let kuki: [UInt8] = [0, 0, 0, 0] + es  // version and flags, as FFmpeg's reader expects, then ES_Descriptor

        var out: [UInt8] = Array("caff".utf8) + [0, 1, 0, 0]
        func chunk(_ type: String, _ body: [UInt8]) {
            out += Array(type.utf8)
            out.appendBigEndian(Int64(body.count))
            out += body
        }
        var desc: [UInt8] = []
        desc.appendBigEndian(Double(outputRate).bitPattern)
        desc += Array("aac ".utf8)
        desc.appendBigEndian(UInt32(explicitSBR ? 5 : objectType))
        desc.appendBigEndian(UInt32(0))
        desc.appendBigEndian(UInt32(framesPerPacket))
        desc.appendBigEndian(UInt32(config.channels))
        desc.appendBigEndian(UInt32(0))
        chunk("desc", desc)
        chunk("kuki", kuki)
        var pakt: [UInt8] = []
        pakt.appendBigEndian(Int64(frames.count))
        pakt.appendBigEndian(validFrames)
        pakt.appendBigEndian(priming)
        pakt.appendBigEndian(Int32(Int64(frames.count) * Int64(framesPerPacket) - validFrames - Int64(priming)))
        for frame in frames {
            // Variable-length quantity: 7 bits a byte, high bit set on all but the last.
            var size = frame.count
            var bytes: [UInt8] = [UInt8(size & 0x7F)]
            size >>= 7
            while size > 0 { bytes.insert(UInt8(0x80 | (size & 0x7F)), at: 0); size >>= 7 }
            pakt += bytes
        }
        chunk("pakt", pakt)
        chunk("data", [0, 0, 0, 0] + frames.flatMap { $0 })
        return out
    }
}

/// Corrupt, truncated and hostile MPEG-4 and ADTS input through FFmpeg: a typed error or audio,
/// never a crash or a hang.
@Suite(.enabled(if: FFmpeg.isAvailable, "FFmpeg's libraries are not installed")) struct MPEG4HostileInputTests {
    @Test func aThousandMutatedFilesGiveTypedErrorsOrAudio() throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let short = AudioBuffer(samples: Array(MPEG4Tests.source.samples.prefix(2 * 12_000)), channels: 2, sampleRate: 48_000)
        var seeds: [[UInt8]] = []
        for (format, name) in [(OutputFormat.m4aAAC, "seed.m4a"), (.adtsAAC, "seed.aac"), (.m4aALAC, "seed-alac.m4a")] {
            seeds.append([UInt8](try Data(contentsOf: URL(fileURLWithPath: MPEG4Tests.write(short, format, in: dir, name: name)))))
        }
        seeds.append(try CAFAACFixture.make(fromADTS: seeds[1], validFrames: 12_000, priming: 1024))
        var random = SplitMix64(seed: 2026)
        var outcomes = (audio: 0, errors: [SoundstageError.Code: Int]())
        for round in 0..<1_000 {
            var bytes = seeds[round % seeds.count]
            switch round % 4 {
            case 0:  // flip a few bytes anywhere
                for _ in 0..<(1 + Int(random.next() % 8)) { bytes[Int(random.next() % UInt64(bytes.count))] ^= UInt8(truncatingIfNeeded: random.next() | 1) }
            case 1:  // truncate
                bytes = Array(bytes.prefix(Int(random.next() % UInt64(bytes.count))))
            case 2:  // huge or negative sizes and counts in the first 512 bytes (box sizes, durations, tables)
                let at = Int(random.next() % UInt64(min(bytes.count - 4, 512)))
                for k in 0..<4 { bytes[at + k] = [0xFF, 0x7F, 0x00, 0x80][Int(random.next() % 4)] }
            default:  // splice: a block repeated or cut
                let from = Int(random.next() % UInt64(bytes.count)), length = Int(random.next() % 256)
                let block = bytes[from..<min(bytes.count, from + length)]
                bytes.insert(contentsOf: block, at: Int(random.next() % UInt64(bytes.count)))
            }
            do {
                let file = try SoundFile(data: bytes, name: "mutant-\(round)")
                let audio = try file.readAll(maxFrames: 10_000_000)
                #expect(audio.samples.allSatisfy { $0.isFinite }, "round \(round): non-finite samples")
                try file.seek(toFrame: 5_000)
                _ = try file.read(frames: 4_096)
                outcomes.audio += 1
            } catch let error as SoundstageError {
                outcomes.errors[error.code, default: 0] += 1
                #expect([.corruptData, .unsupportedFormat, .tooLarge, .invalidArgument, .io].contains(error.code), "round \(round): \(error)")
            }
        }
        #expect(outcomes.audio > 50 && outcomes.errors.values.reduce(0, +) > 50, "\(outcomes)")
    }

    @Test func aHeaderClaimingHoursIsBounded() throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: MPEG4Tests.write(MPEG4Tests.source, .m4aAAC, in: dir, name: "hours.m4a"))))
        // Every duration field in mvhd, tkhd and mdhd (version 0: 32 bits) claims 2^31 - 1 ticks.
        for (box, offset) in [("mvhd", 20), ("tkhd", 24), ("mdhd", 20)] {
            guard let at = bytes.indices.dropLast(4).first(where: { bytes[$0..<($0 + 4)].elementsEqual(box.utf8) }) else { continue }
            for k in 0..<4 { bytes[at + offset + k] = [0x7F, 0xFF, 0xFF, 0xFF][k] }
        }
        let file = try SoundFile(data: bytes, name: "hours.m4a")
        // Decoding stops at the limit asked for, or at the real end: never allocates the claim.
        let error = #expect(throws: SoundstageError.self) { _ = try file.readAll(maxFrames: 10_000) }
        #expect(error?.code == .tooLarge, "\(String(describing: error))")
        let whole = try? SoundFile(data: bytes, name: "hours.m4a").readAll()
        #expect((whole?.frames ?? 0) <= 49_152)
    }

    @Test func ffmpegsLogGoesToTheHandlerAndIntoTheError() throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: MPEG4Tests.write(MPEG4Tests.source, .m4aAAC, in: dir, name: "log.m4a"))))
        bytes = Array(bytes.prefix(bytes.count / 2))  // FFmpeg's writer puts moov last: now it is gone
        let lines = LockedLines()
        FFmpeg.logHandler = { lines.append($0.description) }
        defer { FFmpeg.logHandler = nil }
        let error = #expect(throws: SoundstageError.self) { _ = try SoundFile(data: bytes, name: "half.m4a") }
        #expect(error?.code == .corruptData)
        #expect(error?.description.contains("moov atom not found") == true, "\(String(describing: error))")
        #expect(lines.all.contains { $0.contains("moov atom not found") })
    }
}

/// Lines collected from any thread.
final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
