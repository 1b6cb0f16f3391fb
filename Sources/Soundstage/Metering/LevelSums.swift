/// Sums for a meter, per channel and in place (no heap, so a meter update allocates nothing): the
/// sum of squares and the peak of up to ``capacity`` channels, and how many frames they cover.
///
/// The channels are the lanes of SIMD vectors (unused lanes stay zero): adding one meter's sums
/// to another is a few vector instructions, where an `InlineArray` was copied to the stack for
/// each element read.
struct LevelSums {
    /// The most channels a meter keeps (7.1 is eight); further channels are not metered.
    static let capacity = 8
    var squares = SIMD8<Double>(repeating: 0)
    var peaks = SIMD8<Float>(repeating: 0)
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
    @inline(__always)
    mutating func add(_ other: borrowing LevelSums, gain: Float = 1, countsFrames: Bool = true) {
        guard channels > 0 else { return }
        let power = Double(gain) * Double(gain), scale = abs(gain)
        if other.channels <= channels {
            // Lane by lane (the other's unused lanes are zero).
            squares += other.squares * power
            let scaled = other.peaks * scale
            peaks = peaks.replacing(with: scaled, where: scaled .> peaks)
        } else {
            for channel in 0..<other.channels {
                let into = channel < channels ? channel : channel % channels
                squares[into] += other.squares[channel] * power
                peaks[into] = max(peaks[into], other.peaks[channel] * scale)
            }
        }
        if countsFrames { frames += other.frames }
    }

    /// Adds what a source brought to a group's or scene's mix (its first two channels).
    @inline(__always)
    mutating func add(_ contribution: Source.MixContribution) {
        squares[0] += contribution.left
        squares[1] += contribution.right
        peaks[0] = max(peaks[0], contribution.leftPeak)
        peaks[1] = max(peaks[1], contribution.rightPeak)
    }

    /// The sums of interleaved `samples` of `channels` channels. Eight samples at a time when the
    /// channels divide eight (mono, stereo, quad, 7.1 — lane `i` is channel `i % channels`), so
    /// metering a mix costs a fraction of mixing it; Float sums (exact enough over a chunk).
    static func measuring(_ samples: UnsafeBufferPointer<Float>, channels: Int) -> LevelSums {
        var sums = LevelSums(channels: channels)
        guard channels > 0, let base = samples.baseAddress else { return sums }
        let frames = samples.count / channels, count = frames * channels
        sums.frames = frames
        var squares = SIMD8<Float>(repeating: 0), peaks = SIMD8<Float>(repeating: 0)
        var index = 0
        if 8 % channels == 0 {
            // Two sums and peaks side by side, so no add waits for the one before it (more would
            // not fit x86-64's sixteen vector registers). The magnitude is the sample with its sign
            // bit cleared: one AND, where a compare-and-select took five instructions.
            var square = (SIMD8<Float>(repeating: 0), SIMD8<Float>(repeating: 0))
            var peak = square
            let raw = UnsafeRawPointer(base)
            @inline(__always) func take(_ offset: Int, _ square: inout SIMD8<Float>, _ peak: inout SIMD8<Float>) {
                let bits = raw.loadUnaligned(fromByteOffset: offset * 4, as: SIMD8<UInt32>.self)
                let value = unsafeBitCast(bits, to: SIMD8<Float>.self)
                square += value * value
                let magnitude = unsafeBitCast(bits & 0x7FFF_FFFF, to: SIMD8<Float>.self)
                // (`pointwiseMax` is not inlined: ten times slower than this select, a MAXPS.)
                peak = peak.replacing(with: magnitude, where: magnitude .> peak)
            }
            while index + 16 <= count {
                take(index, &square.0, &peak.0)
                take(index + 8, &square.1, &peak.1)
                index += 16
            }
            while index + 8 <= count {
                take(index, &square.0, &peak.0)
                index += 8
            }
            (squares, peaks) = fold(square.0 + square.1, peak.0.replacing(with: peak.1, where: peak.1 .> peak.0), channels: channels)
        }
        if index < count {
            // What is left (or everything, for other channel counts), one sample at a time, in
            // scalars (a vector lane chosen at run time would go through memory each time).
            withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * capacity) { lanes in
                lanes.initialize(repeating: 0)
                while index < count {
                    let channel = index % channels
                    if channel < capacity {
                        let value = base[index]
                        lanes[channel] += value * value
                        lanes[capacity + channel] = max(lanes[capacity + channel], abs(value))
                    }
                    index += 1
                }
                let raw = UnsafeRawPointer(lanes.baseAddress!)
                squares += raw.loadUnaligned(as: SIMD8<Float>.self)
                let tail = raw.loadUnaligned(fromByteOffset: capacity * 4, as: SIMD8<Float>.self)
                peaks = peaks.replacing(with: tail, where: tail .> peaks)
            }
        }
        // (Lanes past the channels stayed zero.)
        sums.squares = SIMD8<Double>(squares)
        sums.peaks = peaks
        return sums
    }

    /// Sums and peaks over eight lanes where lane `i` is channel `i % channels` (a divisor of
    /// eight), folded into lanes `0..<channels` (the rest zero): by halves, with no lane chosen at
    /// run time.
    private static func fold(_ squares: SIMD8<Float>, _ peaks: SIMD8<Float>,
                             channels: Int) -> (squares: SIMD8<Float>, peaks: SIMD8<Float>) {
        guard channels < 8 else { return (squares, peaks) }
        let squares4 = squares.lowHalf + squares.highHalf
        let peaks4 = peaks.lowHalf.replacing(with: peaks.highHalf, where: peaks.highHalf .> peaks.lowHalf)
        guard channels < 4 else { return (SIMD8(lowHalf: squares4, highHalf: .zero), SIMD8(lowHalf: peaks4, highHalf: .zero)) }
        let squares2 = squares4.lowHalf + squares4.highHalf
        let peaks2 = peaks4.lowHalf.replacing(with: peaks4.highHalf, where: peaks4.highHalf .> peaks4.lowHalf)
        guard channels < 2 else {
            return (SIMD8(squares2[0], squares2[1], 0, 0, 0, 0, 0, 0), SIMD8(peaks2[0], peaks2[1], 0, 0, 0, 0, 0, 0))
        }
        return (SIMD8(squares2[0] + squares2[1], 0, 0, 0, 0, 0, 0, 0), SIMD8(max(peaks2[0], peaks2[1]), 0, 0, 0, 0, 0, 0, 0))
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
