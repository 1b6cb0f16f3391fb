import Soundstage
import Testing
import TestSupport

/// A device's first scene uses the device's own OpenAL context instead of making another: OpenAL
/// Soft 1.19 gives every context 9.3 MB of voices, so a game with one scene pays for one context
/// (issue 36: the C orbit render went from 2.1 to 1.5 times raw OpenAL's memory).
@Suite struct DeviceContextTests {
    /// What a fresh device's only scene renders of a tone 1 m in front, `frames` long.
    static func reference(_ buffer: (Device) throws -> Buffer, frames: Int) throws -> [Float] {
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene()
        let source = scene.makeSource(buffer: try buffer(device))
        source.position = Vector3(0, 0, -1)
        try source.play()
        return try device.render(frames: frames).samples
    }

    /// The first scene borrows the device's context; a second makes its own. When the first
    /// closes, the device takes its context back (no context is made then, so destroying a device
    /// with its scenes costs no memory); the next scene borrows a fresh one and hears nothing of
    /// what the first left there (a far, quiet listener, another distance model,
    /// Doppler, reverb zones in use and removed) — it renders exactly what a fresh device does.
    @Test func theFirstSceneBorrowsTheDevicesContextAndItComesBackClean() throws {
        let tone = { (device: Device) in try device.makeBuffer(Signals.sine(440, seconds: 1)) }
        let frames = Signals.rate / 10
        let expected = try Self.reference(tone, frames: frames)

        let device = try Device.loopback()
        defer { device.close() }
        let first = try device.makeScene()
        #expect(device.liveObjects.contexts == 1, "the first scene makes no context")
        first.listener.gain = 0.1
        first.listener.position = Vector3(50, 0, 0)
        first.distanceModel = .linearClamped
        first.dopplerFactor = 3
        try first.makeReverbZone("cave", preset: .cave).remove()
        let kept = try first.makeReverbZone("hall", preset: .concertHall)
        let second = try device.makeScene()
        #expect(device.liveObjects.contexts == 2, "the second scene makes its own")
        first.close()
        #expect(device.liveObjects.contexts == 2, "the first's context went back to the device")
        _ = kept

        let third = try device.makeScene()
        #expect(device.liveObjects.contexts == 2, "the third scene borrows it again (renewed)")
        let source = third.makeSource(buffer: try tone(device))
        source.position = Vector3(0, 0, -1)
        try source.play()
        let mix = try device.render(frames: frames).samples
        #expect(mix == expected, "the borrowed context starts as a fresh one")
        _ = second
        third.close()
        second.close()
        #expect(device.liveObjects == LiveObjectCounts(devices: 1, contexts: 1, buffers: 1))
    }

    /// Closing the device closes a scene that borrowed its context once, and the context with
    /// it; the scene's objects fail cleanly afterwards.
    @Test func closingTheDeviceFreesTheLentContextOnce() throws {
        let device = try Device.loopback()
        let scene = try device.makeScene()
        try scene.makeReverbZone("room", preset: .room)
        let source = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(440, seconds: 0.2)))
        try source.play()
        _ = try device.render(frames: 480)
        device.close()
        #expect(scene.isClosed)
        #expect(device.liveObjects.isZero)
        #expect(throws: SoundstageError.self) { try source.play() }
    }
}
