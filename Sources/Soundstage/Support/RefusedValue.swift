import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#endif

/// A value a setter refused — NaN, an infinity, or out of its range. The property keeps its
/// previous value; nothing traps. See ``Scene/refusedValueCount`` and ``Scene/refusedValueHandler``.
public struct RefusedValue: Sendable, Equatable, CustomStringConvertible {
    /// The property or argument, as `Type.name` (`Source.gain`, `Listener.position`).
    public let property: String
    /// The value given, as text (`nan`, `(1.0, inf, 0.0)`).
    public let value: String
    /// What the value must be (`finite and >= 0`).
    public let rule: String

    /// A refusal of `value` for `property`, which must be `rule`.
    public init(property: String, value: String, rule: String) {
        self.property = property
        self.value = value
        self.rule = rule
    }

    /// `Source.gain = nan (must be finite and >= 0)`.
    public var description: String { "\(property) = \(value) (must be \(rule))" }
}

/// A scene's record of refused values: a count, the last one, and who hears about them. Has its
/// own lock, so refusing never waits on the scene's.
final class RefusalLog: Sendable {
    private struct State {
        var count = 0
        var last: RefusedValue?
        /// Properties already reported on stderr (each is reported once per scene).
        var reported: Set<String> = []
        var handler: (@Sendable (RefusedValue) -> Void)?
    }

    private let state = NIOLockedValueBox(State())

    /// True if `ok`; otherwise records the refusal of `value` for `property` and returns false.
    @inline(__always)
    func admits(_ ok: Bool, _ property: StaticString, _ value: @autoclosure () -> Any, _ rule: StaticString) -> Bool {
        if ok { return true }
        refuse(RefusedValue(property: "\(property)", value: "\(value())", rule: "\(rule)"))
        return false
    }

    /// Counts `refusal` and reports it: to the handler if one is set, else once per property on stderr.
    func refuse(_ refusal: RefusedValue) {
        let (handler, first) = state.withLockedValue { state in
            state.count += 1
            state.last = refusal
            return (state.handler, state.reported.insert(refusal.property).inserted)
        }
        if let handler {
            handler(refusal)
        } else if first {
            Diagnostics.emit("soundstage: refused \(refusal); the previous value stays "
                              + "(further refusals of \(refusal.property) in this scene are only counted)")
        }
    }

    var count: Int { state.withLockedValue { $0.count } }
    var last: RefusedValue? { state.withLockedValue { $0.last } }
    var handler: (@Sendable (RefusedValue) -> Void)? {
        get { state.withLockedValue { $0.handler } }
        set { state.withLockedValue { $0.handler = newValue } }
    }
}

/// Lines for people, on stderr: what the engine refused or survived without trapping.
enum Diagnostics {
    static func emit(_ line: String) {
        let text = line + "\n"
        _ = text.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
    }
}

extension Scene {
    /// How many values setters of this scene's objects (sources, listener, groups, zones) refused
    /// since it was made: NaN, infinities and values outside a property's range. A refused value
    /// changes nothing.
    public var refusedValueCount: Int { refusals.count }

    /// The last refused value, if any.
    public var lastRefusedValue: RefusedValue? { refusals.last }

    /// Called (on the setter's thread) with each refused value. When nil, the first refusal of
    /// each property is written to stderr and later ones are only counted.
    public var refusedValueHandler: (@Sendable (RefusedValue) -> Void)? {
        get { refusals.handler }
        set { refusals.handler = newValue }
    }
}
