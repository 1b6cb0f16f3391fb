import Foundation
import SoundFile

/// Test signals and a scratch directory.
enum Fixtures {
    /// 0.5 s of stereo at 48 kHz: 440 Hz on the left, 660 Hz on the right, amplitude 0.5.
    static let stereo: AudioBuffer = {
        let rate = 48_000, n = 24_000
        var samples = [Float](repeating: 0, count: n * 2)
        for i in 0..<n {
            samples[2 * i] = Float(0.5 * sin(2 * Double.pi * 440 * Double(i) / Double(rate)))
            samples[2 * i + 1] = Float(0.5 * sin(2 * Double.pi * 660 * Double(i) / Double(rate)))
        }
        return AudioBuffer(samples: samples, channels: 2, sampleRate: rate)
    }()

    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("soundfile-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func rms(_ samples: [Float]) -> Double {
        (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))).squareRoot()
    }

    /// Frequency from upward zero crossings.
    static func frequency(_ samples: [Float], rate: Int) -> Double {
        var crossings: [Double] = []
        for i in 1..<samples.count where samples[i - 1] < 0 && samples[i] >= 0 {
            crossings.append(Double(i - 1) + Double(-samples[i - 1]) / Double(samples[i] - samples[i - 1]))
        }
        guard crossings.count >= 2 else { return 0 }
        return Double(crossings.count - 1) * Double(rate) / (crossings.last! - crossings.first!)
    }
}
