import Foundation
import NIOConcurrencyHelpers
@testable import Soundstage
import SoundFile
import Testing
import TestSupport

/// `Scene.batch`: changes made in one batch reach the mix in the same update, even while the
/// mixer runs on another thread.
@Suite struct AtomicUpdateTests {
    /// Renders on a thread of its own, as a sound card would, while `act` runs; returns the mix.
    private func renderWhile(_ device: Device, _ act: () throws -> Void) throws -> AudioBuffer {
        let stop = NIOLockedValueBox(false)
        let samples = NIOLockedValueBox<[Float]>([])
        let done = ConditionLock(value: false)
        let mixer = Thread {
            while !stop.withLockedValue({ $0 }) {
                if let chunk = try? device.render(frames: device.updateFrames) { samples.withLockedValue { $0 += chunk.samples } }
                usleep(200)
            }
            done.lock()
            done.unlock(withValue: true)
        }
        mixer.start()
        usleep(20_000)
        try act()
        usleep(20_000)
        stop.withLockedValue { $0 = true }
        done.lock(whenValue: true)
        done.unlock()
        return AudioBuffer(samples: samples.withLockedValue { $0 }, channels: 2, sampleRate: device.sampleRate)
    }

    /// The first frame at which `channel` is heard.
    private func onset(_ mix: AudioBuffer, channel: Int) -> Int? {
        mix.channel(channel).firstIndex { abs($0) > 1e-3 }
    }

    /// A source hard left and one hard right; `start` plays them 30 ms apart, returns the onsets.
    private func onsets(batched: Bool) throws -> (left: Int, right: Int) {
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene()
        let tone = try device.makeBuffer(Signals.sine(440, seconds: 5))
        let left = scene.makeSource(buffer: tone), right = scene.makeSource(buffer: tone)
        left.position = Vector3(-5, 0, 0)
        right.position = Vector3(5, 0, 0)
        let start = {
            try left.play()
            usleep(30_000)              // the mixer renders many updates meanwhile
            try right.play()
        }
        let mix = try renderWhile(device) { if batched { try scene.batch(start) } else { try start() } }
        return (try #require(onset(mix, channel: 0)), try #require(onset(mix, channel: 1)))
    }

    @Test func aBatchStartsAChordOnTheSameSample() throws {
        let apart = try onsets(batched: false)
        #expect(apart.right - apart.left > 480, "without a batch the second start lands updates later: \(apart)")
        let together = try onsets(batched: true)
        #expect(together.right == together.left, "\(together)")
    }

    @Test func aBatchMovesTheListenerAndASourceInTheSameUpdate() throws {
        // Teleport: listener and source both move 100 m along x. Relative to each other nothing
        // changes, so if they move in the same update the left ear never hears the source.
        func leftEar(batched: Bool) throws -> Double {
            let device = try Device.loopback()
            defer { device.close() }
            let scene = try device.makeScene()
            let source = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(440, seconds: 5)))
            source.position = Vector3(5, 0, 0)
            try source.play()
            let teleport = {
                scene.listener.position = Vector3(100, 0, 0)
                usleep(30_000)
                source.position = Vector3(105, 0, 0)
            }
            let mix = try renderWhile(device) { if batched { scene.batch(teleport) } else { teleport() } }
            #expect(Signals.rms(mix.channel(1)) > 0.01, "the right ear hears the source")
            #expect(!scene.isBatching)
            return Signals.rms(mix.channel(0))
        }
        #expect(try leftEar(batched: false) > 1e-3, "unbatched, the source is 95 m to the left for a while")
        #expect(try leftEar(batched: true) < 1e-5)
    }

    @Test func batchesNestAndTheOutermostApplies() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene()
        let source = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(440, seconds: 1)))
        try scene.batch {
            try scene.batch { try source.play() }
            #expect(scene.isBatching)
            #expect(Signals.peak(try device.render(frames: 480)) == 0, "held until the outer batch ends")
        }
        #expect(Signals.peak(try device.render(frames: 480)) > 0.1)
    }

    @Test func aMigrationDuringABatchStartsTheHeldPlaysWithTheBatch() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene()
        let source = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(440, seconds: 1)))
        try scene.batch {
            try source.play()
            // The output goes away and the scene moves while the batch holds the start.
            try device.migrate { _ throws(SoundstageError) in try Device.openLoopbackHandle() }
            #expect(Signals.peak(try device.render(frames: 480)) == 0, "still held")
        }
        #expect(source.playbackState == .playing)
        #expect(Signals.peak(try device.render(frames: 4_800)) > 0.1, "started with the batch, on the new output")
    }
}
