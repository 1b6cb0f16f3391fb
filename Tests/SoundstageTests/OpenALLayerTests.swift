import COpenAL
@testable import Soundstage
import Testing
import TestSupport

/// The OpenAL layer's error paths that a loopback device never takes by itself.
@Suite struct OpenALLayerTests {
    /// `ALC_INVALID_DEVICE` from `alcCreateContext` (the fake layer refuses it): `makeScene` is a
    /// typed `.openAL` error naming the call and ALC's error, no context is left behind, and the
    /// device makes scenes again afterwards — the one path every context creation goes through.
    /// (The first scene uses the device's own context: the second one creates a context.)
    @Test func aContextThatFailsToCreateIsATypedErrorAndLeavesNothing() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let first = try device.makeScene()
        defer { first.close() }
        let before = device.liveObjects
        let (error, plan) = OpenALFaults.injecting([.init(function: "alcCreateContext", error: ALC_INVALID_DEVICE)]) {
            #expect(throws: SoundstageError.self) { _ = try device.makeScene() }
        }
        #expect(plan.refused == ["alcCreateContext"])
        #expect(error?.code == .openAL)
        #expect(error?.message == "cannot create a scene")
        #expect(error?.cause == .openAL(function: "alcCreateContext", error: ALC_INVALID_DEVICE, name: "ALC_INVALID_DEVICE"))
        #expect(device.liveObjects == before, "nothing is left of the failed scene")
        let scene = try device.makeScene()
        #expect(device.liveObjects.contexts == before.contexts + 1)
        scene.close()
    }

    /// A device whose first context fails to create is not opened: a typed error naming ALC's
    /// error (`DeviceHandle.makeFirstContext` closes the `ALCdevice` again), and a device opens
    /// afterwards.
    @Test func aDeviceWhoseContextFailsIsClosedAgain() throws {
        let (error, plan) = OpenALFaults.injecting([.init(function: "alcCreateContext", error: ALC_OUT_OF_MEMORY)]) {
            #expect(throws: SoundstageError.self) { _ = try Device.loopback() }
        }
        #expect(plan.refused == ["alcCreateContext"])
        #expect(error?.code == .openAL)
        #expect(error?.cause == .openAL(function: "alcCreateContext", error: ALC_OUT_OF_MEMORY, name: "ALC_OUT_OF_MEMORY"))
        let device = try Device.loopback()
        device.close()
    }

    /// `ALC_INVALID_DEVICE` from `alcRenderSamplesSOFT`: the render is a typed error, not a trap,
    /// and the next render plays on from where the mix was.
    @Test func aRenderOpenALRefusesIsATypedErrorAndTheNextRenderPlays() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene()
        let source = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(440, seconds: 1)))
        source.isLooping = true
        try source.play()
        let (error, plan) = OpenALFaults.injecting([.init(function: "alcRenderSamplesSOFT", error: ALC_INVALID_DEVICE)]) {
            #expect(throws: SoundstageError.self) { _ = try device.render(frames: 480) }
        }
        #expect(plan.refused == ["alcRenderSamplesSOFT"])
        #expect(error?.code == .openAL)
        #expect(error?.cause == .openAL(function: "alcRenderSamplesSOFT", error: ALC_INVALID_DEVICE, name: "ALC_INVALID_DEVICE"))
        let mix = try device.render(frames: 4_800)
        #expect(Signals.rms(mix, channel: 0) > 0.1, "the source plays on after the refused render")
        #expect(source.playbackState == .playing)
    }

    /// `AL_OUT_OF_MEMORY` from `alGenSources` (OpenAL has no more sources): `play()` throws
    /// `.sourceBudgetExhausted` with OpenAL's error as the cause, the source stays stopped and
    /// silent, no OpenAL source is counted, and playing again works and is heard.
    @Test func outOfMemoryMakingASourceIsASpentBudgetAndPlayingAgainWorks() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene()
        let source = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(440, seconds: 1)))
        let (error, plan) = OpenALFaults.injecting([.init(function: "alGenSources", error: AL_OUT_OF_MEMORY)]) {
            #expect(throws: SoundstageError.self) { try source.play() }
        }
        #expect(plan.refused == ["alGenSources"])
        #expect(error?.code == .sourceBudgetExhausted)
        #expect(error?.cause == .openAL(function: "alGenSources", error: AL_OUT_OF_MEMORY, name: "AL_OUT_OF_MEMORY"))
        #expect(source.playbackState != .playing)
        #expect(device.liveObjects.sources == 0)
        #expect(Signals.peak(try device.render(frames: 4_800)) == 0, "nothing plays")
        try source.play()
        #expect(Signals.rms(try device.render(frames: 4_800), channel: 0) > 0.1)
        #expect(device.liveObjects.sources == 1)
    }

    /// `AL_OUT_OF_MEMORY` from `alBufferData`: the buffer is a `.tooLarge` error with OpenAL's
    /// cause, the OpenAL buffer already generated for it is deleted (no buffer counted), and the
    /// same audio uploads once memory is there.
    @Test func outOfMemoryStoringSamplesIsTooLargeAndLeavesNoBuffer() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let audio = Signals.sine(440, seconds: 1)
        let (error, plan) = OpenALFaults.injecting([.init(function: "alBufferData", error: AL_OUT_OF_MEMORY)]) {
            #expect(throws: SoundstageError.self) { _ = try device.makeBuffer(audio, name: "big") }
        }
        #expect(plan.refused == ["alBufferData"])
        #expect(error?.code == .tooLarge)
        #expect(error?.subject == "big")
        #expect(error?.cause == .openAL(function: "alBufferData", error: AL_OUT_OF_MEMORY, name: "AL_OUT_OF_MEMORY"))
        #expect(device.liveObjects.buffers == 0)
        let buffer = try device.makeBuffer(audio, name: "big")
        #expect(device.liveObjects.buffers == 1)
        withExtendedLifetime(buffer) {}
    }

    /// A fault takes only the calls it names, after `skip` of them, `times` times: here the
    /// third source of a scene cannot be made, the first two and the fourth play.
    @Test func aFaultTakesOnlyTheCallItNames() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene()
        let buffer = try device.makeBuffer(Signals.sine(440, seconds: 1))
        let sources = (0..<4).map { _ in scene.makeSource(buffer: buffer) }
        let (outcomes, plan) = OpenALFaults.injecting([.init(function: "alGenSources", error: AL_OUT_OF_MEMORY, skip: 2)]) {
            sources.map { source in (try? source.play()) != nil }
        }
        #expect(outcomes == [true, true, false, true])
        #expect(plan.refused == ["alGenSources"])
        #expect(device.liveObjects.sources == 3)
    }

    /// An out-of-memory error from `alGen*` is `.sourceBudgetExhausted`, other errors `.openAL`,
    /// each naming the call: what `ALCalls.call` makes of an error it reads.
    @Test func callErrorsAreTypedByWhatOpenALSaid() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene()
        defer { scene.close() }
        let error = #expect(throws: SoundstageError.self) {
            try scene.context.withLock { lock throws(SoundstageError) in
                let al = try lock.current()
                // A source name that does not exist: AL_INVALID_NAME.
                try al.call("alSourcePlay") { alSourcePlay(987_654) }
            }
        }
        #expect(error?.code == .openAL)
        guard case let .openAL(function, code, name)? = error?.cause else {
            Issue.record("no OpenAL cause")
            return
        }
        #expect(function == "alSourcePlay" && code == AL_INVALID_NAME && name == "AL_INVALID_NAME")
        // `freeing` reads and drops the error of a call on the way out: the next call is not blamed.
        try scene.context.withLock { lock throws(SoundstageError) in
            let al = try lock.current()
            al.freeing { alSourceStop(987_654) }
            try al.call("alGetError is clean") { }
        }
    }
}
