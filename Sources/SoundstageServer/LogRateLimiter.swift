import Dispatch

/// Lets through at most `burst` log messages of one kind per `interval` and counts the rest, so a
/// client that floods bad requests, or an output that underruns in a loop, cannot flood the
/// journal. The count of what was held back is reported with the next message let through (and
/// by ``takeSuppressed()``, e.g. when a client leaves).
struct LogRateLimiter: Sendable {
    /// Messages let through per window.
    let burst: Int
    /// The window, in nanoseconds.
    let interval: UInt64
    private var windowStart: UInt64?
    private var inWindow = 0
    private var suppressed = 0

    /// At most `burst` messages per `seconds`.
    init(burst: Int = 5, seconds: Double = 1) {
        self.burst = burst
        interval = UInt64(seconds * 1e9)
    }

    /// Whether to log one more message now, and how many were held back since the last one let through.
    mutating func admit(now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> (log: Bool, heldBack: Int) {
        if let start = windowStart, now &- start < interval {
            guard inWindow < burst else {
                suppressed += 1
                return (false, 0)
            }
        } else {
            windowStart = now
            inWindow = 0
        }
        inWindow += 1
        return (true, takeSuppressed())
    }

    /// Messages held back and not yet reported; reset to zero.
    mutating func takeSuppressed() -> Int {
        defer { suppressed = 0 }
        return suppressed
    }
}
