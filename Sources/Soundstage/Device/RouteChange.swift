/// A change of the audio route: the output went away, a new one took over, or the game moved
/// the output. Observe with ``Device/addRouteObserver(_:)`` or ``Device/routeChanges()``.
public struct RouteChange: Sendable, Equatable, CustomStringConvertible {
    /// Why the route changed.
    public enum Reason: String, Sendable, Codable {
        /// The output device disappeared (`ALC_CONNECTED` became false; on the desktop server, the
        /// sink vanished or the server died). The engine keeps every scene's state and migrates to
        /// a new device as soon as one opens. Also when the sink's active port is unplugged or
        /// leaves the headphones (``previousPort``, ``port``): the sound goes on, out loud.
        case oldDeviceUnavailable
        /// A new device took over after `oldDeviceUnavailable`; every scene, buffer and source was
        /// rebuilt on it with its properties and offsets. Also when the sink's active port changes
        /// to one plugged in (headphones) or chosen by the user (``previousPort``, ``port``).
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
    /// For a change of the sink's port (the sink stays: ``previousOutput`` == ``output``): the
    /// port before, as the desktop server names it (`analog-output-headphones`); nil otherwise.
    public let previousPort: String?
    /// For a change of the sink's port: the port after (`analog-output-speaker`); nil otherwise.
    public let port: String?

    /// Creates a route change.
    public init(reason: Reason, time: Double, previousOutput: String? = nil, output: String? = nil,
                previousPort: String? = nil, port: String? = nil) {
        self.reason = reason
        self.time = time
        self.previousOutput = previousOutput
        self.output = output
        self.previousPort = previousPort
        self.port = port
    }

    /// e.g. `oldDeviceUnavailable at 1.5 (A -> none)`, or for a port
    /// `oldDeviceUnavailable at 1.5 (card: analog-output-headphones -> analog-output-speaker)`.
    public var description: String {
        if previousPort != nil || port != nil {
            return "\(reason.rawValue) at \(time) (\(output ?? previousOutput ?? "none"): \(previousPort ?? "none") -> \(port ?? "none"))"
        }
        guard previousOutput != nil || output != nil else { return "\(reason.rawValue) at \(time)" }
        return "\(reason.rawValue) at \(time) (\(previousOutput ?? "none") -> \(output ?? "none"))"
    }
}

/// What Apple's layers tell of the engine's route changes: iOS tells a pulled output once
/// (`oldDeviceUnavailable`, the sound already on the next output), where the engine posts
/// `.oldDeviceUnavailable` and then `.newDeviceAvailable` as the sound reaches the next output (the
/// desktop server moved the stream off a vanished sink, or the engine migrated to OpenAL's next
/// device). That second change is folded into the first. A port plugged in is told.
package struct RouteChangeFolding: Sendable {
    /// The previous output of the last change told, when it was an output gone (not a port's change).
    private var vanished: String??

    /// Folds nothing yet.
    package init() {}

    /// Whether `change` is told to the app; notes it.
    package mutating func tells(_ change: RouteChange) -> Bool {
        let follows = change.reason == .newDeviceAvailable && change.previousPort == nil && vanished == .some(change.previousOutput)
        vanished = change.reason == .oldDeviceUnavailable && change.previousPort == nil ? .some(change.previousOutput) : nil
        return !follows
    }
}
