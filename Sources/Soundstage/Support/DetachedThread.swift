#if canImport(Glibc)
import Glibc
#endif

/// Starts a detached POSIX thread: what Soundstage's render, decoder, recorder and update
/// threads run on. (Foundation's `Thread` is not in FoundationEssentials, and the C library
/// carries no more of Foundation than FoundationEssentials; see docs/c-api.md.)
package enum DetachedThread {
    /// Runs `body` on a new thread named `name` (what `top -H` and debuggers show; Linux keeps
    /// 15 bytes of it, so Soundstage's are `ss-render`, `ss-decoder`, …), which ends when `body`
    /// returns. Returns false, and runs nothing, if the system refuses a thread.
    @discardableResult
    static func start(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        let work = Unmanaged.passRetained(ThreadWork(name: name, body: body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, runThreadWork, work)
        if status != 0 { Unmanaged<ThreadWork>.fromOpaque(work).release() }
        return status == 0
    }

    /// The calling thread's kernel thread ID (what /proc/PID/task lists), read from
    /// /proc/thread-self (Swift's Glibc module does not offer gettid(2)); nil if /proc is missing.
    package static func currentThreadID() -> Int32? {
        var buffer = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let link = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return link.split(separator: "/").last.flatMap { Int32($0) }
    }
}

/// What a new thread runs, handed to it through `pthread_create`'s argument.
private final class ThreadWork: Sendable {
    let name: String
    let body: @Sendable () -> Void

    init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }

    /// Names the calling thread through /proc (`pthread_setname_np` needs `_GNU_SOURCE`, which
    /// Swift's Glibc module is not built with).
    func nameCurrentThread() {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}

/// The thread's entry point: takes the work's reference, names the thread, runs the body.
private func runThreadWork(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let raw else { return nil }
    let work = Unmanaged<ThreadWork>.fromOpaque(raw).takeRetainedValue()
    work.nameCurrentThread()
    work.body()
    return nil
}
