import Foundation
@testable import Soundstage
import SoundFile
import Testing
import TestSupport

/// Streaming sources: the same samples as a static buffer, seamless loops, seeks, underruns.
@Suite(.serialized) struct StreamingTests {
    /// A file of `seconds` of non-repeating audio (a sweep plus noise), written in chunks.
    static func longFile(seconds: Int, rate: Int = 48_000, name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stream-\(name)-\(getpid()).wav").path
        let writer = try SoundFileWriter(path: path, format: .wavPCM16, sampleRate: rate, channels: 1)
        var random = SplitMix64(seed: 42)
        var phase = 0.0
        for second in 0..<seconds {
            var samples = [Float](repeating: 0, count: rate)
            for i in 0..<rate {
                let t = Double(second) + Double(i) / Double(rate)
                phase += 2 * Double.pi * (200 + 30 * t.truncatingRemainder(dividingBy: 60)) / Double(rate)
                samples[i] = Float(0.3 * sin(phase)) + Float(Int64(bitPattern: random.next() >> 1) % 1000) / 20_000
            }
            try writer.write(AudioBuffer(samples: samples, channels: 1, sampleRate: rate))
        }
        try writer.finish()
        return path
    }

    /// Renders `seconds` of `source` alone on its device, after `prepare`.
    static func render(_ device: Device, seconds: Double) throws -> [Float] {
        try device.render(frames: Int(seconds * Double(device.sampleRate))).samples
    }

    @Test func aTenMinuteStreamPlaysTheSameSamplesAsAStaticBuffer() throws {
        let path = try Self.longFile(seconds: 600, name: "ten")
        defer { unlink(path) }
        let staticDevice = try Device.loopback(), streamDevice = try Device.loopback()
        defer { staticDevice.close(); streamDevice.close() }
        let whole = try staticDevice.makeBuffer(SoundFile.decode(path: path))
        let reference = try staticDevice.makeScene().makeSource(buffer: whole)
        var options = StreamOptions()
        options.loopStart = 10
        options.loopEnd = 20
        let stream = try streamDevice.makeScene().makeStreamingSource(file: path, options: options)
        #expect(stream.isStreaming)

        // The start.
        try reference.play()
        try stream.play()
        #expect(try Self.render(staticDevice, seconds: 2) == Self.render(streamDevice, seconds: 2))
        // The middle, after a seek (five minutes in).
        try reference.seek(to: 300)
        try stream.seek(to: 300)
        #expect(try Self.render(staticDevice, seconds: 2) == Self.render(streamDevice, seconds: 2))
        #expect(abs(stream.offset - 302) < 0.011)
        // Across a loop point: the stream loops 10…20 s; just before 20 s it plays on at 10 s.
        stream.isLooping = true
        try stream.seek(to: 19.5)
        let looped = try Self.render(streamDevice, seconds: 1)
        try reference.seek(to: 19.5)
        let beforeEnd = try Self.render(staticDevice, seconds: 0.5)
        #expect(Array(looped[..<beforeEnd.count]) == beforeEnd, "up to the loop end")
        try reference.seek(to: 10)
        let afterStart = try Self.render(staticDevice, seconds: 0.5)
        // Compare after the first 10 ms: a seek on the static source restarts its voice.
        let skip = 2 * 480
        #expect(Array(looped[(beforeEnd.count + skip)...]) == Array(afterStart[skip...]), "then from the loop start, gaplessly")
        #expect(stream.underrunCount == 0)
    }

    @Test func aStreamRunsDryUnderLoadRecoversAndCountsIt() throws {
        let path = try Self.longFile(seconds: 4, name: "dry")
        defer { unlink(path) }
        // Updates only every second, with 2 × 50 ms of audio queued: the queue runs dry in between.
        let device = try Device.loopback(updateFrames: 48_000)
        defer { device.close() }
        var options = StreamOptions()
        options.bufferDuration = 0.05
        options.bufferCount = 2
        let source = try device.makeScene().makeStreamingSource(file: path, options: options)
        let done = Counter()
        source.completionHandler = { _ in done.increment() }
        try source.play()
        _ = try device.render(frames: 48_000)
        #expect(source.underrunCount == 1, "detected at the update")
        #expect(source.playbackState == .playing, "refilled and restarted")
        let resumed = try device.render(frames: 4_800)
        #expect(Signals.peak(resumed) > 0.05, "sound again after the underrun")
        #expect(source.offset > 0.1 && source.offset < 0.3, "it goes on from where the queue ran dry, nothing skipped: \(source.offset)")
        // A normal device drains it to the end: completion once, buffers freed.
        for _ in 0..<100 where done.value == 0 { _ = try device.render(frames: 48_000) }
        #expect(done.value == 1)
        #expect(device.liveObjects.buffers == 0, "the stream's queue is freed when it ends")
    }

    @Test func pauseResumeAndStopKeepTheQueueBounded() throws {
        let path = try Self.longFile(seconds: 3, name: "pause")
        defer { unlink(path) }
        let device = try Device.loopback()
        defer { device.close() }
        let source = try device.makeScene().makeStreamingSource(file: path)
        try source.play()
        _ = try device.render(frames: 24_000)
        #expect(device.liveObjects.buffers == 4, "four buffers of 250 ms, whatever the file's length")
        source.pause()
        let at = source.offset
        #expect(Signals.peak(try device.render(frames: 24_000)) == 0)
        #expect(abs(source.offset - at) < 1e-9)
        try source.play()
        #expect(Signals.peak(try device.render(frames: 4_800)) > 0.05)
        source.stop()
        #expect(device.liveObjects.buffers == 0)
        #expect(throws: SoundstageError.self) { try device.makeScene().makeStreamingSource(file: "/no/such/file.ogg") }
    }

    @Test func aStreamMovesToANewOutputAndPlaysOnFromItsOffset() throws {
        let path = try Self.longFile(seconds: 5, name: "move")
        defer { unlink(path) }
        let device = try Device.loopback(), reference = try Device.loopback()
        defer { device.close(); reference.close() }
        let moved = try device.makeScene().makeStreamingSource(file: path)
        let unmoved = try reference.makeScene().makeStreamingSource(file: path)
        try moved.play()
        try unmoved.play()
        _ = try device.render(frames: 48_000)
        _ = try reference.render(frames: 48_000)
        try device.migrate { _ throws(SoundstageError) in try Device.openLoopbackHandle() }
        #expect(abs(moved.offset - 1) < 0.011, "\(moved.offset)")
        #expect(device.liveObjects.buffers == 4, "the old output's queue freed, a new one made")
        // From the second update on, the moved stream sounds exactly like the unmoved one.
        let after = try device.render(frames: 9_600).samples, same = try reference.render(frames: 9_600).samples
        #expect(Array(after[1_920...]) == Array(same[1_920...]))
    }
}
