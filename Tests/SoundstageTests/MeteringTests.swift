import Foundation
import Soundstage
import SoundFile
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

/// Source, group and scene meters: what each contributes, after gain and attenuation, checked
/// against the rendered mix on a mono device (where a source at the listener plays at unity).
@Suite struct ObjectMeteringTests {
    static let minusSix = Float(pow(10, -6.0 / 20))

    @Test func aSourceMeterFollowsItsGainAndDistanceAndMatchesTheMix() throws {
        let device = try Device.loopback(layout: .mono)
        defer { device.close() }
        let scene = try device.makeScene()
        let source = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(1_000, seconds: 0.5, amplitude: Self.minusSix)))
        source.isLooping = true
        #expect(source.meterLevels() == nil)
        source.isMeteringEnabled = true
        device.isOutputMeteringEnabled = true
        try source.play()
        _ = try device.render(frames: 4_800)
        _ = source.meterLevels()
        _ = device.outputLevels()
        for (gain, distance, expected) in [(Float(1), Float(0), -6.0), (0.5, 0, -12.0), (1, 2, -12.0), (0.5, 4, -24.0)] {
            source.gain = gain
            source.position = Vector3(distance, 0, 0)
            _ = try device.render(frames: 4_800)                       // let the change settle
            _ = source.meterLevels(); _ = device.outputLevels()
            _ = try device.render(frames: 24_000)
            let meter = try #require(source.meterLevels()), mix = try #require(device.outputLevels())
            #expect(abs(Double(meter.peakPower[0]) - expected) < 0.1, "gain \(gain), \(distance) m: peak \(meter.peakPower[0])")
            #expect(abs(Double(meter.averagePower[0]) - (expected - 3.01)) < 0.1, "average \(meter.averagePower[0])")
            #expect(abs(meter.averagePower[0] - mix.averagePower[0]) < 0.1, "as the mix: \(meter.averagePower[0]) vs \(mix.averagePower[0])")
        }
    }

    /// A source's meter follows what changes its level without touching the source: the
    /// listener moving away, its group's gain, the scene's distance model and the listener's gain
    /// (the meter keeps its gain between updates until one of these changes).
    @Test func aSourceMeterFollowsTheListenerItsGroupAndTheDistanceModel() throws {
        let device = try Device.loopback(layout: .mono)
        defer { device.close() }
        let scene = try device.makeScene()
        let group = scene.makeGroup("sfx")
        let source = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(1_000, seconds: 0.5, amplitude: Self.minusSix)))
        source.isLooping = true
        source.group = group
        source.isMeteringEnabled = true
        try source.play()
        _ = try device.render(frames: 4_800)
        _ = source.meterLevels()
        let changes: [(String, () -> Void, Double)] = [
            ("the listener 2 m away", { scene.listener.position = Vector3(2, 0, 0) }, -12),
            ("the group at half gain", { group.gain = 0.5 }, -18),
            ("no distance attenuation", { scene.distanceModel = .none }, -12),
            ("the listener at half gain", { scene.listener.gain = 0.5 }, -18),
        ]
        for (what, change, expected) in changes {
            change()
            _ = try device.render(frames: 4_800)
            _ = source.meterLevels()
            _ = try device.render(frames: 24_000)
            let meter = try #require(source.meterLevels())
            #expect(abs(Double(meter.peakPower[0]) - expected) < 0.1, "\(what): peak \(meter.peakPower[0]), not \(expected)")
        }
    }

    /// A source given another buffer is metered with the new buffer's levels (the meter keeps
    /// its own copy of the buffer's levels, which the change must drop).
    @Test func aSourceGivenAnotherBufferIsMeteredWithItsLevels() throws {
        let device = try Device.loopback(layout: .mono)
        defer { device.close() }
        let scene = try device.makeScene()
        let quiet = try device.makeBuffer(Signals.sine(1_000, seconds: 0.5, amplitude: Float(pow(10, -20.0 / 20))))
        let loud = try device.makeBuffer(Signals.sine(1_000, seconds: 0.5, amplitude: Self.minusSix))
        let source = scene.makeSource(buffer: quiet)
        source.isLooping = true
        source.isMeteringEnabled = true
        try source.play()
        _ = try device.render(frames: 24_000)
        #expect(abs(Double(try #require(source.meterLevels()).peakPower[0]) + 20) < 0.1)
        source.buffer = loud
        try source.play()
        _ = try device.render(frames: 4_800)
        _ = source.meterLevels()
        _ = try device.render(frames: 24_000)
        let meter = try #require(source.meterLevels())
        #expect(abs(Double(meter.peakPower[0]) + 6) < 0.1, "the new buffer's −6 dB: \(meter.peakPower[0])")
    }

    @Test func groupAndSceneMetersSumTheirSourcesPower() throws {
        let device = try Device.loopback(layout: .mono)
        defer { device.close() }
        let scene = try device.makeScene()
        let music = scene.makeGroup("music")
        let sources = try [440.0, 660.0].map { frequency in
            let source = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(frequency, seconds: 0.5, amplitude: Self.minusSix)))
            source.isLooping = true
            source.group = music
            return source
        }
        music.isMeteringEnabled = true
        scene.isMeteringEnabled = true
        device.isOutputMeteringEnabled = true
        for source in sources { try source.play() }
        _ = try device.render(frames: 4_800)
        _ = music.meterLevels(); _ = scene.meterLevels(); _ = device.outputLevels()
        _ = try device.render(frames: 48_000)
        let group = try #require(music.meterLevels()), whole = try #require(scene.meterLevels()), mix = try #require(device.outputLevels())
        // Two uncorrelated −9 dB (RMS) sines: −6 dB of power together, as the mix measures.
        #expect(abs(group.averagePower[0] + 6.02) < 0.2, "\(group.averagePower[0])")
        #expect(abs(group.averagePower[0] - mix.averagePower[0]) < 0.2, "group \(group.averagePower[0]) vs mix \(mix.averagePower[0])")
        #expect(abs(whole.averagePower[0] - group.averagePower[0]) < 0.01)
        #expect(abs(group.peakPower[0] + 6) < 0.1, "the loudest source's peak")
        music.isMeteringEnabled = false
        #expect(music.meterLevels() == nil)
    }

    /// The scene meter visits exactly the sources that play, whatever order they stop in: four
    /// sources at different gains, stopped first, last and middle, and after each stop the scene
    /// reads what the mix has (a source left out, or a stopped one still counted, is off by dBs).
    @Test func theSceneMeterCountsExactlyThePlayingSourcesAsTheyStop() throws {
        let device = try Device.loopback(layout: .mono)
        defer { device.close() }
        let scene = try device.makeScene()
        let sources = try [(220.0, Float(1)), (330, 0.5), (550, 0.25), (770, 0.125)].map { frequency, gain in
            let source = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(frequency, seconds: 0.5, amplitude: Self.minusSix)))
            source.isLooping = true
            source.gain = gain
            return source
        }
        scene.isMeteringEnabled = true
        device.isOutputMeteringEnabled = true
        for source in sources { try source.play() }
        var playing = Set(0..<4)
        for stopped in [0, 3, 1] {
            sources[stopped].stop()
            playing.remove(stopped)
            _ = try device.render(frames: 4_800)
            _ = scene.meterLevels(); _ = device.outputLevels()
            _ = try device.render(frames: 48_000)
            let whole = try #require(scene.meterLevels()), mix = try #require(device.outputLevels())
            #expect(abs(whole.averagePower[0] - mix.averagePower[0]) < 0.2,
                    "sources \(playing.sorted()) play: scene \(whole.averagePower[0]) dB, mix \(mix.averagePower[0]) dB")
        }
        sources[2].stop()
        _ = try device.render(frames: 4_800)
        _ = scene.meterLevels()
        _ = try device.render(frames: 4_800)
        #expect(scene.meterLevels()?.averagePower == [LevelMeter.silence], "nothing plays")
    }
}

extension ObjectMeteringTests {
    /// Between readings of OpenAL's offset the meter follows the play position from the mix's
    /// advance × pitch: at pitch 2 a loud half then a quiet half of a 2 s sound are metered
    /// where the mix has them, window by window, over several seconds of looping.
    @Test func aSourceMeterFollowsThePlayPositionAtAnyPitch() throws {
        let device = try Device.loopback(layout: .mono)
        defer { device.close() }
        let scene = try device.makeScene()
        let loud = Signals.sine(500, seconds: 1, amplitude: 0.5).samples
        let quiet = Signals.sine(500, seconds: 1, amplitude: 0.05).samples
        let source = scene.makeSource(buffer: try device.makeBuffer(AudioBuffer(samples: loud + quiet, channels: 1, sampleRate: Signals.rate)))
        source.isLooping = true
        source.pitch = 2
        source.isMeteringEnabled = true
        try source.play()
        // Each 0.5 s of mix is one half (pitch 2). Read the meter every 0.1 s (its update period)
        // and compare it with the mix of the same 0.1 s, inside each half (not across its edges).
        var compared = 0
        for window in 0..<40 {
            let mix = try device.render(frames: 4_800)
            // Nil when no 100 ms update fell in this window (updates come every 10 ms of mix).
            guard let levels = source.meterLevels(), window >= 5, (1...3).contains(window % 5) else { continue }
            let measured = 20 * log10(Signals.rms(mix.samples))
            #expect(abs(Double(levels.averagePower[0]) - measured) < 1,
                    "window \(window): meter \(levels.averagePower[0]) dB, mix \(measured) dB")
            compared += 1
        }
        #expect(compared >= 12, "\(compared) windows compared")
    }
}

extension ObjectMeteringTests {
    /// A streaming source is metered too: a file of a loud second and a quiet one, streamed in
    /// 0.25 s buffers and looping, reads as the mix does, window by window, across buffer
    /// boundaries and the loop; its scene's meter reads the same.
    @Test func aStreamingSourceIsMeteredAsItPlays() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("soundstage-meter-stream-\(getpid()).wav").path
        defer { unlink(path) }
        let loud = Signals.sine(500, seconds: 1, amplitude: 0.5).samples
        let quiet = Signals.sine(500, seconds: 1, amplitude: 0.05).samples
        try SoundFileWriter.write(AudioBuffer(samples: loud + quiet, channels: 1, sampleRate: Signals.rate), to: path, format: .wavFloat32)
        let device = try Device.loopback(layout: .mono)
        defer { device.close() }
        let scene = try device.makeScene()
        var options = StreamOptions()
        options.loops = true
        let source = try scene.makeStreamingSource(file: path, options: options)
        source.isMeteringEnabled = true
        scene.isMeteringEnabled = true
        try source.play()
        var compared = 0
        for window in 0..<50 {
            let mix = try device.render(frames: 4_800)
            guard let levels = source.meterLevels(), let sceneLevels = scene.meterLevels(),
                  window >= 10, (1...8).contains(window % 10) else { continue }
            let measured = 20 * log10(Signals.rms(mix.samples))
            #expect(abs(Double(levels.averagePower[0]) - measured) < 1, "window \(window): meter \(levels.averagePower[0]) dB, mix \(measured) dB")
            #expect(abs(Double(sceneLevels.averagePower[0]) - measured) < 1, "window \(window): scene \(sceneLevels.averagePower[0]) dB")
            compared += 1
        }
        #expect(compared >= 20, "\(compared) windows compared")
    }
}

extension ObjectMeteringTests {
    /// On a stereo mix, group and scene meters have a left and a right, as OpenAL pans: sources
    /// hard left, ahead, 45° right and behind-left in one scene (two in a group), and a stereo
    /// source in another scene — each scene alone in the mix reads as the mix does, per channel.
    @Test func sceneAndGroupMetersFollowThePanningPerChannel() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let first = try device.makeScene()
        let group = first.makeGroup("pair")
        let positions = [Vector3(-2, 0, 0), Vector3(0, 0, -2), Vector3(2, 0, -2), Vector3(-1, 0, 1)]
        let sources = try positions.enumerated().map { index, position -> Source in
            let source = first.makeSource(buffer: try device.makeBuffer(Signals.sine(300 + 170 * Double(index), seconds: 1, amplitude: 0.3)))
            source.position = position
            source.isLooping = true
            if index < 2 { source.group = group }
            return source
        }
        first.isMeteringEnabled = true
        group.isMeteringEnabled = true
        for source in sources { try source.play() }
        _ = try device.render(frames: 4_800)
        _ = first.meterLevels()
        _ = group.meterLevels()
        let mix = try device.render(frames: 24_000)
        let levels = try #require(first.meterLevels())
        #expect(levels.averagePower.count == 2 && levels.peakPower.count == 2)
        for channel in 0..<2 {
            let measured = 20 * log10(Signals.rms(mix.channel(channel)))
            #expect(abs(Double(levels.averagePower[channel]) - measured) < 0.1, "scene channel \(channel): meter \(levels.averagePower[channel]) dB, mix \(measured) dB")
        }
        // The group: its two sources alone (the others stopped), left louder than right.
        for source in sources[2...] { source.stop() }
        _ = try device.render(frames: 4_800)
        _ = group.meterLevels()
        let pair = try device.render(frames: 24_000)
        let groupLevels = try #require(group.meterLevels())
        for channel in 0..<2 {
            let measured = 20 * log10(Signals.rms(pair.channel(channel)))
            #expect(abs(Double(groupLevels.averagePower[channel]) - measured) < 0.1, "group channel \(channel): meter \(groupLevels.averagePower[channel]) dB, mix \(measured) dB")
        }
        #expect(groupLevels.averagePower[0] > groupLevels.averagePower[1] + 3)
        first.close()

        // A stereo source: its channels to their sides.
        let second = try device.makeScene()
        second.isMeteringEnabled = true
        let left = Signals.sine(500, seconds: 1, amplitude: 0.4).samples, right = Signals.sine(700, seconds: 1, amplitude: 0.1).samples
        let stereo = second.makeSource(buffer: try device.makeBuffer(AudioBuffer(samples: zip(left, right).flatMap { [$0, $1] }, channels: 2,
                                                                                 sampleRate: Signals.rate)))
        stereo.isLooping = true
        try stereo.play()
        _ = try device.render(frames: 4_800)
        _ = second.meterLevels()
        let wide = try device.render(frames: 24_000)
        let wideLevels = try #require(second.meterLevels())
        for channel in 0..<2 {
            let measured = 20 * log10(Signals.rms(wide.channel(channel)))
            #expect(abs(Double(wideLevels.averagePower[channel]) - measured) < 0.1, "stereo channel \(channel): meter \(wideLevels.averagePower[channel]) dB, mix \(measured) dB")
        }
    }
}
