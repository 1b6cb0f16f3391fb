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
        /// The desktop server moved Soundstage's stream to another sink (the default sink
        /// changed, or the user moved it); the sound went on there without a restart.
        case outputMoved
    }

    /// Why.
    public let reason: Reason
    /// When, on the device's clock (seconds).
    public let time: Double

    /// The output before the change (a sink's name on the desktop server), if known.
    public let previousOutput: String?
    /// The output after the change, if known (nil while none is there).
    public let output: String?

    /// Creates a route change.
    public init(reason: Reason, time: Double, previousOutput: String? = nil, output: String? = nil) {
        self.reason = reason
        self.time = time
        self.previousOutput = previousOutput
        self.output = output
    }

    /// e.g. `oldDeviceUnavailable at 1.5 (A -> none)`.
    public var description: String {
        guard previousOutput != nil || output != nil else { return "\(reason.rawValue) at \(time)" }
        return "\(reason.rawValue) at \(time) (\(previousOutput ?? "none") -> \(output ?? "none"))"
    }
}
