#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
@_exported import SoundstageErrors
@_exported import SoundstageJSON

/// Constants of the daemon's protocol: newline-delimited JSON over a Unix domain socket
/// (see docs/protocol.md).
public enum ServerProtocol {
    /// The protocol version this build speaks; requests may name it in `version`.
    public static let version = 1
    /// The longest request line the daemon reads (64 KiB, newline excluded).
    public static let maxLineBytes = 65_536
    /// The environment variable that names the socket for clients and the daemon.
    public static let socketEnvironmentVariable = "SOUNDSTAGE_SOCKET"

    /// Where the daemon listens by default: `$SOUNDSTAGE_SOCKET`, else
    /// `$XDG_RUNTIME_DIR/soundstage/socket`, else `/tmp/soundstage-UID/socket`.
    public static func defaultSocketPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let path = environment[socketEnvironmentVariable], !path.isEmpty { return path }
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return runtime + "/soundstage/socket"
        }
        return "/tmp/soundstage-\(getuid())/socket"
    }
}

/// The daemon's commands: a request's `command` (docs/protocol.md#commands). The server and
/// the client both name commands through it, so a misspelt one does not compile.
public enum Command: String, Sendable, CaseIterable {
    /// Checks the daemon answers.
    case ping
    /// The daemon's state: clients, sounds, scenes, voices, live OpenAL objects.
    case status
    /// Registers a file or theme event as a system sound; answers its ID.
    case registerSound
    /// Plays a system sound by ID, file or event.
    case playSound
    /// Frees a registered sound.
    case disposeSound
    /// Lists the client's registered sounds.
    case listSounds
    /// Sets the volume of the client's system sounds.
    case setSoundVolume
    /// Loads a scene (a file, or inline JSON) without running it.
    case loadScene
    /// Runs a loaded scene from its start.
    case runScene
    /// Stops a running scene.
    case stopScene
    /// Frees a loaded scene.
    case unloadScene
    /// Lists the client's scenes.
    case listScenes
    /// Plays a file once at a position in a scene.
    case playAt
    /// Moves, turns or sets the gain of a scene's listener.
    case setListener
    /// Reads or changes the client's audio session: category, options, activation, interruptions.
    case session
    /// Starts sending events of some topics.
    case subscribe
    /// Stops sending events of some topics.
    case unsubscribe
}

/// The kinds of events a client can subscribe to (the `events` of `subscribe`).
public enum EventTopic: String, Sendable, CaseIterable {
    /// How each `playSound` / `playAt` ended, and `sceneEnded`.
    case completion
    /// The client's audio session: activated, interrupted, ducked...
    case session
    /// The output device went away or came back.
    case route
    /// Every 250 ms, the daemon's overview: clients, sessions, scenes, voices, levels, render
    /// load, underruns (what `soundstage top` shows; see docs/protocol.md).
    case meters
}

/// A message from the daemon, as a client reads it.
public enum ServerMessage: Sendable, Equatable {
    /// The answer to the request with `id`: `result` or `error`.
    case response(id: JSONValue, outcome: Result<JSONValue, ServerError>)
    /// An event pushed to a subscribed client: its name and the whole message.
    case event(name: String, body: JSONValue)

    /// Parses one line the daemon sent.
    /// - Throws: ``ServerError`` with code `badJSON` when the line is not a daemon message.
    public init(line: Data) throws {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: line)
        } catch {
            throw ServerError(code: .badJSON, message: "the daemon sent something that is not JSON: \(error)")
        }
        if let name = value["event"]?.stringValue {
            self = .event(name: name, body: value)
            return
        }
        guard let id = value["id"], let ok = value["ok"]?.boolValue else {
            throw ServerError(code: .badJSON, message: "the daemon sent a message that is neither a response nor an event")
        }
        if ok {
            self = .response(id: id, outcome: .success(value["result"] ?? .object([:])))
        } else {
            let error = value["error"]
            self = .response(id: id, outcome: .failure(ServerError(
                code: SoundstageError.Code(rawValue: error?["code"]?.stringValue ?? "internalError"),
                message: error?["message"]?.stringValue ?? "no message",
                subject: error?["subject"]?.stringValue)))
        }
    }
}

/// An error response from the daemon (or a failure to talk to it).
public struct ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong: one of the ``SoundstageError/Code``s — an engine code, a protocol code
    /// (`badRequest`, `busy`, ...), or `connection` when the daemon could not be reached or went
    /// away. One vocabulary from the engine to the wire.
    public let code: SoundstageError.Code
    /// What went wrong, for people.
    public let message: String
    /// The file or name concerned, if any.
    public let subject: String?

    /// Creates an error.
    public init(code: SoundstageError.Code, message: String, subject: String? = nil) {
        self.code = code
        self.message = message
        self.subject = subject
    }

    /// `subject: message` or `message`.
    public var description: String { subject.map { "\($0): \(message)" } ?? message }
}

/// The lines of the protocol, written the one way both sides agree on.
public enum ProtocolLine {
    /// A request: `{"command":...,"id":...,"version":1, arguments...}`.
    public static func request(id: JSONValue, command: Command, arguments: [String: JSONValue] = [:]) -> String {
        var members = arguments
        members["id"] = id
        members["command"] = .string(command.rawValue)
        members["version"] = .number(Double(ServerProtocol.version))
        return JSONValue.object(members).encoded + "\n"
    }

    /// A success response.
    public static func response(id: JSONValue, result: JSONValue) -> String {
        JSONValue.object(["version": .number(Double(ServerProtocol.version)), "id": id, "ok": true, "result": result]).encoded + "\n"
    }

    /// An error response.
    public static func error(id: JSONValue, code: SoundstageError.Code, message: String, subject: String? = nil) -> String {
        var error: [String: JSONValue] = ["code": .string(code.rawValue), "message": .string(message)]
        if let subject { error["subject"] = .string(subject) }
        return JSONValue.object(["version": .number(Double(ServerProtocol.version)), "id": id, "ok": false,
                                 "error": .object(error)]).encoded + "\n"
    }

    /// An event, with its typed members.
    public static func event(_ name: EventName, _ body: some ProtocolBody) -> String {
        event(name, fields: body.json.objectValue ?? [:])
    }

    /// An event whose members are not a ``ProtocolBody`` (`meters`: the overview).
    public static func event(_ name: EventName, fields: [String: JSONValue]) -> String {
        var members = fields
        members["event"] = .string(name.rawValue)
        members["version"] = .number(Double(ServerProtocol.version))
        return JSONValue.object(members).encoded + "\n"
    }
}
