import Foundation

/// Any JSON value, decoded strictly (a number is never a Bool and vice versa).
enum JSONValue: Decodable, Equatable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension SceneDescription {
    /// Loads and validates a scene file.
    ///
    /// - Throws: `.invalidScene` naming the file, the JSON path of the first problem
    ///   (e.g. `sources[1].path[0].t`) and what was expected; `.notFound` etc. for the file itself.
    public static func load(path: String) throws -> SceneDescription {
        let url = URL(fileURLWithPath: path)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            let code = (error as NSError).code
            if FileManager.default.fileExists(atPath: path) {
                throw SoundstageError(code == NSFileReadNoPermissionError ? .permissionDenied : .io,
                                      "cannot read the scene file", subject: path)
            }
            throw SoundstageError(.notFound, "no such scene file", subject: path)
        }
        var scene = try parse(data, name: path, baseDirectory: url.deletingLastPathComponent().path)
        scene.file = path
        return scene
    }

    /// Parses and validates scene-file JSON. `name` appears in errors.
    public static func parse(_ data: Data, name: String = "<scene>", baseDirectory: String = ".") throws -> SceneDescription {
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            let detail = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            throw SoundstageError(.invalidScene, "not valid JSON: \(detail ?? context.debugDescription)", subject: name)
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

    func fail(_ path: String, _ message: String) -> SoundstageError {
        SoundstageError(.invalidScene, "\(path): \(message)", subject: file)
    }

    func object(_ value: JSONValue, _ path: String, allowed: Set<String>, required: Set<String> = []) throws -> [String: JSONValue] {
        guard case let .object(members) = value else { throw fail(path, "expected an object, got \(value.kind)") }
        if let unknown = members.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw fail(path.isEmpty ? unknown : "\(path).\(unknown)",
                       "unknown key; expected one of \(allowed.sorted().joined(separator: ", "))")
        }
        if let missing = required.sorted().first(where: { members[$0] == nil }) {
            throw fail(path.isEmpty ? missing : "\(path).\(missing)", "missing; this key is required")
        }
        return members
    }

    func number(_ value: JSONValue?, _ path: String, default fallback: Double? = nil,
                in range: ClosedRange<Double> = -1e9...1e9) throws -> Double {
        guard let value else {
            if let fallback { return fallback }
            throw fail(path, "missing; expected a number")
        }
        guard case let .number(number) = value else { throw fail(path, "expected a number, got \(value.kind)") }
        guard range.contains(number) else {
            throw fail(path, "\(format(number)) is out of range; expected \(format(range.lowerBound)) to \(format(range.upperBound))")
        }
        return number
    }

    func bool(_ value: JSONValue?, _ path: String, default fallback: Bool) throws -> Bool {
        guard let value else { return fallback }
        guard case let .bool(flag) = value else { throw fail(path, "expected true or false, got \(value.kind)") }
        return flag
    }

    func string(_ value: JSONValue?, _ path: String) throws -> String? {
        guard let value else { return nil }
        guard case let .string(text) = value else { throw fail(path, "expected a string, got \(value.kind)") }
        return text
    }

    func vector(_ value: JSONValue?, _ path: String, nonZero: Bool = false) throws -> Vector3? {
        guard let value else { return nil }
        guard case let .array(items) = value, items.count == 3 else {
            throw fail(path, "expected [x, y, z] (three numbers), got \(value.kind)")
        }
        let xyz = try items.enumerated().map { index, item in Float(try number(item, "\(path)[\(index)]")) }
        let vector = Vector3(xyz[0], xyz[1], xyz[2])
        if nonZero && vector.length == 0 { throw fail(path, "must not be the zero vector") }
        return vector
    }

    func choice<T: RawRepresentable & CaseIterable>(_ value: JSONValue?, _ path: String, default fallback: T) throws -> T
        where T.RawValue == String {
        guard let text = try string(value, path) else { return fallback }
        guard let choice = T(rawValue: text) else {
            throw fail(path, "'\(text)' is not one of \(T.allCases.map { $0.rawValue }.joined(separator: ", "))")
        }
        return choice
    }

    func motion(_ value: JSONValue?, _ path: String, interpolation: Motion.Interpolation, duration: Double) throws -> Motion? {
        guard let value else { return nil }
        guard case let .array(items) = value, !items.isEmpty else {
            throw fail(path, "expected a non-empty array of keyframes {\"t\": seconds, \"position\": [x, y, z]}")
        }
        var keyframes: [Motion.Keyframe] = []
        for (index, item) in items.enumerated() {
            let at = "\(path)[\(index)]"
            let members = try object(item, at, allowed: ["t", "position"], required: ["t", "position"])
            let t = try number(members["t"], "\(at).t", in: 0...max(duration, 0))
            if let previous = keyframes.last, t <= previous.t {
                throw fail("\(at).t", "\(format(t)) does not come after the previous keyframe's \(format(previous.t)); times must increase")
            }
            keyframes.append(Motion.Keyframe(t: t, position: try vector(members["position"], "\(at).position")!))
        }
        return Motion(keyframes: keyframes, interpolation: interpolation)
    }

    func scene(_ root: JSONValue, baseDirectory: String) throws -> SceneDescription {
        let members = try object(root, "", allowed: ["format", "duration", "distanceModel", "dopplerFactor", "speedOfSound",
                                                     "listener", "sources"],
                                 required: ["format", "duration", "sources"])
        let version = try number(members["format"], "format", in: 1...1e9)
        guard version == Double(SceneDescription.formatVersion) else {
            throw fail("format", "version \(format(version)) is not supported; this Soundstage reads format \(SceneDescription.formatVersion)")
        }
        let duration = try number(members["duration"], "duration", in: 0.001...86_400)
        var scene = SceneDescription(duration: duration, sources: [], baseDirectory: baseDirectory)
        scene.distanceModel = try choice(members["distanceModel"], "distanceModel", default: DistanceModel.inverseClamped)
        scene.dopplerFactor = Float(try number(members["dopplerFactor"], "dopplerFactor", default: 1, in: 0...100))
        scene.speedOfSound = Float(try number(members["speedOfSound"], "speedOfSound", default: 343.3, in: 0.001...1e6))
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
        return scene
    }

    func listener(_ value: JSONValue, duration: Double) throws -> ListenerDescription {
        let members = try object(value, "listener", allowed: ["position", "at", "up", "gain", "velocity", "path", "interpolation"])
        var listener = ListenerDescription()
        listener.position = try vector(members["position"], "listener.position") ?? .zero
        listener.at = try vector(members["at"], "listener.at", nonZero: true) ?? Vector3(0, 0, -1)
        listener.up = try vector(members["up"], "listener.up", nonZero: true) ?? Vector3(0, 1, 0)
        listener.gain = Float(try number(members["gain"], "listener.gain", default: 1, in: 0...100))
        listener.velocity = try vector(members["velocity"], "listener.velocity")
        let interpolation = try choice(members["interpolation"], "listener.interpolation", default: Motion.Interpolation.linear)
        listener.path = try motion(members["path"], "listener.path", interpolation: interpolation, duration: duration)
        return listener
    }

    func source(_ value: JSONValue, _ path: String, duration: Double) throws -> SourceDescription {
        let members = try object(value, path, allowed: [
            "name", "sound", "context", "loop", "gain", "pitch", "start", "stop", "referenceDistance", "rolloff",
            "maxDistance", "position", "velocity", "direction", "cone", "headRelative", "path", "interpolation",
        ], required: ["name", "sound"])
        guard let name = try string(members["name"], "\(path).name"), !name.isEmpty else {
            throw fail("\(path).name", "must not be empty")
        }
        var source = SourceDescription(name: name, sound: try sound(members["sound"]!, "\(path).sound"))
        source.context = try string(members["context"], "\(path).context") ?? "world"
        source.loop = try bool(members["loop"], "\(path).loop", default: false)
        source.gain = Float(try number(members["gain"], "\(path).gain", default: 1, in: 0...100))
        source.pitch = Float(try number(members["pitch"], "\(path).pitch", default: 1, in: 0.01...100))
        source.start = try number(members["start"], "\(path).start", default: 0, in: 0...duration)
        if let stop = members["stop"] {
            let value = try number(stop, "\(path).stop", in: 0...duration)
            guard value > source.start else {
                throw fail("\(path).stop", "\(format(value)) must come after start (\(format(source.start)))")
            }
            source.stop = value
        }
        source.referenceDistance = Float(try number(members["referenceDistance"], "\(path).referenceDistance", default: 1, in: 0...1e6))
        source.rolloff = Float(try number(members["rolloff"], "\(path).rolloff", default: 1, in: 0...1e6))
        if let maxDistance = members["maxDistance"] {
            source.maxDistance = Float(try number(maxDistance, "\(path).maxDistance", in: 0...1e9))
        }
        source.position = try vector(members["position"], "\(path).position") ?? .zero
        source.velocity = try vector(members["velocity"], "\(path).velocity")
        source.direction = try vector(members["direction"], "\(path).direction")
        if let cone = members["cone"] {
            let fields = try object(cone, "\(path).cone", allowed: ["inner", "outer", "outerGain"], required: ["inner", "outer"])
            let inner = try number(fields["inner"], "\(path).cone.inner", in: 0...360)
            let outer = try number(fields["outer"], "\(path).cone.outer", in: inner...360)
            let outerGain = try number(fields["outerGain"], "\(path).cone.outerGain", default: 0, in: 0...1)
            source.cone = Source.Cone(innerAngle: Float(inner), outerAngle: Float(outer), outerGain: Float(outerGain))
        }
        source.headRelative = try bool(members["headRelative"], "\(path).headRelative", default: false)
        let interpolation = try choice(members["interpolation"], "\(path).interpolation", default: Motion.Interpolation.linear)
        source.path = try motion(members["path"], "\(path).path", interpolation: interpolation, duration: duration)
        return source
    }

    func sound(_ value: JSONValue, _ path: String) throws -> SoundDescription {
        switch value {
        case let .string(file):
            guard !file.isEmpty else { throw fail(path, "must not be empty") }
            return .file(file)
        case .object:
            let outer = try object(value, path, allowed: ["tone"], required: ["tone"])
            let fields = try object(outer["tone"]!, "\(path).tone", allowed: ["waveform", "frequency", "amplitude"])
            let waveform = try choice(fields["waveform"], "\(path).tone.waveform", default: Tone.Waveform.sine)
            let frequency = try number(fields["frequency"], "\(path).tone.frequency", default: 440, in: 1...20_000)
            let amplitude = try number(fields["amplitude"], "\(path).tone.amplitude", default: 0.5, in: 0...1)
            return .tone(Tone(waveform: waveform, frequency: frequency, amplitude: amplitude))
        default:
            throw fail(path, "expected a file path (string) or {\"tone\": {...}}, got \(value.kind)")
        }
    }

    private func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
