import Foundation
import SoundFile
import Testing

// When an expectation on audio fails, Swift Testing prints the values of its subexpressions. By
// default a sample array prints every sample: a second of stereo is ~100,000 numbers, and one
// failed check on a recording put 10 MB into a CI log. These print a summary instead.

extension Array: @retroactive CustomTestStringConvertible where Element == Float {
    /// A summary of the samples: how many, their peak and RMS, and the first few.
    public var testDescription: String { SampleSummary.describe(self[...]) }
}

extension ArraySlice: @retroactive CustomTestStringConvertible where Element == Float {
    /// A summary of the samples: how many, their peak and RMS, and the first few.
    public var testDescription: String { SampleSummary.describe(self) }
}

extension AudioBuffer: CustomTestStringConvertible {
    /// Its format and a summary of its samples.
    public var testDescription: String {
        "AudioBuffer(\(channels) channels at \(sampleRate) Hz, \(frames) frames: \(SampleSummary.describe(samples[...])))"
    }
}

/// How a run of samples is summarized in a failure message.
enum SampleSummary {
    /// How many leading samples are printed as they are.
    static let shown = 8

    static func describe(_ samples: ArraySlice<Float>) -> String {
        guard samples.count > shown else { return "\(Array(samples))" }
        let peak = samples.reduce(Float(0)) { Swift.max($0, abs($1)) }
        let head = samples.prefix(shown).map { String(format: "%.4f", Double($0)) }.joined(separator: ", ")
        return String(format: "%d samples (peak %.4f, RMS %.4f): [%@, …]", samples.count, Double(peak),
                      Signals.rms(samples), head)
    }
}
