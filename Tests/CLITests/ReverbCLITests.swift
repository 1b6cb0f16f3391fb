import Foundation
import SoundFile
import Testing

/// The EFX options of the CLI: presets listed, `play --reverb/--occlusion` heard in the render,
/// bad values refused as usage errors, and `render --reverb` on a scene.
@Suite struct ReverbCLITests {
    private func rms(_ samples: some Collection<Float>) -> Double {
        samples.isEmpty ? 0 : (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    /// A 0.3 s 8 kHz tone file.
    private func tone(in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("tone.wav").path
        let samples = (0..<14_400).map { Float(sin(2 * Double.pi * 8_000 * Double($0) / 48_000)) * 0.5 }
        try SoundFileWriter.write(AudioBuffer(samples: samples, channels: 1, sampleRate: 48_000), to: path, format: .wavFloat32)
        return path
    }

    @Test func reverbPresetsListsEveryPresetOnePerLine() throws {
        let result = try CLIRunner.run(["reverb-presets"])
        #expect(result.status == 0)
        let names = result.stdout.split(separator: "\n")
        #expect(names.count == 113)
        #expect(names.first == "generic" && names.contains("cave") && names.contains("castle-small-room"))
        let json = try CLIRunner.run(["reverb-presets", "--json"])
        let decoded = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(decoded?.count == 113)
        #expect(decoded?.first(where: { $0["name"] as? String == "cave" })?["decayTime"] as? Double == 2.91)
    }

    @Test func playWithAReverbRingsOnAndOcclusionMuffles() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try tone(in: dir)
        func play(_ extra: [String], _ output: String) throws -> AudioBuffer {
            let result = try CLIRunner.run(["play", input, "--output", output] + extra, in: dir, environment: CLIRunner.noSoundCard)
            #expect(result.status == 0, "\(result.stderr)")
            return try SoundFile.decode(path: dir.appendingPathComponent(output).path)
        }
        let dry = try play([], "dry.wav")
        let cave = try play(["--reverb", "cave"], "cave.wav")
        let occluded = try play(["--occlusion", "-12"], "occluded.wav")
        #expect(cave.duration > dry.duration + 2.5, "the render keeps the cave's 2.9 s tail: \(cave.duration)")
        #expect(rms(cave.samples[(2 * 24_000)..<(2 * 48_000)]) > 1e-3, "0.5 s after the tone the cave still rings")
        let drop = 20 * log10(rms(occluded.samples[2_000..<20_000]) / rms(dry.samples[2_000..<20_000]))
        #expect(drop < -9 && drop > -14, "an 8 kHz tone behind 12 dB of occlusion: \(drop) dB")
    }

    @Test func badEffectValuesAreUsageErrors() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try tone(in: dir)
        let unknown = try CLIRunner.run(["play", input, "--reverb", "crypt"], in: dir, environment: CLIRunner.noSoundCard)
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("'crypt' is invalid for '--reverb"), "\(unknown.stderr)")
        #expect(unknown.stderr.contains("soundstage reverb-presets"))
        let positive = try CLIRunner.run(["play", input, "--occlusion", "3"], in: dir, environment: CLIRunner.noSoundCard)
        #expect(positive.status == 64)
        #expect(positive.stderr.contains("--occlusion must be between -100 and 0 dB"), "\(positive.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("tone-render.wav").path), "nothing rendered")
    }

    @Test func renderAddsAReverbToAScene() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("blip.json").path
        try #"""
            {"format": 1, "duration": 1.5, "sources": [{"name": "blip", "position": [0, 0, -1], "stop": 0.2,
             "sound": {"tone": {"frequency": 1000}}}]}
            """#.write(toFile: scene, atomically: true, encoding: .utf8)
        for (extra, rings) in [([String](), false), (["--reverb", "concert-hall"], true)] {
            let result = try CLIRunner.run(["render", scene, "-o", "out.wav"] + extra, in: dir)
            #expect(result.status == 0, "\(result.stderr)")
            let mix = try SoundFile.decode(path: dir.appendingPathComponent("out.wav").path)
            let tail = rms(mix.samples[(2 * 48_000)..<(2 * 60_000)])
            #expect(rings ? tail > 1e-3 : tail < 1e-6, "\(extra): tail \(tail)")
        }
    }
}
