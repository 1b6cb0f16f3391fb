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
