import Foundation
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
struct Request {
    /// The client's `id` (a string or a number), echoed in the response.
    let id: JSONValue
    /// The command name.
    let command: String
    /// Every other member of the object.
    let arguments: [String: JSONValue]

    /// Parses a line. On failure, also returns the `id` if one could be read, for the error response.
    static func parse(_ line: ByteBuffer) -> Result<Request, Rejected> {
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
        return .success(Request(id: id, command: name, arguments: members))
    }
}

/// A line that is not a valid request, with its `id` when one could be read.
struct Rejected: Error {
    let id: JSONValue
    let failure: RequestFailure
}

/// Reads a command's arguments, refusing unknown ones and naming the field of any problem.
struct Arguments {
    let command: String
    let members: [String: JSONValue]
    let json: JSONReader

    /// Checks that `request` has only `allowed` arguments (and every one of `required`).
    init(_ request: Request, allowed: Set<String>, required: Set<String> = []) throws {
        command = request.command
        let command = request.command
        json = JSONReader { path, message in RequestFailure(.badRequest, "\(command): \(path): \(message)") }
        members = try json.object(.object(request.arguments), "", allowed: allowed, required: required)
    }

    subscript(key: String) -> JSONValue? { members[key] }

    func string(_ key: String) throws -> String? { try json.string(members[key], key, nonEmpty: true) }
    func bool(_ key: String, default fallback: Bool = false) throws -> Bool { try json.bool(members[key], key, default: fallback) }
    func number(_ key: String, default fallback: Double? = nil, in range: ClosedRange<Double>) throws -> Double? {
        guard members[key] != nil || fallback != nil else { return nil }
        return try json.number(members[key], key, default: fallback, in: range)
    }
    func vector(_ key: String, nonZero: Bool = false) throws -> Vector3? {
        try json.vector(members[key], key, nonZero: nonZero)
    }
    func integer(_ key: String, in range: ClosedRange<Int>) throws -> Int? { try json.integer(members[key], key, in: range) }

    /// Exactly one of `keys` must be given; returns which.
    func exactlyOne(of keys: [String]) throws -> String {
        let given = keys.filter { members[$0] != nil }
        guard given.count == 1 else {
            throw RequestFailure(.badRequest, "\(command): give exactly one of \(keys.joined(separator: ", "))"
                                 + (given.isEmpty ? "" : " (got \(given.joined(separator: " and ")))"))
        }
        return given[0]
    }

    /// A failure about this command's arguments.
    func fail(_ message: String) -> RequestFailure { RequestFailure(.badRequest, "\(command): \(message)") }
}
