/// Decoded audio in memory: interleaved 32-bit float samples in [-1, 1].
///
/// Sample `i` of channel `c` is at `samples[i * channels + c]`.
public struct AudioBuffer: Sendable, Equatable {
    /// Interleaved samples.
    public var samples: [Float]
    /// Channels per frame; at least 1.
    public var channels: Int
    /// Frames per second.
    public var sampleRate: Int

    /// Creates a buffer. `samples.count` should be a multiple of `channels`; a shape that is not
    /// is made whole instead of trapping: fewer than one channel counts as one, and a trailing
    /// partial frame is dropped.
    public init(samples: [Float], channels: Int, sampleRate: Int) {
        let channels = max(1, channels)
        let extra = samples.count % channels
        self.samples = extra == 0 ? samples : Array(samples.dropLast(extra))
        self.channels = channels
        self.sampleRate = sampleRate
    }

    /// Number of frames.
    public var frames: Int { samples.count / channels }

    /// Length in seconds.
    public var duration: Double { sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0 }

    /// The samples of one channel, de-interleaved; empty for a channel it does not have.
    public func channel(_ index: Int) -> [Float] {
        guard index >= 0 && index < channels else { return [] }
        return stride(from: index, to: samples.count, by: channels).map { samples[$0] }
    }

    /// The samples as signed 16-bit integers, rounded and clipped.
    public func int16Samples() -> [Int16] {
        samples.map { Int16(clampingToInt16: $0) }
    }

    /// The frames in `range` (clamped to the buffer).
    public func slice(frames range: Range<Int>) -> AudioBuffer {
        let lower = max(0, min(range.lowerBound, frames))
        let upper = max(lower, min(range.upperBound, frames))
        return AudioBuffer(samples: Array(samples[(lower * channels)..<(upper * channels)]),
                           channels: channels, sampleRate: sampleRate)
    }
}

extension Int16 {
    /// Converts a float sample in [-1, 1] to 16 bits, rounding and clipping.
    init(clampingToInt16 value: Float) {
        let scaled = (value * 32767).rounded()
        self = scaled >= 32767 ? .max : (scaled <= -32768 ? .min : Int16(scaled))
    }
}

/// ``AudioBuffer`` under a name Core Audio's `AudioBuffer` does not share: a file that imports both
/// Soundstage and AudioToolbox (or SoundstageCompat, which brings AudioToolbox as AVFoundation does
/// on iOS) writes `SoundBuffer` for Soundstage's decoded samples. (`SoundFile.AudioBuffer` does not
/// work there: the module `SoundFile` holds a class `SoundFile`, which the qualifier finds first.)
public typealias SoundBuffer = AudioBuffer
