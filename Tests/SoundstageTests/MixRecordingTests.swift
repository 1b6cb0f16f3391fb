import Foundation
import Testing
@testable import Soundstage
import SoundFile
import TestSupport

/// ``Device/recordOutput(to:format:)`` writes exactly the mix the device rendered.
@Suite struct MixRecordingTests {
    private func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("soundstage-mix-\(getpid())-\(UUID().uuidString.prefix(6))-\(name)").path
    }

    /// The file holds the rendered samples bit for bit (32-bit float), from the first chunk after
    /// the start to the last before the stop, and nothing else.
    @Test func theFileIsExactlyTheMix() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene()
        let source = scene.makeSource(buffer: try device.makeBuffer(Signals.twoTone(440, 660, seconds: 1)))
        source.position = Vector3(2, 0, -1)
        try source.play()
        _ = try device.render(frames: 4_800)                 // before the recording: not in the file
        let path = temporary("exact.wav")
        defer { unlink(path) }
        try device.recordOutput(to: path, format: .wavFloat32)
        #expect(throws: SoundstageError.self) { try device.recordOutput(to: temporary("second.wav")) }
        let first = try device.render(frames: 12_000)
        let second = try device.render(frames: 7_777)
        let result = try #require(device.stopRecordingOutput())
        _ = try device.render(frames: 4_800)                 // after: not in the file
        #expect(result.failure == nil && result.frames == 19_777)
        let file = try SoundFile.decode(path: path)
        #expect(Signals.difference(file.samples, first.samples + second.samples) == nil)
        #expect(file.channels == 2 && file.sampleRate == device.sampleRate)
        #expect(device.stopRecordingOutput() == nil)
    }

    /// Closing the device completes the recording's file.
    @Test func closingTheDeviceCompletesTheFile() throws {
        let device = try Device.loopback()
        let scene = try device.makeScene()
        let source = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(500, seconds: 1)))
        try source.play()
        let path = temporary("closed.flac")
        defer { unlink(path) }
        try device.recordOutput(to: path, format: .flac)
        _ = try device.render(frames: 9_600)
        device.close()
        let file = try SoundFile.decode(path: path)
        #expect(file.frames == 9_600)
        #expect(abs(Signals.frequency(file) - 500) < 2)
    }

    /// A file that cannot be created is refused at once, and nothing records.
    @Test func anUnwritablePathIsRefused() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let error = try #require(throws: SoundstageError.self) { try device.recordOutput(to: "/nonexistent/dir/mix.wav") }
        #expect(error.code == .notFound)
        _ = try device.render(frames: 480)
        #expect(device.stopRecordingOutput() == nil)
    }
}
