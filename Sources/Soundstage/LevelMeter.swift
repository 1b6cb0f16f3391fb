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

    private let enabled = Synchronization.Atomic<Bool>(false)
    private let sums = NIOLockedValueBox(Sums())

    var isEnabled: Bool {
        get { enabled.load(ordering: .relaxed) }
        set {
            enabled.store(newValue, ordering: .relaxed)
            sums.withLockedValue { $0 = Sums() }
        }
    }

    /// Turns a scene object's meter on or off, keeping the scene's count of meters in use (its
    /// update meters only while some are); false if nothing changed.
    @discardableResult
    func setEnabled(_ on: Bool, countingIn users: borrowing Synchronization.Atomic<Int>) -> Bool {
        guard isEnabled != on else { return false }
        isEnabled = on
        users.add(on ? 1 : -1, ordering: .relaxed)
        return true
    }

    /// Adds interleaved `samples` of `channels` channels, scaled by `gain`; `mixedTo: 1` folds
    /// the channels into one (a group's or scene's meter: the power of everything in it).
    /// `countsFrames: false` adds power without time (a group's sources add up over the same
    /// frames; ``addFrames(_:)`` counts the time).
    func add(_ samples: UnsafeBufferPointer<Float>, channels: Int, gain: Float = 1, mixedTo outputs: Int? = nil,
             countsFrames: Bool = true) {
        guard channels > 0, samples.count >= channels else { return }
        let width = outputs ?? channels
        let frames = samples.count / channels
        // Per channel, in Float over the chunk (a few hundred frames: exact enough, and the loop
        // vectorizes), then into the Double sums. Stereo, the usual mix, has its own loop.
        var squares = [Double](repeating: 0, count: width)
        var peaks = [Float](repeating: 0, count: width)
        if channels == 2 && width == 2 {
            var left: Float = 0, right: Float = 0, leftPeak: Float = 0, rightPeak: Float = 0
            for frame in 0..<frames {
                let l = samples[2 * frame], r = samples[2 * frame + 1]
                left += l * l
                right += r * r
                leftPeak = max(leftPeak, abs(l))
                rightPeak = max(rightPeak, abs(r))
            }
            squares[0] = Double(left) * Double(gain) * Double(gain)
            squares[1] = Double(right) * Double(gain) * Double(gain)
            peaks[0] = leftPeak * abs(gain)
            peaks[1] = rightPeak * abs(gain)
        } else {
            for channel in 0..<channels {
                var sum: Float = 0, peak: Float = 0
                var index = channel
                for _ in 0..<frames {
                    let value = samples[index]
                    sum += value * value
                    peak = max(peak, abs(value))
                    index += channels
                }
                squares[channel % width] += Double(sum) * Double(gain) * Double(gain)
                peaks[channel % width] = max(peaks[channel % width], peak * abs(gain))
            }
        }
        let counted = countsFrames ? frames : 0
        sums.withLockedValue { sums in
            if sums.squares.count != width { sums = Sums(squares: squares, peaks: peaks, frames: counted); return }
            for channel in 0..<width {
                sums.squares[channel] += squares[channel]
                sums.peaks[channel] = max(sums.peaks[channel], peaks[channel])
            }
            sums.frames += counted
        }
    }

    /// Adds precomputed sums: the squares and peaks of `frames` frames per channel, × `gain`.
    func add(squares: [Double], peaks: [Float], frames: Int, gain: Float, mixedTo outputs: Int? = nil, countsFrames: Bool = true) {
        let width = outputs ?? squares.count
        let power = Double(gain) * Double(gain)
        sums.withLockedValue { sums in
            if sums.squares.count != width { sums = Sums(squares: [Double](repeating: 0, count: width), peaks: [Float](repeating: 0, count: width), frames: 0) }
            for (channel, square) in squares.enumerated() {
                sums.squares[channel % width] += square * power
                sums.peaks[channel % width] = max(sums.peaks[channel % width], peaks[channel] * abs(gain))
            }
            if countsFrames { sums.frames += frames }
        }
    }

    /// Counts `frames` of time for power added with `countsFrames: false`, on `channels` channels.
    func addFrames(_ frames: Int, channels: Int = 1) {
        sums.withLockedValue { sums in
            if sums.squares.count != channels {
                sums = Sums(squares: [Double](repeating: 0, count: channels), peaks: [Float](repeating: 0, count: channels), frames: 0)
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

/// Working arrays for one meter update, reused from source to source (no allocation per source).
struct MeterScratch {
    /// A source's sums of squares and peaks per channel of what it played (unscaled).
    var squares: [Double]
    var peaks: [Float]
    /// How many of those channels are in use.
    var channels = 0
    /// One part of a wrapped range.
    var part: [Double]
    var partPeaks: [Float]
    /// What the source brought to each output channel (scaled and panned), for its groups' and scene's meters.
    var reached: [Double]
    var reachedPeaks: [Float]

    init(maxChannels: Int = 8) {
        squares = [Double](repeating: 0, count: maxChannels)
        peaks = [Float](repeating: 0, count: maxChannels)
        part = [Double](repeating: 0, count: maxChannels)
        partPeaks = [Float](repeating: 0, count: maxChannels)
        reached = [Double](repeating: 0, count: maxChannels)
        reachedPeaks = [Float](repeating: 0, count: maxChannels)
    }

    mutating func clearLevels() {
        for index in squares.indices {
            squares[index] = 0
            peaks[index] = 0
        }
    }

    mutating func clearReached(_ outputs: Int) {
        for index in 0..<outputs {
            reached[index] = 0
            reachedPeaks[index] = 0
        }
    }
}

/// A group's or scene's sums over one meter update: its sources' contributions are added here
/// and handed to its ``LevelAccumulator`` once, at the end of the update.
struct PassSums {
    let accumulator: LevelAccumulator
    var squares: [Double]
    var peaks: [Float]

    init(_ accumulator: LevelAccumulator, outputs: Int) {
        self.accumulator = accumulator
        squares = [Double](repeating: 0, count: outputs)
        peaks = [Float](repeating: 0, count: outputs)
    }

    mutating func add(_ scratch: MeterScratch) {
        for output in squares.indices {
            squares[output] += scratch.reached[output]
            peaks[output] = max(peaks[output], scratch.reachedPeaks[output])
        }
    }

    /// Hands the update's sums and `frames` of time to the meter.
    func commit(frames: Int) {
        accumulator.add(squares: squares, peaks: peaks, frames: frames, gain: 1)
    }
}

/// A buffer's levels, precomputed once for metering: running sums of squares per channel and
/// the peak of every 64-frame block, so the level of any range costs a few operations, not a
/// pass over its samples.
final class BufferLevels: Sendable {
    let channels: Int
    private let frames: Int
    /// `prefix[(frame × channels) + channel]`: the sum of squares of the frames before `frame`.
    private let prefix: [Double]
    private let blockPeaks: [Float]
    private let samples: [Float]
    private static let block = 64

    init(_ audio: AudioBuffer) {
        channels = audio.channels
        frames = audio.frames
        samples = audio.samples
        var prefix = [Double](repeating: 0, count: (frames + 1) * channels)
        var peaks = [Float](repeating: 0, count: ((frames + Self.block - 1) / Self.block) * channels)
        for frame in 0..<frames {
            for channel in 0..<channels {
                let value = audio.samples[frame * channels + channel]
                prefix[(frame + 1) * channels + channel] = prefix[frame * channels + channel] + Double(value) * Double(value)
                let slot = (frame / Self.block) * channels + channel
                peaks[slot] = max(peaks[slot], abs(value))
            }
        }
        self.prefix = prefix
        blockPeaks = peaks
    }

    /// Sums of squares and peaks per channel of frames `range`, into `squares` and `peaks`
    /// (at least ``channels`` long; allocation-free for the meter update's hot path).
    func levels(_ range: Range<Int>, squares: inout [Double], peaks: inout [Float]) {
        let lower = max(0, range.lowerBound), upper = min(frames, range.upperBound)
        for channel in 0..<channels {
            squares[channel] = 0
            peaks[channel] = 0
        }
        guard lower < upper else { return }
        let block = Self.block
        // Whole 64-frame blocks from their table; the ragged ends sample by sample.
        let firstBlock = (lower + block - 1) / block, lastBlock = upper / block
        prefix.withUnsafeBufferPointer { prefix in
            blockPeaks.withUnsafeBufferPointer { blockPeaks in
                samples.withUnsafeBufferPointer { samples in
                    for channel in 0..<channels {
                        squares[channel] = prefix[upper * channels + channel] - prefix[lower * channels + channel]
                        var peak: Float = 0
                        if firstBlock < lastBlock {
                            for frame in lower..<(firstBlock * block) { peak = max(peak, abs(samples[frame * channels + channel])) }
                            for index in firstBlock..<lastBlock { peak = max(peak, blockPeaks[index * channels + channel]) }
                            for frame in (lastBlock * block)..<upper { peak = max(peak, abs(samples[frame * channels + channel])) }
                        } else {
                            for frame in lower..<upper { peak = max(peak, abs(samples[frame * channels + channel])) }
                        }
                        peaks[channel] = peak
                    }
                }
            }
        }
    }

    /// Sums of squares and peaks per channel of frames `range`.
    func levels(_ range: Range<Int>) -> (squares: [Double], peaks: [Float]) {
        var squares = [Double](repeating: 0, count: channels)
        var peaks = [Float](repeating: 0, count: channels)
        levels(range, squares: &squares, peaks: &peaks)
        return (squares, peaks)
    }
}
