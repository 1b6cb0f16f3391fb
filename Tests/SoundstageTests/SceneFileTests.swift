import Foundation
import Testing
import Soundstage
import SoundstageScenes
import TestSupport

/// Scene files: every example loads and renders deterministically; the motion is heard;
/// malformed files are refused with the file, the JSON path and what was expected.
@Suite struct SceneFileTests {
    static let scenesDirectory: URL = {
        var dir = URL(fileURLWithPath: #filePath)
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
            dir.deleteLastPathComponent()
        }
        return dir.appendingPathComponent("Examples/scenes")
    }()

    static let exampleScenes: [String] = (try? FileManager.default.contentsOfDirectory(atPath: scenesDirectory.path))?
        .filter { $0.hasSuffix(".json") }.sorted() ?? []

    private func render(_ description: SceneDescription, hrtf: Bool = false) throws -> AudioBuffer {
        let device = try Device.loopback(hrtf: hrtf)
        defer { device.close() }
        let runner = try SceneRunner(description, device: device)
        defer { runner.close() }
        return try runner.renderAll()
    }

    @Test func thereAreExampleScenes() {
        #expect(Self.exampleScenes.count >= 4)
    }

    @Test(arguments: exampleScenes)
    func everyExampleSceneRendersTheSameTwice(_ name: String) throws {
        let description = try SceneDescription.load(path: Self.scenesDirectory.appendingPathComponent(name).path)
        let first = try render(description), second = try render(description)
        #expect(first.frames == Int((description.duration * 48_000).rounded()))
        #expect(Signals.rms(first.samples) > 0.001, "the scene makes sound")
        #expect(Signals.difference(first.samples, second.samples) == nil, "bit-identical renders")
    }

    @Test func theOrbitSwingsFromEarToEarWithItsPeriod() throws {
        let description = try SceneDescription.load(path: Self.scenesDirectory.appendingPathComponent("orbit.json").path)
        let mix = try render(description)
        // Balance (right − left level) per 100 ms window.
        let window = 4_800
        let balance: [Double] = stride(from: 0, to: mix.frames - window, by: window).map { start in
            let slice = mix.slice(frames: start..<(start + window))
            return Signals.rms(slice, channel: 1) - Signals.rms(slice, channel: 0)
        }
        // The bee starts ahead, goes right (t = 1 s), behind (2 s), left (3 s): period 4 s.
        for (t, sign) in [(1.0, 1.0), (3.0, -1.0), (5.0, 1.0), (7.0, -1.0)] {
            let value = balance[Int(t * 10)]
            #expect(value * sign > 0.02, "balance at \(t) s is \(value)")
        }
        // Right, left, right, left: the clear (|balance| > 0.01) sides change three times in 8 s.
        let sides = balance.filter { abs($0) > 0.01 }.map { $0 > 0 }
        let changes = zip(sides, sides.dropFirst()).filter { $0 != $1 }.count
        #expect(changes == 3, "\(changes) swings")
    }

    @Test func aMovingSourceIsHeardWithTheDopplerShiftItsMotionImplies() throws {
        // A 440 Hz tone approaching from 100 m at 34.33 m/s (0.1 c): velocity follows from the path.
        let json = """
        {"format": 1, "duration": 2,
         "sources": [{"name": "tone", "sound": {"tone": {"frequency": 440}}, "loop": true,
                      "path": [{"t": 0, "position": [0, 0, -100]}, {"t": 2, "position": [0, 0, -31.34]}]}]}
        """
        let approaching = try render(try SceneDescription.parse(Data(json.utf8)))
        #expect(abs(Signals.frequency(approaching.slice(frames: 24_000..<72_000)) - 488.9) < 0.5)

        // The listener walks towards a still source at 0.1 c.
        let walking = """
        {"format": 1, "duration": 2,
         "listener": {"path": [{"t": 0, "position": [0, 0, 0]}, {"t": 2, "position": [0, 0, -68.66]}]},
         "sources": [{"name": "tone", "sound": {"tone": {"frequency": 440}}, "loop": true, "position": [0, 0, -200]}]}
        """
        let heard = try render(try SceneDescription.parse(Data(walking.utf8)))
        #expect(abs(Signals.frequency(heard.slice(frames: 24_000..<72_000)) - 484.0) < 0.5)
    }

    @Test func aToneStartsAndStopsOnTimeWithinOneUpdate() throws {
        let json = """
        {"format": 1, "duration": 3,
         "sources": [{"name": "beep", "sound": {"tone": {"waveform": "square", "frequency": 440, "amplitude": 0.5}},
                      "position": [0, 0, -1], "start": 1.0, "stop": 2.0}]}
        """
        let mix = try render(try SceneDescription.parse(Data(json.utf8)))
        let left = mix.channel(0)
        let first = left.firstIndex { abs($0) > 0.001 }!
        let last = left.lastIndex { abs($0) > 0.001 }!
        let update = 480
        #expect(abs(first - 48_000) <= update, "starts at frame \(first)")
        #expect(abs(last - 96_000) <= update, "stops at frame \(last)")
    }

    @Test func twoContextsMix() throws {
        let description = try SceneDescription.load(path: Self.scenesDirectory.appendingPathComponent("two-contexts.json").path)
        #expect(description.contextNames == ["world", "ui"])
        let device = try Device.loopback()
        defer { device.close() }
        let runner = try SceneRunner(description, device: device)
        #expect(runner.scenes.count == 2)
        #expect(device.liveObjects.contexts == 2)   // world (in the device's own context) and ui
        let mix = try runner.renderAll()
        let chimeWindow = mix.slice(frames: 120_000..<130_000)   // 2.5 s: the UI chime over the world
        let before = mix.slice(frames: 100_000..<110_000)
        #expect(Signals.rms(chimeWindow.samples) > Signals.rms(before.samples) * 1.5)
        runner.close()
        #expect(device.liveObjects.contexts == 1)
    }

    @Test func aSceneFilesReverbZoneRingsAndItsOcclusionMuffles() throws {
        /// The last 0.5 s of a 1 s scene whose 12 kHz tone stops at 0.4 s, and the tone's level.
        func render(reverb: String, source extra: String) throws -> (tail: Double, tone: Double) {
            let json = """
                {"format": 1, "duration": 1, \(reverb) "sources": [{"name": "t", "position": [0, 0, -1], "start": 0, "stop": 0.4,
                 "sound": {"tone": {"frequency": 12000, "amplitude": 0.5}} \(extra)}]}
                """
            let mix = try self.render(try SceneDescription.parse(Data(json.utf8)))
            return (Signals.rms(mix.slice(frames: 24_000..<48_000).samples), Signals.rms(mix.slice(frames: 4_800..<14_400).samples))
        }
        let dry = try render(reverb: "", source: "")
        let cave = try render(reverb: #""reverb": [{"name": "cave", "preset": "cave"}],"#, source: "")
        let quiet = try render(reverb: #""reverb": [{"name": "cave", "preset": "cave", "settings": {"gain": 0.1}}],"#, source: "")
        let occluded = try render(reverb: "", source: #", "occlusion": -12"#)
        #expect(dry.tail < 1e-6 && cave.tail > 1e-4, "\(dry.tail) vs \(cave.tail)")
        // The cave's gain is 0.3162; settings put 0.1 in its place.
        #expect(abs(quiet.tail / cave.tail - 0.1 / 0.3162) < 0.03, "settings change the preset: \(quiet.tail / cave.tail)")
        #expect(abs(20 * log10(occluded.tone / dry.tone) + 12) < 1, "a 12 kHz tone occluded by 12 dB: \(occluded.tone / dry.tone)")
    }

    /// (scene JSON, the start of the expected message)
    static let malformed: [(String, String)] = [
        (#"{"format": 1, "duration": 4, "sources": [], "colour": "red"}"#, "colour: unknown key"),
        (#"{"duration": 4, "sources": []}"#, "format: missing"),
        (#"{"format": 2, "duration": 4, "sources": []}"#, "format: version 2 is not supported"),
        (#"{"format": 1, "duration": "long", "sources": []}"#, "duration: expected a number, got a string"),
        (#"{"format": 1, "duration": -1, "sources": []}"#, "duration: -1 is out of range"),
        (#"{"format": 1, "duration": 4, "sources": {}}"#, "sources: expected an array"),
        (#"{"format": 1, "duration": 4, "sources": [{"sound": "a.wav"}]}"#, "sources[0].name: missing"),
        (#"{"format": 1, "duration": 4, "sources": [{"name": "a", "sound": 5}]}"#, "sources[0].sound: expected a file path"),
        (#"{"format": 1, "duration": 4, "sources": [{"name": "a", "sound": {"tone": {"waveform": "triangle"}}}]}"#,
         "sources[0].sound.tone.waveform: 'triangle' is not one of"),
        (#"{"format": 1, "duration": 4, "sources": [{"name": "a", "sound": "a.wav", "gain": -2}]}"#, "sources[0].gain: -2 is out of range"),
        (#"{"format": 1, "duration": 4, "sources": [{"name": "a", "sound": "a.wav", "position": [1, 2]}]}"#,
         "sources[0].position: expected [x, y, z]"),
        (#"{"format": 1, "duration": 4, "sources": [{"name": "a", "sound": "a.wav", "loop": 1}]}"#, "sources[0].loop: expected true or false"),
        (#"{"format": 1, "duration": 4, "sources": [{"name": "a", "sound": "a.wav", "start": 3, "stop": 2}]}"#,
         "sources[0].stop: 2 must come after start"),
        (#"{"format": 1, "duration": 4, "sources": [{"name": "a", "sound": "a.wav"}, {"name": "b", "sound": "b.wav", "path": [{"t": 0, "position": [0, 0, 0]}, {"t": "x", "position": [0, 0, 0]}]}]}"#,
         "sources[1].path[1].t: expected a number, got a string"),
        (#"{"format": 1, "duration": 4, "sources": [{"name": "a", "sound": "a.wav", "path": [{"t": 2, "position": [0, 0, 0]}, {"t": 1, "position": [0, 0, 0]}]}]}"#,
         "sources[0].path[1].t: 1 does not come after"),
        (#"{"format": 1, "duration": 4, "sources": [{"name": "a", "sound": "a.wav"}, {"name": "a", "sound": "a.wav"}]}"#,
         "sources[1].name: 'a' is used by an earlier source"),
        (#"{"format": 1, "duration": 4, "listener": {"at": [0, 0, 0]}, "sources": []}"#, "listener.at: must not be the zero vector"),
        (#"{"format": 1, "duration": 4, "sources": [{"name": "a", "sound": "a.wav", "interpolation": "cubic"}]}"#,
         "sources[0].interpolation: 'cubic' is not one of linear, smooth"),
        (#"{"format": 1, "duration": 4, "sources": [], "reverb": {}}"#, "reverb: expected an array of reverb zones"),
        (#"{"format": 1, "duration": 4, "sources": [], "reverb": [{"name": "c", "preset": "crypt"}]}"#,
         "reverb[0].preset: unknown preset 'crypt'"),
        (#"{"format": 1, "duration": 4, "sources": [], "reverb": [{"name": "c", "preset": "cave", "settings": {"decay": 2}}]}"#,
         "reverb[0].settings.decay: unknown key"),
        (#"{"format": 1, "duration": 4, "sources": [], "reverb": [{"name": "c", "preset": "cave", "region": {"center": [0, 0, 0]}}]}"#,
         "reverb[0].region.radius: is required for a sphere"),
        (#"{"format": 1, "duration": 4, "sources": [], "reverb": [{"name": "c", "preset": "cave", "region": {"min": [0, 0, 0], "max": [1, -1, 1]}}]}"#,
         "reverb[0].region.max: must be >= min"),
        (#"{"format": 1, "duration": 4, "sources": [], "reverb": [{"name": "c", "preset": "cave"}, {"name": "c", "preset": "room"}]}"#,
         "reverb[1].name: 'c' is used by an earlier zone"),
        (#"{"format": 1, "duration": 4, "sources": [], "reverb": [{"name": "a", "preset": "cave"}, {"name": "b", "preset": "cave"}, {"name": "c", "preset": "cave"}, {"name": "d", "preset": "cave"}, {"name": "e", "preset": "cave"}]}"#,
         "reverb[4]: a context holds at most 4 reverb zones"),
        (#"{"format": 1, "duration": 4, "sources": [{"name": "a", "sound": "a.wav", "occlusion": 6}]}"#, "sources[0].occlusion: 6 is out of range"),
        (#"{"format": 1, "duration": 4, "sources": [{"name": "a", "sound": "a.wav", "reverbSend": 2}]}"#, "sources[0].reverbSend: 2 is out of range"),
        (#"{"format": 1, "duration": 4, "sources": [ {"name": "a"}"#, "not valid JSON"),
        (#"{"format": 1, "duration": 4, "duration": 40, "sources": []}"#, #"not valid JSON: duplicate member name "duration""#),
    ]

    @Test(arguments: malformed)
    func malformedScenesAreRefusedWithThePathOfTheProblem(_ json: String, _ expected: String) {
        let error = #expect(throws: SoundstageError.self) { try SceneDescription.parse(Data(json.utf8), name: "bad.json") }
        #expect(error?.code == .invalidScene)
        #expect(error?.subject == "bad.json")
        #expect(error?.message.hasPrefix(expected) == true, "got: \(error?.message ?? "nothing")")
    }

    @Test func aMissingSoundIsRefusedBeforeAnythingPlays() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("scene-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("broken.json").path
        try #"{"format": 1, "duration": 2, "sources": [{"name": "tone", "sound": {"tone": {}}}, {"name": "gone", "sound": "missing.wav"}]}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let description = try SceneDescription.load(path: path)
        let device = try Device.loopback()
        defer { device.close() }
        let error = #expect(throws: SoundstageError.self) { _ = try SceneRunner(description, device: device) }
        #expect(error?.code == .invalidScene)
        #expect(error?.subject == path)
        #expect(error?.message.hasPrefix("sources[1].sound: cannot load 'missing.wav'") == true, "\(error?.message ?? "")")
        #expect(device.liveObjects.sources == 0, "nothing played")
        #expect(device.liveObjects.contexts == 1, "no scene was created")
    }

    @Test func smoothPathsPassThroughTheirKeyframes() throws {
        let motion = try Motion(keyframes: [.init(t: 0, position: Vector3(0, 0, 0)), .init(t: 1, position: Vector3(2, 0, 0)),
                                        .init(t: 3, position: Vector3(2, 0, -4))], interpolation: .smooth)
        #expect(motion.position(at: 1) == Vector3(2, 0, 0))
        #expect(motion.position(at: 5) == Vector3(2, 0, -4))
        // Velocity is the derivative: compare with a finite difference.
        let h = 1e-4
        let numeric = (motion.position(at: 2 + h) - motion.position(at: 2 - h)) * Float(1 / (2 * h))
        #expect((numeric - motion.velocity(at: 2)).length < 0.01)
        let linear = try Motion(keyframes: motion.keyframes, interpolation: .linear)
        #expect(linear.velocity(at: 0.5) == Vector3(2, 0, 0))
        #expect(linear.velocity(at: 10) == .zero)
    }
}
