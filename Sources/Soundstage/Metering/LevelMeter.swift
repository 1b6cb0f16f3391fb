#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// Levels per channel in dBFS, like `AVAudioPlayer`'s `averagePower(forChannel:)` and
/// `peakPower(forChannel:)`: 0 is full scale, −160 silence.
public struct LevelMeter: Sendable, Equatable {
    /// The RMS level of each channel over the metered audio, in dBFS.
    public var averagePower: [Float]
    /// The largest absolute sample of each channel, in dBFS.
    public var peakPower: [Float]
    /// How many frames were metered.
    public var frames: Int

    /// The floor reported for silence.
    public static let silence: Float = -160

    /// dBFS of a linear amplitude (−160 for 0).
    static func decibels(_ amplitude: Double) -> Float {
        amplitude > 0 ? max(silence, Float(20 * log10(amplitude))) : silence
    }
}

extension Device {
    /// Whether the output is metered: the real mix, per channel, as Soundstage renders it (desktop
    /// and loopback devices; an OpenAL output mixes on its own thread and is not metered). Off
    /// by default; turning it on or off starts the next reading afresh.
    public var isOutputMeteringEnabled: Bool {
        get { outputMeter.isEnabled }
        set { outputMeter.isEnabled = newValue }
    }

    /// The output's levels over the audio mixed since the previous call (nil when metering is off
    /// or nothing was mixed since).
    public func outputLevels() -> LevelMeter? { outputMeter.read() }
}
