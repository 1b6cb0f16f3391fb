/// A change of the audio route: the output went away, a new one took over, or the game moved
/// the output. Observe with ``Device/addRouteObserver(_:)`` or ``Device/routeChanges()``.
public struct RouteChange: Sendable, Equatable, CustomStringConvertible {
    /// Why the route changed.
    public enum Reason: String, Sendable, Codable {
        /// The output device disappeared (`ALC_CONNECTED` became false). The engine keeps every
        /// scene's state and migrates to a new device as soon as one opens.
        case oldDeviceUnavailable
        /// A new device took over after `oldDeviceUnavailable`; every scene, buffer and source was
        /// rebuilt on it with its properties and offsets.
        case newDeviceAvailable
        /// The game moved the output with ``Device/switchOutput(to:)``.
        case override
        /// A session's category change moved the output.
        case categoryChange
    }

    /// Why.
    public let reason: Reason
    /// When, on the device's clock (seconds).
    public let time: Double

    /// Creates a route change.
    public init(reason: Reason, time: Double) {
        self.reason = reason
        self.time = time
    }

    /// e.g. `oldDeviceUnavailable at 1.5`.
    public var description: String { "\(reason.rawValue) at \(time)" }
}
