#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// A generated test tone: the `tone` sound of a scene file.
public struct Tone: Sendable, Equatable, Codable {
    /// The shape of the wave.
    public enum Waveform: String, Sendable, Codable, CaseIterable {
        /// A pure sine.
        case sine
        /// A square wave (odd harmonics, bright).
        case square
        /// A sawtooth (all harmonics, buzzy).
        case saw
        /// White noise (deterministic: the same seed gives the same samples).
        case noise
    }

    /// The shape of the wave.
    public var waveform: Waveform
    /// Frequency in Hz (ignored for noise).
    public var frequency: Double
    /// Peak amplitude, 0...1.
    public var amplitude: Double

    /// A length close to one second holding a whole number of periods, so the tone loops
    /// without a seam.
    public var loopLength: Double {
        waveform == .noise || frequency <= 0 ? 1 : max(1, frequency.rounded()) / frequency
    }

    /// Creates a tone.
    public init(waveform: Waveform = .sine, frequency: Double = 440, amplitude: Double = 0.5) {
        self.waveform = waveform
        self.frequency = frequency
        self.amplitude = amplitude
    }

    /// `seconds` of the tone as mono audio at `sampleRate`. With `fades`, 2 ms fades at both ends
    /// let it start and stop without a click; without, it is meant to loop.
    public func render(seconds: Double, sampleRate: Int, fades: Bool = true) -> AudioBuffer {
        let count = max(1, Int((seconds * Double(sampleRate)).rounded()))
        let fade = fades ? max(1, min(count / 2, sampleRate / 500)) : 0
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        var samples = [Float](repeating: 0, count: count)
        for i in 0..<count {
            let phase = (Double(i) * frequency / Double(sampleRate)).truncatingRemainder(dividingBy: 1)
            var value: Double
            switch waveform {
            case .sine: value = sin(2 * Double.pi * phase)
            case .square: value = phase < 0.5 ? 1 : -1
            case .saw: value = 2 * phase - 1
            case .noise:
                state ^= state << 13; state ^= state >> 7; state ^= state << 17
                value = Double(state >> 11) / Double(1 << 53) * 2 - 1
            }
            let envelope = fade > 0 ? min(1, Double(min(i, count - 1 - i, fade)) / Double(fade)) : 1
            samples[i] = Float(value * amplitude * envelope)
        }
        return AudioBuffer(samples: samples, channels: 1, sampleRate: sampleRate)
    }
}
