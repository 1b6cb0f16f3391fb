import Foundation
import SoundFile

/// Speech-like signals and the measurements speech codecs are judged by: a sentence spoken by
/// espeak-ng, a synthetic sung vowel that needs nothing installed, segmental SNR and pitch.
public enum SpeechSignals {
    /// espeak-ng, when installed (`scripts/setup.sh --tests` installs it).
    public static let espeak = ["/usr/bin/espeak-ng", "/usr/local/bin/espeak-ng"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// A sustained sung vowel /a/ at `f0` Hz, 8 kHz: a glottal pulse train without
    /// vibrato or jitter, shaped by three formant resonators (700, 1220, 2600 Hz).
    public static func vowel(f0: Double, seconds: Double, amplitude: Double = 0.5) -> [Float] {
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

    /// Two sentences spoken by espeak-ng (American English, 150 words a minute), mono at 8 kHz,
    /// or nil when espeak-ng is not installed.
    public static func speech(in dir: URL, rate: Int = 8_000) throws -> [Float]? {
        guard let espeak else { return nil }
        let wav = dir.appendingPathComponent("speech-\(UUID().uuidString).wav").path
        defer { try? FileManager.default.removeItem(atPath: wav) }
        let said = try ChildProcess.run(espeak, ["-v", "en-us", "-s", "150", "-w", wav,
                                                 "The quick brown fox jumps over the lazy dog. She sells sea shells by the sea shore."],
                                        environment: [:])
        guard said.status == 0 else { throw AudioServerFixture.Unavailable(description: "espeak-ng failed: \(said.output)") }
        return try SoundFile(path: wav).readAll().remixed(toChannels: 1).resampled(to: rate).samples
    }

    /// Segmental SNR in dB over 20 ms segments: each segment's SNR clamped to −10 ... 35 dB,
    /// averaged over the segments whose level is within 40 dB of the loudest.
    public static func segmentalSNR(reference: [Float], decoded: [Float], segment: Int = 160) -> Double {
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
    public static func pitch(_ samples: [Float], rate: Int = 8000) -> Double {
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

}
