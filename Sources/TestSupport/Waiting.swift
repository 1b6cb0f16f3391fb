import Foundation

/// Polls `condition` every 5 ms until it holds or `seconds` pass; returns whether it held. For
/// tests and benchmarks that wait on a real server or another thread.
@discardableResult
public func waitFor(_ seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() >= deadline { return false }
        usleep(5_000)
    }
    return true
}
