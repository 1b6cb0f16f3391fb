import NIOConcurrencyHelpers

// Soundstage locks with swift-nio's NIOLockedValueBox (a pthread mutex) rather than
// Synchronization.Mutex: on Linux, Mutex hands a contended lock over inside the kernel
// (FUTEX_LOCK_PI), which ThreadSanitizer cannot see, so `swift test --sanitize=thread`
// reported false races. pthread mutexes are intercepted by TSan, so its verdict means something.

extension NIOLock {
    /// `withLock`, keeping the closure's typed error.
    @inline(__always)
    package func withTypedLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}

extension NIOLockedValueBox {
    /// `withLockedValue`, keeping the closure's typed error.
    @inline(__always)
    func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        do {
            return try withLockedValue(body)
        } catch {
            // `body` can only throw E, so this cast cannot fail.
            throw error as! E
        }
    }
}
