#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import SoundstageProtocol

/// Why the daemon could not take its socket.
public struct ServerStartError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for people: says what to do about it.
    public let message: String
    /// Whether another daemon already serves the socket.
    public let alreadyRunning: Bool

    init(_ message: String, alreadyRunning: Bool = false) {
        self.message = message
        self.alreadyRunning = alreadyRunning
    }

    /// The message.
    public var description: String { message }
}

/// The daemon's claim on a socket path: its directory (created mode 0700), a lock file held
/// while the daemon runs (so a second daemon refuses to start), and the stale socket a crashed
/// daemon left behind (removed).
///
/// The daemon binds and listens under a staging name (the path with `~` appended), makes that
/// socket mode 0600, and only then renames it to the path (``publish()``). So a socket at the
/// path always accepts and is never open to others: a client that sees the file can connect.
final class SocketEndpoint: Sendable {
    let path: String
    /// Where the listener is bound before ``publish()`` moves it to `path`.
    let stagingPath: String
    let lockPath: String
    private let lockDescriptor: Int32
    /// The longest socket path, in bytes.
    static let longestPath = 102

    /// Claims `path`. `isDefaultLocation` lets the daemon tighten an existing directory to 0700
    /// (it only does that to its own default directory, never to a directory a user named).
    init(path: String, isDefaultLocation: Bool) throws {
        guard path.hasPrefix("/") || !path.isEmpty else { throw ServerStartError("the socket path is empty") }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        // SwiftNIO takes Unix socket paths of up to 103 bytes (what every Unix's sun_path holds);
        // the staging name is one byte longer.
        guard absolute.utf8.count <= Self.longestPath else {
            throw ServerStartError("\(absolute): the socket path is \(absolute.utf8.count) bytes; it may be at most "
                                   + "\(Self.longestPath) (a Unix socket path holds 103, and the daemon binds first at the path with \"~\" appended)")
        }
        self.path = absolute
        stagingPath = absolute + "~"
        lockPath = absolute + ".lock"
        let directory = URL(fileURLWithPath: absolute).deletingLastPathComponent().path
        try Self.prepare(directory: directory, tighten: isDefaultLocation)

        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.systemError("cannot create the lock file", lockPath) }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            close(descriptor)
            throw ServerStartError("another soundstage daemon is already serving \(absolute) (it holds \(lockPath)); "
                                   + "stop it first, or give this one another --socket", alreadyRunning: true)
        }
        lockDescriptor = descriptor
        do {
            try Self.removeStaleSocket(at: absolute)
            try Self.removeStaleSocket(at: stagingPath)
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// Makes the listening socket at ``stagingPath`` readable and writable by its owner only, then
    /// moves it to ``path`` (in one step: it replaces a socket already there, such as the one of a
    /// listener that failed).
    func publish() throws {
        if chmod(stagingPath, 0o600) != 0 { throw Self.systemError("cannot set the socket's permissions", stagingPath) }
        if rename(stagingPath, path) != 0 { throw Self.systemError("cannot move the socket into place", path) }
    }

    /// Removes the socket and the lock file and releases the lock.
    func release() {
        unlink(path)
        unlink(stagingPath)
        unlink(lockPath)
        close(lockDescriptor)
    }

    /// A socket file left by a daemon that did not stop cleanly: nobody can hold the lock and
    /// still accept on it, so it is removed. Anything that is not a socket is left alone.
    private static func removeStaleSocket(at path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw ServerStartError("\(path) exists and is not a socket; not touching it. Remove it or choose another --socket")
        }
        if unlink(path) != 0 { throw systemError("cannot remove the stale socket", path) }
    }

    private static func prepare(directory: String, tighten: Bool) throws {
        var info = stat()
        if stat(directory, &info) != 0 {
            // Each missing directory on the way, mode 0700 (as `mkdir -p -m 0700`).
            var path = directory.hasPrefix("/") ? "" : "."
            for component in directory.split(separator: "/") {
                path += "/" + component
                if mkdir(path, 0o700) != 0 && errno != EEXIST {
                    throw ServerStartError("cannot create the socket's directory \(directory): \(String(cString: strerror(errno)))")
                }
            }
            return
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw ServerStartError("\(directory) is not a directory") }
        guard tighten else { return }
        guard info.st_uid == getuid() else {
            throw ServerStartError("\(directory) belongs to another user (uid \(info.st_uid)); refusing to put the socket there")
        }
        if info.st_mode & 0o777 != 0o700, chmod(directory, 0o700) != 0 {
            throw systemError("cannot make the socket's directory private (mode 0700)", directory)
        }
    }

    private static func systemError(_ what: String, _ path: String) -> ServerStartError {
        ServerStartError("\(path): \(what): \(String(cString: strerror(errno)))")
    }
}
