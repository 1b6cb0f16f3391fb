/// Sums for a meter, per channel and in place (no heap, so a meter update allocates nothing): the
/// sum of squares and the peak of up to ``capacity`` channels, and how many frames they cover.
struct LevelSums {
    /// The most channels a meter keeps (7.1 is eight); further channels are not metered.
    static let capacity = 8
    var squares = InlineArray<8, Double>(repeating: 0)
    var peaks = InlineArray<8, Float>(repeating: 0)
    /// How many channels are in use.
    private(set) var channels: Int
    /// How many frames of time the sums cover.
    var frames = 0

    init(channels: Int) {
        self.channels = max(0, min(channels, Self.capacity))
    }

    /// Zero sums over `channels` channels.
    mutating func reset(channels: Int) {
        self = LevelSums(channels: channels)
    }

    /// Adds `other`'s channels scaled by `gain` (a channel beyond this one's folds onto channel
    /// `index % channels`), and its frames when `countsFrames`.
    mutating func add(_ other: borrowing LevelSums, gain: Float = 1, countsFrames: Bool = true) {
        guard channels > 0 else { return }
        let power = Double(gain) * Double(gain), scale = abs(gain)
        for channel in 0..<other.channels {
            let into = channel < channels ? channel : channel % channels
            squares[into] += other.squares[channel] * power
            peaks[into] = max(peaks[into], other.peaks[channel] * scale)
        }
        if countsFrames { frames += other.frames }
    }

    /// The sums of interleaved `samples` of `channels` channels. Eight samples at a time when the
    /// channels divide eight (mono, stereo, quad, 7.1 — lane `i` is channel `i % channels`), so
    /// metering a mix costs a fraction of mixing it; Float sums (exact enough over a chunk).
    static func measuring(_ samples: UnsafeBufferPointer<Float>, channels: Int) -> LevelSums {
        var sums = LevelSums(channels: channels)
        guard channels > 0, let base = samples.baseAddress else { return sums }
        let frames = samples.count / channels, count = frames * channels
        sums.frames = frames
        var squares = InlineArray<8, Float>(repeating: 0), peaks = InlineArray<8, Float>(repeating: 0)
        var index = 0
        if 8 % channels == 0 {
            // Four sums and peaks side by side, so no add waits for the one before it.
            var square = (SIMD8<Float>(repeating: 0), SIMD8<Float>(repeating: 0), SIMD8<Float>(repeating: 0), SIMD8<Float>(repeating: 0))
            var peak = square
            let raw = UnsafeRawPointer(base)
            @inline(__always) func take(_ offset: Int, _ square: inout SIMD8<Float>, _ peak: inout SIMD8<Float>) {
                let value = raw.loadUnaligned(fromByteOffset: offset * 4, as: SIMD8<Float>.self)
                square += value * value
                // (`pointwiseMax` is not inlined: ten times slower than these masks.)
                let magnitude = value.replacing(with: -value, where: value .< 0)
                peak = peak.replacing(with: magnitude, where: magnitude .> peak)
            }
            while index + 32 <= count {
                take(index, &square.0, &peak.0)
                take(index + 8, &square.1, &peak.1)
                take(index + 16, &square.2, &peak.2)
                take(index + 24, &square.3, &peak.3)
                index += 32
            }
            while index + 8 <= count {
                take(index, &square.0, &peak.0)
                index += 8
            }
            let squares8 = square.0 + square.1 + square.2 + square.3
            var peaks8 = peak.0.replacing(with: peak.1, where: peak.1 .> peak.0)
            peaks8 = peaks8.replacing(with: peak.2, where: peak.2 .> peaks8)
            peaks8 = peaks8.replacing(with: peak.3, where: peak.3 .> peaks8)
            for lane in 0..<8 {
                squares[lane % channels] += squares8[lane]
                peaks[lane % channels] = max(peaks[lane % channels], peaks8[lane])
            }
        }
        // What is left (or everything, for other channel counts), one sample at a time.
        while index < count {
            let channel = index % channels
            if channel < capacity {
                let value = base[index]
                squares[channel] += value * value
                peaks[channel] = max(peaks[channel], abs(value))
            }
            index += 1
        }
        for channel in 0..<sums.channels {
            sums.squares[channel] = Double(squares[channel])
            sums.peaks[channel] = peaks[channel]
        }
        return sums
    }

    /// The levels in dBFS (nil when no time was counted).
    var meter: LevelMeter? {
        guard frames > 0 else { return nil }
        var average: [Float] = [], peak: [Float] = []
        average.reserveCapacity(channels)
        peak.reserveCapacity(channels)
        for channel in 0..<channels {
            average.append(LevelMeter.decibels((squares[channel] / Double(frames)).squareRoot()))
            peak.append(LevelMeter.decibels(Double(peaks[channel])))
        }
        return LevelMeter(averagePower: average, peakPower: peak, frames: frames)
    }
}
