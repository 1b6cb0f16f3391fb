import Synchronization
import Testing
import Soundstage
import TestSupport

/// Gain, pitch, looping, stop, pause, seek and completion, heard in the mix.
@Suite struct PlaybackTests {
    @Test func halfGainHalvesTheLevel() throws {
        let full = try Rig(), half = try Rig()
        _ = try full.playing(at: Vector3(0, 0, -1))
        _ = try half.playing(at: Vector3(0, 0, -1)) { $0.gain = 0.5 }
        let ratio = Signals.rms(try half.render(0.5).samples) / Signals.rms(try full.render(0.5).samples)
        #expect(abs(ratio - 0.5) < 0.001, "ratio \(ratio)")
    }

    @Test func listenerGainScalesTheWholeScene() throws {
        let full = try Rig(), quiet = try Rig()
        _ = try full.playing(at: Vector3(0, 0, -1))
        _ = try quiet.playing(at: Vector3(0, 0, -1))
        quiet.scene.listener.gain = 0.25
        let ratio = Signals.rms(try quiet.render(0.5).samples) / Signals.rms(try full.render(0.5).samples)
        #expect(abs(ratio - 0.25) < 0.001)
    }

    @Test func pitchTwoDoublesTheFrequency() throws {
        let rig = try Rig()
        _ = try rig.playing(at: Vector3(0, 0, -1)) { $0.pitch = 2 }
        let heard = Signals.frequency(try rig.render(1))
        #expect(abs(heard - 880) < 0.5, "heard \(heard) Hz")
    }

    @Test func loopingContinuesPastTheEndOfTheBuffer() throws {
        let rig = try Rig(seconds: 0.25)
        let source = try rig.playing(at: Vector3(0, 0, -1))
        let mix = try rig.render(1)
        let lastQuarter = mix.slice(frames: 36_000..<48_000)
        #expect(Signals.rms(lastQuarter.samples) > 0.1)
        #expect(source.playbackState == .playing)
    }

    @Test func aNonLoopingSourceEndsInSilenceAndCompletesOnce() async throws {
        let rig = try Rig(seconds: 0.25)
        let source = rig.scene.makeSource(buffer: rig.sine)
        source.position = Vector3(0, 0, -1)
        let count = Atomic<Int>(0)
        source.completionHandler = { _ in count.add(1, ordering: .relaxed) }
        let events = source.completions()
        try source.play()
        let mix = try rig.render(0.5)
        #expect(Signals.rms(mix.slice(frames: 0..<12_000).samples) > 0.1)
        #expect(Signals.rms(mix.slice(frames: 12_100..<24_000).samples) == 0)
        #expect(count.load(ordering: .relaxed) == 1)
        #expect(source.playbackState == .stopped)
        #expect(rig.scene.activeSourceCount == 0)
        _ = try rig.render(0.25)
        #expect(count.load(ordering: .relaxed) == 1, "completion runs once per play")
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() != nil)
    }

    @Test func repeatCountPlaysTheBufferBackToBack() throws {
        let rig = try Rig(seconds: 0.25)
        let source = rig.scene.makeSource(buffer: rig.sine)
        source.repeatCount = 2
        try source.play()
        let mix = try rig.render(1)
        #expect(Signals.rms(mix.slice(frames: 24_000..<36_000).samples) > 0.1, "third play is heard")
        #expect(Signals.rms(mix.slice(frames: 36_100..<48_000).samples) == 0, "then silence")
    }

    @Test func stopGivesSilenceInTheNextRender() throws {
        let rig = try Rig()
        let source = try rig.playing(at: Vector3(0, 0, -1))
        #expect(Signals.rms(try rig.render(0.1).samples) > 0.1)
        source.stop()
        #expect(Signals.peak(try rig.render(0.1)) == 0)
        #expect(source.playbackState == .stopped)
        #expect(source.offset == 0)
    }

    @Test func pauseThenPlayResumesAtThePausedOffset() throws {
        // Reference: 0.35 s played straight through.
        let straight = try Rig()
        _ = try straight.playing(at: Vector3(0, 0, -1)) { $0.isLooping = false }
        let reference = try straight.render(0.35)

        let rig = try Rig()
        let source = try rig.playing(at: Vector3(0, 0, -1)) { $0.isLooping = false }
        let first = try rig.render(0.25)
        source.pause()
        #expect(abs(source.offset - 0.25) < 0.011)
        let paused = try rig.render(0.2)
        #expect(Signals.peak(paused) == 0, "silent while paused")
        #expect(source.playbackState == .paused)
        try source.play()
        let resumed = try rig.render(0.1)
        let expected = reference.slice(frames: 12_000..<16_800)
        let firstDiff = zip(first.samples, reference.samples).map { abs($0 - $1) }.max() ?? 1
        let diff = zip(resumed.samples, expected.samples).map { abs($0 - $1) }.max() ?? 1
        #expect(firstDiff < 1e-6)
        #expect(diff < 1e-3, "resumed audio differs from the uninterrupted render by \(diff)")
    }

    @Test func seekLandsWhereAsked() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene()
        let buffer = try device.makeBuffer(Signals.twoTone(440, 880, seconds: 2))
        let source = scene.makeSource(buffer: buffer)
        try source.seek(to: 1.2)                       // before playing: applied at play
        #expect(source.offset == 1.2)
        try source.play()
        #expect(abs(Signals.frequency(try device.render(frames: 12_000)) - 880) < 1)
        try source.seek(to: 0.1)                       // while playing
        #expect(abs(Signals.frequency(try device.render(frames: 12_000)) - 440) < 1)
        #expect(abs(source.offset - 0.35) < 0.011)
        #expect(throws: SoundstageError.self) { try source.seek(to: 5) }
        #expect(throws: SoundstageError.self) { try source.seek(to: -1) }
    }

    @Test func rewindReturnsToTheStart() throws {
        let rig = try Rig()
        let source = try rig.playing(at: Vector3(0, 0, -1))
        _ = try rig.render(0.3)
        source.rewind()
        #expect(source.playbackState == .initial)
        #expect(source.offset == 0)
        #expect(Signals.peak(try rig.render(0.05)) == 0)
    }

    @Test func twoScenesOnOneDeviceMix() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let world = try device.makeScene(), ui = try device.makeScene()
        let low = try device.makeBuffer(Signals.sine(300, seconds: 1))
        let left = world.makeSource(buffer: low)
        left.position = Vector3(-5, 0, 0)
        let right = ui.makeSource(buffer: low)
        right.position = Vector3(5, 0, 0)
        try left.play()
        try right.play()
        let mix = try device.render(frames: 24_000)
        // Each source alone, 5 m away: 0.5/√2 · 1/5 ≈ 0.0707 RMS, in its own channel only.
        #expect(abs(Signals.rms(mix, channel: 0) - 0.0707) < 0.001)
        #expect(abs(Signals.rms(mix, channel: 1) - 0.0707) < 0.001)
        ui.listener.gain = 0
        _ = try device.render(frames: 480)   // the gain change ramps over one update
        let worldOnly = try device.render(frames: 4_800)
        #expect(Signals.rms(worldOnly, channel: 1) < 0.0001, "the UI scene is muted")
        #expect(abs(Signals.rms(worldOnly, channel: 0) - 0.0707) < 0.001, "the world scene is untouched")
    }

    @Test func playingPastTheBudgetIsAClearError() throws {
        let rig = try Rig(budget: 3)
        for _ in 0..<3 { _ = try rig.playing(at: .zero) }
        let extra = rig.scene.makeSource(buffer: rig.sine)
        let error = #expect(throws: SoundstageError.self) { try extra.play() }
        #expect(error?.code == .sourceBudgetExhausted)
        #expect(error?.message.contains("3") == true)
    }

    @Test func budgetAboveOpenALsDefaultOf256() throws {
        let rig = try Rig(budget: 400)
        let sources = try (0..<400).map { _ in try rig.playing(at: Vector3(0, 0, -1)) { $0.gain = 0.001 } }
        #expect(rig.scene.activeSourceCount == 400)
        #expect(Signals.rms(try rig.render(0.05).samples) > 0)
        sources.forEach { $0.stop() }
        #expect(rig.scene.activeSourceCount == 0)
    }

    @Test func stoppedSourcesReturnTheirOpenALSourceToThePool() throws {
        let rig = try Rig(budget: 2)
        for _ in 0..<20 {
            let a = try rig.playing(at: .zero), b = try rig.playing(at: .zero)
            a.stop(); b.stop()
        }
        #expect(rig.device.liveObjects.sources == 2)
    }

    @Test func playWithoutABufferIsAnError() throws {
        let rig = try Rig()
        let error = #expect(throws: SoundstageError.self) { try rig.scene.makeSource().play() }
        #expect(error?.code == .invalidArgument)
    }

    @Test func propertiesSetBeforePlayApplyWhenItStarts() throws {
        let rig = try Rig()
        let source = rig.scene.makeSource(buffer: rig.sine)
        source.position = Vector3(5, 0, 0)
        source.gain = 0.5
        // Reuse an OpenAL source that had other settings.
        let other = try rig.playing(at: Vector3(-5, 0, 0)) { $0.pitch = 3 }
        other.stop()
        try source.play()
        let mix = try rig.render(0.25)
        #expect(Signals.rms(mix, channel: 0) < 0.0001)
        #expect(abs(Signals.frequency(mix, channel: 1) - 440) < 1)
    }
}
