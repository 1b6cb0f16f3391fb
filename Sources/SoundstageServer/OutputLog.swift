import Logging
import NIOConcurrencyHelpers
import Soundstage

/// Logs what happens to a device's output (``watch(_:)``): route changes at `notice`, underruns
/// as warnings, a lost audio server as an error, the server's pause and resume requests and the
/// user's volume changes — at most five a second, the rest counted and reported with the next
/// line (or by ``stop(watching:)``). The daemon and the CLI's `--verbose` use it. It holds no
/// device, so a device's observers holding it make no cycle.
public final class OutputLog: Sendable {
    private let logger: Logger
    private let limiter = NIOLockedValueBox(LogRateLimiter())
    private let observers = NIOLockedValueBox<[ObjectIdentifier: (route: Int, output: Int)]>([:])

    /// A log that writes to `logger`.
    public init(logger: Logger) {
        self.logger = logger
    }

    /// Logs `device`'s route changes and output events from now on.
    public func watch(_ device: Device) {
        let route = device.addRouteObserver { change in self.log(change) }
        let output = device.addOutputObserver { event in self.log(event) }
        observers.withLockedValue { $0[ObjectIdentifier(device)] = (route, output) }
    }

    /// Stops logging `device`; reports events that were not logged, if any.
    public func stop(watching device: Device) {
        guard let tokens = observers.withLockedValue({ $0.removeValue(forKey: ObjectIdentifier(device)) }) else { return }
        device.removeRouteObserver(tokens.route)
        device.removeOutputObserver(tokens.output)
        let held = limiter.withLockedValue { $0.takeSuppressed() }
        if held > 0 { logger.warning("output events not logged (more than five a second)", metadata: ["count": "\(held)"]) }
    }

    /// The metadata of one more line, or nil when the limit holds it back.
    private func admit() -> Logger.Metadata? {
        let (log, heldBack) = limiter.withLockedValue { $0.admit() }
        guard log else { return nil }
        return heldBack > 0 ? ["notLogged": "\(heldBack)"] : [:]
    }

    /// A route change: the player's sound moved or went away.
    func log(_ change: RouteChange) {
        guard var metadata = admit() else { return }
        metadata["reason"] = "\(change.reason.rawValue)"
        metadata["from"] = "\(change.previousOutput ?? "none")"
        metadata["to"] = "\(change.output ?? "none")"
        // A port of the same sink (a laptop's headphones pulled or plugged in).
        if change.previousPort != nil || change.port != nil {
            metadata["fromPort"] = "\(change.previousPort ?? "none")"
            metadata["toPort"] = "\(change.port ?? "none")"
        }
        logger.notice("route change", metadata: metadata)
    }

    /// What the desktop server did to the output.
    func log(_ event: OutputEvent) {
        guard var metadata = admit() else { return }
        switch event {
        case let .underrun(count):
            metadata["underruns"] = "\(count)"
            logger.warning("output underrun: the stream ran out of audio", metadata: metadata)
        case .pauseRequested:
            logger.notice("the audio server asked the output to pause; sessions are interrupted", metadata: metadata)
        case .resumeRequested:
            logger.notice("the audio server asked the output to play again", metadata: metadata)
        case let .volumeChanged(volume, muted):
            metadata["volume"] = "\(volume)"
            metadata["muted"] = "\(muted)"
            logger.info("the user changed the output's volume", metadata: metadata)
        case let .serverLost(reason):
            metadata["reason"] = "\(reason)"
            logger.error("lost the audio server; waiting for it to come back", metadata: metadata)
        case .serverReconnected:
            logger.notice("the audio server answers again; playing on", metadata: metadata)
        }
    }
}
