#if canImport(Glibc)
import Glibc
#endif

/// A queue's lock, with the condition its device output waits on while the queue is starved
/// (nothing enqueued): an enqueue, a stop, a flush, a reset or a dispose wakes it.
final class QueueLock: @unchecked Sendable {
    // @unchecked: a pthread mutex and condition, used only through the functions below.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }

    func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Waits (the lock held) for ``wake()``, with no timer: whatever changes what the waiter
    /// checks must change it under the lock and then wake.
    func wait() { pthread_cond_wait(condition, mutex) }

    /// Wakes a waiter (with the lock held, or after changing under it what the waiter checks).
    func wake() { pthread_cond_broadcast(condition) }
}
