#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Writing to stderr the way Unix tools do: `soundstage: MESSAGE`, one line each.
enum Terminal {
    /// Prints `soundstage: MESSAGE` on stderr: errors and notes alike (stdout stays parseable).
    static func say(_ message: String) { writeLine("soundstage: \(message)") }

    /// The one line every command prints when it falls back to rendering.
    static func renderingInstead(to path: String) {
        say("no audio output device could be opened; rendering to \(path) instead")
    }

    /// Prints `value` as pretty, key-sorted JSON on stdout.
    static func printJSON(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

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
