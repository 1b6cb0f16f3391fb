import AudioToolbox
import Foundation
import Testing

/// Run loops as Core Audio code uses them: a callback queued for a thread's run loop (from another
/// thread, as an audio queue's render thread queues one) runs on that thread when it runs the loop,
/// in the mode it was registered for; the loop waits while something may queue more, finishes when
/// nothing can, and stops when told, from any thread.
@Suite struct RunLoopTests {
    /// Runs `body` on a thread of its own (its own run loop) and waits for it.
    static func onThread(_ body: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                body()
                done.resume()
            }
            thread.start()
        }
    }

    /// The loop a thread gets, as a number another thread can hold.
    final class Box: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [String] = []
        func add(_ value: String) { lock.lock(); values.append(value); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return values }
    }

    @Test func anEmptyLoopFinishesAtOnce() async {
        let results = Box()
        await Self.onThread {
            results.add("\(CFRunLoopRunInMode(.defaultMode, 10, false) == .finished)")
            results.add("\(CFRunLoopGetCurrent() !== CFRunLoopGetMain())")
            results.add("\(CFRunLoopGetCurrent() === CFRunLoopGetCurrent())")
        }
        #expect(results.all == ["true", "true", "true"])
    }

    @Test func callbacksRunOnTheLoopsThreadInTheirMode() async {
        let results = Box()
        await Self.onThread {
            let loop = CFRunLoopStorage.current
            loop.attachSource(in: "kCFRunLoopCommonModes")   // as an audio queue given this loop does
            let me = pthread_self()
            let other = Thread {
                // From another thread: one for the common modes, one for a mode of the app's own.
                loop.perform(in: "kCFRunLoopCommonModes") { results.add("common on loop thread: \(pthread_equal(pthread_self(), me) != 0)") }
                loop.perform(in: "MyMode") { results.add("my mode") }
            }
            other.start()
            results.add("\(CFRunLoopRunInMode(.defaultMode, 30, true))")            // the common one, then return
            results.add("\(CFRunLoopRunInMode(.defaultMode, 0.05, false))")         // not MyMode's: time runs out
            results.add("\(CFRunLoopRunInMode(CFRunLoopMode("MyMode"), 30, true))")  // MyMode's
            loop.detachSource(in: "kCFRunLoopCommonModes")
            results.add("\(CFRunLoopRunInMode(.defaultMode, 30, false))")           // nothing left to wait for
        }
        #expect(results.all == ["common on loop thread: true", "CFRunLoopRunResult(rawValue: 4)", "CFRunLoopRunResult(rawValue: 3)",
                                "my mode", "CFRunLoopRunResult(rawValue: 4)", "CFRunLoopRunResult(rawValue: 1)"])
    }

    @Test func anotherThreadStopsAWaitingLoop() async {
        let results = Box()
        await Self.onThread {
            let loop = CFRunLoopStorage.current
            loop.attachSource(in: "kCFRunLoopDefaultMode")
            let stopper = Thread {
                while !loop.isWaiting { usleep(1_000) }
                CFRunLoopWakeUp(CFRunLoopGetMain())   // another loop's wake-up changes nothing here
                loop.stop()
            }
            stopper.start()
            results.add("\(CFRunLoopRunInMode(.defaultMode, 60, false) == .stopped)")
            // A stop asked of a loop not running makes its next run return at once.
            loop.stop()
            results.add("\(CFRunLoopRunInMode(.defaultMode, 60, false) == .stopped)")
            loop.detachSource(in: "kCFRunLoopDefaultMode")
        }
        #expect(results.all == ["true", "true"])
    }

    @Test func aCallbackMayRunTheLoopAgain() async {
        let results = Box()
        await Self.onThread {
            let rl = CFRunLoopGetCurrent()
            CFRunLoopPerformBlock(rl, CFRunLoopMode.commonModes.rawValue) {
                results.add("outer")
                CFRunLoopPerformBlock(rl, .defaultMode) { results.add("inner") }
                results.add("nested: \(CFRunLoopRunInMode(.defaultMode, 1, true))")
            }
            results.add("outer: \(CFRunLoopRunInMode(.defaultMode, 1, false))")
            CFRunLoopPerformBlock(nil, .defaultMode) { results.add("never") }   // a NULL loop: ignored
            CFRunLoopPerformBlock(rl, .defaultMode, nil)
        }
        #expect(results.all == ["outer", "inner", "nested: CFRunLoopRunResult(rawValue: 4)", "outer: CFRunLoopRunResult(rawValue: 1)"])
    }
}
