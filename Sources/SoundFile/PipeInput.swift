#if canImport(Glibc)
import Glibc
#endif
import CSndFile
import Synchronization
import SoundstageErrors

/// Audio arriving on a descriptor that cannot seek (a pipe, a socket, a terminal), made readable
/// by libsndfile and cancellable: a read waiting for a writer that stalls must end when the
/// reader goes away, and a blocked `read(2)` cannot be woken from another thread.
///
/// It reads the first four bytes itself. FLAC (`fLaC`) and MPEG audio (`ID3`, or a frame sync)
/// are then read through a ``PipeStream``; anything else goes through a relay: a thread copies
/// the descriptor into a pipe of its own, which libsndfile reads with its own pipe support, and
/// which the relay closes on ``cancel()``.
///
/// Why MPEG too: libsndfile 1.2.0's own pipe path for MPEG hands libmpg123 the bytes its
/// detection read from a header buffer, and that copy reads past the buffer's end — under
/// ThreadSanitizer's allocator it crashed the process about one run in ten (SEGV in `memcpy`
/// under `mpg123_getformat2`, from `sf_open_fd`). Through the kept-bytes reader libsndfile takes
/// the stream for a file and libmpg123 reads it front to back.
final class PipeInput {
    /// The first bytes, for errors that say what was found.
    let prefix: [UInt8]
    /// The kept-bytes reader, for FLAC and MPEG audio.
    let kept: PipeStream?
    /// The relay pipe's read end libsndfile reads (and closes), for everything else; -1 with ``kept``.
    let relayed: Int32
    private let cancelled = CancelFlag()

    /// Waits for the first bytes of `fd` (which it owns from now on).
    init(fd: Int32, subject: String) throws {
        var first = [UInt8](repeating: 0, count: 4)
        var got = 0
        while got < first.count {
            let n = first.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, 4 - got) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            got += n
        }
        prefix = Array(first.prefix(got))
        guard got > 0 else {
            close(fd)
            throw SoundstageError(.corruptData, "no data: the stream ended before any byte came", subject: subject)
        }
        if Self.readsThroughKeptBytes(prefix) {
            kept = PipeStream(fd: fd, prefix: prefix)
            relayed = -1
            return
        }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            close(fd)
            throw SoundstageError(.io, "cannot make a pipe", subject: subject, cause: .posix(function: "pipe", errno: errno))
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        kept = nil
        relayed = ends[0]
        let job = Unmanaged.passRetained(RelayJob(source: fd, sink: ends[1], first: prefix, cancelled: cancelled)).toOpaque()
        var thread = pthread_t()
        guard pthread_create(&thread, nil, { argument in
            let job = Unmanaged<RelayJob>.fromOpaque(argument!).takeRetainedValue()
            PipeInput.relay(from: job.source, to: job.sink, first: job.first, cancelled: job.cancelled)
            return nil
        }, job) == 0 else {
            Unmanaged<RelayJob>.fromOpaque(job).release()
            close(fd)
            close(ends[0])
            close(ends[1])
            throw SoundstageError(.io, "cannot start the pipe's relay thread", subject: subject)
        }
        pthread_detach(thread)
    }

    deinit { cancel() }

    /// Ends any wait for the writer: the stream then looks ended. Any thread.
    func cancel() {
        cancelled.value.store(true, ordering: .relaxed)
        kept?.cancel()
    }

    /// Whether a stream starting with `prefix` is read through a ``PipeStream``: FLAC, and MPEG
    /// audio (an ID3v2 tag, or an MPEG frame sync: eleven set bits).
    static func readsThroughKeptBytes(_ prefix: [UInt8]) -> Bool {
        if prefix == Array("fLaC".utf8) || prefix.starts(with: Array("ID3".utf8)) { return true }
        return prefix.count >= 2 && prefix[0] == 0xFF && prefix[1] & 0xE0 == 0xE0
    }

    /// Copies `source` into `sink` until the source ends or the input is cancelled, then closes both.
    private static func relay(from source: Int32, to sink: Int32, first: [UInt8], cancelled: CancelFlag) {
        defer {
            close(sink)
            close(source)
        }
        var buffer = first
        buffer.reserveCapacity(65_536)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while !cancelled.value.load(ordering: .relaxed) {
            // Hand on what is held, a piece at a time, so a cancel is seen while libsndfile is slow.
            while !buffer.isEmpty {
                var request = pollfd(fd: sink, events: Int16(POLLOUT), revents: 0)
                guard poll(&request, 1, 100) >= 0 || errno == EINTR else { return }
                if cancelled.value.load(ordering: .relaxed) { return }
                guard request.revents & Int16(POLLOUT) != 0 else {
                    if request.revents & Int16(POLLERR | POLLHUP) != 0 { return }
                    continue
                }
                let n = buffer.withUnsafeBytes { write(sink, $0.baseAddress, min($0.count, 4_096)) }
                if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                guard n > 0 else { return }     // the reader is gone
                buffer.removeFirst(n)
            }
            var request = pollfd(fd: source, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, 100)
            if ready == 0 || (ready < 0 && errno == EINTR) { continue }
            let n = read(source, &chunk, chunk.count)
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard n > 0 else { return }         // the writer closed it
            buffer.append(contentsOf: chunk[0..<n])
        }
    }
}

/// Bytes arriving on a descriptor that cannot seek (a pipe, a socket), read by libsndfile through
/// its virtual I/O callbacks. The first ``window`` bytes are kept, so a decoder may go back into
/// the header it has read (libsndfile's detection and libFLAC both do); forward seeks read ahead.
/// Going back past the window, or from the end, fails as on any pipe.
///
/// libsndfile's own pipe support drops the bytes its format detection read, so FLAC from a pipe
/// failed with "lost sync"; through this it decodes. (libsndfile takes this reader for a seekable
/// file, and scans ahead of a WAV's audio for more chunks, so it serves FLAC and MPEG only.)
final class PipeStream {
    /// Bytes kept from the start, for seeks back into the header.
    static let window = 1 << 20
    private let fd: Int32
    private var kept: [UInt8] = []
    /// Bytes taken from the descriptor so far.
    private var consumed: Int64 = 0
    /// The position libsndfile reads from.
    private var position: Int64 = 0
    /// Set from any thread to end a read that waits for the writer (the reader is gone).
    private let cancelled = Atomic<Bool>(false)

    /// Takes `fd` (closed with the stream), whose first bytes, `prefix`, were read already.
    init(fd: Int32, prefix: [UInt8]) {
        self.fd = fd
        kept = prefix
        consumed = Int64(prefix.count)
    }

    deinit { close(fd) }

    /// Ends the wait of a read in progress (within 100 ms) and every read after it: the stream
    /// then looks ended. Any thread.
    func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// Waits until the descriptor has bytes (or its writer closed it); false once cancelled.
    private func waitForBytes() -> Bool {
        while !cancelled.load(ordering: .relaxed) {
            var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, 100)
            if ready > 0 || (ready < 0 && errno != EINTR) { return true }
        }
        return false
    }

    static func from(_ pointer: UnsafeMutableRawPointer?) -> PipeStream {
        Unmanaged<PipeStream>.fromOpaque(pointer!).takeUnretainedValue()
    }

    /// Reads up to `count` bytes from the descriptor, keeping those in the window. Waits for the
    /// first byte only, then returns what has come (a decoder asking for 64 KB gets what the
    /// writer sent, and decodes it); `all` waits for every byte (a seek ahead).
    private func pull(into destination: UnsafeMutableRawPointer?, count: Int, all: Bool = false) -> Int {
        var done = 0
        while done < count && (all || done == 0) {
            guard waitForBytes() else { break }
            let n = destination.map { read(fd, $0 + done, count - done) } ?? {
                var scratch = [UInt8](repeating: 0, count: min(65_536, count - done))
                let got = read(fd, &scratch, scratch.count)
                if got > 0 { keep(scratch[0..<got]) }
                return got
            }()
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            if let destination { keep(UnsafeRawBufferPointer(start: destination + done, count: n)) }
            done += n
            consumed += Int64(n)
        }
        return done
    }

    private func keep(_ bytes: some Collection<UInt8>) {
        guard kept.count < Self.window else { return }
        kept.append(contentsOf: bytes.prefix(Self.window - kept.count))
    }

    private func give(into destination: UnsafeMutableRawPointer, count: Int) -> Int {
        var done = 0
        if position < consumed {
            // Going over bytes read before: only those kept can be given again.
            guard position < Int64(kept.count) else { return 0 }
            let n = min(count, kept.count - Int(position), Int(consumed - position))
            kept.withUnsafeBytes { destination.copyMemory(from: $0.baseAddress! + Int(position), byteCount: n) }
            done = n
            position += Int64(n)
        }
        if done < count {
            let n = pull(into: destination + done, count: count - done)
            done += n
            position += Int64(n)
        }
        return done
    }

    private func seek(to target: Int64) -> Int64 {
        guard target >= 0 else { return -1 }
        if target <= consumed {
            guard target <= Int64(kept.count) || target == consumed else { return -1 }
            position = target
            return target
        }
        // Ahead: read up to it.
        position = consumed
        let wanted = Int(target - consumed)
        let got = pull(into: nil, count: wanted, all: true)
        position = consumed
        return got == wanted ? target : -1
    }

    /// The callbacks libsndfile calls; `user_data` is an unretained `PipeStream`. The length is
    /// unknown: reported as the largest libsndfile accepts, so no header looks truncated.
    static let virtualIO = SF_VIRTUAL_IO(
        get_filelen: { _ in Int64.max / 4 },
        seek: { offset, whence, user in
            let stream = PipeStream.from(user)
            switch whence {
            case SEEK_SET: return stream.seek(to: offset)
            case SEEK_CUR: return stream.seek(to: stream.position + offset)
            default: return -1
            }
        },
        read: { destination, count, user in
            guard let destination, count > 0 else { return 0 }
            return Int64(PipeStream.from(user).give(into: destination, count: Int(count)))
        },
        write: { _, _, _ in 0 },
        tell: { user in PipeStream.from(user).position }
    )
}

/// A flag one thread sets and another polls.
final class CancelFlag: Sendable {
    let value = Atomic<Bool>(false)
}

/// What a relay thread is handed.
private final class RelayJob {
    let source: Int32
    let sink: Int32
    let first: [UInt8]
    let cancelled: CancelFlag
    init(source: Int32, sink: Int32, first: [UInt8], cancelled: CancelFlag) {
        self.source = source
        self.sink = sink
        self.first = first
        self.cancelled = cancelled
    }
}
