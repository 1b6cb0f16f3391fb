import Foundation
@testable import Soundstage
import SoundFile
import Testing
import TestSupport

/// Groups (buses): gain, mute, pitch and pause multiply down the tree; fades and ducking follow
/// their documented envelopes — all measured in the loopback mix.
@Suite struct GroupTests {
    private struct Rig {
        let device: Device
        let scene: Scene

        init() throws {
            device = try Device.loopback()
            scene = try device.makeScene()
        }

        /// A looping tone at `x` (−5 = left ear only, +5 = right ear only), playing.
        func tone(_ frequency: Double, x: Float, in group: SoundGroup?) throws -> Source {
            let source = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(frequency, seconds: 1)))
            source.isLooping = true
            source.position = Vector3(x, 0, 0)
            source.group = group
            try source.play()
            return source
        }

        /// RMS of one ear over the next `seconds`.
        func level(_ channel: Int, seconds: Double = 0.1) throws -> Double {
            Signals.rms(try device.render(frames: Int(seconds * 48_000)), channel: channel)
        }
    }

    @Test func gainMuteAndPitchMultiplyDownTheTree() throws {
        let rig = try Rig()
        defer { rig.device.close() }
        let master = rig.scene.makeGroup("master")
        let music = rig.scene.makeGroup("music", parent: master)
        let reference = try rig.tone(440, x: 5, in: nil)
        _ = try rig.device.render(frames: 4_800)
        let full = try rig.level(1)
        reference.stop()
        let song = try rig.tone(440, x: 5, in: music)
        song.gain = 0.8
        master.gain = 0.5
        music.gain = 0.5
        _ = try rig.device.render(frames: 1_000)
        #expect(abs(try rig.level(1) / full - 0.8 * 0.5 * 0.5) < 0.002, "source × music × master")
        #expect(abs(music.effectiveGain - 0.25) < 1e-6)
        master.isMuted = true
        _ = try rig.device.render(frames: 1_000)
        #expect(try rig.level(1) < 1e-5, "muting the parent silences the child")
        master.isMuted = false
        music.pitch = 2
        master.pitch = 1.5
        _ = try rig.device.render(frames: 1_000)
        #expect(abs(Signals.frequency(try rig.device.render(frames: 9_600), channel: 1) - 440 * 2 * 1.5) < 1)
        // A source moved out of the group gets its own gain and pitch back.
        song.group = nil
        _ = try rig.device.render(frames: 1_000)
        let alone = try rig.device.render(frames: 9_600)
        #expect(abs(Signals.frequency(alone, channel: 1) - 440) < 0.5)
        #expect(abs(Signals.rms(alone, channel: 1) / full - 0.8) < 0.002)
    }

    @Test func pauseAndResumeHoldExactlyWhatWasPlaying() throws {
        let rig = try Rig()
        defer { rig.device.close() }
        let effects = rig.scene.makeGroup("effects")
        let loop = try rig.tone(440, x: 5, in: effects)
        let other = try rig.tone(660, x: 5, in: effects)
        other.pause()                                   // paused by the game, not the group
        _ = try rig.device.render(frames: 24_000)
        let before = loop.offset
        effects.pause()
        #expect(effects.isPaused)
        #expect(try rig.level(1) == 0, "the group is silent")
        #expect(abs(loop.offset - before) < 0.011, "held where it was")
        let late = try rig.tone(880, x: 5, in: effects)  // started while the group is paused: waits
        #expect(late.playbackState == .paused)
        effects.resume()
        _ = try rig.device.render(frames: 1_000)
        #expect(loop.playbackState == .playing && late.playbackState == .playing)
        #expect(other.playbackState == .paused, "what the game paused stays paused")
        let mix = try rig.device.render(frames: 9_600)
        #expect(Signals.rms(mix, channel: 1) > 0.1)
    }

    @Test func aFadeIsAStraightLineOverItsDurationAndCanStopAtTheEnd() throws {
        let rig = try Rig()
        defer { rig.device.close() }
        let music = rig.scene.makeGroup("music")
        let song = try rig.tone(440, x: 5, in: music)
        _ = try rig.device.render(frames: 4_800)
        let full = try rig.level(1)
        let ended = Counter()
        music.fade(to: 0, over: 1, stopAtEnd: true) { ended.increment() }
        // Levels over successive 0.1 s windows: the gain falls 0.1 per window.
        var levels: [Double] = []
        for _ in 0..<10 { levels.append(try rig.level(1) / full) }
        for (index, level) in levels.enumerated() {
            let expected = 1 - (Double(index) + 0.5) / 10
            #expect(abs(level - expected) < 0.03, "window \(index): \(level), expected ≈ \(expected)")
        }
        _ = try rig.device.render(frames: 960)
        #expect(song.playbackState == .stopped, "a fade-out with stopAtEnd stops the group's sources")
        #expect(ended.value == 1)
        #expect(music.gain == 0)
    }

    @Test func duckingFollowsItsEnvelopeWhileDialogueSounds() throws {
        let rig = try Rig()
        defer { rig.device.close() }
        let music = rig.scene.makeGroup("music"), dialogue = rig.scene.makeGroup("dialogue")
        rig.scene.addDucking(of: music, whileSounding: dialogue, to: 0.25, attack: 0.2, release: 0.4)
        _ = try rig.tone(220, x: -5, in: music)          // music in the left ear only
        _ = try rig.device.render(frames: 4_800)
        let full = try rig.level(0)
        // One second of speech in the right ear.
        let line = rig.scene.makeSource(buffer: try rig.device.makeBuffer(Signals.sine(1_000, seconds: 1)))
        line.position = Vector3(5, 0, 0)
        line.group = dialogue
        try line.play()
        // Documented envelope: down to 0.25 over 0.2 s, held while the line plays, back to 1
        // over 0.4 s after it ends (each within one 10 ms update).
        var trace: [(t: Double, level: Double)] = []
        for step in 0..<40 { trace.append((Double(step) * 0.05, try rig.level(0, seconds: 0.05) / full)) }
        func expected(_ t: Double) -> Double {
            let mid = t + 0.025
            if mid < 0.2 { return 1 - 0.75 * mid / 0.2 }
            if mid < 1.0 { return 0.25 }
            if mid < 1.4 { return 0.25 + 0.75 * (mid - 1.0) / 0.4 }
            return 1
        }
        for point in trace {
            #expect(abs(point.level - expected(point.t)) < 0.06, "at \(point.t) s: \(point.level), expected ≈ \(expected(point.t))")
        }
        #expect(music.duckFactor == 1)
    }

    @Test func aCrossfadeTradesOneTrackForTheOtherInAStraightLine() throws {
        let rig = try Rig()
        defer { rig.device.close() }
        let first = try rig.tone(330, x: -5, in: nil)     // the outgoing track, left ear
        _ = try rig.device.render(frames: 4_800)
        let full = try rig.level(0)
        let second = rig.scene.makeSource(buffer: try rig.device.makeBuffer(Signals.sine(550, seconds: 1)))
        second.isLooping = true
        second.position = Vector3(5, 0, 0)               // the incoming track, right ear
        let ended = Counter()
        try rig.scene.crossfade(from: first, to: second, over: 1)
        first.fade(to: 0, over: 1, stopAtEnd: true) { ended.increment() }   // same fade, with a completion
        for window in 0..<10 {
            let mix = try rig.device.render(frames: 4_800)
            let out = Signals.rms(mix, channel: 0) / full, into = Signals.rms(mix, channel: 1) / full
            let expected = (Double(window) + 0.5) / 10
            #expect(abs(out - (1 - expected)) < 0.03, "window \(window): outgoing \(out)")
            #expect(abs(into - expected) < 0.03, "window \(window): incoming \(into)")
        }
        _ = try rig.device.render(frames: 960)
        #expect(first.playbackState == .stopped)
        #expect(second.playbackState == .playing && second.fadeLevel == 1)
        #expect(ended.value == 1)
    }
}
