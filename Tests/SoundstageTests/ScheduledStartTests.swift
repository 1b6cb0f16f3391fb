import Foundation
import SoundFile
import Soundstage
import Testing
import TestSupport

/// `scene.play(_:at:)`: several sources, in several scenes of one device, start on the same
/// requested sample — wherever it falls in the render's updates and slices.
@Suite struct ScheduledStartTests {
    /// A click: one full-scale sample, then silence.
    static func click(_ device: Device) throws -> Buffer {
        var samples = [Float](repeating: 0, count: 4_800)
        samples[0] = 1
        return try device.makeBuffer(AudioBuffer(samples: samples, channels: 1, sampleRate: 48_000))
    }

    /// The first frame of `channel` above a whisper.
    static func onset(_ audio: AudioBuffer, channel: Int) -> Int? {
        audio.channel(channel).firstIndex { abs($0) > 1e-3 }
    }

    @Test(arguments: [590, 1_440, 4_801, 12_345])
    func sourcesInTwoScenesStartOnTheRequestedFrame(frame: Int) throws {
        let device = try Device.loopback()
        defer { device.close() }
        let world = try device.makeScene(), ui = try device.makeScene()
        let click = try Self.click(device)
        // Hard left in one scene, hard right in the other: each onset is read on its own channel.
        let left = world.makeSource(buffer: click), right = ui.makeSource(buffer: click)
        left.position = Vector3(-1, 0, 0)
        right.position = Vector3(1, 0, 0)
        _ = try device.render(frames: 100)       // the device's clock is not at 0: times are absolute
        try world.play([left, right], at: Double(frame) / 48_000)
        #expect(left.playbackState == .playing && right.playbackState == .playing)
        let audio = try device.render(frames: frame + 2_000 - 100)
        #expect(Self.onset(audio, channel: 0).map { $0 + 100 } == frame, "left onset")
        #expect(Self.onset(audio, channel: 1).map { $0 + 100 } == frame, "right onset")
    }

    @Test func aPastTimeOrAnOpenALOutputIsRefusedAndNothingStarts() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene()
        let source = scene.makeSource(buffer: try Self.click(device))
        _ = try device.render(frames: 4_800)
        let error = #expect(throws: SoundstageError.self) { try scene.play([source], at: 0.05) }
        #expect(error?.code == .invalidArgument)
        #expect(throws: SoundstageError.self) { try scene.play([source], at: .nan) }
        #expect(source.playbackState == .initial)
        let other = try Device.loopback()
        defer { other.close() }
        #expect(throws: SoundstageError.self) { try scene.play([other.makeScene().makeSource()], at: 1) }
    }

    @Test func aScheduledSourceStoppedBeforeItsFrameNeverStarts() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene()
        let kept = scene.makeSource(buffer: try Self.click(device)), dropped = scene.makeSource(buffer: try Self.click(device))
        kept.position = Vector3(-1, 0, 0)
        dropped.position = Vector3(1, 0, 0)
        try scene.play([kept, dropped], at: 0.02)
        dropped.stop()
        let audio = try device.render(frames: 4_800)
        #expect(Self.onset(audio, channel: 0) == 960)
        #expect(Self.onset(audio, channel: 1) == nil, "the stopped one never sounds")
    }

    /// A streaming source scheduled on a frame starts there also when its OpenAL source is one an
    /// earlier sound played on: the pool's sources are stopped, not initial, and the stream's
    /// refills before the frame took the stopped source for a stream that had run dry and started
    /// it at once (an audio queue started for a device time after an earlier queue had played
    /// sounded at once on the desktop: Tests/C/audio_queue_player.c).
    @Test func aScheduledStreamOnAReusedSourceStartsOnItsFrame() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene()
        let click = scene.makeSource(buffer: try Self.click(device))
        try click.play()
        for _ in 0..<10 { _ = try device.render(frames: 960) }
        #expect(click.playbackState == .stopped, "the click played to its end and gave its OpenAL source back")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("scheduled-stream-\(UUID()).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try SoundFileWriter.write(Signals.sine(440, seconds: 0.2), to: path, format: .wavFloat32)
        let stream = try scene.makeStreamingSource(file: path)
        let start = 9_600 + 4_800
        try scene.play([stream], at: Double(start) / 48_000)
        var samples: [Float] = []
        for _ in 0..<15 { samples += try device.render(frames: 960).samples }   // as an output pulls: refills between slices
        let onset = stride(from: 0, to: samples.count, by: 2).first { abs(samples[$0]) > 1e-3 }.map { $0 / 2 + 9_600 }
        // A sine's first sample is 0: the first one heard is the frame after the start.
        #expect(onset == start + 1, "the stream starts on frame \(start), not \(String(describing: onset.map { $0 - 1 }))")
    }
}
