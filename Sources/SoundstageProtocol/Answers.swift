/// How a play went: the `outcome` of a `playSound` answer and of `completion` events.
public enum PlayOutcome: String, Sendable, CaseIterable {
    /// It is playing (answers only; its `completion` event says how it ended).
    case playing
    /// It played to its end.
    case finished
    /// A newer play of the same sound took its place.
    case replaced
    /// It merged into an identical play already waiting or just started.
    case coalesced
    /// The client's session does not sound (inactive, interrupted) or the volume is zero.
    case silenced
    /// The sound was disposed while it played.
    case disposed
    /// It could not play.
    case failed
}

/// The answer to `registerSound`, `playSound` and `disposeSound`, and an entry of
/// `listSounds`: which sound, and for a play how it went.
public struct SoundAnswer: ProtocolBody {
    /// The sound's ID.
    public let sound: UInt32
    /// `registerSound`, `listSounds`: the file or event registered.
    public var name: String?
    /// `playSound`: `playing`, or how it already ended.
    public var outcome: PlayOutcome?
    /// `disposeSound`: true.
    public var disposed: Bool?

    /// Creates an answer.
    public init(sound: UInt32, name: String? = nil, outcome: PlayOutcome? = nil, disposed: Bool? = nil) {
        self.sound = sound
        self.name = name
        self.outcome = outcome
        self.disposed = disposed
    }

    public init(json: JSONValue) throws {
        let reader = try BodyReader(json, "sound answer")
        sound = try reader.soundID("sound")
        name = try reader.optionalString("name")
        outcome = try reader.outcome("outcome")
        disposed = try reader.optionalBool("disposed")
    }

    public var json: JSONValue {
        var writer = BodyWriter()
        writer.set("sound", Double(sound))
        writer.set("name", name)
        writer.set("outcome", outcome?.rawValue)
        writer.set("disposed", disposed)
        return writer.json
    }
}

/// The answer to `listSounds`: the client's registered sounds.
public struct SoundListAnswer: ProtocolBody {
    /// Each sound, with its name.
    public var sounds: [SoundAnswer]

    /// Creates an answer.
    public init(sounds: [SoundAnswer]) { self.sounds = sounds }

    public init(json: JSONValue) throws {
        sounds = try BodyReader(json, "listSounds").objects("sounds").map(SoundAnswer.init(json:))
    }

    public var json: JSONValue { ["sounds": .array(sounds.map(\.json))] }
}

/// The answer to `setSoundVolume`: the client's system-sound volume now.
public struct VolumeAnswer: ProtocolBody {
    /// Linear volume, 0...16.
    public var volume: Double

    /// Creates an answer.
    public init(volume: Double) { self.volume = volume }

    public init(json: JSONValue) throws { volume = try BodyReader(json, "setSoundVolume").number("volume") }

    public var json: JSONValue { ["volume": .number(volume)] }
}

/// The answer to `ping`.
public struct PingAnswer: ProtocolBody {
    /// Always true.
    public var pong: Bool
    /// `soundstage`.
    public var server: String
    /// The protocol version the daemon speaks.
    public var protocolVersion: Int

    /// Creates an answer.
    public init(pong: Bool = true, server: String = "soundstage", protocolVersion: Int = ServerProtocol.version) {
        self.pong = pong
        self.server = server
        self.protocolVersion = protocolVersion
    }

    public init(json: JSONValue) throws {
        let reader = try BodyReader(json, "ping")
        pong = try reader.bool("pong")
        server = try reader.string("server")
        protocolVersion = try reader.integer("protocol")
    }

    public var json: JSONValue {
        ["pong": .bool(pong), "server": .string(server), "protocol": .number(Double(protocolVersion))]
    }
}

/// The answer to `status`: the daemon's state.
public struct StatusAnswer: ProtocolBody {
    /// The daemon's output device.
    public struct DeviceSummary: Sendable, Equatable {
        /// `output` (a sound card or the desktop server) or `loopback` (rendered offline).
        public var kind: String
        /// Frames per second.
        public var sampleRate: Int
        /// Output channels.
        public var channels: Int

        /// Creates a summary.
        public init(kind: String, sampleRate: Int, channels: Int) {
            self.kind = kind
            self.sampleRate = sampleRate
            self.channels = channels
        }
    }

    /// Connected clients.
    public var clients: Int
    /// Audio sessions.
    public var sessions: Int
    /// Clients gone whose sounds still play out.
    public var retiringClients: Int
    /// The output device.
    public var device: DeviceSummary
    /// Live OpenAL objects: `devices`, `contexts`, `buffers`, `sources`.
    public var liveObjects: [String: Int]
    /// The daemon's counters (answered, errors, busy, coalesced, peaks, read pauses, ...; see
    /// docs/protocol.md), by name.
    public var statistics: [String: Double]

    /// Creates an answer.
    public init(clients: Int, sessions: Int, retiringClients: Int, device: DeviceSummary,
                liveObjects: [String: Int], statistics: [String: Double]) {
        self.clients = clients
        self.sessions = sessions
        self.retiringClients = retiringClients
        self.device = device
        self.liveObjects = liveObjects
        self.statistics = statistics
    }

    public init(json: JSONValue) throws {
        let reader = try BodyReader(json, "status")
        clients = try reader.integer("clients")
        sessions = try reader.integer("sessions")
        retiringClients = try reader.integer("retiringClients")
        let device = try BodyReader(try reader.member("device"), "status: device")
        self.device = DeviceSummary(kind: try device.string("kind"), sampleRate: try device.integer("sampleRate"),
                                    channels: try device.integer("channels"))
        let live = try BodyReader(try reader.member("liveObjects"), "status: liveObjects")
        liveObjects = try Dictionary(uniqueKeysWithValues: (live.json.objectValue ?? [:]).keys.map { ($0, try live.integer($0)) })
        let statistics = try BodyReader(try reader.member("statistics"), "status: statistics")
        self.statistics = try Dictionary(uniqueKeysWithValues: (statistics.json.objectValue ?? [:]).keys.map { ($0, try statistics.number($0)) })
    }

    public var json: JSONValue {
        [
            "clients": .number(Double(clients)),
            "sessions": .number(Double(sessions)),
            "retiringClients": .number(Double(retiringClients)),
            "device": ["kind": .string(device.kind), "sampleRate": .number(Double(device.sampleRate)),
                       "channels": .number(Double(device.channels))],
            "liveObjects": .object(liveObjects.mapValues { .number(Double($0)) }),
            "statistics": .object(statistics.mapValues(JSONValue.number)),
        ]
    }
}

/// The answer to `loadScene`, `runScene`, `stopScene`, `unloadScene` and `playAt`, and an entry
/// of `listScenes`: the scene, and what the command says of it.
public struct SceneAnswer: ProtocolBody {
    /// The scene's name.
    public var scene: String
    /// `loadScene`, `runScene`, `listScenes`: its length in seconds.
    public var duration: Double?
    /// `loadScene`: its sources' names.
    public var sources: [String]?
    /// `loadScene`: its contexts' names.
    public var contexts: [String]?
    /// `runScene`, `stopScene`, `listScenes`: whether it runs.
    public var running: Bool?
    /// `listScenes`: where it is, in seconds.
    public var time: Double?
    /// `unloadScene`: true.
    public var unloaded: Bool?
    /// `playAt`: `playing`.
    public var outcome: PlayOutcome?

    /// Creates an answer.
    public init(scene: String, duration: Double? = nil, sources: [String]? = nil, contexts: [String]? = nil,
                running: Bool? = nil, time: Double? = nil, unloaded: Bool? = nil, outcome: PlayOutcome? = nil) {
        self.scene = scene
        self.duration = duration
        self.sources = sources
        self.contexts = contexts
        self.running = running
        self.time = time
        self.unloaded = unloaded
        self.outcome = outcome
    }

    public init(json: JSONValue) throws {
        let reader = try BodyReader(json, "scene answer")
        scene = try reader.string("scene")
        duration = try reader.optionalNumber("duration")
        sources = try reader.optionalStrings("sources")
        contexts = try reader.optionalStrings("contexts")
        running = try reader.optionalBool("running")
        time = try reader.optionalNumber("time")
        unloaded = try reader.optionalBool("unloaded")
        outcome = try reader.outcome("outcome")
    }

    public var json: JSONValue {
        var writer = BodyWriter()
        writer.set("scene", scene)
        writer.set("duration", duration)
        writer.set("sources", sources)
        writer.set("contexts", contexts)
        writer.set("running", running)
        writer.set("time", time)
        writer.set("unloaded", unloaded)
        writer.set("outcome", outcome?.rawValue)
        return writer.json
    }
}

/// The answer to `listScenes`: the client's scenes.
public struct SceneListAnswer: ProtocolBody {
    /// Each scene: name, running, time, duration.
    public var scenes: [SceneAnswer]

    /// Creates an answer.
    public init(scenes: [SceneAnswer]) { self.scenes = scenes }

    public init(json: JSONValue) throws {
        scenes = try BodyReader(json, "listScenes").objects("scenes").map(SceneAnswer.init(json:))
    }

    public var json: JSONValue { ["scenes": .array(scenes.map(\.json))] }
}

/// The answer to `setListener`: the listener's state now.
public struct ListenerAnswer: ProtocolBody {
    /// The scene's name.
    public var scene: String
    /// Position `[x, y, z]`.
    public var position: [Double]
    /// Forward vector.
    public var at: [Double]
    /// Up vector.
    public var up: [Double]
    /// Velocity.
    public var velocity: [Double]
    /// Gain (linear).
    public var gain: Double

    /// Creates an answer.
    public init(scene: String, position: [Double], at: [Double], up: [Double], velocity: [Double], gain: Double) {
        self.scene = scene
        self.position = position
        self.at = at
        self.up = up
        self.velocity = velocity
        self.gain = gain
    }

    public init(json: JSONValue) throws {
        let reader = try BodyReader(json, "setListener")
        scene = try reader.string("scene")
        position = try reader.vector("position")
        at = try reader.vector("at")
        up = try reader.vector("up")
        velocity = try reader.vector("velocity")
        gain = try reader.number("gain")
    }

    public var json: JSONValue {
        var writer = BodyWriter()
        writer.set("scene", scene)
        writer.set("position", vector: position)
        writer.set("at", vector: at)
        writer.set("up", vector: up)
        writer.set("velocity", vector: velocity)
        writer.set("gain", gain)
        return writer.json
    }
}

/// The answer to `session`: the client's audio session now.
public struct SessionAnswer: ProtocolBody {
    /// Its category (`ambient`, `soloAmbient`, `playback`, `playAndRecord`, `record`, `audioProcessing`).
    public var category: String
    /// Its options (`mixWithOthers`, `duckOthers`).
    public var options: [String]
    /// Whether it is active.
    public var active: Bool
    /// Whether it is interrupted.
    public var interrupted: Bool
    /// Whether another session ducks it.
    public var ducked: Bool

    /// Creates an answer.
    public init(category: String, options: [String], active: Bool, interrupted: Bool, ducked: Bool) {
        self.category = category
        self.options = options
        self.active = active
        self.interrupted = interrupted
        self.ducked = ducked
    }

    public init(json: JSONValue) throws {
        let reader = try BodyReader(json, "session")
        category = try reader.string("category")
        options = try reader.strings("options")
        active = try reader.bool("active")
        interrupted = try reader.bool("interrupted")
        ducked = try reader.bool("ducked")
    }

    public var json: JSONValue {
        ["category": .string(category), "options": .array(options.map(JSONValue.string)), "active": .bool(active),
         "interrupted": .bool(interrupted), "ducked": .bool(ducked)]
    }
}

/// The answer to `subscribe` and `unsubscribe`: the topics subscribed now.
public struct SubscriptionAnswer: ProtocolBody {
    /// The topics, sorted by name.
    public var subscribed: [EventTopic]

    /// Creates an answer.
    public init(subscribed: [EventTopic]) { self.subscribed = subscribed.sorted { $0.rawValue < $1.rawValue } }

    public init(json: JSONValue) throws {
        let reader = try BodyReader(json, "subscribe")
        subscribed = try reader.strings("subscribed").map { name in
            guard let topic = EventTopic(rawValue: name) else { throw reader.failure("subscribed", "event topics") }
            return topic
        }
    }

    public var json: JSONValue { ["subscribed": .array(subscribed.map { .string($0.rawValue) })] }
}

extension Command {
    /// The type of the command's `result`.
    public var answer: any ProtocolBody.Type {
        switch self {
        case .ping: PingAnswer.self
        case .status: StatusAnswer.self
        case .registerSound, .playSound, .disposeSound: SoundAnswer.self
        case .listSounds: SoundListAnswer.self
        case .setSoundVolume: VolumeAnswer.self
        case .loadScene, .runScene, .stopScene, .unloadScene, .playAt: SceneAnswer.self
        case .listScenes: SceneListAnswer.self
        case .setListener: ListenerAnswer.self
        case .session: SessionAnswer.self
        case .subscribe, .unsubscribe: SubscriptionAnswer.self
        }
    }
}
