// CFRunLoop: each thread's queue of callbacks, run by the thread itself (CoreFoundation/CFRunLoop.h).
// Core Audio code given a run loop (an audio queue, a session listener, a system sound's completion)
// queues its callback here with `perform(in:_:)` and attaches itself as a source for as long as it
// may queue more (`attachSource(in:)`): that is what keeps CFRunLoopRunInMode waiting rather than
// returning kCFRunLoopRunFinished. Callbacks run on the loop's own thread only, outside its lock, so
// they may run the loop again.
#if canImport(Glibc)
import Glibc
#endif
import Soundstage

/// The object behind a CFRunLoopRef.
package final class CFRunLoopStorage: CFObject, @unchecked Sendable {
    // @unchecked: every stored property below is touched with `mutex` held.
    private struct Work {
        let mode: String
        let body: () -> Void
    }

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var queue: [Work] = []
    private var sources: [String: Int] = [:]
    private var stopRequested = false
    private var wakeUps = 0
    private var waiting = false

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    var cfDescription: String { "<CFRunLoop \(Unmanaged.passUnretained(self).toOpaque())>" }

    func cfEquals(_ other: any CFObject) -> Bool { other === self }

    /// The common modes' name, and the mode they run in here (the only common mode).
    static let commonModes = "kCFRunLoopCommonModes"
    static let defaultMode = "kCFRunLoopDefaultMode"

    /// Queues `body` to run on this loop's thread when it runs `mode` (the common modes: the default mode).
    package func perform(in mode: String, _ body: @escaping () -> Void) {
        locked {
            queue.append(Work(mode: Self.running(mode), body: body))
            pthread_cond_signal(condition)
        }
    }

    /// Something that will queue callbacks in `mode` from now on, until it detaches.
    package func attachSource(in mode: String) {
        locked { sources[Self.running(mode), default: 0] += 1 }
    }

    /// The end of what `attachSource(in:)` began.
    package func detachSource(in mode: String) {
        locked {
            let name = Self.running(mode)
            sources[name] = max(0, (sources[name] ?? 0) - 1)
            pthread_cond_signal(condition)   // a loop left with nothing to wait for finishes
        }
    }

    /// CFRunLoopStop.
    package func stop() {
        locked {
            stopRequested = true
            pthread_cond_signal(condition)
        }
    }

    /// CFRunLoopWakeUp.
    func wakeUp() {
        locked {
            wakeUps += 1
            pthread_cond_signal(condition)
        }
    }

    /// CFRunLoopIsWaiting.
    package var isWaiting: Bool { locked { waiting } }

    /// CFRunLoopRunInMode, on this loop's thread.
    func run(mode: String, seconds: Double, returnAfterSourceHandled: Bool) -> CFRunLoopRunResult {
        let mode = Self.running(mode)
        let deadline = Self.now() + (seconds.isNaN ? 0 : max(0, min(seconds, 1e9)))
        var handled = false
        lock()
        defer { unlock() }
        while true {
            if stopRequested {
                stopRequested = false
                return .stopped
            }
            if let index = queue.firstIndex(where: { $0.mode == mode }) {
                let work = queue.remove(at: index)
                unlock()
                work.body()
                lock()
                handled = true
                if returnAfterSourceHandled { return .handledSource }
                continue
            }
            if (sources[mode] ?? 0) == 0 { return .finished }
            let now = Self.now()
            if now >= deadline { return handled && returnAfterSourceHandled ? .handledSource : .timedOut }
            let seen = wakeUps
            waiting = true
            var until = timespec(tv_sec: Int(deadline), tv_nsec: Int((deadline - deadline.rounded(.down)) * 1e9))
            while wakeUps == seen, !stopRequested, !queue.contains(where: { $0.mode == mode }), (sources[mode] ?? 0) > 0 {
                if pthread_cond_timedwait(condition, mutex, &until) == ETIMEDOUT { break }
            }
            waiting = false
        }
    }

    /// The mode callbacks registered in `mode` run in.
    private static func running(_ mode: String) -> String { mode == commonModes ? defaultMode : mode }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private func lock() { pthread_mutex_lock(mutex) }
    private func unlock() { pthread_mutex_unlock(mutex) }

    private func locked<T>(_ body: () -> T) -> T {
        lock()
        defer { unlock() }
        return body()
    }

    // MARK: - Whose loop

    /// The main thread's loop, for the process's life.
    package static let main = CFRunLoopStorage()

    /// The key of each other thread's loop, released when the thread ends.
    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            if let pointer { Unmanaged<CFRunLoopStorage>.fromOpaque(pointer).release() }
        }
        return key
    }()

    /// The calling thread's loop, made when first asked for (the main thread's: `main`).
    package static var current: CFRunLoopStorage {
        if let pointer = pthread_getspecific(threadKey) { return Unmanaged<CFRunLoopStorage>.fromOpaque(pointer).takeUnretainedValue() }
        let loop = isMainThread() ? main : CFRunLoopStorage()
        pthread_setspecific(threadKey, Unmanaged.passRetained(loop).toOpaque())
        return loop
    }

    /// Whether the calling thread is the process's first: its thread ID is the process ID.
    private static func isMainThread() -> Bool { DetachedThread.currentThreadID() == getpid() }

    // MARK: - The audio system's source

    /// Attaches the audio system to the main run loop, once and for the process's life: called
    /// when the process first makes an audio queue, initializes the Audio Session, makes a system
    /// sound or an OpenAL context through Apple's names. On Apple's systems the audio system keeps
    /// a source of its notifications on the main run loop from then on, so a command-line
    /// program's `CFRunLoopRunInMode(kCFRunLoopDefaultMode, 2, false)` on its main thread waits
    /// the two seconds (the Core Audio books' player lets its last buffers play out so, and Apple's
    /// samples "service the audio system's notifications" so) where an empty loop would return
    /// `kCFRunLoopRunFinished` at once; here too. Other threads' loops, and other modes, are as
    /// they were.
    package static func attachAudioSystem() { _ = audioSystemSource }

    private static let audioSystemSource: Void = main.attachSource(in: defaultMode)
}

/// `CFRunLoopGetCurrent`: the calling thread's run loop.
@c(soundstage_CFRunLoopGetCurrent)
public func _CFRunLoopGetCurrent() -> UnsafeRawPointer? { cfUnretained(CFRunLoopStorage.current) }

/// `CFRunLoopGetMain`: the main thread's run loop.
@c(soundstage_CFRunLoopGetMain)
public func _CFRunLoopGetMain() -> UnsafeRawPointer? { cfUnretained(CFRunLoopStorage.main) }

/// `CFRunLoopRunInMode`: runs the calling thread's loop (a NULL or unknown mode: the default mode's
/// name is what the string says, so an unknown mode simply has nothing in it).
@c(soundstage_CFRunLoopRunInMode)
public func _CFRunLoopRunInMode(_ mode: UnsafeRawPointer?, _ seconds: Double, _ returnAfterSourceHandled: UInt8) -> Int32 {
    let name = cfString(mode) ?? CFRunLoopStorage.defaultMode
    return CFRunLoopStorage.current.run(mode: name, seconds: seconds, returnAfterSourceHandled: returnAfterSourceHandled != 0).rawValue
}

/// `CFRunLoopRun`: the default mode until stopped or finished.
@c(soundstage_CFRunLoopRun)
public func _CFRunLoopRun() {
    while CFRunLoopStorage.current.run(mode: CFRunLoopStorage.defaultMode, seconds: 1e9, returnAfterSourceHandled: false) == .timedOut {}
}

/// `CFRunLoopStop`.
@c(soundstage_CFRunLoopStop)
public func _CFRunLoopStop(_ rl: UnsafeRawPointer?) { (cfObject(rl) as? CFRunLoopStorage)?.stop() }

/// `CFRunLoopWakeUp`.
@c(soundstage_CFRunLoopWakeUp)
public func _CFRunLoopWakeUp(_ rl: UnsafeRawPointer?) { (cfObject(rl) as? CFRunLoopStorage)?.wakeUp() }

/// `CFRunLoopIsWaiting`.
@c(soundstage_CFRunLoopIsWaiting)
public func _CFRunLoopIsWaiting(_ rl: UnsafeRawPointer?) -> UInt8 { (cfObject(rl) as? CFRunLoopStorage)?.isWaiting == true ? 1 : 0 }
