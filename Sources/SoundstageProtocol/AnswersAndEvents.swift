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

/// The answer to `registerSound`, `playSound` and `disposeSound`: which sound, and for a play
/// how it went. The daemon writes it and the client reads it through this one type.
public struct SoundAnswer: Sendable, Equatable {
    /// The sound's ID.
    public let sound: UInt32
    /// `registerSound`: the file or event registered.
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

    /// Reads an answer's `result`.
    /// - Throws: ``ServerError`` with code `badJSON` when it is not a sound answer.
    public init(result: JSONValue) throws {
        guard let number = result["sound"]?.numberValue, let id = UInt32(exactly: number) else {
            throw ServerError(code: .badJSON, message: "the daemon's answer has no sound ID: \(result.encoded)")
        }
        sound = id
        name = result["name"]?.stringValue
        disposed = result["disposed"]?.boolValue
        if let text = result["outcome"]?.stringValue {
            guard let outcome = PlayOutcome(rawValue: text) else {
                throw ServerError(code: .badJSON, message: "the daemon's answer has an unknown outcome: \(text)")
            }
            self.outcome = outcome
        }
    }

    /// The answer as a `result`.
    public var result: JSONValue {
        var members: [String: JSONValue] = ["sound": .number(Double(sound))]
        if let name { members["name"] = .string(name) }
        if let outcome { members["outcome"] = .string(outcome.rawValue) }
        if let disposed { members["disposed"] = .bool(disposed) }
        return .object(members)
    }
}
