#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import NIOCore
import Soundstage
import SoundstageScenes
import SoundstageProtocol

/// A failed request: the error response's code, message and subject.
struct RequestFailure: Error {
    let code: SoundstageError.Code
    let message: String
    var subject: String?

    init(_ code: SoundstageError.Code, _ message: String, subject: String? = nil) {
        self.code = code
        self.message = message
        self.subject = subject
    }

    init(_ error: SoundstageError) {
        code = error.code
        message = error.cause.map { "\(error.message) (\($0))" } ?? error.message
        subject = error.subject
    }

    /// Any error a command threw, as the client will see it.
    static func from(_ error: any Error) -> RequestFailure {
        switch error {
        case let failure as RequestFailure: failure
        case let error as SoundstageError: RequestFailure(error)
        default: RequestFailure(.internalError, "\(error)")
        }
    }
}

/// One parsed request line: `{"version":1,"id":7,"command":"playSound","event":"bell"}`.
struct ReceivedRequest {
    /// The client's `id` (a string or a number), echoed in the response.
    let id: JSONValue
    /// The command name as sent.
    let commandName: String
    /// Every other member of the object.
    let arguments: [String: JSONValue]

    /// The command, if the name is one.
    var command: Command? { Command(rawValue: commandName) }

    /// Parses a line. On failure, also returns the `id` if one could be read, for the error response.
    static func parse(_ line: ByteBuffer) -> Result<ReceivedRequest, Rejected> {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: Data(line.readableBytesView))
        } catch {
            return .failure(Rejected(id: .null, failure: RequestFailure(.badJSON, "the line is not JSON: \(error)")))
        }
        guard case var .object(members) = value else {
            return .failure(Rejected(id: .null, failure: RequestFailure(.badRequest, "a request must be a JSON object, got \(value.kind)")))
        }
        let id = members.removeValue(forKey: "id") ?? .null
        switch id {
        case .string, .number, .integer: break
        case .null: return .failure(Rejected(id: .null, failure: RequestFailure(.badRequest, "id: missing; every request needs an id (a string or a number)")))
        default: return .failure(Rejected(id: .null, failure: RequestFailure(.badRequest, "id: expected a string or a number, got \(id.kind)")))
        }
        if let version = members.removeValue(forKey: "version") {
            guard version == .number(Double(ServerProtocol.version)) else {
                return .failure(Rejected(id: id, failure: RequestFailure(.unsupportedVersion,
                                                    "version: \(version.encoded) is not supported; this daemon speaks version \(ServerProtocol.version)")))
            }
        }
        guard let command = members.removeValue(forKey: "command") else {
            return .failure(Rejected(id: id, failure: RequestFailure(.badRequest, "command: missing; e.g. \"command\": \"ping\"")))
        }
        guard case let .string(name) = command else {
            return .failure(Rejected(id: id, failure: RequestFailure(.badRequest, "command: expected a string, got \(command.kind)")))
        }
        return .success(ReceivedRequest(id: id, commandName: name, arguments: members))
    }
}

/// A line that is not a valid request, with its `id` when one could be read.
struct Rejected: Error {
    let id: JSONValue
    let failure: RequestFailure
}

/// Reads a command's arguments, refusing unknown ones and naming the field of any problem.
/// Which arguments a command accepts and requires is the protocol's table
/// (``Command/accepts``, ``Command/requires``), which the client checks too.
struct Arguments {
    let command: Command
    let members: [String: JSONValue]
    let json: JSONReader

    /// Checks that `request` has only the arguments `command` accepts, and every one it requires.
    init(_ request: ReceivedRequest, for command: Command) throws {
        self.command = command
        let name = command.rawValue
        json = JSONReader { path, message in RequestFailure(.badRequest, "\(name): \(path): \(message)") }
        let names = Self.names[command]!
        members = try json.object(.object(request.arguments), "", allowed: names.accepts, required: names.requires)
    }

    /// Each command's table as the reader takes it (argument names), made once.
    private static let names: [Command: (accepts: Set<String>, requires: Set<String>)] = Dictionary(
        uniqueKeysWithValues: Command.allCases.map { ($0, (Set($0.accepts.map(\.rawValue)), Set($0.requires.map(\.rawValue)))) })

    subscript(key: Argument) -> JSONValue? { members[key.rawValue] }

    func string(_ key: Argument) throws -> String? { try json.string(self[key], key.rawValue, nonEmpty: true) }
    func bool(_ key: Argument, default fallback: Bool = false) throws -> Bool { try json.bool(self[key], key.rawValue, default: fallback) }
    func number(_ key: Argument, default fallback: Double? = nil, in range: ClosedRange<Double>) throws -> Double? {
        guard self[key] != nil || fallback != nil else { return nil }
        return try json.number(self[key], key.rawValue, default: fallback, in: range)
    }
    func vector(_ key: Argument, nonZero: Bool = false) throws -> Vector3? {
        try json.vector(self[key], key.rawValue, nonZero: nonZero)
    }
    func integer(_ key: Argument, in range: ClosedRange<Int>) throws -> Int? { try json.integer(self[key], key.rawValue, in: range) }

    /// Exactly one of `keys` must be given; returns which.
    func exactlyOne(of keys: [Argument]) throws -> Argument {
        let given = keys.filter { self[$0] != nil }
        guard given.count == 1 else {
            throw RequestFailure(.badRequest, "\(command.rawValue): give exactly one of \(keys.map(\.rawValue).joined(separator: ", "))"
                                 + (given.isEmpty ? "" : " (got \(given.map(\.rawValue).joined(separator: " and ")))"))
        }
        return given[0]
    }

    /// A failure about this command's arguments.
    func fail(_ message: String) -> RequestFailure { RequestFailure(.badRequest, "\(command.rawValue): \(message)") }
}
