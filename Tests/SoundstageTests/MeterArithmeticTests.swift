import Foundation
@testable import Soundstage
import SoundFile
import Testing
import TestSupport

/// The arithmetic under the meters, against plain sample-by-sample sums: the vectorized level
/// of a chunk, and a buffer's block table.
@Suite struct MeterArithmeticTests {
    /// Random interleaved samples in −1…1.
    static func noise(frames: Int, channels: Int, seed: UInt64) -> [Float] {
        var random = SplitMix64(seed: seed)
        return (0..<(frames * channels)).map { _ in Float.random(in: -1...1, using: &random) }
    }

    /// Sums of squares and peaks per channel of frames `range`, one sample at a time.
    static func reference(_ samples: [Float], channels: Int, _ range: Range<Int>) -> (squares: [Double], peaks: [Float]) {
        var squares = [Double](repeating: 0, count: channels), peaks = [Float](repeating: 0, count: channels)
        for frame in range {
            for channel in 0..<channels {
                let value = samples[frame * channels + channel]
                squares[channel] += Double(value) * Double(value)
                peaks[channel] = max(peaks[channel], abs(value))
            }
        }
        return (squares, peaks)
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func aChunkIsMeasuredAsSampleBySample(channels: Int) {
        for frames in [0, 1, 7, 31, 33, 480, 1_001] {
            let samples = Self.noise(frames: frames, channels: channels, seed: UInt64(frames * 10 + channels))
            let sums = samples.withUnsafeBufferPointer { LevelSums.measuring($0, channels: channels) }
            let expected = Self.reference(samples, channels: channels, 0..<frames)
            #expect(sums.frames == frames)
            #expect(sums.channels == channels)
            for channel in 0..<channels {
                #expect(abs(sums.squares[channel] - expected.squares[channel]) <= 1e-4 * max(1, expected.squares[channel]),
                        "\(channels) ch, \(frames) frames, channel \(channel)")
                #expect(sums.peaks[channel] == expected.peaks[channel], "\(channels) ch, \(frames) frames, channel \(channel)")
            }
        }
    }

    @Test func aLoudSampleInTheLastPartialVectorIsItsChannelsPeak() {
        // Stereo, 13 frames: the loud sample sits in the tail that is not a whole vector.
        var samples = [Float](repeating: 0.1, count: 26)
        samples[25] = -0.9
        let sums = samples.withUnsafeBufferPointer { LevelSums.measuring($0, channels: 2) }
        #expect(sums.peaks[0] == 0.1)
        #expect(sums.peaks[1] == 0.9)
    }

    @Test(arguments: [1, 2, 6])
    func aBufferTableGivesTheLevelsOfAnyRange(channels: Int) {
        let frames = 64 * 90 + 17                       // six spans of 16 blocks; a ragged last block
        let samples = Self.noise(frames: frames, channels: channels, seed: UInt64(channels))
        let table = BlockLevels(samples, channels: channels)
        var random = SplitMix64(seed: 99)
        for _ in 0..<200 {
            let a = Int.random(in: 0...frames, using: &random), b = Int.random(in: 0...frames, using: &random)
            let range = min(a, b)..<max(a, b)
            var sums = LevelSums(channels: channels)
            table.add(range, to: &sums)
            #expect(sums.frames == range.count)
            guard !range.isEmpty else { continue }
            // Whole blocks exactly; a part of a block counts its share of the block's power and
            // the block's peak.
            let first = range.lowerBound / 64, last = (range.upperBound - 1) / 64
            let blocks = Self.reference(samples, channels: channels, (first * 64)..<min(frames, (last + 1) * 64))
            let inside = Self.reference(samples, channels: channels, range)
            for channel in 0..<channels {
                #expect(sums.peaks[channel] == blocks.peaks[channel])
                #expect(sums.peaks[channel] >= inside.peaks[channel])
                if range.lowerBound % 64 == 0 && (range.upperBound % 64 == 0 || range.upperBound == frames) {
                    #expect(abs(sums.squares[channel] - inside.squares[channel]) < 1e-3, "\(range)")
                } else {
                    // Shares of the two end blocks: off by at most those blocks' power.
                    #expect(abs(sums.squares[channel] - inside.squares[channel]) <= 128.0, "\(range)")
                    let perFrame = inside.squares[channel] / Double(range.count)
                    #expect(range.count < 256 || abs(sums.squares[channel] / Double(range.count) - perFrame) < 0.1 * perFrame, "\(range)")
                }
            }
        }
        // Whole times round a loop: power and time × n, the peak once.
        var once = LevelSums(channels: channels), thrice = LevelSums(channels: channels)
        table.add(0..<frames, to: &once)
        table.add(0..<frames, to: &thrice, times: 3)
        #expect(thrice.frames == 3 * frames)
        #expect(abs(thrice.squares[0] - 3 * once.squares[0]) < 1e-6)
        #expect(thrice.peaks[0] == once.peaks[0])
    }

    /// A loop shorter than the 100 ms between meter updates goes round several times between
    /// them: every time round counts, so the group's meter (whose time is the mix's) reads the
    /// mix's level, not a fraction of it.
    @Test func aLoopShorterThanAMeterUpdateIsCountedEveryTimeRound() throws {
        let device = try Device.loopback(layout: .mono)
        defer { device.close() }
        let scene = try device.makeScene()
        let group = scene.makeGroup("clicks")
        // One period of a 200 Hz sine: 240 frames, 5 ms.
        let source = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(200, seconds: 0.005, amplitude: 0.5)))
        source.isLooping = true
        source.group = group
        source.isMeteringEnabled = true
        group.isMeteringEnabled = true
        device.isOutputMeteringEnabled = true
        try source.play()
        _ = try device.render(frames: 4_800)
        _ = group.meterLevels(); _ = source.meterLevels(); _ = device.outputLevels()
        _ = try device.render(frames: 48_000)
        let mix = try #require(device.outputLevels()), bus = try #require(group.meterLevels()), own = try #require(source.meterLevels())
        #expect(abs(bus.averagePower[0] - mix.averagePower[0]) < 0.2, "group \(bus.averagePower[0]) vs mix \(mix.averagePower[0])")
        #expect(abs(own.averagePower[0] - mix.averagePower[0]) < 0.2, "source \(own.averagePower[0]) vs mix \(mix.averagePower[0])")
        // The group's time is the mix time between the meter updates before the two readings.
        #expect(abs(own.frames - bus.frames) < bus.frames / 50, "it counts the time it played: \(own.frames) of \(bus.frames)")
    }
}
