/// The events the daemon pushes (docs/protocol.md#events): the `event` member of an event line.
public enum EventName: String, Sendable, CaseIterable {
    /// How a `playSound` or `playAt` ended (topic `completion`).
    case completion
    /// A scene run by `runScene` ended (topic `completion`).
    case sceneEnded
    /// The client's audio session changed (topic `session`).
    case session
    /// The output device went away or came back (topic `route`).
    case route
    /// The daemon's overview, every 250 ms (topic `meters`).
    case meters
    /// The daemon is stopping; sent to every client.
    case shutdown

    /// The topic a client subscribes to for this event (nil: always sent).
    public var topic: EventTopic? {
        switch self {
        case .completion, .sceneEnded: .completion
        case .session: .session
        case .route: .route
        case .meters: .meters
        case .shutdown: nil
        }
    }
}


/// A `completion` event: how a `playSound` or `playAt` ended.
public struct CompletionEvent: ProtocolBody {
    /// The id of the request that started the play.
    public var request: JSONValue
    /// The sound's ID (`playSound` only).
    public var sound: UInt32?
    /// How it ended.
    public var outcome: PlayOutcome

    /// Creates an event.
    public init(request: JSONValue, sound: UInt32? = nil, outcome: PlayOutcome) {
        self.request = request
        self.sound = sound
        self.outcome = outcome
    }

    public init(json: JSONValue) throws {
        let reader = try BodyReader(json, "completion")
        request = try reader.member("request")
        sound = json["sound"] == nil ? nil : try reader.soundID("sound")
        guard let outcome = try reader.outcome("outcome") else { throw reader.failure("outcome", "an outcome") }
        self.outcome = outcome
    }

    public var json: JSONValue {
        var writer = BodyWriter()
        writer.set("request", request)
        writer.set("sound", sound.map(Double.init))
        writer.set("outcome", outcome.rawValue)
        return writer.json
    }
}

/// A `sceneEnded` event: a scene run by `runScene` reached its end.
public struct SceneEndedEvent: ProtocolBody {
    /// The scene's name.
    public var scene: String
    /// The id of the `runScene` request.
    public var request: JSONValue

    /// Creates an event.
    public init(scene: String, request: JSONValue) {
        self.scene = scene
        self.request = request
    }

    public init(json: JSONValue) throws {
        let reader = try BodyReader(json, "sceneEnded")
        scene = try reader.string("scene")
        request = try reader.member("request")
    }

    public var json: JSONValue { ["scene": .string(scene), "request": request] }
}

/// A `session` event: the client's audio session changed.
public struct SessionChangeEvent: ProtocolBody {
    /// What happened.
    public enum Kind: String, Sendable, CaseIterable {
        /// It became active.
        case activated
        /// It became inactive.
        case deactivated
        /// An interruption began (``SessionChangeEvent/reason`` says why).
        case interruptionBegan
        /// An interruption ended (``SessionChangeEvent/shouldResume``).
        case interruptionEnded
        /// Another session ducks it (``SessionChangeEvent/gain``).
        case ducked
        /// The ducking ended.
        case unducked
    }

    /// What happened.
    public var kind: Kind
    /// `interruptionBegan`: `otherSessionActivated`, `application`, `deviceUnavailable`, `systemRequest`.
    public var reason: String?
    /// `interruptionEnded`: whether what was playing resumes.
    public var shouldResume: Bool?
    /// `ducked`: the gain it is ducked to.
    public var gain: Double?
    /// The device time it happened at, in seconds.
    public var time: Double

    /// Creates an event.
    public init(kind: Kind, reason: String? = nil, shouldResume: Bool? = nil, gain: Double? = nil, time: Double) {
        self.kind = kind
        self.reason = reason
        self.shouldResume = shouldResume
        self.gain = gain
        self.time = time
    }

    public init(json: JSONValue) throws {
        let reader = try BodyReader(json, "session")
        let name = try reader.string("kind")
        guard let kind = Kind(rawValue: name) else { throw reader.failure("kind", "a session change") }
        self.kind = kind
        reason = try reader.optionalString("reason")
        shouldResume = try reader.optionalBool("shouldResume")
        gain = try reader.optionalNumber("gain")
        time = try reader.number("time")
    }

    public var json: JSONValue {
        var writer = BodyWriter()
        writer.set("kind", kind.rawValue)
        writer.set("reason", reason)
        writer.set("shouldResume", shouldResume)
        writer.set("gain", gain)
        writer.set("time", time)
        return writer.json
    }
}

/// A `route` event: the output device went away, came back, or the stream moved.
public struct RouteEvent: ProtocolBody {
    /// `oldDeviceUnavailable`, `newDeviceAvailable`, `override`, `categoryChange`, `outputMoved`.
    public var reason: String
    /// The device time it happened at, in seconds.
    public var time: Double

    /// Creates an event.
    public init(reason: String, time: Double) {
        self.reason = reason
        self.time = time
    }

    public init(json: JSONValue) throws {
        let reader = try BodyReader(json, "route")
        reason = try reader.string("reason")
        time = try reader.number("time")
    }

    public var json: JSONValue { ["reason": .string(reason), "time": .number(time)] }
}

/// A `shutdown` event: the daemon is stopping and closes the connection.
public struct ShutdownEvent: ProtocolBody {
    /// Why: `SIGTERM`, `SIGINT`, ...
    public var reason: String

    /// Creates an event.
    public init(reason: String) { self.reason = reason }

    public init(json: JSONValue) throws { reason = try BodyReader(json, "shutdown").string("reason") }

    public var json: JSONValue { ["reason": .string(reason)] }
}

extension EventName {
    /// The type of the event's members (`meters`: the overview, read as JSON — its members are
    /// listed in docs/protocol.md and `soundstage top` shows them).
    public var body: (any ProtocolBody.Type)? {
        switch self {
        case .completion: CompletionEvent.self
        case .sceneEnded: SceneEndedEvent.self
        case .session: SessionChangeEvent.self
        case .route: RouteEvent.self
        case .shutdown: ShutdownEvent.self
        case .meters: nil
        }
    }
}
