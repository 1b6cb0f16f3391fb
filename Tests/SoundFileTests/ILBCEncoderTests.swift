import Foundation
import Testing
@testable import SoundFile
import TestSupport

/// The iLBC encoder, decoded by FFmpeg's own iLBC decoder (the ffmpeg tool reading an RFC 3952
/// storage file): lengths, segmental SNR of speech, the pitch of a sung vowel, and the encoder's
/// own reconstruction against FFmpeg's.
@Suite struct ILBCEncoderTests {
    static let needsFFmpeg = ConditionTrait.enabled(if: ILBCSignals.ffmpeg != nil,
                                                    "needs the ffmpeg tool (scripts/setup.sh --tests installs it)")

    /// Writes `packets` as an RFC 3952 storage file (`#!iLBC30\n` then the frames).
    static func writeStorageFile(_ packets: [UInt8], mode: ILBCMode, to path: String) throws {
        try Data(Array("#!iLBC\(mode.rawValue)\n".utf8) + packets).write(to: URL(fileURLWithPath: path))
    }

    /// Encodes `samples`, decodes them with FFmpeg and returns the decoded samples.
    static func roundTrip(_ samples: [Float], mode: ILBCMode, in dir: URL) throws -> [Float] {
        var encoder = ILBCEncoder(mode: mode)
        let packets = encoder.encode(samples) + encoder.flush()
        let frames = (samples.count + mode.samplesPerFrame - 1) / mode.samplesPerFrame
        #expect(packets.count == frames * mode.bytesPerFrame)
        let path = dir.appendingPathComponent("signal-\(mode.rawValue).lbc").path
        try writeStorageFile(packets, mode: mode, to: path)
        let decoded = try ILBCSignals.decodeWithFFmpeg(path, in: dir)
        #expect(decoded.count == frames * mode.samplesPerFrame, "FFmpeg decoded \(decoded.count) samples of \(frames) frames")
        return decoded
    }

    /// A spoken sentence keeps a segmental SNR well above 3 dB in both modes (measured 7.8 dB
    /// for 20 ms frames and 7.7 dB for 30 ms against the input itself, whose phase FFmpeg's
    /// output high-pass filter alone holds to 10.2 dB; 13.1 and 12.5 dB against the input
    /// through that filter).
    @Test(needsFFmpeg, .enabled(if: SpeechSignals.espeak != nil,
                                "needs espeak-ng: run scripts/setup.sh --tests, as the README's test setup says"),
          arguments: ILBCMode.allCases)
    func speechKeepsItsWaveform(_ mode: ILBCMode) throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let speech = try #require(try SpeechSignals.speech(in: dir))
        let decoded = try Self.roundTrip(speech, mode: mode, in: dir)
        let snr = SpeechSignals.segmentalSNR(reference: speech, decoded: decoded)
        // Against the input through the decoder's own output high-pass: the coding alone.
        let coding = SpeechSignals.segmentalSNR(reference: ILBCModelSynthesis.outputHighPass(speech), decoded: decoded)
        print("iLBC \(mode): speech segmental SNR \(snr.places(2)) dB (\(coding.places(2)) dB against the input through the decoder's output high-pass)")
        #expect(snr > 5, "segmental SNR \(snr) dB")
    }

    /// A sung vowel comes back at its pitch (within 2 %) and with its waveform.
    @Test(needsFFmpeg, arguments: ILBCMode.allCases, [110.0, 180.0, 260.0])
    func sungVowelKeepsItsPitch(_ mode: ILBCMode, f0: Double) throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let vowel = SpeechSignals.vowel(f0: f0, seconds: 1.2)
        let decoded = try Self.roundTrip(vowel, mode: mode, in: dir)
        let steady = 2_400..<8_000
        let pitchIn = SpeechSignals.pitch(Array(vowel[steady])), pitchOut = SpeechSignals.pitch(Array(decoded[steady]))
        let snr = SpeechSignals.segmentalSNR(reference: vowel, decoded: decoded)
        print("iLBC \(mode): vowel at \(f0) Hz: pitch \(pitchIn.places(2)) → \(pitchOut.places(2)) Hz, segmental SNR \(snr.places(2)) dB")
        #expect(abs(pitchIn / f0 - 1) < 0.02, "the pitch measurement itself is off: \(pitchIn) Hz")
        #expect(abs(pitchOut / pitchIn - 1) < 0.02)
        #expect(snr > 5, "segmental SNR \(snr) dB")
    }

    /// What the encoder believes the decoder makes of its frames is what FFmpeg's decoder
    /// makes of them (to its fixed-point precision): every parameter means what the encoder
    /// meant, in every start position, in both directions.
    @Test(needsFFmpeg, arguments: ILBCMode.allCases)
    func encoderReconstructionMatchesFFmpeg(_ mode: ILBCMode) throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A vowel, a glide and noise bursts: start states land everywhere.
        var random = SplitMix64(seed: 50)
        let signal = SpeechSignals.vowel(f0: 150, seconds: 0.6) + SpeechSignals.vowel(f0: 230, seconds: 0.6)
            + (0..<4_800).map { i in Float(Double(random.next() % 2001) / 1000 - 1) * (i % 1_600 < 400 ? 0.3 : 0.01) }
        var encoder = ILBCEncoder(mode: mode)
        var model = ILBCModelSynthesis()
        var packets: [UInt8] = []
        var reconstruction: [Float] = []
        var starts = Set<Int>(), firsts = Set<Bool>()
        let n = mode.samplesPerFrame
        for f in 0..<(signal.count / n) {
            let frame = encoder.encodeFrame(scaled: signal[(f * n)..<((f + 1) * n)].map { Double($0) * 32767 })
            let bytes = frame.parameters.packed(mode)
            #expect(try ILBCFrameParameters.unpack(bytes, mode: mode) == frame.parameters)
            packets += bytes
            reconstruction += model.synthesize(frame)
            starts.insert(frame.parameters.start)
            firsts.insert(frame.parameters.stateFirst)
        }
        let path = dir.appendingPathComponent("model.lbc").path
        try Self.writeStorageFile(packets, mode: mode, to: path)
        let decoded = try ILBCSignals.decodeWithFFmpeg(path, in: dir)
        let match = SpeechSignals.segmentalSNR(reference: reconstruction, decoded: decoded)
        print("iLBC \(mode): encoder's reconstruction against FFmpeg's decoder: \(match.places(1)) dB; starts \(starts.sorted()), state first \(firsts)")
        #expect(match > 25)
        #expect(starts.count >= 2 && firsts.count == 2)
    }
}

/// The synthesis a decoder runs on the encoder's reconstructed residual: each sub-block through
/// its 1/A(z), then RFC 3951's output high-pass filter (no enhancer, as FFmpeg's decoder).
struct ILBCModelSynthesis {
    private var memory = [Double](repeating: 0, count: 10)
    private var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0

    /// `samples` through RFC 3951's output high-pass filter alone.
    static func outputHighPass(_ samples: [Float]) -> [Float] {
        var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0
        return samples.map { sample in
            let x = Double(sample)
            let y = 0.93980581 * x - 1.8795834 * x1 + 0.93980581 * x2 + 1.9330735 * y1 - 0.93589199 * y2
            x2 = x1; x1 = x
            y2 = y1; y1 = y
            return Float(y)
        }
    }

    mutating func synthesize(_ frame: ILBCEncoder.Frame) -> [Float] {
        var out: [Float] = []
        for (i, e) in frame.decoded.enumerated() {
            let a = frame.synthesis[i / 40]
            var y = e
            for k in 1...10 { y -= a[k] * memory[10 - k] }
            memory.removeFirst()
            memory.append(y)
            let z = 0.93980581 * y - 1.8795834 * x1 + 0.93980581 * x2 + 1.9330735 * y1 - 0.93589199 * y2
            x2 = x1; x1 = y
            y2 = y1; y1 = z
            out.append(Float(z / 32768))
        }
        return out
    }
}
