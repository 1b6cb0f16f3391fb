/// A request's argument names (docs/protocol.md#commands). The server reads arguments and the
/// client writes them through it, so a misspelt one does not compile.
public enum Argument: String, Sendable, CaseIterable, Comparable {
    /// An absolute path to an audio or scene file.
    case file
    /// A freedesktop sound-theme event name (`bell`, `message-new-instant`).
    case event
    /// A registered sound's ID.
    case sound
    /// Whether a system sound plays as an alert.
    case alert
    /// A loaded scene's name.
    case scene
    /// The name to load a scene under.
    case name
    /// Which of a scene's contexts (`loadScene`'s scene file names them).
    case context
    /// A position `[x, y, z]`.
    case position
    /// A gain (linear).
    case gain
    /// A pitch factor.
    case pitch
    /// The listener's forward vector `[x, y, z]`.
    case at
    /// The listener's up vector `[x, y, z]`.
    case up
    /// A velocity `[x, y, z]`.
    case velocity
    /// An audio-session category (`ambient`, `playback`, ...).
    case category
    /// Audio-session options (`mixWithOthers`, `duckOthers`, ...).
    case options
    /// Activates or deactivates the session.
    case active
    /// Whether deactivating tells other sessions they may resume.
    case notifyOthers
    /// Begins or ends an interruption (`begin`, `end`).
    case interruption
    /// Whether an ended interruption resumes what was playing.
    case resume
    /// The event topics of `subscribe` and `unsubscribe`.
    case events
    /// The system sounds' volume (linear).
    case volume

    /// Orders by name (for messages that list arguments).
    public static func < (lhs: Argument, rhs: Argument) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension Command {
    /// The arguments the command accepts: the daemon refuses any other (`badRequest`), and so
    /// does the client before sending. Documented per command in docs/protocol.md.
    public var accepts: Set<Argument> {
        switch self {
        case .ping, .status, .listSounds, .listScenes: []
        case .registerSound: [.file, .event]
        case .playSound: [.sound, .file, .event, .alert]
        case .disposeSound: [.sound]
        case .setSoundVolume: [.volume]
        case .loadScene: [.file, .scene, .name]
        case .runScene, .stopScene, .unloadScene: [.scene]
        case .playAt: [.scene, .context, .file, .position, .gain, .pitch]
        case .setListener: [.scene, .context, .position, .at, .up, .velocity, .gain]
        case .session: [.category, .options, .active, .notifyOthers, .interruption, .resume]
        case .subscribe, .unsubscribe: [.events]
        }
    }

    /// The arguments the command cannot go without (a subset of ``accepts``). Commands that
    /// take one of several (`registerSound`: `file` or `event`) check that themselves.
    public var requires: Set<Argument> {
        switch self {
        case .disposeSound: [.sound]
        case .setSoundVolume: [.volume]
        case .runScene, .stopScene, .unloadScene: [.scene]
        case .playAt: [.scene, .file, .position]
        case .setListener: [.scene]
        case .subscribe, .unsubscribe: [.events]
        default: []
        }
    }
}

/// A request as both sides see it: a command and its typed arguments.
public struct Request: Sendable, Equatable {
    /// What to do.
    public let command: Command
    /// Its arguments.
    public var arguments: [Argument: JSONValue]

    /// Creates a request.
    public init(_ command: Command, _ arguments: [Argument: JSONValue] = [:]) {
        self.command = command
        self.arguments = arguments
    }

    /// The arguments the command does not take, and those it needs but lacks: empty when the
    /// request is well formed.
    public var problems: [String] {
        let unknown = Set(arguments.keys).subtracting(command.accepts).sorted()
        let missing = command.requires.subtracting(arguments.keys).sorted()
        return unknown.map { "\(command.rawValue): \($0.rawValue): not an argument of this command" }
            + missing.map { "\(command.rawValue): \($0.rawValue): missing" }
    }

    /// The request's line, with `id`.
    public func line(id: JSONValue) -> String {
        ProtocolLine.request(id: id, command: command,
                             arguments: Dictionary(uniqueKeysWithValues: arguments.map { ($0.key.rawValue, $0.value) }))
    }
}
