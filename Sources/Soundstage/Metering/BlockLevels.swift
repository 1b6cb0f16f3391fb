/// The levels of a stretch of audio per 64-frame block, made once (a buffer's on its first
/// metered play, a streamed chunk's on the decoder thread): so the level of any range of it costs
/// a few operations, not a pass over its samples, and the samples need not be kept.
///
/// A range that covers part of a block counts that share of the block's power and the block's
/// whole peak: a meter is exact to the block (1.3 ms at 48 kHz), which is finer than the 100 ms
/// a meter update covers.
final class BlockLevels: Sendable {
    static let block = 64
    /// The channels kept (at most ``LevelSums/capacity``).
    let channels: Int
    let frames: Int
    private let blocks: Int
    /// Channel `c`'s running sums of squares: `prefix[c × (blocks + 1) + b]` is the sum over
    /// blocks `0..<b`.
    private let prefix: [Double]
    /// Channel `c`'s block peaks: `peaks[c × blocks + b]`.
    private let peaks: [Float]

    /// The levels of interleaved `samples` of `channels` channels.
    init(_ samples: [Float], channels: Int) {
        let width = max(1, channels), kept = max(0, min(channels, LevelSums.capacity))
        let frames = samples.count / width, blocks = (frames + Self.block - 1) / Self.block
        var prefix = [Double](repeating: 0, count: kept * (blocks + 1))
        var peaks = [Float](repeating: 0, count: kept * blocks)
        samples.withUnsafeBufferPointer { samples in
            var totals = InlineArray<8, Double>(repeating: 0)
            for block in 0..<blocks {
                let first = block * Self.block * width, end = min(samples.count, first + Self.block * width)
                let sums = LevelSums.measuring(UnsafeBufferPointer(rebasing: samples[first..<end]), channels: width)
                for channel in 0..<kept {
                    totals[channel] += sums.squares[channel]
                    prefix[channel * (blocks + 1) + block + 1] = totals[channel]
                    peaks[channel * blocks + block] = sums.peaks[channel]
                }
            }
        }
        self.channels = kept
        self.frames = frames
        self.blocks = blocks
        self.prefix = prefix
        self.peaks = peaks
    }

    /// Adds the levels of frames `range` to `sums` (channel by channel), `times` over: a looping
    /// sound that went round whole times counts their power and time, and its peak once.
    func add(_ range: Range<Int>, to sums: inout LevelSums, times: Int = 1) {
        let lower = max(0, range.lowerBound), upper = min(frames, range.upperBound)
        guard lower < upper, times > 0 else { return }
        let first = lower / Self.block, last = (upper - 1) / Self.block
        let firstShare = Double(min(upper, (first + 1) * Self.block) - lower) / Double(length(of: first))
        let lastShare = Double(upper - last * Self.block) / Double(length(of: last))
        prefix.withUnsafeBufferPointer { prefix in
            peaks.withUnsafeBufferPointer { peaks in
                for channel in 0..<min(channels, sums.channels) {
                    let row = channel * (blocks + 1)
                    func power(_ block: Int) -> Double { prefix[row + block + 1] - prefix[row + block] }
                    var squares = power(first) * firstShare
                    if last > first {
                        squares += prefix[row + last] - prefix[row + first + 1] + power(last) * lastShare
                    }
                    let peak = Self.largest(UnsafeBufferPointer(rebasing: peaks[(channel * blocks + first)...(channel * blocks + last)]))
                    sums.squares[channel] += squares * Double(times)
                    sums.peaks[channel] = max(sums.peaks[channel], peak)
                }
            }
        }
        sums.frames += (upper - lower) * times
    }

    /// The largest of `values` (all ≥ 0), eight at a time.
    private static func largest(_ values: UnsafeBufferPointer<Float>) -> Float {
        guard let base = values.baseAddress else { return 0 }
        var index = 0, result: Float = 0
        if values.count >= 8 {
            var wide = SIMD8<Float>(repeating: 0)
            let raw = UnsafeRawPointer(base)
            while index + 8 <= values.count {
                let value = raw.loadUnaligned(fromByteOffset: index * 4, as: SIMD8<Float>.self)
                wide = wide.replacing(with: value, where: value .> wide)     // (`pointwiseMax` is not inlined)
                index += 8
            }
            result = wide.max()
        }
        while index < values.count {
            result = max(result, base[index])
            index += 1
        }
        return result
    }

    private func length(of block: Int) -> Int { min(Self.block, frames - block * Self.block) }
}
