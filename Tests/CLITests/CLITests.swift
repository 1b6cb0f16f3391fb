import Foundation
import SoundFile
import Testing
import TestSupport

/// The `soundstage` binary, run as a user would.
@Suite struct CLITests {
    /// A 0.5 s mono 440 Hz sine, 48 kHz, in `dir`.
    private func tone(in dir: URL, name: String = "tone.wav") throws -> String {
        let samples = (0..<24_000).map { Float(0.5 * sin(2 * Double.pi * 440 * Double($0) / 48_000)) }
        let path = dir.appendingPathComponent(name).path
        try SoundFileWriter.write(AudioBuffer(samples: samples, channels: 1, sampleRate: 48_000), to: path, format: .wavPCM16)
        return path
    }

    @Test func inspectPrintsTheFormat() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try tone(in: dir)
        let text = try CLIRunner.run(["inspect", path])
        #expect(text.status == 0)
        #expect(text.stdout.contains("Sample rate: 48000 Hz"))
        #expect(text.stdout.contains("Spatialized: yes"))
        let json = try CLIRunner.run(["inspect", path, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["container"] as? String == "wav")
        #expect(object?["encoding"] as? String == "pcm16")
        #expect(object?["channels"] as? Int == 1)
        #expect(object?["frames"] as? Int == 24_000)
        #expect(object?["duration"] as? Double == 0.5)
    }

    @Test func inspectFailsWithOneLineForBadFiles() throws {
        for path in ["/nonexistent.wav", "/etc/hostname", "/"] {
            let result = try CLIRunner.run(["inspect", path])
            #expect(result.status == 1, "\(path)")
            #expect(result.stdout.isEmpty)
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(path): \(result.stderr)")
            #expect(lines.first?.hasPrefix("soundstage: \(path): ") == true)
        }
    }

    @Test(arguments: ["wav-pcm16", "wav-f32", "caf-pcm16", "caf-ima4", "wav-ima4", "aiff-pcm16", "flac", "ogg"])
    func convertWritesEachFormat(_ format: String) throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try tone(in: dir)
        let output = dir.appendingPathComponent("out.\(format)").path
        let result = try CLIRunner.run(["convert", input, output, "--format", format])
        #expect(result.status == 0, "\(result.stderr)")
        let converted = try SoundFile(path: output)
        #expect(OutputFormat(container: converted.format.container, encoding: converted.format.encoding).name == format)
        let audio = try converted.readAll()
        #expect(audio.channels == 1)
        #expect(abs(audio.duration - 0.5) < 0.03)
        #expect(abs(rms(audio.samples) - 0.3536) < 0.02)
    }

    @Test func convertResamplesAndRemixes() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try tone(in: dir)
        let output = dir.appendingPathComponent("out.caf").path
        let result = try CLIRunner.run(["convert", input, output, "--sample-rate", "22050", "--channels", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        let file = try SoundFile(path: output)
        #expect(file.format.container == .caf && file.format.encoding == .pcm16)
        #expect(file.format.sampleRate == 22_050)
        #expect(file.format.channels == 2)
        #expect(file.format.frames == 11_025)
    }

    @Test func convertRejectsBadArguments() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try tone(in: dir)
        let unknown = try CLIRunner.run(["convert", input, dir.appendingPathComponent("x.wav").path, "--format", "wav-pcm17"])
        #expect(unknown.status == 64)
        let noExtension = try CLIRunner.run(["convert", input, dir.appendingPathComponent("x").path])
        #expect(noExtension.status == 64)
        #expect(noExtension.stderr.contains("--format"))
        let missing = try CLIRunner.run(["convert", "/nonexistent.wav", dir.appendingPathComponent("x.wav").path])
        #expect(missing.status == 1)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.wav").path))
    }

    @Test func playWithoutASoundCardRendersAWavAndSaysWhere() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try tone(in: dir)
        let result = try CLIRunner.run(["play", input, "--position", "5,0,0", "--loop", "2"], in: dir,
                                       environment: CLIRunner.noSoundCard)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("rendering to tone-render.wav instead"), "\(result.stderr)")
        #expect(!result.stderr.contains("ALSA"), "probe noise is hidden")
        let render = try SoundFile.decode(path: dir.appendingPathComponent("tone-render.wav").path)
        #expect(render.channels == 2)
        #expect(render.duration >= 1.0, "two plays of 0.5 s")
        #expect(rms(render.channel(0)) < 0.001, "the source is on the right")
        #expect(rms(render.channel(1)) > 0.05)
        #expect(rms(Array(render.channel(1)[36_000..<47_000])) > 0.05, "the second play is heard")
    }

    @Test func vectorOptionsTakeNegativeNumbersAfterASpace() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try tone(in: dir)
        let result = try CLIRunner.run(["play", input, "--position", "-5,0,0", "--velocity", "-20,0,0"], in: dir,
                                       environment: CLIRunner.noSoundCard)
        #expect(result.status == 0, "\(result.stderr)")
        let render = try SoundFile.decode(path: dir.appendingPathComponent("tone-render.wav").path)
        #expect(rms(render.channel(1)) < 0.001, "-5,0,0 is on the left")
        #expect(rms(render.channel(0)) > 0.05)
        for bad in ["-5,0", "1e10,0,0", "nan,0,0"] {
            let refused = try CLIRunner.run(["play", input, "--position", bad], in: dir, environment: CLIRunner.noSoundCard)
            #expect(refused.status == 64, "\(bad): \(refused.stderr)")
            #expect(refused.stderr.contains("--position"), "\(refused.stderr)")
        }
    }

    @Test func playOnARealTimeDeviceWaitsForTheEnd() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try tone(in: dir)
        let start = Date()
        let result = try CLIRunner.run(["play", input, "--pitch", "2"], in: dir, environment: CLIRunner.silentSoundCard)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Date().timeIntervalSince(start) >= 0.2, "0.5 s at pitch 2 plays for 0.25 s in real time")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["tone.wav"], "nothing rendered")
    }

    /// `--verbose` logs what was opened, through swift-log, on stderr; without it nothing is logged.
    @Test func verboseLogsTheOutputOpened() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try tone(in: dir)
        let verbose = try CLIRunner.run(["play", input, "--verbose", "--backend", "openal"], in: dir, environment: CLIRunner.silentSoundCard)
        #expect(verbose.status == 0, "\(verbose.stderr)")
        #expect(verbose.stderr.contains("debug soundstage: backend=openAL"), "\(verbose.stderr)")
        #expect(verbose.stderr.contains("[SoundstageCLI] output opened"), "\(verbose.stderr)")
        let quiet = try CLIRunner.run(["play", input, "--backend", "openal"], in: dir, environment: CLIRunner.silentSoundCard)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
    }

    @Test func playRejectsBadOptions() throws {
        for arguments in [["--gain", "-1"], ["--gain", "100.5"], ["--pitch", "0"], ["--pitch", "0.005"], ["--pitch", "101"],
                          ["--position", "1,2"], ["--loop", "0"]] {
            let result = try CLIRunner.run(["play", "x.wav"] + arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains(arguments[0]), "\(arguments): \(result.stderr)")
        }
    }

    /// A mix is made by OpenAL Soft (8000–192000 Hz); a conversion or recording is not
    /// (1000–384000 Hz). Each command says its own range, from one table (SampleRateLimits).
    @Test func sampleRateOptionsSayTheirRange() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try tone(in: dir)
        let scene = dir.appendingPathComponent("s.json").path
        try #"{"format": 1, "duration": 0.1, "sources": []}"#.write(toFile: scene, atomically: true, encoding: .utf8)
        for (arguments, words) in [(["render", scene, "-o", "x.wav", "--sample-rate", "4000"], "--sample-rate must be between 8000 and 192000"),
                                   (["render", scene, "-o", "x.wav", "--sample-rate", "384000"], "--sample-rate must be between 8000 and 192000"),
                                   (["convert", input, "x.wav", "--sample-rate", "500"], "--sample-rate must be between 1000 and 384000"),
                                   (["record", "x.wav", "--rate", "400000"], "--rate must be between 1000 and 384000")] {
            let result = try CLIRunner.run(arguments, in: dir)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains(words), "\(arguments): \(result.stderr)")
        }
        // Inside its own range, each works: a 4000 Hz conversion, a 192 kHz render.
        #expect(try CLIRunner.run(["convert", input, "low.wav", "--sample-rate", "4000"], in: dir).status == 0)
        #expect(try SoundFile(path: dir.appendingPathComponent("low.wav").path).format.sampleRate == 4000)
        #expect(try CLIRunner.run(["render", scene, "-o", "high.wav", "--sample-rate", "192000"], in: dir).status == 0)
        #expect(try SoundFile(path: dir.appendingPathComponent("high.wav").path).format.sampleRate == 192_000)
    }

    @Test func infoReportsOpenAL() throws {
        let result = try CLIRunner.run(["info", "--json"], environment: CLIRunner.noSoundCard)
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let loopback = object?["loopback"] as? [String: Any]
        #expect((loopback?["version"] as? String)?.contains("ALSOFT") == true)
        #expect((loopback?["deviceExtensions"] as? [String])?.contains("ALC_SOFT_loopback") == true)
        #expect((loopback?["sourceLimit"] as? Int) == 256)
        #expect(object?["defaultOutputOpens"] as? Bool == false)
        let text = try CLIRunner.run(["info"], environment: CLIRunner.silentSoundCard.merging(["PULSE_SERVER": "unix:/nonexistent/pulse"]) { $1 })
        #expect(text.stdout.contains("Output:         OpenAL Soft's own output"))
        #expect(text.stdout.contains("Inputs:         none"), "no desktop server: no input to record")
        #expect(text.stdout.contains("Latency:        "))
        #expect(text.stdout.contains("HRTFs:"))
    }
}

/// `soundstage run` and `render` on the example scenes.
@Suite struct SceneCommandTests {
    static let root: URL = {
        var dir = URL(fileURLWithPath: #filePath)
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) { dir.deleteLastPathComponent() }
        return dir
    }()

    @Test func theHeadphonesDemoRunsBinaurallyAndSaysSo() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = Self.root.appendingPathComponent("Examples/scenes/headphones.json").path
        let result = try CLIRunner.run(["run", scene, "--hrtf"], in: dir, environment: CLIRunner.noSoundCard)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("HRTF on (enabled)"), "\(result.stderr)")
        let audio = try SoundFile.decode(path: dir.appendingPathComponent("headphones-render.wav").path)
        #expect(abs(audio.duration - 12) < 0.01)
        // The bee circles: at 1 s it is on the right, at 3 s on the left — but with HRTF the far
        // ear always hears it too (stereo panning would leave it silent).
        let right = audio.slice(frames: 43_200..<52_800), left = audio.slice(frames: 139_200..<148_800)
        #expect(rms(right.channel(1)) > rms(right.channel(0)))
        #expect(rms(left.channel(0)) > rms(left.channel(1)))
        #expect(min(rms(right.channel(0)), rms(left.channel(1))) > 0.01)
    }

    @Test func runWithoutASoundCardRendersTheDemoScene() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = Self.root.appendingPathComponent("Examples/scenes/orbit.json").path
        let result = try CLIRunner.run(["run", scene], in: dir, environment: CLIRunner.noSoundCard)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("rendering to orbit-render.wav instead"))
        let audio = try SoundFile.decode(path: dir.appendingPathComponent("orbit-render.wav").path)
        #expect(abs(audio.duration - 8) < 0.01)
        // At 1 s the bee is on the right; at 3 s on the left.
        let right = audio.slice(frames: 43_200..<52_800), left = audio.slice(frames: 139_200..<148_800)
        #expect(rms(right.channel(1)) > 4 * rms(right.channel(0)))
        #expect(rms(left.channel(0)) > 4 * rms(left.channel(1)))
    }

    @Test func runOnARealTimeDeviceTakesTheScenesDuration() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("short.json")
        try #"{"format": 1, "duration": 0.5, "sources": [{"name": "t", "sound": {"tone": {}}}]}"#.write(to: scene, atomically: true, encoding: .utf8)
        let start = Date()
        let result = try CLIRunner.run(["run", scene.path], in: dir, environment: CLIRunner.silentSoundCard)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Date().timeIntervalSince(start) >= 0.5)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["short.json"])
    }

    @Test func renderWritesTheMixAndAPlot() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = Self.root.appendingPathComponent("Examples/scenes/car-pass.json").path
        let out = dir.appendingPathComponent("car.wav").path, plot = dir.appendingPathComponent("car.svg").path
        let result = try CLIRunner.run(["render", scene, "--output", out, "--sample-rate", "44100", "--channels", "5.1",
                                        "--format", "wav-pcm16", "--plot", plot])
        #expect(result.status == 0, "\(result.stderr)")
        let file = try SoundFile(path: out)
        #expect(file.format.sampleRate == 44_100 && file.format.channels == 6 && file.format.encoding == .pcm16)
        let svg = try String(contentsOfFile: plot, encoding: .utf8)
        #expect(svg.hasPrefix("<svg") && svg.contains("polyline"))
        #expect(svg.components(separatedBy: "<polyline").count - 1 == 6)
        let again = dir.appendingPathComponent("again.wav").path
        _ = try CLIRunner.run(["render", scene, "--output", again, "--sample-rate", "44100", "--channels", "5.1", "--format", "wav-pcm16"])
        #expect(FileManager.default.contents(atPath: out) == FileManager.default.contents(atPath: again), "bit-identical")
    }

    /// `render --map`: the orbit's bee is drawn on its path — 8 s at 50 points a second, every
    /// point at the same distance from the listener's arrow (a circle around the head).
    @Test func renderDrawsTheMapOfThePaths() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = Self.root.appendingPathComponent("Examples/scenes/orbit.json").path
        let map = dir.appendingPathComponent("orbit-map.svg").path
        let result = try CLIRunner.run(["render", scene, "--output", dir.appendingPathComponent("o.wav").path, "--map", map])
        #expect(result.status == 0, "\(result.stderr)")
        let svg = try String(contentsOfFile: map, encoding: .utf8)
        #expect(svg.hasPrefix("<svg") && svg.hasSuffix("</svg>\n"))
        let listener = try #require(svg.firstMatch(of: /transform="translate\(([-0-9.]+),([-0-9.]+)\) rotate\(([-0-9.]+)\)"/))
        let center = (Double(listener.1)!, Double(listener.2)!)
        #expect(Double(listener.3)! == 0, "the listener faces ahead (−z, up)")
        let bee = try #require(svg.firstMatch(of: /data-name="bee"[^>]*points="([^"]+)"/))
        let points = bee.1.split(separator: " ").map { $0.split(separator: ",").map { Double($0)! } }
        #expect(points.count == 401)
        let distances = points.map { hypot($0[0] - center.0, $0[1] - center.1) }
        #expect(distances.max()! / distances.min()! < 1.05, "a circle: \(distances.min()!)...\(distances.max()!) px")
        // It starts ahead of the listener (0, 0, −2): straight above the arrow.
        #expect(abs(points[0][0] - center.0) < 1 && points[0][1] < center.1)
    }

    @Test func aMalformedSceneIsOneLineNamingTheProblem() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("bad.json")
        try #"{"format": 1, "duration": 2, "sources": [{"name": "a", "sound": "a.wav", "path": [{"t": "soon", "position": [0,0,0]}]}]}"#
            .write(to: scene, atomically: true, encoding: .utf8)
        let result = try CLIRunner.run(["render", scene.path, "-o", dir.appendingPathComponent("x.wav").path])
        #expect(result.status == 1)
        #expect(result.stderr == "soundstage: \(scene.path): sources[0].path[0].t: expected a number, got a string\n")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.wav").path))
        let hrtf = try CLIRunner.run(["render", scene.path, "-o", "x.wav", "--hrtf", "--channels", "quad"])
        #expect(hrtf.status == 64)
    }
}

/// Root-mean-square level of samples.
func rms(_ samples: [Float]) -> Double { Signals.rms(samples) }

/// `soundstage sound play` and `sound list`.
@Suite struct SoundCommandTests {
    @Test func playAnEventWithoutASoundCardRendersItUnpositioned() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLIRunner.run(["sound", "play", "--id", "button-pressed", "--volume", "-6"], in: dir,
                                       environment: CLIRunner.noSoundCard)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("rendering to button-pressed-render.wav instead"))
        let audio = try SoundFile.decode(path: dir.appendingPathComponent("button-pressed-render.wav").path)
        #expect(rms(audio.channel(0)) > 0.005)
        #expect(abs(rms(audio.channel(0)) - rms(audio.channel(1))) < 0.001, "unpositioned")
    }

    @Test func playAFileOnARealTimeDevice() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("ding.caf").path
        let samples = (0..<9_600).map { Float(0.4 * sin(2 * Double.pi * 880 * Double($0) / 48_000)) }
        try SoundFileWriter.write(AudioBuffer(samples: samples, channels: 1, sampleRate: 48_000), to: path, format: .cafIMA4)
        let result = try CLIRunner.run(["sound", "play", "--file", path, "--alert"], in: dir, environment: CLIRunner.silentSoundCard)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["ding.caf"])
    }

    @Test func badRequestsAreOneLineErrors() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let unknown = try CLIRunner.run(["sound", "play", "--id", "no-such-event"], in: dir, environment: CLIRunner.noSoundCard)
        #expect(unknown.status == 1)
        #expect(unknown.stderr.split(separator: "\n").count == 1, "no 'rendering to' before the failure: \(unknown.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
        let both = try CLIRunner.run(["sound", "play", "--id", "bell", "--file", "x.wav"])
        #expect(both.status == 64)
        let mp3 = dir.appendingPathComponent("x.mp3").path
        try SoundFileWriter.write(AudioBuffer(samples: [Float](repeating: 0, count: 4_800), channels: 1, sampleRate: 48_000),
                                  to: mp3, format: .mp3)
        let refused = try CLIRunner.run(["sound", "play", "--file", mp3], environment: CLIRunner.noSoundCard)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("system sounds must be"))
    }

    @Test func listShowsTheThemeChainsEvents() throws {
        let result = try CLIRunner.run(["sound", "list", "--names-only"],
                                       environment: ["XDG_DATA_HOME": "/nonexistent", "XDG_DATA_DIRS": "/nonexistent"])
        #expect(result.status == 0)
        let names = result.stdout.split(separator: "\n").map(String.init)
        #expect(names.contains("button-pressed") && names.contains("menu-click"), "the fallback theme's events")
        let full = try CLIRunner.run(["sound", "list"])
        #expect(full.stdout.contains("menu-click\t"))
    }
}

extension CLITests {
    /// `run --record` on OpenAL's own output is refused before anything plays: that output
    /// mixes on its own thread, so Soundstage never sees the mix.
    @Test func runRecordOnAnOpenALOutputIsRefused() throws {
        let dir = try CLIRunner.directory()
        let scene = dir.appendingPathComponent("s.json").path
        try #"{"format": 1, "duration": 0.2, "sources": [{"name": "t", "sound": {"tone": {"frequency": 440}}, "position": [0, 0, -1]}]}"#
            .write(toFile: scene, atomically: true, encoding: .utf8)
        let result = try CLIRunner.run(["run", scene, "--backend", "openal", "--record", dir.appendingPathComponent("mix.wav").path],
                                       environment: CLIRunner.silentSoundCard)
        #expect(result.status == 1)
        #expect(result.stderr.contains("recording the mix needs an output Soundstage renders"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("mix.wav").path))
    }
}

extension CLITests {
    /// `play -` plays standard input as it arrives (here rendered, without a sound card): the
    /// render holds the piped sound; a CAF on standard input is one clear line naming CAF.
    @Test func playReadsStandardInput() throws {
        let dir = try CLIRunner.directory()
        let input = dir.appendingPathComponent("in.flac").path
        try SoundFileWriter.write(AudioBuffer(samples: (0..<24_000).map { Float(0.5 * sin(2 * Double.pi * 500 * Double($0) / 48_000)) },
                                              channels: 1, sampleRate: 48_000), to: input, format: .flac)
        let output = dir.appendingPathComponent("out.wav").path
        let (status, text) = try ChildProcess.run("/bin/sh", ["-c", "cat \"$1\" | \"$0\" play - --output \"$2\"", CLIRunner.binary.path,
                                                              input, output], environment: CLIRunner.noSoundCard.merging(
                                                                ProcessInfo.processInfo.environment) { mine, _ in mine })
        #expect(status == 0, "\(text)")
        let rendered = try SoundFile.decode(path: output)
        #expect(abs(Signals.soundingSeconds(rendered.samples) - 0.5) < 0.02)
        #expect(abs(Signals.frequency(Array(rendered.channel(0)[2_400..<19_200])) - 500) < 2)
        let caf = dir.appendingPathComponent("in.caf").path
        try SoundFileWriter.write(AudioBuffer(samples: [Float](repeating: 0.1, count: 4_800), channels: 1, sampleRate: 48_000),
                                  to: caf, format: .cafPCM16)
        let (refused, said) = try ChildProcess.run("/bin/sh", ["-c", "cat \"$1\" | \"$0\" play - --output \"$2\"", CLIRunner.binary.path,
                                                               caf, output], environment: CLIRunner.noSoundCard.merging(
                                                                ProcessInfo.processInfo.environment) { mine, _ in mine })
        #expect(refused == 1)
        #expect(said.contains("CAF cannot be read from a pipe"), "\(said)")
        let looped = try CLIRunner.run(["play", "-", "--loop", "2"])
        #expect(looped.status == 64 && looped.stderr.contains("standard input plays once"))
    }
}
