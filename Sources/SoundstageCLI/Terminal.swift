#if canImport(Glibc)
import Glibc
#endif

/// Writing to stderr the way Unix tools do: `soundstage: MESSAGE`, one line each.
enum Terminal {
    /// Prints `soundstage: MESSAGE` on stderr.
    static func error(_ message: String) { writeLine("soundstage: \(message)") }

    /// Prints a note on stderr (kept off stdout so output stays parseable).
    static func note(_ message: String) { writeLine("soundstage: \(message)") }

    /// Whether stderr is a terminal (for progress bars).
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }

    /// Runs `body` with stderr sent to /dev/null: ALSA and OpenAL Soft print many lines while
    /// probing for a sound card that is not there; the CLI says what happened in one line instead.
    /// Set `SOUNDSTAGE_VERBOSE=1` to see them.
    static func quietly<R>(_ body: () throws -> R) rethrows -> R {
        if getenv("SOUNDSTAGE_VERBOSE") != nil { return try body() }
        let saved = dup(STDERR_FILENO)
        let null = open("/dev/null", O_WRONLY)
        guard saved >= 0, null >= 0 else { return try body() }
        dup2(null, STDERR_FILENO)
        close(null)
        defer {
            dup2(saved, STDERR_FILENO)
            close(saved)
        }
        return try body()
    }

    /// Writes `text` and a newline to file descriptor 2.
    static func writeLine(_ text: String, newline: Bool = true) {
        let bytes = Array((newline ? text + "\n" : text).utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress! + done, bytes.count - done) }
            if n <= 0 { return }
            done += n
        }
    }
}
