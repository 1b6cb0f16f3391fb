/// The levels of a stretch of audio per 64-frame block, made once (a buffer's on its first
/// metered play, a streamed chunk's on the decoder thread): so the level of any range of it costs
/// a few operations, not a pass over its samples, and the samples need not be kept.
///
/// A range that covers part of a block counts that share of the block's power and the block's
/// whole peak: a meter is exact to the block (1.3 ms at 48 kHz), which is finer than the 100 ms
/// a meter update covers.
final class BlockLevels: @unchecked Sendable {
    // @unchecked: the tables are written in `init` only, then read.
    static let block = 64
    /// The channels kept (at most ``LevelSums/capacity``).
    let channels: Int
    let frames: Int
    private let blocks: Int
    /// Channel `c`'s running sums of squares: `prefix[c × (blocks + 1) + b]` is the sum over
    /// blocks `0..<b`.
    private let prefix: UnsafeMutablePointer<Double>
    /// Channel `c`'s block peaks: `peaks[c × blocks + b]`.
    private let peaks: UnsafeMutablePointer<Float>
    /// Blocks in a span. A range's peak is read from three tables — within its first span from
    /// its first block on, whole spans, within its last span up to its last block — so a 100 ms
    /// range reads about six peaks, not 75, for 8 more bytes per block and channel.
    static let span = 16
    private let spans: Int
    /// Channel `c`'s peaks over spans of ``span`` blocks: `spanPeaks[c × spans + s]`.
    private let spanPeaks: UnsafeMutablePointer<Float>
    /// Channel `c`'s peak from the start of block `b`'s span to `b`: `peaksToHere[c × blocks + b]`.
    private let peaksToHere: UnsafeMutablePointer<Float>
    /// Channel `c`'s peak from block `b` to the end of its span: `peaksFromHere[c × blocks + b]`.
    private let peaksFromHere: UnsafeMutablePointer<Float>

    /// The levels of interleaved `samples` of `channels` channels.
    init(_ samples: [Float], channels: Int) {
        let width = max(1, channels), kept = max(0, min(channels, LevelSums.capacity))
        let frames = samples.count / width, blocks = (frames + Self.block - 1) / Self.block
        let spans = (blocks + Self.span - 1) / Self.span
        // (Tables of plain pointers: a meter update reads them for every metered source, and
        // an array's bounds checks and closures cost more than the reads.)
        let prefix = UnsafeMutablePointer<Double>.allocate(capacity: max(1, kept * (blocks + 1)))
        prefix.initialize(repeating: 0, count: max(1, kept * (blocks + 1)))
        let peaks = UnsafeMutablePointer<Float>.allocate(capacity: max(1, kept * blocks))
        peaks.initialize(repeating: 0, count: max(1, kept * blocks))
        let spanPeaks = UnsafeMutablePointer<Float>.allocate(capacity: max(1, kept * spans))
        spanPeaks.initialize(repeating: 0, count: max(1, kept * spans))
        let peaksToHere = UnsafeMutablePointer<Float>.allocate(capacity: max(1, kept * blocks))
        let peaksFromHere = UnsafeMutablePointer<Float>.allocate(capacity: max(1, kept * blocks))
        samples.withUnsafeBufferPointer { samples in
            var totals = SIMD8<Double>(repeating: 0)
            for block in 0..<blocks {
                let first = block * Self.block * width, end = min(samples.count, first + Self.block * width)
                let sums = LevelSums.measuring(UnsafeBufferPointer(rebasing: samples[first..<end]), channels: width)
                totals += sums.squares
                for channel in 0..<kept {
                    prefix[channel * (blocks + 1) + block + 1] = totals[channel]
                    peaks[channel * blocks + block] = sums.peaks[channel]
                    let span = channel * spans + block / Self.span
                    spanPeaks[span] = max(spanPeaks[span], sums.peaks[channel])
                }
            }
        }
        for channel in 0..<kept {
            let row = channel * blocks
            for block in 0..<blocks {
                let start = block % Self.span == 0
                peaksToHere[row + block] = start ? peaks[row + block] : max(peaksToHere[row + block - 1], peaks[row + block])
            }
            for block in (0..<blocks).reversed() {
                let end = block % Self.span == Self.span - 1 || block == blocks - 1
                peaksFromHere[row + block] = end ? peaks[row + block] : max(peaksFromHere[row + block + 1], peaks[row + block])
            }
        }
        self.peaksToHere = peaksToHere
        self.peaksFromHere = peaksFromHere
        self.channels = kept
        self.frames = frames
        self.blocks = blocks
        self.prefix = prefix
        self.peaks = peaks
        self.spans = spans
        self.spanPeaks = spanPeaks
    }

    deinit {
        prefix.deallocate()
        peaks.deallocate()
        spanPeaks.deallocate()
        peaksToHere.deallocate()
        peaksFromHere.deallocate()
    }

    /// Adds the levels of frames `range` to `sums` (channel by channel), `times` over: a looping
    /// sound that went round whole times counts their power and time, and its peak once.
    func add(_ range: Range<Int>, to sums: inout LevelSums, times: Int = 1) {
        let lower = max(0, range.lowerBound), upper = min(frames, range.upperBound)
        guard lower < upper, times > 0 else { return }
        let first = lower / Self.block, last = (upper - 1) / Self.block
        let firstShare = share(min(upper, (first + 1) * Self.block) - lower, of: first)
        let lastShare = share(upper - last * Self.block, of: last)
        let firstSpan = first / Self.span, lastSpan = last / Self.span
        // Channel `channel`'s power and peak over the range.
        @inline(__always) func power(_ channel: Int) -> Double {
            let row = prefix + channel * (blocks + 1)
            var squares = (row[first + 1] - row[first]) * firstShare
            if last > first {
                squares += row[last] - row[first + 1] + (row[last + 1] - row[last]) * lastShare
            }
            return squares
        }
        @inline(__always) func largestPeak(_ channel: Int) -> Float {
            let row = channel * blocks
            // Within one span: its blocks. Else the first span from `first` on, the whole spans
            // between, the last span up to `last`.
            guard firstSpan < lastSpan else { return Self.largest(peaks + row + first, last + 1 - first) }
            var peak = max(peaksFromHere[row + first], peaksToHere[row + last])
            if lastSpan - firstSpan > 1 {
                peak = max(peak, Self.largest(spanPeaks + channel * spans + firstSpan + 1, lastSpan - firstSpan - 1))
            }
            return peak
        }
        var squares = SIMD8<Double>(repeating: 0), peak = SIMD8<Float>(repeating: 0)
        let kept = min(channels, sums.channels)
        // Lanes 0 and 1 by constant numbers, so mono and stereo build the vectors in registers (a
        // lane chosen at run time goes through memory).
        if kept > 0 {
            squares[0] = power(0)
            peak[0] = largestPeak(0)
        }
        if kept > 1 {
            squares[1] = power(1)
            peak[1] = largestPeak(1)
        }
        if kept > 2 {
            for channel in 2..<kept {
                squares[channel] = power(channel)
                peak[channel] = largestPeak(channel)
            }
        }
        sums.squares += squares * Double(times)
        sums.peaks = sums.peaks.replacing(with: peak, where: peak .> sums.peaks)
        sums.frames += (upper - lower) * times
    }

    /// The largest of `count` values from `start` (all ≥ 0; 0 when none), eight at a time.
    private static func largest(_ start: UnsafePointer<Float>, _ count: Int) -> Float {
        var index = 0, result: Float = 0
        if count >= 8 {
            var wide = SIMD8<Float>(repeating: 0)
            let raw = UnsafeRawPointer(start)
            while index + 8 <= count {
                let value = raw.loadUnaligned(fromByteOffset: index * 4, as: SIMD8<Float>.self)
                wide = wide.replacing(with: value, where: value .> wide)     // (`pointwiseMax` is not inlined)
                index += 8
            }
            // Halves, then lanes (`max()` is not inlined either).
            let four = wide.lowHalf.replacing(with: wide.highHalf, where: wide.highHalf .> wide.lowHalf)
            result = max(max(four[0], four[1]), max(four[2], four[3]))
        }
        while index < count {
            result = max(result, start[index])
            index += 1
        }
        return result
    }

    /// The share of block `block` that `count` of its frames are (a multiplication for a whole
    /// block of 64: a division takes the time of twenty).
    @inline(__always)
    private func share(_ count: Int, of block: Int) -> Double {
        let length = frames - block * Self.block
        return length >= Self.block ? Double(count) * (1.0 / Double(Self.block)) : Double(count) / Double(length)
    }
}
