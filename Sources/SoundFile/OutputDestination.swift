#if canImport(Glibc)
import Glibc
#endif

/// Where a writer's bytes go, so that no writer ever replaces what is not a regular file.
///
/// - A regular file (or a new one) is written under a temporary name beside it and renamed into
///   place by ``commit()``: a failed write never leaves half a file, nor clobbers the old one.
/// - A symbolic link is followed, even one whose target does not exist yet: the target is
///   written, the link stays.
/// - A special file — `/dev/null`, a FIFO, a terminal — is written in place, never replaced.
///   A FIFO without a reader is an error at once, never a wait.
public struct OutputDestination: Sendable {
    /// The path asked for.
    public let path: String
    /// Where the bytes are written: a temporary file beside the target, or the special file itself.
    public let writePath: String
    /// The file ``commit()`` renames the temporary file to; nil when writing a special file in place.
    public let finalPath: String?

    /// Resolves `path` (following symbolic links) and decides how to write it.
    public init(_ path: String) {
        self.path = path
        let target = Self.followingLinks(path)
        var info = stat()
        if stat(target, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG, (info.st_mode & S_IFMT) != S_IFDIR {
            writePath = target
            finalPath = nil
        } else {
            writePath = target + ".part-\(getpid())"
            finalPath = target
        }
    }

    /// Whether the bytes go straight into a special file (no temporary file, no rename).
    public var isSpecialFile: Bool { finalPath == nil }

    /// Opens ``writePath`` for writing (created or truncated); returns the file descriptor.
    /// - Throws: `.notFound`, `.permissionDenied` or `.io` naming ``path``; a FIFO without a
    ///   reader fails at once (ENXIO).
    public func create() throws -> Int32 {
        // O_NONBLOCK so a FIFO without a reader fails instead of hanging; cleared right after.
        let fd = open(writePath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK, 0o644)
        guard fd >= 0 else { throw SoundstageError.posix("open", errno: errno, path: path, action: "create") }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    /// Moves the finished temporary file into place (nothing to do for a special file).
    public func commit() throws {
        guard let finalPath else { return }
        guard rename(writePath, finalPath) == 0 else {
            let error = SoundstageError.posix("rename", errno: errno, path: path, action: "write")
            discard()
            throw error
        }
    }

    /// Deletes the temporary file (never a special file).
    public func discard() {
        if finalPath != nil { unlink(writePath) }
    }

    /// Writes `bytes` to `path` the safe way (see ``OutputDestination``).
    public static func write(_ bytes: [UInt8], to path: String) throws {
        let destination = OutputDestination(path)
        let fd = try destination.create()
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                let error = SoundstageError.posix("write", errno: errno, path: path, action: "write")
                close(fd)
                destination.discard()
                throw error
            }
            done += n
        }
        close(fd)
        try destination.commit()
    }

    /// `path` with every symbolic link followed (at most 40), even to a target that does not exist.
    static func followingLinks(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { return current }
            let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if target.hasPrefix("/") {
                current = target
            } else if let slash = current.lastIndex(of: "/") {
                current = String(current[...slash]) + target
            } else {
                current = target
            }
        }
        return current
    }
}
