#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import SoundFile
import SoundstageJSON
import Soundstage

extension SceneDescription {
    /// Loads and validates a scene file.
    ///
    /// - Throws: `.invalidScene` naming the file, the JSON path of the first problem
    ///   (e.g. `sources[1].path[0].t`) and what was expected; `.notFound` etc. for the file itself.
    public static func load(path: String) throws -> SceneDescription {
        let url = URL(fileURLWithPath: path)
        let data = Data(try FileBytes.read(path: path, limit: maximumFileSize, what: "scene file"))
        var scene = try parse(data, name: path, baseDirectory: url.deletingLastPathComponent().path)
        scene.file = path
        return scene
    }

    /// The largest scene file ``load(path:)`` reads: 16 MiB (the examples are a few KB).
    public static let maximumFileSize = 16 << 20

    /// Parses and validates scene-file JSON. `name` appears in errors.
    public static func parse(_ data: Data, name: String = "<scene>", baseDirectory: String = ".") throws -> SceneDescription {
        let root: JSONValue
        do {
            root = try JSONValue(parsing: data)
        } catch {
            throw SoundstageError(.invalidScene, "not valid JSON: \(error)", subject: name)
        }
        return try SceneFileReader(file: name).scene(root, baseDirectory: baseDirectory)
    }
}

/// Walks scene-file JSON, checking every key, type and range and naming the JSON path of the
/// first problem.
struct SceneFileReader {
    let file: String
    let json: JSONReader

    init(file: String) {
        self.file = file
        json = JSONReader { path, message in SoundstageError(.invalidScene, "\(path): \(message)", subject: file) }
    }

    func fail(_ path: String, _ message: String) -> any Error { json.fail(path, message) }

    func vector(_ value: JSONValue?, _ path: String, nonZero: Bool = false) throws -> Vector3? {
        try json.vector(value, path, nonZero: nonZero)
    }

    func motion(_ value: JSONValue?, _ path: String, interpolation: Motion.Interpolation, duration: Double) throws -> Motion? {
        guard let value else { return nil }
        guard case let .array(items) = value, !items.isEmpty else {
            throw fail(path, "expected a non-empty array of keyframes {\"t\": seconds, \"position\": [x, y, z]}")
        }
        var keyframes: [Motion.Keyframe] = []
        for (index, item) in items.enumerated() {
            let at = "\(path)[\(index)]"
            let members = try json.object(item, at, allowed: ["t", "position"], required: ["t", "position"])
            let t = try json.number(members["t"], "\(at).t", in: 0...max(duration, 0))
            if let previous = keyframes.last, t <= previous.t {
                throw fail("\(at).t", "\(format(t)) does not come after the previous keyframe's \(format(previous.t)); times must increase")
            }
            keyframes.append(Motion.Keyframe(t: t, position: try vector(members["position"], "\(at).position")!))
        }
        return try Motion(keyframes: keyframes, interpolation: interpolation)
    }

    func scene(_ root: JSONValue, baseDirectory: String) throws -> SceneDescription {
        let members = try json.object(root, "", allowed: ["format", "duration", "distanceModel", "dopplerFactor", "speedOfSound",
                                                     "listener", "sources", "reverb"],
                                 required: ["format", "duration", "sources"])
        let version = try json.number(members["format"], "format", in: 1...1e9)
        guard version == Double(SceneDescription.formatVersion) else {
            throw fail("format", "version \(format(version)) is not supported; this Soundstage reads format \(SceneDescription.formatVersion)")
        }
        let duration = try json.number(members["duration"], "duration", in: 0.001...86_400)
        var scene = SceneDescription(duration: duration, sources: [], baseDirectory: baseDirectory)
        scene.distanceModel = try json.choice(members["distanceModel"], "distanceModel", default: DistanceModel.inverseClamped)
        scene.dopplerFactor = Float(try json.number(members["dopplerFactor"], "dopplerFactor", default: 1, in: 0...100))
        scene.speedOfSound = Float(try json.number(members["speedOfSound"], "speedOfSound", default: 343.3, in: 0.001...1e6))
        if let listener = members["listener"] { scene.listener = try self.listener(listener, duration: duration) }
        guard case let .array(sources)? = members["sources"] else {
            throw fail("sources", "expected an array of sources, got \(members["sources"]!.kind)")
        }
        var names: Set<String> = []
        for (index, item) in sources.enumerated() {
            let source = try self.source(item, "sources[\(index)]", duration: duration)
            guard names.insert(source.name).inserted else {
                throw fail("sources[\(index)].name", "'\(source.name)' is used by an earlier source; names must be unique")
            }
            scene.sources.append(source)
        }
        if let reverb = members["reverb"] { scene.reverbZones = try reverbZones(reverb) }
        return scene
    }

    func reverbZones(_ value: JSONValue) throws -> [ReverbZoneDescription] {
        guard case let .array(items) = value else {
            throw fail("reverb", "expected an array of reverb zones, got \(value.kind)")
        }
        var zones: [ReverbZoneDescription] = []
        for (index, item) in items.enumerated() {
            let path = "reverb[\(index)]"
            let members = try json.object(item, path, allowed: ["name", "preset", "settings", "gain", "region", "context"],
                                          required: ["name", "preset"])
            guard let name = try json.string(members["name"], "\(path).name"), !name.isEmpty else {
                throw fail("\(path).name", "must not be empty")
            }
            guard !zones.contains(where: { $0.name == name }) else {
                throw fail("\(path).name", "'\(name)' is used by an earlier zone; names must be unique")
            }
            let presetName = try json.string(members["preset"], "\(path).preset")!
            guard var preset = ReverbPreset.named(presetName) else {
                throw fail("\(path).preset", "unknown preset '\(presetName)'; `soundstage reverb-presets` lists the \(ReverbPreset.all.count)")
            }
            if let settings = members["settings"] {
                let keys = ReverbPreset.settingNames.map(\.name)
                let fields = try json.object(settings, "\(path).settings", allowed: Set(keys))
                for (key, keyPath) in ReverbPreset.settingNames {
                    guard let field = fields[key] else { continue }
                    preset[keyPath: keyPath] = Float(try json.number(field, "\(path).settings.\(key)", in: 0...100_000))
                }
            }
            var zone = ReverbZoneDescription(name: name, preset: preset)
            zone.gain = Float(try json.number(members["gain"], "\(path).gain", default: 1, in: 0...1))
            zone.context = try json.string(members["context"], "\(path).context") ?? "world"
            if let region = members["region"] { zone.region = try self.region(region, "\(path).region") }
            guard zones.count(where: { $0.context == zone.context }) < 4 else {
                throw fail(path, "a context holds at most 4 reverb zones (the sends of a source)")
            }
            zones.append(zone)
        }
        return zones
    }

    func region(_ value: JSONValue, _ path: String) throws -> ReverbRegion {
        let members = try json.object(value, path, allowed: ["center", "radius", "min", "max", "fade"])
        let fade = Float(try json.number(members["fade"], "\(path).fade", default: 0, in: 0...1e6))
        if members["center"] != nil || members["radius"] != nil {
            guard members["min"] == nil, members["max"] == nil else {
                throw fail(path, "a region is a sphere {center, radius} or a box {min, max}, not both")
            }
            guard let center = try vector(members["center"], "\(path).center") else { throw fail("\(path).center", "is required for a sphere") }
            guard members["radius"] != nil else { throw fail("\(path).radius", "is required for a sphere") }
            let radius = Float(try json.number(members["radius"], "\(path).radius", in: 0...1e6))
            return .sphere(center: center, radius: radius, fade: fade)
        }
        guard let low = try vector(members["min"], "\(path).min"), let high = try vector(members["max"], "\(path).max") else {
            throw fail(path, "expected a sphere {\"center\": [x, y, z], \"radius\": r} or a box {\"min\": [x, y, z], \"max\": [x, y, z]}")
        }
        guard low.x <= high.x, low.y <= high.y, low.z <= high.z else {
            throw fail("\(path).max", "must be >= min on every axis")
        }
        return .box(min: low, max: high, fade: fade)
    }

    func listener(_ value: JSONValue, duration: Double) throws -> ListenerDescription {
        let members = try json.object(value, "listener", allowed: ["position", "at", "up", "gain", "velocity", "path", "interpolation"])
        var listener = ListenerDescription()
        listener.position = try vector(members["position"], "listener.position") ?? .zero
        listener.at = try vector(members["at"], "listener.at", nonZero: true) ?? Vector3(0, 0, -1)
        listener.up = try vector(members["up"], "listener.up", nonZero: true) ?? Vector3(0, 1, 0)
        listener.gain = Float(try json.number(members["gain"], "listener.gain", default: 1, in: SceneLimits.gain))
        listener.velocity = try vector(members["velocity"], "listener.velocity")
        let interpolation = try json.choice(members["interpolation"], "listener.interpolation", default: Motion.Interpolation.linear)
        listener.path = try motion(members["path"], "listener.path", interpolation: interpolation, duration: duration)
        return listener
    }

    func source(_ value: JSONValue, _ path: String, duration: Double) throws -> SourceDescription {
        let members = try json.object(value, path, allowed: [
            "name", "sound", "context", "loop", "gain", "pitch", "start", "stop", "referenceDistance", "rolloff",
            "maxDistance", "position", "velocity", "direction", "cone", "headRelative", "path", "interpolation",
            "occlusion", "obstruction", "airAbsorption", "reverbSend", "stream",
        ], required: ["name", "sound"])
        guard let name = try json.string(members["name"], "\(path).name"), !name.isEmpty else {
            throw fail("\(path).name", "must not be empty")
        }
        var source = SourceDescription(name: name, sound: try sound(members["sound"]!, "\(path).sound"))
        source.context = try json.string(members["context"], "\(path).context") ?? "world"
        source.loop = try json.bool(members["loop"], "\(path).loop", default: false)
        if let stream = members["stream"] {
            guard case .file = source.sound else { throw fail("\(path).stream", "only a sound file streams; a tone is generated") }
            source.stream = try json.bool(stream, "\(path).stream", default: false)
        }
        source.gain = Float(try json.number(members["gain"], "\(path).gain", default: 1, in: SceneLimits.gain))
        source.pitch = Float(try json.number(members["pitch"], "\(path).pitch", default: 1, in: SceneLimits.pitch))
        source.start = try json.number(members["start"], "\(path).start", default: 0, in: 0...duration)
        if let stop = members["stop"] {
            let value = try json.number(stop, "\(path).stop", in: 0...duration)
            guard value > source.start else {
                throw fail("\(path).stop", "\(format(value)) must come after start (\(format(source.start)))")
            }
            source.stop = value
        }
        source.referenceDistance = Float(try json.number(members["referenceDistance"], "\(path).referenceDistance", default: 1, in: 0...1e6))
        source.rolloff = Float(try json.number(members["rolloff"], "\(path).rolloff", default: 1, in: 0...1e6))
        if let maxDistance = members["maxDistance"] {
            source.maxDistance = Float(try json.number(maxDistance, "\(path).maxDistance", in: 0...1e9))
        }
        source.position = try vector(members["position"], "\(path).position") ?? .zero
        source.velocity = try vector(members["velocity"], "\(path).velocity")
        source.direction = try vector(members["direction"], "\(path).direction")
        if let cone = members["cone"] {
            let fields = try json.object(cone, "\(path).cone", allowed: ["inner", "outer", "outerGain"], required: ["inner", "outer"])
            let inner = try json.number(fields["inner"], "\(path).cone.inner", in: 0...360)
            let outer = try json.number(fields["outer"], "\(path).cone.outer", in: inner...360)
            let outerGain = try json.number(fields["outerGain"], "\(path).cone.outerGain", default: 0, in: 0...1)
            source.cone = Source.Cone(innerAngle: Float(inner), outerAngle: Float(outer), outerGain: Float(outerGain))
        }
        source.headRelative = try json.bool(members["headRelative"], "\(path).headRelative", default: false)
        source.occlusion = Float(try json.number(members["occlusion"], "\(path).occlusion", default: 0, in: -100...0))
        source.obstruction = Float(try json.number(members["obstruction"], "\(path).obstruction", default: 0, in: -100...0))
        source.airAbsorption = Float(try json.number(members["airAbsorption"], "\(path).airAbsorption", default: 0, in: 0...10))
        source.reverbSend = Float(try json.number(members["reverbSend"], "\(path).reverbSend", default: 1, in: 0...1))
        let interpolation = try json.choice(members["interpolation"], "\(path).interpolation", default: Motion.Interpolation.linear)
        source.path = try motion(members["path"], "\(path).path", interpolation: interpolation, duration: duration)
        return source
    }

    func sound(_ value: JSONValue, _ path: String) throws -> SoundDescription {
        switch value {
        case let .string(file):
            guard !file.isEmpty else { throw fail(path, "must not be empty") }
            return .file(file)
        case .object:
            let outer = try json.object(value, path, allowed: ["tone"], required: ["tone"])
            let fields = try json.object(outer["tone"]!, "\(path).tone", allowed: ["waveform", "frequency", "amplitude"])
            let waveform = try json.choice(fields["waveform"], "\(path).tone.waveform", default: Tone.Waveform.sine)
            let frequency = try json.number(fields["frequency"], "\(path).tone.frequency", default: 440, in: 1...20_000)
            let amplitude = try json.number(fields["amplitude"], "\(path).tone.amplitude", default: 0.5, in: 0...1)
            return .tone(Tone(waveform: waveform, frequency: frequency, amplitude: amplitude))
        default:
            throw fail(path, "expected a file path (string) or {\"tone\": {...}}, got \(value.kind)")
        }
    }

    private func format(_ value: Double) -> String { JSONValue.format(value) }
}
