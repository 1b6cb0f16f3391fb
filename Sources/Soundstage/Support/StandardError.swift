#if canImport(Glibc)
import Glibc
#endif

extension Soundstage {
    /// Runs `body` with the process's stderr (file descriptor 2) pointed at /dev/null, unless
    /// `SOUNDSTAGE_VERBOSE` is set: for a program that opens a device at start-up and does not
    /// want the many lines ALSA and OpenAL Soft print about a sound card that is not there.
    ///
    /// It is process-wide — every thread's stderr goes too while `body` runs — so it is the
    /// program's decision, never the library's: Soundstage itself never calls it.
    public static func silencingStandardError<R>(_ body: () throws -> R) rethrows -> R {
        if getenv("SOUNDSTAGE_VERBOSE") != nil { return try body() }
        let saved = dup(STDERR_FILENO)
        let null = open("/dev/null", O_WRONLY)
        guard saved >= 0, null >= 0 else {
            if saved >= 0 { close(saved) }
            if null >= 0 { close(null) }
            return try body()
        }
        dup2(null, STDERR_FILENO)
        close(null)
        defer {
            dup2(saved, STDERR_FILENO)
            close(saved)
        }
        return try body()
    }
}
