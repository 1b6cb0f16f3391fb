import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import SoundstageErrors

/// Where a writer's bytes go, so that no writer ever replaces what is not a regular file.
///
/// - A regular file (or a new one) is written under a temporary name beside it and renamed into
///   place by ``commit()``: a failed write never leaves half a file, nor clobbers the old one.
/// - A symbolic link is followed, even one whose target does not exist yet: the target is
///   written, the link stays.
/// - A special file — `/dev/null`, a FIFO, a terminal — is never replaced. It is opened at once
///   (a FIFO without a reader is an error then, never a wait); the file is written to a temporary
///   file in `$TMPDIR` (formats need to seek back to their header) and copied into it whole by
///   ``commit()``.
public final class OutputDestination {
    /// The path asked for.
    public let path: String
    /// Where the bytes are written: a temporary file beside the target, or in `$TMPDIR` for a
    /// special file.
    public let writePath: String
    /// The file ``commit()`` renames the temporary file to; nil for a special file.
    public let finalPath: String?
    /// The special file the bytes are copied into, and its descriptor once ``create()`` opened it.
    private let special: String?
    private var specialDescriptor: Int32 = -1

    /// Resolves `path` (following symbolic links) and decides how to write it.
    public init(_ path: String) {
        self.path = path
        let target = Self.followingLinks(path)
        var info = stat()
        if stat(target, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG, (info.st_mode & S_IFMT) != S_IFDIR {
            let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
            writePath = directory + "/soundstage-\(getpid())-\(Self.nextTemporary()).part"
            finalPath = nil
            special = target
        } else {
            writePath = target + ".part-\(getpid())"
            finalPath = target
            special = nil
        }
    }

    deinit {
        if specialDescriptor >= 0 { close(specialDescriptor) }
    }

    /// Whether the target is a special file (written by copying, never replaced).
    public var isSpecialFile: Bool { special != nil }

    /// Opens ``writePath`` for writing (created or truncated), and a special target first;
    /// returns the descriptor of ``writePath``.
    /// - Throws: `.notFound`, `.permissionDenied` or `.io` naming ``path``; a FIFO without a
    ///   reader fails at once (ENXIO).
    public func create() throws -> Int32 {
        if let special, specialDescriptor < 0 {
            specialDescriptor = try Self.open(special, flags: O_WRONLY, reportAs: path)
        }
        return try Self.open(writePath, flags: O_WRONLY | O_CREAT | O_TRUNC, reportAs: path)
    }

    /// Moves the finished temporary file into place, or copies it into the special file.
    public func commit() throws {
        if special != nil {
            defer { discard() }
            try copyIntoSpecialFile()
            return
        }
        guard let finalPath else { return }
        guard rename(writePath, finalPath) == 0 else {
            let error = SoundstageError.posix("rename", errno: errno, path: path, action: "write")
            discard()
            throw error
        }
    }

    /// Deletes the temporary file (never the target).
    public func discard() {
        unlink(writePath)
        if specialDescriptor >= 0 {
            close(specialDescriptor)
            specialDescriptor = -1
        }
    }

    private func copyIntoSpecialFile() throws {
        let input = try Self.open(writePath, flags: O_RDONLY, reportAs: path)
        defer { close(input) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = read(input, &chunk, chunk.count)
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw SoundstageError.posix("read", errno: errno, path: writePath, action: "read") }
            if got == 0 { return }
            try Self.writeAll(specialDescriptor, chunk[0..<got], path: path)
        }
    }

    private static func open(_ file: String, flags: Int32, reportAs path: String) throws -> Int32 {
        // O_NONBLOCK so a FIFO without a reader fails instead of hanging; cleared right after.
        let fd = Glibc.open(file, flags | O_CLOEXEC | O_NONBLOCK, 0o644)
        guard fd >= 0 else { throw SoundstageError.posix("open", errno: errno, path: path, action: "create") }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    /// Writes all of `bytes` to `fd` (retrying short writes and EINTR); errors name `path`.
    static func writeAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>, path: String) throws {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                throw SoundstageError.posix("write", errno: errno, path: path, action: "write")
            }
            done += n
        }
    }

    private static let temporaries = Atomic<Int>(0)
    private static func nextTemporary() -> Int { temporaries.add(1, ordering: .relaxed).newValue }

    /// Writes `bytes` to `path` the safe way (see ``OutputDestination``).
    public static func write(_ bytes: [UInt8], to path: String) throws {
        let destination = OutputDestination(path)
        let fd = try destination.create()
        do {
            try writeAll(fd, bytes[...], path: path)
        } catch {
            close(fd)
            destination.discard()
            throw error
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
