import Foundation
@testable import Soundstage
import SoundFile
import Testing
import TestSupport

/// ``AudioPlayer`` heard on loopback renders: loops counted to the sample, the pan law,
/// `currentTime` set while playing, fades, rate, metering against the samples, scheduled starts,
/// decode errors and interruptions.
@Suite(.serialized) struct AudioPlayerTests {
    /// Collects a player's events.
    final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [AudioPlayer.Event] = []
        var all: [AudioPlayer.Event] { lock.withLock { list } }
        func handler(_ player: AudioPlayer, _ event: AudioPlayer.Event) { lock.withLock { list.append(event) } }
    }

    /// A device, a scene and a scratch directory.
    final class Rig {
        let device: Device
        let scene: Scene
        let dir: URL
        init() throws {
            device = try Device.loopback()
            scene = try device.makeScene()
            dir = FileManager.default.temporaryDirectory.appendingPathComponent("player-\(UUID())")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        }
        deinit {
            device.close()
            try? FileManager.default.removeItem(at: dir)
        }

        /// Writes `audio` to a file and returns its path.
        func file(_ audio: AudioBuffer, _ name: String, format: OutputFormat = .wavFloat32) throws -> String {
            let path = dir.appendingPathComponent(name).path
            try SoundFileWriter.write(audio, to: path, format: format)
            return path
        }

        func render(_ seconds: Double) throws -> AudioBuffer { try device.render(frames: Int((seconds * 48_000).rounded())) }
    }

    /// A mono sweep (no two stretches alike), with no sample at exactly zero, of `frames`.
    static func sweep(frames: Int) -> AudioBuffer {
        let samples = (0..<frames).map { i -> Float in
            let t = Double(i) / 48_000
            let value = 0.4 * sin(2 * Double.pi * (200 * t + 300 * t * t))
            return Float(value >= 0 ? value + 0.05 : value - 0.05)
        }
        return AudioBuffer(samples: samples, channels: 1, sampleRate: 48_000)
    }

    /// The index of the last frame whose left sample is not zero.
    static func lastSounding(_ audio: AudioBuffer) -> Int? { audio.channel(0).lastIndex { $0 != 0 } }

    @Test func loopsAreCountedAtTheSampleAndTheEndIsReportedOnce() throws {
        let rig = try Rig()
        let events = Events()
        let path = try rig.file(Self.sweep(frames: 12_000), "sweep.wav")
        let player = try AudioPlayer(contentsOf: path, scene: rig.scene)
        player.eventHandler = events.handler
        player.numberOfLoops = 2
        #expect(player.duration == 0.25)
        try player.play()
        let mix = try rig.render(1.5)
        // Three plays back to back: exactly 36,000 frames of sound, then silence.
        #expect(Self.lastSounding(mix) == 35_999)
        #expect(mix.channel(0)[0..<36_000].allSatisfy { $0 != 0 }, "no gap at the loop seams")
        // The loops repeat the file to the sample.
        let left = mix.channel(0)
        #expect(Array(left[12_000..<24_000]) == Array(left[0..<12_000]))
        #expect(Array(left[24_000..<36_000]) == Array(left[0..<12_000]))
        #expect(events.all == [.finished(successfully: true)])
        #expect(!player.isPlaying)
    }

    @Test func minusOneLoopsUntilStopped() throws {
        let rig = try Rig()
        let player = try AudioPlayer(contentsOf: try rig.file(Self.sweep(frames: 4_800), "short.wav"), scene: rig.scene)
        player.numberOfLoops = -1
        try player.play()
        let mix = try rig.render(1)
        #expect(mix.channel(0).allSatisfy { $0 != 0 }, "ten plays of 0.1 s without a gap")
        #expect(player.isPlaying)
        player.stop()
        _ = try rig.render(0.05)
        #expect(Signals.peak(try rig.render(0.1)) == 0)
    }

    @Test func panPlacesAMonoSoundFromLeftToRight() throws {
        let rig = try Rig()
        let player = try AudioPlayer(contentsOf: try rig.file(Signals.sine(440, seconds: 2), "tone.wav"), scene: rig.scene)
        try player.play()
        var levels: [(pan: Float, left: Double, right: Double)] = []
        for pan: Float in [-1, -0.5, 0, 0.5, 1] {
            player.pan = pan
            _ = try rig.render(0.05)   // the mixer's gain ramp
            let mix = try rig.render(0.1)
            levels.append((pan, Signals.rms(mix, channel: 0), Signals.rms(mix, channel: 1)))
        }
        #expect(levels[0].right < 1e-4 && levels[0].left > 0.2, "hard left: \(levels[0])")
        #expect(levels[4].left < 1e-4 && levels[4].right > 0.2, "hard right: \(levels[4])")
        #expect(abs(levels[2].left - levels[2].right) < 1e-4, "centred: \(levels[2])")
        #expect(levels[1].left > levels[1].right && levels[3].right > levels[3].left)
        // The right channel rises and the left falls, step by step.
        #expect(zip(levels, levels.dropFirst()).allSatisfy { $1.right > $0.right - 1e-6 && $1.left < $0.left + 1e-6 })
        player.pan = .nan
        #expect(player.pan == 1, "NaN is refused; the pan stays")
    }

    /// A player is a streaming source, and the voice manager never makes a stream virtual (only
    /// sources that play a buffer can be, see ``VoiceTable``): on a one-voice scene that a louder
    /// sound wants, a player at 1.5× with its pitch kept keeps its voice and plays on at its
    /// tempo, where 1.5× puts it, at its pitch. (A virtual clock runs at the pitch alone; no
    /// source with a tempo ever runs on one.)
    @Test func aPlayerAtATempoKeepsItsVoiceAndItsPositionUnderVoicePressure() throws {
        try TimeStretch.check()
        let rig = try Rig()
        let scene = try rig.device.makeScene(sourceBudget: 1)
        defer { scene.close() }
        scene.virtualizesVoices = true
        let player = try AudioPlayer(contentsOf: try rig.file(Signals.sine(440, seconds: 10), "long.wav"), scene: scene)
        player.preservesPitch = true
        player.rate = 1.5
        try player.play()
        _ = try rig.render(1)
        let loud = scene.makeSource(buffer: try rig.device.makeBuffer(Signals.sine(880, seconds: 10)))
        loud.position = Vector3(0, 0, -0.5)
        try loud.play()
        _ = try rig.render(2)
        #expect(loud.isVirtual, "the stream kept the one voice")
        #expect(abs(player.currentTime - 4.5) < 0.03, "3 s heard at 1.5×: \(player.currentTime) s into the file")
        let mix = try rig.render(0.2)
        #expect(abs(Signals.frequency(mix) - 440) < 2, "at its pitch")
        loud.stop()
        player.stop()
    }

    @Test func currentTimeSetWhilePlayingJumpsToTheSample() throws {
        let rig = try Rig()
        let sweep = Self.sweep(frames: 96_000)
        let player = try AudioPlayer(contentsOf: try rig.file(sweep, "long.wav"), scene: rig.scene)
        try player.play()
        _ = try rig.render(0.5)
        #expect(abs(player.currentTime - 0.5) < 0.011)
        player.currentTime = 1.25
        let mix = try rig.render(0.25)
        // Heard from frame 60,000 of the file on: the same samples, at the same gain (head-relative, centred).
        let heard = mix.channel(0), file = sweep.samples
        let start = try #require((0..<2_400).first { heard[$0] != 0 })
        let ratio = heard[start + 100] / file[60_000 + start + 100]
        for i in stride(from: start, to: 10_000, by: 97) {
            #expect(abs(heard[i] - ratio * file[60_000 + i]) < 1e-4, "frame \(i)")
        }
        #expect(abs(player.currentTime - 1.5) < 0.011)
        // Stop keeps the position; play goes on from there.
        player.stop()
        let kept = player.currentTime
        #expect(abs(kept - 1.5) < 0.011)
        try player.play()
        _ = try rig.render(0.1)
        #expect(abs(player.currentTime - (kept + 0.1)) < 0.011)
    }

    @Test func fadesRateAndMeters() throws {
        let rig = try Rig()
        let player = try AudioPlayer(contentsOf: try rig.file(Signals.sine(500, seconds: 3, amplitude: 0.5), "tone.wav"), scene: rig.scene)
        player.isMeteringEnabled = true
        try player.play()
        _ = try rig.render(0.2)
        player.updateMeters()
        // The player's meter reads the file's samples: a 0.5 sine is -6.02 dBFS peak, -9.03 RMS.
        #expect(abs(player.peakPower(forChannel: 0) - -6.02) < 0.05, "\(player.peakPower(forChannel: 0))")
        #expect(abs(player.averagePower(forChannel: 0) - -9.03) < 0.05, "\(player.averagePower(forChannel: 0))")
        #expect(player.averagePower(forChannel: 1) == LevelMeter.silence, "a mono file has one channel")
        // Rate 2: the 500 Hz tone is heard at 1 kHz.
        player.rate = 2
        _ = try rig.render(0.05)
        #expect(abs(Signals.frequency(try rig.render(0.2)) - 1_000) < 2)
        player.rate = 1
        // A fade to 0 over 0.5 s: the level falls through the middle and ends silent.
        let before = Signals.rms(try rig.render(0.1), channel: 0)
        player.setVolume(0, fadeDuration: 0.5)
        let middle = Signals.rms(try rig.render(0.25).slice(frames: 9_600..<12_000), channel: 0)
        _ = try rig.render(0.3)
        let after = Signals.rms(try rig.render(0.1), channel: 0)
        #expect(middle < before * 0.6 && middle > before * 0.4, "half way: \(middle) of \(before)")
        #expect(after < 1e-5)
        #expect(player.volume == 0)
        player.volume = 2
        #expect(player.volume == 0, "out of range: refused")
    }

    @Test func aScheduledStartLandsOnItsSample() throws {
        let rig = try Rig()
        let player = try AudioPlayer(contentsOf: try rig.file(Self.sweep(frames: 4_800), "blip.wav"), scene: rig.scene)
        _ = try rig.render(0.1)
        try player.play(atTime: player.deviceCurrentTime + 0.05)
        let mix = try rig.render(0.2)
        #expect(mix.channel(0).firstIndex { $0 != 0 } == 2_400)
        #expect(throws: SoundstageError.self) { try player.play(atTime: player.deviceCurrentTime - 1) }
    }

    @Test func aDecodeErrorIsReportedAndTheEndIsUnsuccessful() throws {
        guard FFmpeg.isAvailable else { return }
        let rig = try Rig()
        let events = Events()
        let path = try rig.file(Signals.sine(440, seconds: 3), "music.m4a", format: .m4aAAC)
        let player = try AudioPlayer(contentsOf: path, scene: rig.scene)
        player.eventHandler = events.handler
        // The file loses its second half after opening (a disk gone, a file rewritten).
        #expect(truncate(path, off_t(try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int / 2)) == 0)
        try player.play()
        for _ in 0..<40 where events.all.isEmpty { _ = try rig.render(0.1) }
        let all = events.all
        #expect(all.count == 2, "\(all)")
        if case .decodeError(let error)? = all.first { #expect(error.code == .corruptData, "\(error)") } else { Issue.record("\(all)") }
        #expect(all.last == .finished(successfully: false))
    }

    @Test func itObeysItsSessionAndReportsInterruptions() throws {
        let rig = try Rig()
        let center = AudioSessionCenter(device: rig.device)
        let session = center.makeSession(category: .playback)
        session.attach(rig.scene)
        try session.setActive(true)
        let events = Events()
        let player = try AudioPlayer(contentsOf: try rig.file(Signals.sine(440, seconds: 3), "tone.wav"), scene: rig.scene, session: session)
        player.eventHandler = events.handler
        try player.play()
        #expect(Signals.rms(try rig.render(0.2), channel: 0) > 0.1)
        session.beginInterruption()
        _ = try rig.render(0.05)
        #expect(Signals.peak(try rig.render(0.2)) == 0, "silent while interrupted")
        let paused = player.currentTime
        session.endInterruption(shouldResume: true)
        _ = try rig.render(0.05)
        #expect(Signals.rms(try rig.render(0.2), channel: 0) > 0.1, "resumed")
        #expect(player.currentTime > paused)
        #expect(events.all == [.interruptionBegan, .interruptionEnded(shouldResume: true)])
        // An inactive session: play is refused, typed.
        try session.setActive(false)
        player.stop()
        let error = #expect(throws: SoundstageError.self) { try player.play() }
        #expect(error?.code == .sessionNotActive)
    }

    @Test func itIsMadeFromAPathAURLOrBytesAndRefusesWhatItCannotPlay() throws {
        let rig = try Rig()
        let path = try rig.file(Signals.sine(440, seconds: 0.5), "tone.wav")
        let fromURL = try AudioPlayer(url: URL(fileURLWithPath: path), scene: rig.scene)
        let fromData = try AudioPlayer(data: Data(contentsOf: URL(fileURLWithPath: path)), scene: rig.scene)
        #expect(fromURL.duration == 0.5 && fromData.duration == 0.5)
        #expect(fromURL.numberOfChannels == 1 && fromData.path == nil)
        try fromData.play()
        #expect(Signals.rms(try rig.render(0.2), channel: 0) > 0.1)
        #expect(#expect(throws: SoundstageError.self) { _ = try AudioPlayer(contentsOf: rig.dir.path + "/none.wav", scene: rig.scene) }?.code == .notFound)
        #expect(#expect(throws: SoundstageError.self) { _ = try AudioPlayer(url: URL(string: "https://example.com/a.m4a")!, scene: rig.scene) }?.code == .invalidArgument)
        let surround = try rig.file(AudioBuffer(samples: [Float](repeating: 0, count: 6_000), channels: 6, sampleRate: 48_000), "51.wav")
        #expect(#expect(throws: SoundstageError.self) { _ = try AudioPlayer(contentsOf: surround, scene: rig.scene) }?.code == .unsupportedFormat)
    }
}
