import Foundation
import NIOConcurrencyHelpers
import Testing
@testable import Soundstage
import TestSupport

/// Moving everything to another device: the audio lines up, every property is restored,
/// nothing leaks; a vanished output is detected and recovered, with retries.
@Suite struct MigrationTests {
    /// A scene with a moving, pitched, cone-shaped looping source, a paused one and a listener off-centre.
    private func setUp(_ device: Device) throws -> (Scene, Source, Source) {
        let scene = try device.makeScene()
        scene.distanceModel = .linearClamped
        scene.dopplerFactor = 0.5
        scene.listener.position = Vector3(0.5, 0, 0.5)
        scene.listener.gain = 0.8
        let buffer = try device.makeBuffer(Signals.twoTone(440, 660, seconds: 2))
        let a = scene.makeSource(buffer: buffer)
        a.position = Vector3(3, 1, -2)
        a.velocity = Vector3(-2, 0, 0)
        a.direction = Vector3(-1, 0, 1)
        a.cone = Source.Cone(innerAngle: 90, outerAngle: 180, outerGain: 0.3)
        a.gain = 0.7
        a.pitch = 1.25
        a.referenceDistance = 1.5
        a.maxDistance = 40
        a.rolloffFactor = 0.8
        a.isLooping = true
        try a.play()
        let b = scene.makeSource(buffer: buffer)
        b.position = Vector3(-2, 0, -1)
        try b.play()
        return (scene, a, b)
    }

    @Test func aSceneMovesToAnotherLoopbackDeviceWithoutAGlitch() throws {
        // Reference: the same scene without a move.
        let reference = try Device.loopback()
        defer { reference.close() }
        let (_, _, refB) = try setUp(reference)
        _ = try reference.render(frames: 14_400)
        refB.pause()
        _ = try reference.render(frames: 4_800)
        let expected = try reference.render(frames: 24_000)

        let device = try Device.loopback()
        defer { device.close() }
        let (scene, a, b) = try setUp(device)
        _ = try device.render(frames: 14_400)
        b.pause()
        _ = try device.render(frames: 4_800)
        let before = device.liveObjects
        let mirror = a.snapshot
        let offset = a.offset
        try device.migrate { _ throws(SoundstageError) in try Device.openLoopbackHandle() }
        #expect(device.liveObjects == before, "the same objects, now on the new device")
        // Every property equal after the move, as OpenAL itself reports it.
        let restored = try #require(a.openALProperties)
        #expect(restored.properties == mirror)
        #expect(abs(restored.offset - offset) < 0.011)
        #expect(restored.state == .playing)
        #expect(b.openALProperties?.state == .paused, "a paused source stays paused")
        #expect(scene.listener.effectiveGain == 0.8)
        // The audio after the move is the audio the unmoved scene makes.
        let after = try device.render(frames: 24_000)
        // Within one update (480 frames) the new voices fade in; after that the audio is the
        // unmoved scene's.
        let skip = 2 * 480
        let worst = zip(after.samples.dropFirst(skip), expected.samples.dropFirst(skip)).map { abs($0 - $1) }.max() ?? 1
        let firstDiff = after.samples.indices.first { abs(after.samples[$0] - expected.samples[$0]) > 1e-3 }
        #expect(worst < 1e-3, "largest difference after the first update \(worst); first differing sample \(String(describing: firstDiff))")
        // The paused source resumes from where it was.
        try b.play()
        _ = try device.render(frames: 480)
        #expect(abs(b.offset - 0.3 - 0.01) < 0.011)
    }

    @Test func switchOutputIsForRealOutputsOnly() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let error = #expect(throws: SoundstageError.self) { try device.switchOutput(to: nil) }
        #expect(error?.code == .invalidArgument)
    }

    @Test func aVanishedOutputIsRecoveredWithRetriesAndNothingIsLost() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let (_, a, _) = try setUp(device)
        let clock = ManualClock()
        let connected = NIOLockedValueBox(true)
        let failures = NIOLockedValueBox(2)                       // the first two reopen attempts fail
        device.route.withLockedValue { route in
            route.hooks.clock = { clock.now }
            route.hooks.isConnected = { _ in connected.withLockedValue { $0 } }
            route.hooks.openReplacement = { _ throws(SoundstageError) in
                let fail = failures.withLockedValue { count -> Bool in
                    defer { count -= 1 }
                    return count > 0
                }
                if fail { throw SoundstageError(.noOutputDevice, "no output yet") }
                return try Device.openLoopbackHandle()
            }
        }
        let center = AudioSessionCenter(device: device)
        let music = center.makeSession(category: .playback)
        let musicScene = try device.makeScene()
        music.attach(musicScene)
        try music.setActive(true)
        let musicLog = EventLog(music)
        let changes = NIOLockedValueBox<[RouteChange.Reason]>([])
        device.addRouteObserver { change in changes.withLockedValue { $0.append(change.reason) } }

        _ = try device.render(frames: 4_800)
        connected.withLockedValue { $0 = false }            // the headphones are pulled
        _ = try device.render(frames: 480)           // detected; the first reopen fails
        #expect(changes.withLockedValue { $0 } == [.oldDeviceUnavailable])
        #expect(device.isAwaitingOutput)
        #expect(device.lastRecoveryError?.code == .noOutputDevice)
        #expect(musicLog.kinds == [.interruptionBegan(.deviceUnavailable)], "playback pauses when the output goes")
        clock.advance(0.05)
        _ = try device.render(frames: 480)           // before the 0.1 s backoff: no attempt
        #expect(failures.withLockedValue { $0 } == 1)
        clock.advance(0.1)
        _ = try device.render(frames: 480)           // second attempt fails; backoff doubles to 0.2 s
        #expect(failures.withLockedValue { $0 } == 0)
        clock.advance(0.25)
        connected.withLockedValue { $0 = true }
        _ = try device.render(frames: 480)           // third attempt opens the new device
        #expect(changes.withLockedValue { $0 } == [.oldDeviceUnavailable, .newDeviceAvailable])
        #expect(!device.isAwaitingOutput)
        #expect(musicLog.kinds.last == .interruptionEnded(shouldResume: false))
        #expect(a.playbackState == .playing, "the game's scene played on through the move")
        #expect(Signals.rms(try device.render(frames: 4_800).samples) > 0.01)
    }

    @Test func hardwareCharacteristics() throws {
        let device = try Device.loopback(sampleRate: 44_100)
        defer { device.close() }
        let info = try device.info
        #expect(info.sampleRate == 44_100 && info.layout == "stereo")
        #expect(info.updateFrames == 441)
        #expect(info.hrtfStatus == "disabled" && !info.hrtfEnabled)
        // OpenAL Soft 1.19.1 reports no latency for a loopback device (it has no output buffer);
        // real outputs report theirs through ALC_SOFT_device_clock.
        #expect(info.latency == nil)
    }
}
