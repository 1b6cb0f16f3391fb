import Foundation
import Soundstage
import Testing
import TestSupport

/// The output meter reads what was rendered: checked against levels measured from the samples.
@Suite struct MeteringTests {
    @Test func aMinusSixDecibelSineReadsMinusSixPeakAndMinusNineAverage() throws {
        let device = try Device.loopback(layout: .mono)
        defer { device.close() }
        let amplitude = Float(pow(10, -6.0 / 20))
        let source = try device.makeScene().makeSource(buffer: device.makeBuffer(Signals.sine(1_000, seconds: 0.5, amplitude: amplitude)))
        source.isLooping = true
        #expect(device.outputLevels() == nil, "off: nothing is metered")
        device.isOutputMeteringEnabled = true
        try source.play()
        let mix = try device.render(frames: 24_000)
        let levels = try #require(device.outputLevels())
        #expect(levels.frames == 24_000)
        // Against the rendered samples themselves.
        let peak = 20 * log10(Double(mix.samples.map(abs).max()!))
        let average = 20 * log10(Signals.rms(mix.samples))
        #expect(abs(Double(levels.peakPower[0]) - peak) < 0.01, "meter \(levels.peakPower[0]) dB, samples \(peak) dB")
        #expect(abs(Double(levels.averagePower[0]) - average) < 0.01, "meter \(levels.averagePower[0]) dB, samples \(average) dB")
        // And the levels of a −6 dBFS sine.
        #expect(abs(levels.peakPower[0] + 6) < 0.1, "\(levels.peakPower[0])")
        #expect(abs(levels.averagePower[0] + 9.03) < 0.1, "\(levels.averagePower[0])")
        // A reading starts afresh: silence after a stop reads −160.
        source.stop()
        _ = try device.render(frames: 4_800)
        #expect(device.outputLevels()?.peakPower == [LevelMeter.silence])
    }

    @Test func stereoIsMeteredPerChannel() throws {
        let device = try Device.loopback()
        defer { device.close() }
        device.isOutputMeteringEnabled = true
        let source = try device.makeScene().makeSource(buffer: device.makeBuffer(Signals.sine(440, seconds: 0.5)))
        source.position = Vector3(1, 0, 0)                // hard right
        try source.play()
        let mix = try device.render(frames: 12_000)
        let levels = try #require(device.outputLevels())
        #expect(levels.peakPower.count == 2)
        #expect(levels.peakPower[0] < -60, "left is silent: \(levels.peakPower[0])")
        let right = 20 * log10(Double(mix.channel(1).map(abs).max()!))
        #expect(abs(Double(levels.peakPower[1]) - right) < 0.01)
    }
}
