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

    /// Creates a buffer. `samples.count` must be a multiple of `channels`.
    public init(samples: [Float], channels: Int, sampleRate: Int) {
        precondition(channels > 0, "an AudioBuffer needs at least one channel")
        precondition(samples.count % channels == 0, "sample count must be a multiple of the channel count")
        self.samples = samples
        self.channels = channels
        self.sampleRate = sampleRate
    }

    /// Number of frames.
    public var frames: Int { samples.count / channels }

    /// Length in seconds.
    public var duration: Double { sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0 }

    /// The samples of one channel, de-interleaved.
    public func channel(_ index: Int) -> [Float] {
        precondition(index >= 0 && index < channels, "channel \(index) out of range 0..<\(channels)")
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
