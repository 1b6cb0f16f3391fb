import Foundation
import SoundFile
import Testing
import TestSupport

/// `convert`, `inspect` and `play` with AAC and ALAC, and what a machine without FFmpeg says.
@Suite struct MPEG4CLITests {
    private func tone(in dir: URL) throws -> String {
        let samples = (0..<24_000).map { Float(0.5 * sin(2 * Double.pi * 440 * Double($0) / 48_000)) }
        let path = dir.appendingPathComponent("tone.wav").path
        try SoundFileWriter.write(AudioBuffer(samples: samples, channels: 1, sampleRate: 48_000), to: path, format: .wavPCM16)
        return path
    }

    @Test(.enabled(if: FFmpeg.isAvailable)) func convertWritesAACAndInspectShowsTheCodec() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = try tone(in: dir)
        let m4a = dir.appendingPathComponent("tone.m4a").path
        let converted = try CLIRunner.run(["convert", wav, m4a, "--bitrate", "96k"])
        #expect(converted.status == 0, "\(converted.stderr)")
        let text = try CLIRunner.run(["inspect", m4a])
        #expect(text.status == 0)
        #expect(text.stdout.contains("Container:   mp4"))
        #expect(text.stdout.contains("Codec:       aac (LC)"))
        #expect(text.stdout.contains("Priming:     1024 frames (trimmed)"))
        #expect(text.stdout.contains("Frames:      24000"))
        let json = try CLIRunner.run(["inspect", m4a, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let codec = object?["codec"] as? [String: Any]
        #expect(codec?["codec"] as? String == "aac")
        #expect(codec?["primingFrames"] as? Int == 1024)
        #expect(abs((codec?["bitRate"] as? Int ?? 0) - 96_000) < 15_000)
        // And back: AAC in, ALAC and WAV out; renders offline through play.
        let alac = dir.appendingPathComponent("tone-alac.m4a").path
        #expect(try CLIRunner.run(["convert", m4a, alac, "--format", "m4a-alac"]).status == 0)
        #expect(try CLIRunner.run(["inspect", alac]).stdout.contains("Encoding:    alac16"))
        let back = dir.appendingPathComponent("back.wav").path
        #expect(try CLIRunner.run(["convert", m4a, back]).status == 0)
        #expect(try SoundFile(path: back).format.frames == 24_000)
        let refused = try CLIRunner.run(["convert", wav, dir.appendingPathComponent("x.caf").path, "--format", "caf-aac"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("FFmpeg's CAF writer does not take AAC"))
        let badRate = try CLIRunner.run(["convert", wav, m4a, "--bitrate", "lots"])
        #expect(badRate.status != 0)
    }

    @Test(.enabled(if: FFmpeg.isAvailable)) func playTakesAnM4A() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let m4a = dir.appendingPathComponent("tone.m4a").path
        #expect(try CLIRunner.run(["convert", try tone(in: dir), m4a]).status == 0)
        let result = try CLIRunner.run(["play", m4a, "--position", "5,0,0", "--loop", "2"], in: dir, environment: CLIRunner.noSoundCard)
        #expect(result.status == 0, "\(result.stderr)")
        let render = try SoundFile.decode(path: dir.appendingPathComponent("tone-render.wav").path)
        let right = render.channel(1)
        #expect(render.duration >= 1.0, "two plays of 0.5 s, gapless")
        #expect(Signals.rms(render.channel(0)) < 0.001, "the source is on the right")
        #expect(abs(Signals.frequency(Array(right[1_000..<23_000]), rate: render.sampleRate) - 440) < 0.5)
        // The loop's seam at 0.5 s: no gap of priming between the plays.
        #expect(Signals.rms(Array(right[23_500..<24_500])) > 0.05)
    }

    @Test(.enabled(if: FFmpeg.isAvailable)) func withoutFFmpegAACGivesAClearErrorAndTheRestStillWorks() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = try tone(in: dir)
        let m4a = dir.appendingPathComponent("tone.m4a").path
        #expect(try CLIRunner.run(["convert", wav, m4a]).status == 0)
        // The loader pointed at an empty directory: as on a machine without FFmpeg.
        let empty = dir.appendingPathComponent("no-ffmpeg")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let environment = ["SOUNDSTAGE_FFMPEG_PATH": empty.path]
        let inspect = try CLIRunner.run(["inspect", m4a], environment: environment)
        #expect(inspect.status != 0)
        #expect(inspect.stderr.contains("need FFmpeg's libraries"))
        #expect(inspect.stderr.contains("apt-get install libavformat59 libavcodec59"))
        #expect(inspect.stderr.split(separator: "\n").count == 1)
        let write = try CLIRunner.run(["convert", wav, dir.appendingPathComponent("out.m4a").path], environment: environment)
        #expect(write.status != 0)
        #expect(write.stderr.contains("libavformat59"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.m4a").path))
        // Everything libsndfile reads is unaffected.
        let plain = try CLIRunner.run(["inspect", wav], environment: environment)
        #expect(plain.status == 0)
        #expect(plain.stdout.contains("Encoding:    pcm16"))
    }
}
