/// A message body of the protocol — a command's `result`, or an event's members — that the
/// daemon writes and a client reads through the same type, so the two cannot disagree on a name.
public protocol ProtocolBody: Sendable, Equatable {
    /// Reads it.
    /// - Throws: ``ServerError`` with code `badJSON` naming the member that is missing or of the
    ///   wrong type.
    init(json: JSONValue) throws
    /// It as JSON (an event's without `event` and `version`, which the line adds).
    var json: JSONValue { get }
}

/// Reads the members of a body, failing with `badJSON` and the member's name.
struct BodyReader {
    let json: JSONValue
    let what: String

    init(_ json: JSONValue, _ what: String) throws {
        guard json.objectValue != nil else {
            throw ServerError(code: .badJSON, message: "\(what): expected an object, got \(json.encoded)")
        }
        self.json = json
        self.what = what
    }

    func failure(_ key: String, _ expected: String) -> ServerError {
        ServerError(code: .badJSON, message: "\(what): \(key): expected \(expected) in \(json.encoded)")
    }

    func string(_ key: String) throws -> String {
        guard let value = json[key]?.stringValue else { throw failure(key, "a string") }
        return value
    }

    func optionalString(_ key: String) throws -> String? {
        guard let value = json[key] else { return nil }
        guard let text = value.stringValue else { throw failure(key, "a string") }
        return text
    }

    func number(_ key: String) throws -> Double {
        guard let value = json[key]?.numberValue else { throw failure(key, "a number") }
        return value
    }

    func optionalNumber(_ key: String) throws -> Double? {
        guard json[key] != nil else { return nil }
        return try number(key)
    }

    func integer(_ key: String) throws -> Int {
        guard let value = json[key]?.numberValue, let integer = Int(exactly: value) else { throw failure(key, "an integer") }
        return integer
    }

    func bool(_ key: String) throws -> Bool {
        guard let value = json[key]?.boolValue else { throw failure(key, "true or false") }
        return value
    }

    func optionalBool(_ key: String) throws -> Bool? {
        guard json[key] != nil else { return nil }
        return try bool(key)
    }

    func soundID(_ key: String) throws -> UInt32 {
        guard let value = json[key]?.numberValue, let id = UInt32(exactly: value) else { throw failure(key, "a sound ID") }
        return id
    }

    func strings(_ key: String) throws -> [String] {
        guard let items = json[key]?.arrayValue else { throw failure(key, "an array of strings") }
        return try items.map { item in
            guard let text = item.stringValue else { throw failure(key, "an array of strings") }
            return text
        }
    }

    func optionalStrings(_ key: String) throws -> [String]? {
        guard json[key] != nil else { return nil }
        return try strings(key)
    }

    func vector(_ key: String) throws -> [Double] {
        guard let items = json[key]?.arrayValue, items.count == 3 else { throw failure(key, "[x, y, z]") }
        return try items.map { item in
            guard let number = item.numberValue else { throw failure(key, "[x, y, z]") }
            return number
        }
    }

    func objects(_ key: String) throws -> [JSONValue] {
        guard let items = json[key]?.arrayValue else { throw failure(key, "an array of objects") }
        return items
    }

    func member(_ key: String) throws -> JSONValue {
        guard let value = json[key] else { throw failure(key, "a value") }
        return value
    }

    func outcome(_ key: String) throws -> PlayOutcome? {
        guard let text = try optionalString(key) else { return nil }
        guard let outcome = PlayOutcome(rawValue: text) else {
            throw ServerError(code: .badJSON, message: "\(what): \(key): an unknown outcome '\(text)'")
        }
        return outcome
    }
}

/// Builds the members of a body, leaving out what is nil.
struct BodyWriter {
    private(set) var members: [String: JSONValue] = [:]

    mutating func set(_ key: String, _ value: JSONValue?) { if let value { members[key] = value } }
    mutating func set(_ key: String, _ value: String?) { set(key, value.map(JSONValue.string)) }
    mutating func set(_ key: String, _ value: Double?) { set(key, value.map(JSONValue.number)) }
    mutating func set(_ key: String, _ value: Int?) { set(key, value.map { JSONValue.number(Double($0)) }) }
    mutating func set(_ key: String, _ value: Bool?) { set(key, value.map(JSONValue.bool)) }
    mutating func set(_ key: String, _ value: [String]?) { set(key, value.map { JSONValue.array($0.map(JSONValue.string)) }) }
    mutating func set(_ key: String, vector: [Double]?) { set(key, vector.map { JSONValue.array($0.map(JSONValue.number)) }) }

    var json: JSONValue { .object(members) }
}
