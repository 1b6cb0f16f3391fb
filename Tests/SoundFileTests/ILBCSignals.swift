import Foundation
import SoundFile
import TestSupport

/// Signals and measurements for the iLBC tests: spoken speech from espeak-ng, a synthetic sung
/// vowel, FFmpeg's own iLBC decoder, segmental SNR and pitch.
enum ILBCSignals {
    static let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let espeak = ["/usr/bin/espeak-ng", "/usr/local/bin/espeak-ng"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// A sustained sung vowel /a/ at `f0` Hz, 8 kHz: a glottal pulse train with a little
    /// vibrato-free jitter-free spectrum shaped by three formant resonators (700, 1220, 2600 Hz).
    static func vowel(f0: Double, seconds: Double, amplitude: Double = 0.5) -> [Float] {
        let rate = 8000.0, n = Int(seconds * rate)
        var source = [Double](repeating: 0, count: n)
        var phase = 0.0
        for i in 0..<n {
            phase += f0 / rate
            if phase >= 1 { phase -= 1 }
            // A Rosenberg-like glottal pulse: open for 60 % of the period.
            source[i] = phase < 0.4 ? 0.5 * (1 - cos(Double.pi * phase / 0.4)) : (phase < 0.6 ? cos(Double.pi * (phase - 0.4) / 0.4) : 0)
        }
        var signal = source
        // Differentiate (lip radiation), then the formants.
        for i in stride(from: n - 1, to: 0, by: -1) { signal[i] -= signal[i - 1] }
        for (formant, bandwidth) in [(700.0, 110.0), (1220.0, 120.0), (2600.0, 160.0)] {
            let r = exp(-Double.pi * bandwidth / rate), theta = 2 * Double.pi * formant / rate
            let a1 = -2 * r * cos(theta), a2 = r * r
            var y1 = 0.0, y2 = 0.0
            for i in 0..<n {
                let y = signal[i] - a1 * y1 - a2 * y2
                y2 = y1; y1 = y
                signal[i] = y
            }
        }
        let peak = signal.map(abs).max() ?? 1
        return signal.map { Float($0 / peak * amplitude) }
    }

    /// A sentence spoken by espeak-ng, at 8 kHz mono (resampled by FFmpeg), or nil when either
    /// tool is missing.
    static func speech(in dir: URL) throws -> [Float]? {
        guard let espeak, let ffmpeg else { return nil }
        let wav = dir.appendingPathComponent("speech.wav").path
        let raw = dir.appendingPathComponent("speech.raw").path
        let said = try ChildProcess.run(espeak, ["-v", "en-us", "-s", "150", "-w", wav,
                                                 "The quick brown fox jumps over the lazy dog. She sells sea shells by the sea shore."],
                                        environment: [:])
        guard said.status == 0 else { throw Failure(description: "espeak-ng failed: \(said.output)") }
        let converted = try ChildProcess.run(ffmpeg, ["-loglevel", "error", "-y", "-i", wav, "-ar", "8000", "-ac", "1",
                                                      "-f", "s16le", raw], environment: [:])
        guard converted.status == 0 else { throw Failure(description: "ffmpeg failed: \(converted.output)") }
        return try readS16(raw)
    }

    /// Decodes `path` with FFmpeg's own iLBC decoder (the ffmpeg tool) to 16-bit samples.
    static func decodeWithFFmpeg(_ path: String, in dir: URL) throws -> [Float] {
        guard let ffmpeg else { throw Failure(description: "no ffmpeg tool") }
        let raw = dir.appendingPathComponent("decoded-\(UUID().uuidString).raw").path
        let run = try ChildProcess.run(ffmpeg, ["-loglevel", "error", "-y", "-i", path, "-f", "s16le", "-ac", "1", raw], environment: [:])
        guard run.status == 0 else { throw Failure(description: "ffmpeg could not decode \(path): \(run.output)") }
        return try readS16(raw)
    }

    /// The codec FFmpeg's ffprobe names for `path`'s first stream.
    static func probeCodec(_ path: String) throws -> String {
        let run = try ChildProcess.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name",
                                                            "-of", "default=nw=1:nk=1", path], environment: [:])
        return run.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func readS16(_ path: String) throws -> [Float] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return data.withUnsafeBytes { raw in
            (0..<(raw.count / 2)).map { Float(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self))) / 32768 }
        }
    }

    /// Segmental SNR in dB over 20 ms segments: each segment's SNR clamped to −10 ... 35 dB,
    /// averaged over the segments whose level is within 40 dB of the loudest.
    static func segmentalSNR(reference: [Float], decoded: [Float], segment: Int = 160) -> Double {
        let count = min(reference.count, decoded.count) / segment
        var energies: [Double] = []
        var snrs: [Double] = []
        for s in 0..<count {
            var signal = 0.0, noise = 0.0
            for i in (s * segment)..<((s + 1) * segment) {
                let x = Double(reference[i]), e = x - Double(decoded[i])
                signal += x * x
                noise += e * e
            }
            energies.append(signal)
            snrs.append(min(35, max(-10, 10 * log10((signal + 1e-12) / (noise + 1e-12)))))
        }
        let loudest = energies.max() ?? 0
        let kept = zip(energies, snrs).filter { $0.0 > loudest * 1e-4 }.map(\.1)
        return kept.isEmpty ? -10 : kept.reduce(0, +) / Double(kept.count)
    }

    /// The pitch of a voiced signal: the shortest lag in 60–400 Hz whose autocorrelation comes
    /// within 15 % of the strongest (so a period's multiples do not win), refined parabolically.
    static func pitch(_ samples: [Float], rate: Int = 8000) -> Double {
        let x = samples.map(Double.init)
        func r(_ lag: Int) -> Double {
            var sum = 0.0
            for i in lag..<x.count { sum += x[i] * x[i - lag] }
            return sum
        }
        let lags = Array((rate / 400)...(rate / 60))
        let values = lags.map(r)
        let strongest = values.max() ?? 0
        var pick = 0
        for i in values.indices where values[i] >= 0.85 * strongest {
            // The local peak this lag belongs to.
            var j = i
            while j + 1 < values.count && values[j + 1] > values[j] { j += 1 }
            pick = j
            break
        }
        let lag = lags[pick]
        let a = r(lag - 1), b = r(lag), c = r(lag + 1)
        let shift = (a - c) / (2 * (a - 2 * b + c))
        return Double(rate) / (Double(lag) + (shift.isFinite && abs(shift) < 1 ? shift : 0))
    }

    struct Failure: Error, CustomStringConvertible { let description: String }
}

extension Double {
    /// The number with `n` decimals, for the tests' reports.
    func places(_ n: Int) -> String { String(format: "%.\(n)f", self) }
}
