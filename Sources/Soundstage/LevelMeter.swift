import Foundation
import NIOConcurrencyHelpers
import Synchronization

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

/// Sums squares and peaks per channel of what is metered, until read. Off, it costs one
/// atomic load per rendered chunk.
final class LevelAccumulator: Sendable {
    private struct Sums {
        var squares: [Double] = []
        var peaks: [Float] = []
        var frames = 0
    }

    private let enabled = Atomic<Bool>(false)
    private let sums = NIOLockedValueBox(Sums())

    var isEnabled: Bool {
        get { enabled.load(ordering: .relaxed) }
        set {
            enabled.store(newValue, ordering: .relaxed)
            sums.withLockedValue { $0 = Sums() }
        }
    }

    /// Adds interleaved `samples` of `channels` channels.
    func add(_ samples: UnsafeBufferPointer<Float>, channels: Int) {
        guard channels > 0, samples.count >= channels else { return }
        var squares = [Double](repeating: 0, count: channels)
        var peaks = [Float](repeating: 0, count: channels)
        var index = 0
        while index + channels <= samples.count {
            for channel in 0..<channels {
                let value = samples[index + channel]
                squares[channel] += Double(value) * Double(value)
                peaks[channel] = max(peaks[channel], abs(value))
            }
            index += channels
        }
        let frames = samples.count / channels
        sums.withLockedValue { sums in
            if sums.squares.count != channels { sums = Sums(squares: squares, peaks: peaks, frames: frames); return }
            for channel in 0..<channels {
                sums.squares[channel] += squares[channel]
                sums.peaks[channel] = max(sums.peaks[channel], peaks[channel])
            }
            sums.frames += frames
        }
    }

    /// The levels since the last read (nil when nothing was metered), and a fresh start.
    func read() -> LevelMeter? {
        let taken = sums.withLockedValue { sums -> Sums in
            defer { sums = Sums() }
            return sums
        }
        guard taken.frames > 0 else { return nil }
        return LevelMeter(averagePower: taken.squares.map { LevelMeter.decibels(($0 / Double(taken.frames)).squareRoot()) },
                          peakPower: taken.peaks.map { LevelMeter.decibels(Double($0)) }, frames: taken.frames)
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
