import Foundation
import SoundFile
import TestSupport

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

    static func rms(_ samples: [Float]) -> Double { Signals.rms(samples) }

    /// Frequency from upward zero crossings.
    static func frequency(_ samples: [Float], rate: Int) -> Double { Signals.frequency(samples, rate: rate) }
}
