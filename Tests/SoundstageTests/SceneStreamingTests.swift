import Foundation
import Soundstage
import SoundstageScenes
import Testing
import TestSupport

/// Scene files stream long files, bound every allocation a file or a scene can ask for, and
/// renders check their container before they start.
@Suite struct SceneStreamingTests {
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("scene-stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func scene(_ sources: String, duration: Double = 1, in dir: URL) throws -> SceneDescription {
        try SceneDescription.parse(Data(#"{"format": 1, "duration": \#(duration), "sources": [\#(sources)]}"#.utf8),
                                   baseDirectory: dir.path)
    }

    @Test func aSourceStreamsWhenItSaysSoOrWhenItsFileIsLong() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try SoundFileWriter.write(Signals.sine(440, seconds: 1), to: dir.appendingPathComponent("short.wav").path, format: .wavPCM16)
        try LargeFiles.sparseWAV(at: dir.appendingPathComponent("long.wav").path, frames: 48_000 * 31)
        let description = try Self.scene("""
            {"name": "default-short", "sound": "short.wav"},
            {"name": "forced", "sound": "short.wav", "stream": true},
            {"name": "default-long", "sound": "long.wav"},
            {"name": "kept", "sound": "long.wav", "stream": false}
            """, in: dir)
        #expect(description.sources.map(\.stream) == [nil, true, nil, false])
        let device = try Device.loopback()
        defer { device.close() }
        let runner = try SceneRunner(description, device: device)
        defer { runner.close() }
        #expect(runner.sources["default-short"]?.isStreaming == false)
        #expect(runner.sources["forced"]?.isStreaming == true)
        #expect(runner.sources["default-long"]?.isStreaming == true, "over \(SceneDescription.streamingThreshold) s streams")
        #expect(runner.sources["kept"]?.isStreaming == false)
    }

    @Test func aStreamedSourceSoundsLikeTheDecodedOne() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try SoundFileWriter.write(Signals.sine(440, seconds: 2), to: dir.appendingPathComponent("tone.wav").path, format: .wavPCM16)
        func render(stream: Bool) throws -> [Float] {
            let device = try Device.loopback()
            defer { device.close() }
            let runner = try SceneRunner(Self.scene(#"{"name": "a", "sound": "tone.wav", "stream": \#(stream), "position": [2, 0, -1]}"#,
                                                    duration: 1.5, in: dir), device: device)
            defer { runner.close() }
            return try runner.renderAll().samples
        }
        let streamed = try render(stream: true), decoded = try render(stream: false)
        #expect(Signals.rms(streamed) > 0.05)
        #expect(streamed == decoded, "sample-identical")
    }

    @Test func streamIsCheckedLikeEveryKey() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (sources, problem) in [
            (#"{"name": "a", "sound": "a.wav", "stream": "yes"}"#, "sources[0].stream"),
            (#"{"name": "a", "sound": {"tone": {}}, "stream": true}"#, "only a sound file streams"),
        ] {
            let error = #expect(throws: SoundstageError.self) { try Self.scene(sources, in: dir) }
            #expect(error?.message.contains(problem) == true, "\(String(describing: error))")
        }
    }

    @Test func aHugeSparseFileStreamsInAScene() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 2.9 GB of 16-bit stereo: 5.8 GB as floats — far over any decode limit.
        try LargeFiles.sparseWAV(at: dir.appendingPathComponent("huge.wav").path, frames: 725_000_000, channels: 2)
        let device = try Device.loopback()
        defer { device.close() }
        let runner = try SceneRunner(Self.scene(#"{"name": "a", "sound": "huge.wav"}"#, in: dir), device: device)
        defer { runner.close() }
        #expect(runner.sources["a"]?.isStreaming == true)
        let audio = try runner.renderAll()
        #expect(audio.frames == 48_000 && Signals.peak(audio) == 0, "it plays (silence) with a few chunks of memory")
        // Asked not to stream, it is a clear error instead of an allocation that aborts.
        let error = #expect(throws: SoundstageError.self) {
            try SceneRunner(Self.scene(#"{"name": "a", "sound": "huge.wav", "stream": false}"#, in: dir), device: device)
        }
        #expect(error?.code == .invalidScene)
        #expect(error?.message.contains("stream it") == true, "\(String(describing: error))")
        #expect(throws: SoundstageError.self) { try device.buffer(file: dir.appendingPathComponent("huge.wav").path) }
    }

    @Test func aDayLongToneLoopsOnePeriodInsteadOfAllocatingIt() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let device = try Device.loopback()
        defer { device.close() }
        // 86,400 s of tone would be 16.6 GB of samples; it is one period, looped.
        let runner = try SceneRunner(Self.scene(#"{"name": "hum", "sound": {"tone": {"frequency": 100}}}"#, duration: 86_400, in: dir),
                                     device: device)
        defer { runner.close() }
        #expect(runner.sources["hum"]?.isLooping == true)
        try runner.advance(to: 0)
        let second = try device.render(frames: 48_000)
        #expect(abs(Signals.frequency(second, channel: 0) - 100) < 1)
    }

    @Test func aRenderTooLongForItsContainerIsRefusedBeforeItStarts() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let device = try Device.loopback()
        defer { device.close() }
        let runner = try SceneRunner(Self.scene(#"{"name": "hum", "sound": {"tone": {}}}"#, duration: 86_400, in: dir), device: device)
        defer { runner.close() }
        let output = dir.appendingPathComponent("day.wav").path
        let error = #expect(throws: SoundstageError.self) { try runner.render(to: output, format: .wavFloat32) }
        #expect(error?.code == .tooLarge)
        #expect(error?.message.contains("w64") == true, "names a container that can: \(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty, "nothing written")
        #expect(throws: SoundstageError.self) { try device.render(seconds: 86_400, to: output, format: .wavPCM16) }
        // A cancelled render completes a valid file of what it rendered.
        var chunks = 0
        let seconds = try runner.render(to: dir.appendingPathComponent("day.w64").path, format: .w64Float32,
                                        isCancelled: { chunks += 1; return chunks > 100 })
        #expect(seconds > 0.9 && seconds < 1.1, "100 updates of 10 ms: \(seconds)")
        #expect(try SoundFile(path: dir.appendingPathComponent("day.w64").path).readAll().duration == seconds)
    }
}

/// The recording writer (`RealTimeRenderer(recordingTo:)`, behind `serve --record`) treats links
/// and special files like every other writer: written in place, never replaced.
@Suite struct RecordingWriterTests {
    @Test func aRecordingFollowsLinksAndKeepsSpecialFiles() throws {
        let dir = try SceneStreamingTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let dangling = dir.appendingPathComponent("mix.wav").path
        #expect(symlink("real.wav", dangling) == 0)
        for target in [dangling, "/dev/null"] {
            let device = try Device.loopback()
            defer { device.close() }
            let renderer = try RealTimeRenderer(device: device, recordingTo: target)
            let source = try device.makeScene().makeSource(buffer: device.makeBuffer(Signals.sine(440, seconds: 0.2)))
            try source.play()
            renderer.start()
            usleep(300_000)
            try renderer.stop()
        }
        var info = stat()
        #expect(lstat(dangling, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK, "the link stays")
        let recorded = try SoundFile.decode(path: dir.appendingPathComponent("real.wav").path)
        #expect(Signals.peak(recorded) > 0.1, "its target holds the recording")
        #expect(stat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
    }
}
