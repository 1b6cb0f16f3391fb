import Foundation
import NIOConcurrencyHelpers

/// Held while a pipe is made and while a child is spawned, so no child inherits another's pipe
/// before it is marked close-on-exec (a reader would then never see end-of-file).
private let spawnLock = NIOLock()

/// A child process started with `posix_spawn` and reaped with `waitpid` on its own pid.
/// Foundation's `Process` reaps from a shared SIGCHLD handler, which hung here (a blocking
/// `wait4` on a long-lived server) when short-lived children exited beside it.
public final class ChildProcess: @unchecked Sendable {
    // @unchecked: `status` is written only by `wait`/`isRunning`, which the owner calls from one thread at a time.

    /// The child's process id.
    public let pid: pid_t
    private var status: Int32?

    /// Starts `path` with `arguments`; stdin, stdout and stderr are the given descriptors (or
    /// /dev/null); `descriptors` maps more of the child's descriptors (3, 4, ...) to ours.
    public init(_ path: String, _ arguments: [String], environment: [String: String],
                stdin: Int32? = nil, stdout: Int32? = nil, stderr: Int32? = nil, descriptors: [Int32: Int32] = [:]) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdin { posix_spawn_file_actions_adddup2(&actions, stdin, 0) } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if let stdout { posix_spawn_file_actions_adddup2(&actions, stdout, 1) } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        if let stderr { posix_spawn_file_actions_adddup2(&actions, stderr, 2) } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        for (child, ours) in descriptors.sorted(by: { $0.key < $1.key }) { posix_spawn_file_actions_adddup2(&actions, ours, child) }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        // The spawning thread may block signals (libdispatch's workers do): the child must not
        // inherit that, or it would never see SIGTERM.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var child: pid_t = 0
        let result = spawnLock.withLock { posix_spawn(&child, path, &actions, &attributes, argv, envp) }
        guard result == 0 else {
            throw AudioServerFixture.Unavailable(description: "cannot start \(path): \(String(cString: strerror(result)))")
        }
        pid = child
    }

    /// Whether it still runs (reaps it if it ended).
    public var isRunning: Bool {
        guard status == nil else { return false }
        var raw: Int32 = 0
        if waitpid(pid, &raw, WNOHANG) == pid { status = raw; return false }
        return true
    }

    /// Waits for it to end and returns its exit code (128 + signal when killed).
    @discardableResult
    public func wait() -> Int32 {
        if status == nil {
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
            status = raw
        }
        let raw = status!
        return raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
    }

    /// Sends `signal`.
    public func send(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Makes a pipe whose ends are closed in children (but for a descriptor dup'ed onto 0–2).
    public static func makePipe(_ fds: inout [Int32]) -> Bool {
        spawnLock.withLock {
            guard pipe(&fds) == 0 else { return false }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            return true
        }
    }

    /// Runs `path` to its end and returns its exit code and everything it printed (stdout and stderr).
    public static func run(_ path: String, _ arguments: [String], environment: [String: String]) throws -> (status: Int32, output: String) {
        var fds: [Int32] = [0, 0]
        guard ChildProcess.makePipe(&fds) else { throw AudioServerFixture.Unavailable(description: "pipe failed") }
        let child: ChildProcess
        do {
            child = try ChildProcess(path, arguments, environment: environment, stdout: fds[1], stderr: fds[1])
        } catch {
            close(fds[0]); close(fds[1])
            throw error
        }
        close(fds[1])
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(fds[0], &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            data += buffer[0..<count]
        }
        close(fds[0])
        return (child.wait(), String(decoding: data, as: UTF8.self))
    }
}
