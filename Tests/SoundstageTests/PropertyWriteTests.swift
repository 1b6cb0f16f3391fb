import Foundation
import NIOConcurrencyHelpers
import Testing
@testable import Soundstage
import TestSupport

/// On a device whose mix the engine renders, a source property set by the game waits for the
/// next mix and reaches OpenAL then, once, from the render thread: measured on the mix, and on
/// what OpenAL holds.
@Suite struct PropertyWriteTests {
    /// RMS of each ear over the last 90 % of `mix` (OpenAL Soft ramps a gain change over its first samples).
    private func ears(_ mix: AudioBuffer) -> (left: Double, right: Double) {
        let settled = mix.frames / 10
        let left = Array(mix.channel(0).dropFirst(settled)), right = Array(mix.channel(1).dropFirst(settled))
        return (Signals.rms(left), Signals.rms(right))
    }

    @Test func aChangeWaitsForTheNextMixAndIsHeardInIt() throws {
        let rig = try Rig()
        let source = try rig.playing(at: Vector3(-5, 0, 0))
        let before = ears(try rig.render(0.1))
        #expect(before.left > 0.05 && before.right < 0.0001)

        source.position = Vector3(3, 0, 0)
        source.gain = 0.5
        source.position = Vector3(5, 0, 0)
        // Nothing reached OpenAL from the game's thread: both wait, position once.
        #expect(source.unwrittenParameters == SourceParameter.position.bit | SourceParameter.gain.bit)

        let after = ears(try rig.render(0.1))
        #expect(source.unwrittenParameters == 0)
        #expect(after.left < 0.0001, "the source moved to the right before this mix")
        #expect(abs(after.right / before.left - 0.5) < 0.01, "half the gain: \(after.right / before.left)")
        let held = try #require(source.openALProperties)
        #expect(held.properties.position == Vector3(5, 0, 0) && held.properties.gain == 0.5)
    }

    /// Position and gain of every source between two mixes: the writes go inside OpenAL's own
    /// deferral (several properties per source), and all are heard in the next mix.
    @Test func severalPropertiesOfManySourcesAreAllHeard() throws {
        let rig = try Rig()
        let sources = try (0..<8).map { _ in try rig.playing(at: Vector3(-5, 0, 0)) }
        let before = ears(try rig.render(0.1))
        for source in sources {
            source.position = Vector3(5, 0, 0)
            source.gain = 0.25
        }
        let after = ears(try rig.render(0.1))
        #expect(after.left < 0.0001, "every source moved right")
        #expect(abs(after.right / before.left - 0.25) < 0.01, "a quarter of the gain: \(after.right / before.left)")
        #expect(sources.allSatisfy { $0.unwrittenParameters == 0 })
        for source in sources {
            let held = try #require(source.openALProperties)
            #expect(held.properties.position == Vector3(5, 0, 0) && held.properties.gain == 0.25)
        }
    }

    @Test func aChangeWithinABatchIsWrittenWhenTheBatchEnds() throws {
        let rig = try Rig()
        let source = try rig.playing(at: Vector3(-5, 0, 0))
        _ = try rig.render(0.05)
        rig.scene.batch {
            source.position = Vector3(5, 0, 0)
            #expect(source.unwrittenParameters != 0)
        }
        #expect(source.unwrittenParameters == 0)
        let after = ears(try rig.render(0.1))
        #expect(after.left < 0.0001 && after.right > 0.05)
    }

    @Test func aSourceStoppedAndLetGoOfBeforeTheMixLeavesNothingBehind() throws {
        let rig = try Rig(budget: 1)
        weak var gone: Source?
        do {
            let first = try rig.playing(at: Vector3(-5, 0, 0))
            _ = try rig.render(0.05)
            first.position = Vector3(5, 0, 0)
            first.stop()
            // Its OpenAL source went back to the pool: the change is dropped, and the scene's
            // list no longer holds the source (which the scene is about to let go of).
            #expect(first.unwrittenParameters == 0)
            gone = first
        }
        #expect(gone == nil, "the scene let go of the stopped source")
        // The next source gets the same (only) OpenAL source; the first one's change must not reach it.
        let second = try rig.playing(at: Vector3(-5, 0, 0))
        let mix = ears(try rig.render(0.1))
        #expect(mix.left > 0.05 && mix.right < 0.0001)
        #expect(second.unwrittenParameters == 0)
    }

    @Test func aSceneClosedWithChangesWaitingLeavesNothingBehind() throws {
        let device = try Device.loopback(sampleRate: Signals.rate)
        defer { device.close() }
        let closing = try device.makeScene(), staying = try device.makeScene()
        let buffer = try device.makeBuffer(Signals.sine(440, seconds: 1))
        let moved = closing.makeSource(buffer: buffer)
        moved.isLooping = true
        try moved.play()
        let heard = staying.makeSource(buffer: buffer)
        heard.isLooping = true
        heard.position = Vector3(-5, 0, 0)
        try heard.play()
        _ = try device.render(frames: 2_400)
        moved.position = Vector3(5, 0, 0)
        heard.position = Vector3(5, 0, 0)
        closing.close()
        #expect(moved.unwrittenParameters == 0)
        let mix = ears(try device.render(frames: 4_800))
        #expect(mix.left < 0.0001 && mix.right > 0.05, "the other scene's change is heard")
    }

    /// The device moves (a route change) with a change waiting: the move restores every property
    /// from the scene, and what is set after it is written at the next mix as usual.
    @Test func aChangeWaitingWhenTheDeviceMovesIsKeptAndLaterChangesArrive() throws {
        let rig = try Rig()
        let source = try rig.playing(at: Vector3(-5, 0, 0))
        _ = try rig.render(0.05)
        source.position = Vector3(5, 0, 0)
        try rig.device.migrate { _ throws(SoundstageError) in try Device.openLoopbackHandle() }
        #expect(source.unwrittenParameters == 0, "the move wrote every property")
        let moved = ears(try rig.render(0.1))
        #expect(moved.left < 0.0001 && moved.right > 0.05, "the change made before the move is heard")
        source.position = Vector3(-5, 0, 0)
        #expect(source.unwrittenParameters == SourceParameter.position.bit)
        let back = ears(try rig.render(0.1))
        #expect(back.right < 0.0001 && back.left > 0.05, "the change made after the move is heard")
    }

    /// Threads move sources while the mix renders: when they are done and one more mix is made,
    /// OpenAL holds each source's last position (nothing lost, nothing written to the wrong one).
    @Test func changesFromOtherThreadsWhileRenderingAllArrive() async throws {
        let rig = try Rig()
        let sources = try (0..<32).map { _ in try rig.playing(at: Vector3(0, 0, -1)) }
        let running = NIOLockedValueBox(true)
        let device = rig.device
        let renderer = Thread {
            while running.withLockedValue({ $0 }) { _ = try? device.render(frames: 480) }
        }
        renderer.start()
        await withTaskGroup(of: Void.self) { group in
            for half in 0..<2 {
                group.addTask {
                    for step in 0..<500 {
                        for (index, source) in sources.enumerated() where index % 2 == half {
                            source.position = Vector3(Float(index), Float(step), -1)
                        }
                    }
                }
            }
        }
        running.withLockedValue { $0 = false }
        while !renderer.isFinished { try await Task.sleep(nanoseconds: 1_000_000) }
        _ = try rig.render(0.01)
        for (index, source) in sources.enumerated() {
            #expect(source.unwrittenParameters == 0)
            let held = try #require(source.openALProperties)
            #expect(held.properties.position == Vector3(Float(index), 499, -1), "source \(index)")
        }
    }
}
