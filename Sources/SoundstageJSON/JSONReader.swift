/// Reads typed fields out of a ``JSONValue``, checking every key, type and range, and reporting
/// the first problem with its JSON path (`sources[1].gain`) through an error the caller makes.
///
/// Scene files and the daemon's protocol share it, so both say what was expected the same way.
public struct JSONReader: Sendable {
    /// Makes the error for a problem at a JSON path.
    public let fail: @Sendable (_ path: String, _ message: String) -> any Error

    /// Creates a reader whose problems become the errors `fail` makes.
    public init(fail: @escaping @Sendable (_ path: String, _ message: String) -> any Error) {
        self.fail = fail
    }

    /// The members of an object, refusing unknown keys and requiring `required`.
    public func object(_ value: JSONValue, _ path: String, allowed: Set<String>,
                       required: Set<String> = []) throws -> [String: JSONValue] {
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

    /// A number in `range`; `fallback` when absent (absent without a fallback is an error).
    public func number(_ value: JSONValue?, _ path: String, default fallback: Double? = nil,
                       in range: ClosedRange<Double> = -1e9...1e9) throws -> Double {
        guard let value else {
            if let fallback { return fallback }
            throw fail(path, "missing; expected a number")
        }
        guard let number = value.numberValue else { throw fail(path, "expected a number, got \(value.kind)") }
        guard range.contains(number) else {
            throw fail(path, "\(JSONValue.format(number)) is out of range; expected "
                       + "\(JSONValue.format(range.lowerBound)) to \(JSONValue.format(range.upperBound))")
        }
        return number
    }

    /// A whole number in `range`, or nil when absent.
    public func integer(_ value: JSONValue?, _ path: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let value else { return nil }
        let number = try number(value, path, in: Double(range.lowerBound)...Double(range.upperBound))
        guard number == number.rounded() else { throw fail(path, "expected a whole number, got \(JSONValue.format(number))") }
        return Int(number)
    }

    /// A Boolean; `fallback` when absent.
    public func bool(_ value: JSONValue?, _ path: String, default fallback: Bool) throws -> Bool {
        guard let value else { return fallback }
        guard case let .bool(flag) = value else { throw fail(path, "expected true or false, got \(value.kind)") }
        return flag
    }

    /// A string, or nil when absent; `nonEmpty` refuses "".
    public func string(_ value: JSONValue?, _ path: String, nonEmpty: Bool = false) throws -> String? {
        guard let value else { return nil }
        guard case let .string(text) = value else { throw fail(path, "expected a string, got \(value.kind)") }
        if nonEmpty && text.isEmpty { throw fail(path, "must not be empty") }
        return text
    }

    /// `count` numbers in an array (e.g. `[x, y, z]`), or nil when absent.
    public func numbers(_ value: JSONValue?, _ path: String, count: Int, what: String) throws -> [Double]? {
        guard let value else { return nil }
        guard case let .array(items) = value, items.count == count else {
            throw fail(path, "expected \(what) (\(count) numbers), got \(value.kind)")
        }
        return try items.enumerated().map { index, item in try number(item, "\(path)[\(index)]") }
    }

    /// One of an enumeration's raw values; `fallback` when absent.
    public func choice<T: RawRepresentable & CaseIterable>(_ value: JSONValue?, _ path: String, default fallback: T) throws -> T
        where T.RawValue == String {
        guard let text = try string(value, path) else { return fallback }
        guard let choice = T(rawValue: text) else {
            throw fail(path, "'\(text)' is not one of \(T.allCases.map { $0.rawValue }.joined(separator: ", "))")
        }
        return choice
    }
}
