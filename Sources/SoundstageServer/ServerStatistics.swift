import NIOConcurrencyHelpers
import SoundstageProtocol

/// Counters of a running daemon, for `status` and for tests that prove memory stays bounded.
public struct ServerStatistics: Sendable, Equatable {
    /// Clients connected now.
    public var clients = 0
    /// Clients that have connected since the start.
    public var connections = 0
    /// Requests answered (every request gets exactly one answer).
    public var answered = 0
    /// Answers that were errors (busy ones included).
    public var errors = 0
    /// Requests refused with `busy` because too many were waiting.
    public var busy = 0
    /// `playSound` requests merged into an identical one waiting in the queue.
    public var coalesced = 0
    /// The most requests one client ever had waiting for an answer.
    public var peakPendingRequests = 0
    /// The most response bytes ever waiting to be sent to one client.
    public var peakOutputBytes = 0
    /// Times a client's input was paused because it left more than the output limit unread.
    public var readPauses = 0
    /// Lines over the 64 KiB limit.
    public var linesTooLong = 0

    /// Creates zeroed statistics.
    public init() {}

    /// The counters by name, as the `status` command's `statistics` carries them.
    var counters: [String: Int] {
        ["clients": clients, "connections": connections, "answered": answered, "errors": errors,
         "busy": busy, "coalesced": coalesced, "peakPendingRequests": peakPendingRequests,
         "peakOutputBytes": peakOutputBytes, "readPauses": readPauses, "linesTooLong": linesTooLong]
    }
}
