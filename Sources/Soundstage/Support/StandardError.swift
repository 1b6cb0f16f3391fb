#if canImport(Glibc)
import Glibc
#endif

/// Silences file descriptor 2 around device probing, where ALSA and OpenAL Soft print many
/// lines about a sound card that is not there.
enum StandardError {
    /// Runs `body` with stderr pointed at /dev/null (unless `SOUNDSTAGE_VERBOSE` is set).
    static func silenced<R>(_ body: () throws -> R) rethrows -> R {
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
