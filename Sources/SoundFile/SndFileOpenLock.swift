import Synchronization

/// libsndfile keeps the error of a failed `sf_open*` in one process-wide variable (`sf_error(NULL)`,
/// `sf_strerror(NULL)`), which any other thread's `sf_*` call may overwrite before the failing
/// thread reads it (libsndfile/libsndfile#279): a game loading sounds on two threads then got
/// "error 0: No Error" for a file that is not audio, and a wrong error code. Every open of a file or
/// of bytes in memory holds this lock from the call until its error is read, so opens cannot
/// overwrite each other's error.
///
/// Opens of a pipe do not take it: libsndfile reads a pipe's header as the writer sends it, and a
/// writer that stalls would hold up every other open in the process. Their errors are read at
/// once too, and ``SndFileDecoder`` does not trust a code of 0 after a failed open (see
/// `openError`).
enum SndFileOpenLock {
    private static let mutex = Mutex(())

    /// Runs `body` (an `sf_open*` and the reading of its error) with the lock held.
    static func holding<Result>(_ body: () throws -> Result) rethrows -> Result {
        try mutex.withLock { _ in try body() }
    }
}
