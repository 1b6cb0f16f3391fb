import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Keeps Soundstage out of OpenAL Soft once the process exits.
///
/// OpenAL Soft 1.19.1 tears itself down in a library destructor (`alc_deinit`: its list lock and
/// thread-context key destroyed). A render or update still running on another thread then
/// asserts in `LockLists` and aborts the exiting process — a game that returns from `main` with
/// its output still playing would end in a crash report (the daemon-request fuzzer's replay hit
/// it 1 run in 5). So the first device registers an `atexit` handler, which runs before library
/// destructors: it closes a gate, and waits for the sections inside OpenAL that Soundstage's own
/// threads are in (renders, the OpenAL outputs' updates) to end. Past it, renders throw
/// `.released`, update threads stop, and every scene's lock reports its context closed, so a
/// game thread's call is refused instead of reaching OpenAL.
enum ProcessExit {
    /// Set once the process exits.
    private static let exitingBit = 1 << 62
    /// `exitingBit`, plus how many gated sections are running now.
    private static let state = Atomic<Int>(0)
    /// The handler, registered once.
    private static let handler: Void = { atexit { ProcessExit.closeGate() } }()
    /// The longest the handler waits for sections in flight: one that never ends (the exiting
    /// thread's own, when a callback inside a render calls `exit`) must not hang the exit.
    static let longestWait = 0.5

    /// Registers the exit handler (once per process; each device opening calls it).
    static func install() { _ = handler }

    /// Whether the process is exiting (OpenAL may be torn down).
    @inline(__always)
    static var isExiting: Bool { state.load(ordering: .relaxed) & exitingBit != 0 }

    /// Runs `body` as a section the exit waits for, or returns nil without running it when the
    /// process is exiting.
    static func gated<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R? {
        var current = state.load(ordering: .relaxed)
        while true {
            guard current & exitingBit == 0 else { return nil }
            let (exchanged, original) = state.compareExchange(expected: current, desired: current + 1,
                                                              ordering: .acquiring)
            if exchanged { break }
            current = original
        }
        defer { state.subtract(1, ordering: .releasing) }
        return try body()
    }

    /// The `atexit` handler: closes the gate, then waits (at most ``longestWait``) for the
    /// sections in flight.
    private static func closeGate() {
        state.bitwiseOr(exitingBit, ordering: .sequentiallyConsistent)
        var waited = 0.0
        while state.load(ordering: .acquiring) & ~exitingBit > 0 && waited < longestWait {
            usleep(1_000)
            waited += 0.001
        }
    }
}
