import ArgumentParser
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import NumberText

/// Ctrl-C during a render: the first SIGINT asks the render to stop and complete its file with
/// what it has; a second one ends the process as usual.
enum Interrupt {
    private static let requested = Atomic<Bool>(false)

    /// Runs `body` with SIGINT caught as a request (see ``wasRequested``).
    static func catching<R>(_ body: () throws -> R) rethrows -> R {
        requested.store(false, ordering: .relaxed)      // initialized before the handler can run
        signal(SIGINT) { _ in
            Interrupt.requested.store(true, ordering: .relaxed)
            signal(SIGINT, SIG_DFL)
        }
        defer { signal(SIGINT, SIG_DFL) }
        return try body()
    }

    /// Runs `body` with SIGINT and SIGTERM both caught as a request to stop (a recording's end).
    static func catchingStops<R>(_ body: () throws -> R) rethrows -> R {
        requested.store(false, ordering: .relaxed)
        signal(SIGINT) { _ in Interrupt.requested.store(true, ordering: .relaxed) }
        signal(SIGTERM) { _ in Interrupt.requested.store(true, ordering: .relaxed) }
        defer {
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
        }
        return try body()
    }

    /// Whether SIGINT (or, under ``catchingStops(_:)``, SIGTERM) arrived.
    static var wasRequested: Bool { requested.load(ordering: .relaxed) }

    /// After an interrupted render: says what was kept and exits with 130 (128 + SIGINT), as shells expect.
    static func finishRender(wrote seconds: Double, of total: Double, to path: String) throws {
        guard wasRequested else { return }
        Terminal.writeLine("")
        Terminal.say("interrupted: \(seconds.fixed(2)) s of \(total.fixed(2)) s rendered to \(path) (a complete, playable file)")
        throw ExitCode(130)
    }
}
