import COpenAL
import Testing
import Soundstage
import TestSupport

/// OpenAL objects are freed exactly once, whatever order things are released in.
@Suite struct LifetimeTests {
    @Test func closingTheDeviceFreesEverything() throws {
        let device = try Device.loopback()
        let scene = try device.makeScene()
        let buffer = try device.makeBuffer(Signals.sine(440, seconds: 0.5))
        let sources = try (0..<5).map { _ in
            let s = scene.makeSource(buffer: buffer); s.isLooping = true; try s.play(); return s
        }
        _ = try device.render(frames: 480)
        // One context: the scene uses the device's own (OpenAL Soft gives each context 9.3 MB).
        #expect(device.liveObjects == LiveObjectCounts(devices: 1, contexts: 1, buffers: 1, sources: 5))
        device.close()
        #expect(device.liveObjects.isZero)
        #expect(scene.isClosed)
        // Objects that outlive their device fail cleanly.
        #expect(sources[0].playbackState == .stopped)
        #expect(throws: SoundstageError.self) { try sources[0].play() }
        #expect(throws: SoundstageError.self) { try device.makeScene() }
        #expect(throws: SoundstageError.self) { try device.render(frames: 10) }
        sources[0].position = Vector3(1, 2, 3)   // setters on a dead scene are harmless
        scene.listener.gain = 0.5
    }

    @Test func releasingInAnyOrderFreesEachObjectOnce() throws {
        let device = try Device.loopback()
        do {
            let scene = try device.makeScene()
            var buffer: Buffer? = try device.makeBuffer(Signals.sine(440, seconds: 0.1))
            let source = scene.makeSource(buffer: buffer)
            try source.play()
            buffer = nil                     // the source keeps it alive
            _ = try device.render(frames: 9_600) // plays to its end: back to the pool
            #expect(device.liveObjects.buffers == 1)
            source.buffer = nil
            #expect(device.liveObjects.buffers == 0)
            scene.close()
            #expect(device.liveObjects == LiveObjectCounts(devices: 1, contexts: 1, buffers: 0, sources: 0))
        }
        device.close()
        #expect(device.liveObjects.isZero)
    }

    /// A session removed while its scene plays suspends the scene (it pauses its sources and
    /// remembers them); closing the scene afterwards must forget them, or the scene and its
    /// sources keep each other alive (found by LeakSanitizer through the C API).
    @Test func aSceneSuspendedBeforeItClosesIsFreed() throws {
        let device = try Device.loopback()
        defer { device.close() }
        weak var weakScene: Scene?
        weak var weakSource: Source?
        do {
            let center = AudioSessionCenter(device: device)
            let session = center.makeSession(category: .playback)
            let scene = try device.makeScene()
            session.attach(scene)
            try session.setActive(true)
            let source = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(440, seconds: 0.5)))
            source.isLooping = true
            try source.play()
            _ = try device.render(frames: 480)
            center.removeSession(session)          // deactivates: the scene is suspended
            #expect(scene.isSuspended)
            scene.close()
            weakScene = scene
            weakSource = source
        }
        #expect(weakScene == nil)
        #expect(weakSource == nil)
    }

    /// A closed scene whose voices were virtualized is freed: the recent voice events the
    /// snapshots show do not hold the sources (each holds its scene). LeakSanitizer found the
    /// cycle through the C tests.
    @Test func aSceneWithVoiceEventsIsFreed() throws {
        let device = try Device.loopback()
        defer { device.close() }
        weak var weakScene: Scene?
        do {
            let scene = try device.makeScene(sourceBudget: 1)
            scene.virtualizesVoices = true
            let buffer = try device.makeBuffer(Signals.sine(440, seconds: 0.5))
            let far = scene.makeSource(buffer: buffer), near = scene.makeSource(buffer: buffer)
            far.position = Vector3(0, 0, -30)
            for source in [far, near] {
                source.isLooping = true
                try source.play()
            }
            _ = try device.render(frames: 4_800)
            #expect(device.mixSnapshot().scenes.first?.recentVoiceEvents.isEmpty == false)
            scene.close()
            weakScene = scene
        }
        #expect(weakScene == nil)
        #expect(device.liveObjects.sources == 0)
    }

    @Test func droppedScenesAndBuffersAreFreed() throws {
        let device = try Device.loopback()
        defer { device.close() }
        for _ in 0..<10 {
            let scene = try device.makeScene()
            let buffer = try device.makeBuffer(Signals.sine(440, seconds: 0.05))
            let source = scene.makeSource(buffer: buffer)
            try source.play()
            source.stop()
        }
        #expect(device.liveObjects == LiveObjectCounts(devices: 1, contexts: 1, buffers: 0, sources: 0))
    }

    @Test func theFileCacheDecodesOnceAndEvicts() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID()).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try SoundFileWriter.write(Signals.sine(440, seconds: 0.1), to: path, format: .wavPCM16)
        let device = try Device.loopback()
        defer { device.close() }
        let a = try device.buffer(file: path), b = try device.buffer(file: path)
        #expect(a === b)
        #expect(device.cachedBufferCount == 1)
        device.evictCachedBuffers()
        #expect(device.cachedBufferCount == 0)
        #expect(device.liveObjects.buffers == 1, "still referenced here")
        #expect(try device.buffer(file: path) !== a)
    }

    @Test func noSoundCardIsATypedErrorNamingTheAlternatives() throws {
        // Where a sound card exists the device must work; where none does (CI), the error must
        // say so. The CLI tests force the no-card case with ALSOFT_DRIVERS on any machine.
        do {
            let device = try Soundstage.silencingStandardError { try Device.openDefault() }
            #expect(try device.info.kind == "output")
            device.close()
        } catch let error as SoundstageError {
            #expect(error.code == .noOutputDevice)
            #expect(error.message.contains("loopback"))
            #expect(error.message.contains("ALSOFT_DRIVERS=null"))
        }
    }

    @Test func outsideCodeChangingTheCurrentContextDoesNotRedirectTheEngine() throws {
        let rig = try Rig()
        let source = try rig.playing(at: Vector3(5, 0, 0))
        _ = try rig.render(0.05)
        // Other OpenAL code in the process makes a context current process-wide, which also
        // clears this thread's context in OpenAL Soft.
        alcMakeContextCurrent(nil)
        source.position = Vector3(-5, 0, 0)
        _ = try rig.render(0.02)
        let mix = try rig.render(0.1)
        #expect(Signals.rms(mix, channel: 1) < 0.0001)
        #expect(Signals.rms(mix, channel: 0) > 0.05)
    }

    @Test func multiChannelBuffersAreNotSpatialized() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene()
        let left = Signals.sine(440, seconds: 0.5)
        let stereo = AudioBuffer(samples: left.samples.flatMap { [$0, 0] }, channels: 2, sampleRate: 48_000)
        let buffer = try device.makeBuffer(stereo)
        #expect(!buffer.isSpatialized)
        let source = scene.makeSource(buffer: buffer)
        source.position = Vector3(50, 0, 0)  // ignored for stereo buffers
        try source.play()
        let mix = try device.render(frames: 12_000)
        #expect(Signals.rms(mix, channel: 0) > 0.3)
        #expect(Signals.rms(mix, channel: 1) < 0.0001)
        #expect(throws: SoundstageError.self) {
            try device.makeBuffer(AudioBuffer(samples: [0, 0, 0], channels: 3, sampleRate: 48_000))
        }
    }
}

import Foundation
