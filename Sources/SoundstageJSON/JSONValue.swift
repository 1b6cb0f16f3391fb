#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// Any JSON value, decoded strictly (a number is never a Bool and vice versa), and written back
/// as compact JSON on one line (object keys sorted, so output is deterministic).
public enum JSONValue: Codable, Equatable, Hashable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])
    /// An integer a `Double` cannot hold exactly (beyond ±2⁵³), kept as its decimal digits so it
    /// is written back exactly as read (a request id of any size comes back unchanged).
    case integer(String)

    /// Decodes one JSON value.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    /// Parses JSON text (RFC 8259, strictly: one value, no trailing data, nesting at most 512).
    /// - Throws: ``JSONSyntaxError`` saying what was expected at which byte.
    public init(parsing data: some Collection<UInt8>) throws {
        let parsed = data.withContiguousStorageIfAvailable { bytes in
            Result { () throws(JSONSyntaxError) in try JSONParser.parse(bytes) }
        } ?? Array(data).withUnsafeBufferPointer { bytes in
            Result { () throws(JSONSyntaxError) in try JSONParser.parse(bytes) }
        }
        self = try parsed.get()
    }

    /// Encodes the value (through ``encoded``'s rules).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case let .bool(value): try container.encode(value)
        case let .number(value): try container.encode(value)
        case let .integer(digits): try container.encode(Double(digits) ?? 0)
        case let .string(value): try container.encode(value)
        case let .array(value): try container.encode(value)
        case let .object(value): try container.encode(value)
        }
    }

    /// Compact JSON text on one line: no newline inside, keys sorted, integral numbers without a
    /// fraction. Non-finite numbers (which JSON cannot hold) are written as `null`.
    public var encoded: String {
        var out = ""
        write(to: &out)
        return out
    }

    /// The same as ``encoded``.
    public var description: String { encoded }

    /// "a number", "an object": for error messages.
    public var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number, .integer: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The member `key` of an object (nil for other values or a missing key).
    public subscript(key: String) -> JSONValue? {
        if case let .object(members) = self { return members[key] }
        return nil
    }

    /// The string, if this is one.
    public var stringValue: String? { if case let .string(value) = self { value } else { nil } }
    /// The number, if this is one.
    public var numberValue: Double? {
        switch self {
        case let .number(value): value
        case let .integer(digits): Double(digits)
        default: nil
        }
    }
    /// The Boolean, if this is one.
    public var boolValue: Bool? { if case let .bool(value) = self { value } else { nil } }
    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? { if case let .array(value) = self { value } else { nil } }
    /// The members, if this is an object.
    public var objectValue: [String: JSONValue]? { if case let .object(value) = self { value } else { nil } }

    /// Appends the compact text of the value to `out`.
    public func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case let .bool(value): out += value ? "true" : "false"
        case let .number(value): out += Self.format(value)
        case let .integer(digits): out += digits
        case let .string(value): Self.quote(value, into: &out)
        case let .array(items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case let .object(members):
            out += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                Self.quote(key, into: &out)
                out += ":"
                members[key]!.write(to: &out)
            }
            out += "}"
        }
    }

    /// A number as JSON: integers without a fraction, others in Swift's shortest exact form.
    public static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
        return String(value)
    }

    /// A string as a JSON string literal, with the escapes JSON requires.
    public static func quote(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// `"text"`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// `3`.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// `0.5`.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// `true`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `[1, 2]`.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// `["key": 1]`.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    /// `nil`.
    public init(nilLiteral: ()) { self = .null }
}

/// JSON text that does not parse.
public struct JSONSyntaxError: Error, Sendable, CustomStringConvertible {
    /// What the parser said.
    public let message: String
    /// The message.
    public var description: String { message }
}
