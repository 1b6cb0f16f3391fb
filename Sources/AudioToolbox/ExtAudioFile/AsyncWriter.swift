import Synchronization
#if canImport(Glibc)
import Glibc
#endif

// ExtAudioFileWriteAsync's queue and thread. The caller (an audio callback, typically) copies its
// frames into a ring of the client's format and wakes the thread; the thread takes them out and
// writes them through the object's converter into the file, under the object's lock. The ring is
// single-producer, single-consumer: two atomic frame counters, `head` (frames the producers have
// put in) and `tail` (frames the thread has taken out). Producers take turns through the object's
// `producing` flag (a spin on an atomic, never a lock the thread holds).

/// The queue behind ExtAudioFileWriteAsync, and its thread.
final class AsyncWriter: @unchecked Sendable {
    // @unchecked: `rings` is written by one producer at a time between `tail` and `head + n`
    // and read by the thread between `tail` and `head`; the atomics order the two (release on
    // store, acquire on load). `thread` is touched by start and stop only.
    /// The client's format (each buffer's ring holds frames of it).
    let client: PCMLayout
    /// Frames the ring holds.
    let capacity: Int
    /// The most frames one call may queue (kExtAudioFileError_AsyncWriteTooLarge above).
    let maximumCall: Int
    private let rings: [UnsafeMutableRawPointer]
    private let head = Atomic<Int>(0)
    private let tail = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    /// The first error the thread met, returned by the next ExtAudioFileWriteAsync (and Dispose).
    let failure = Atomic<Int32>(0)
    private let semaphore: UnsafeMutablePointer<sem_t>
    private var thread: pthread_t?
    /// The object the thread writes through. Unowned: the object stops this writer (joining its
    /// thread) before it goes away.
    private unowned let owner: ExtAudioFileObject

    /// The frames a queue holds, and the most one call may give.
    static let defaultCapacity = 65_536
    static let defaultMaximumCall = 16_384

    init(owner: ExtAudioFileObject, client: PCMLayout, capacity: Int = AsyncWriter.defaultCapacity,
         maximumCall: Int = AsyncWriter.defaultMaximumCall) {
        self.owner = owner
        self.client = client
        self.capacity = capacity
        self.maximumCall = maximumCall
        rings = (0..<client.bufferCount).map { _ in
            let ring = UnsafeMutableRawPointer.allocate(byteCount: capacity * client.bytesPerFrame, alignment: 16)
            ring.initializeMemory(as: UInt8.self, repeating: 0, count: capacity * client.bytesPerFrame)
            return ring
        }
        semaphore = .allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
        for ring in rings { ring.deallocate() }
    }

    /// Starts the thread.
    func start() -> Bool {
        var made = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let status = pthread_create(&made, nil, { context in
            let writer = Unmanaged<AsyncWriter>.fromOpaque(context!).takeRetainedValue()
            writer.run()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<AsyncWriter>.fromOpaque(context).release()
            return false
        }
        thread = made
        return true
    }

    /// Queues `frames` frames of `list` (checked by the caller) and wakes the thread. The audio
    /// thread's path: no allocation, no lock, no wait; one `sem_post`.
    func enqueue(_ frames: Int, _ list: UnsafePointer<AudioBufferList>) -> OSStatus {
        guard frames <= maximumCall else { return kExtAudioFileError_AsyncWriteTooLarge }
        let start = head.load(ordering: .relaxed)
        let taken = tail.load(ordering: .acquiring)
        guard capacity - (start - taken) >= frames else { return kExtAudioFileError_AsyncWriteBufferOverflow }
        let buffers = UnsafeMutableAudioBufferListPointer(UnsafeMutablePointer(mutating: list))
        let bytesPerFrame = client.bytesPerFrame
        let at = start % capacity
        let first = min(frames, capacity - at)
        for (i, ring) in rings.enumerated() {
            let source = UnsafeRawPointer(buffers[i].mData!)
            (ring + at * bytesPerFrame).copyMemory(from: source, byteCount: first * bytesPerFrame)
            if first < frames { ring.copyMemory(from: source + first * bytesPerFrame, byteCount: (frames - first) * bytesPerFrame) }
        }
        head.store(start + frames, ordering: .releasing)
        sem_post(semaphore)
        return noErr
    }

    /// Waits until the thread has written everything queued so far (not from an audio thread).
    func drain() {
        sem_post(semaphore)
        while tail.load(ordering: .acquiring) < head.load(ordering: .acquiring) && !stopping.load(ordering: .acquiring) {
            usleep(200)
        }
    }

    /// Writes what is queued, then ends the thread and waits for it.
    func stop() {
        guard let thread else { return }
        drain()
        stopping.store(true, ordering: .releasing)
        sem_post(semaphore)
        pthread_join(thread, nil)
        self.thread = nil
    }

    /// The thread: waits to be woken, then writes what is queued, a contiguous run at a time.
    private func run() {
        let list = AudioBufferList.allocate(maximumBuffers: client.bufferCount)
        defer { free(list.unsafeMutablePointer) }
        let bytesPerFrame = client.bytesPerFrame
        while true {
            while sem_wait(semaphore) != 0 && errno == EINTR {}
            while true {
                let taken = tail.load(ordering: .relaxed)
                let queued = head.load(ordering: .acquiring)
                guard queued > taken else { break }
                let at = taken % capacity
                let frames = min(queued - taken, capacity - at, 16_384)
                for (i, ring) in rings.enumerated() {
                    list[i] = AudioBuffer(mNumberChannels: UInt32(client.nonInterleaved ? 1 : client.channels),
                                          mDataByteSize: UInt32(frames * bytesPerFrame), mData: ring + at * bytesPerFrame)
                }
                let status = owner.lock.withLock { () -> OSStatus in
                    guard !owner.isFinished else { return kExtAudioFileError_InvalidOperationOrder }
                    return osStatus { () throws(ExtStatus) in try owner.write(frames, from: UnsafePointer(list.unsafeMutablePointer)) }
                }
                if status != noErr { _ = failure.compareExchange(expected: 0, desired: status, ordering: .acquiringAndReleasing) }
                tail.store(taken + frames, ordering: .releasing)
            }
            if stopping.load(ordering: .acquiring) && tail.load(ordering: .acquiring) >= head.load(ordering: .acquiring) { return }
        }
    }
}

extension ExtAudioFileObject {
    /// Takes the producer's turn (spinning on an atomic while another producer, or a replacement
    /// of the queue, holds it: a few copies' time).
    private func takeTurn() {
        while !producing.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {}
    }

    /// ExtAudioFileWriteAsync. With a queue made, this takes no lock the writing thread holds,
    /// allocates nothing and never waits: it copies the frames into the ring and posts the thread's
    /// semaphore. The first call (or the priming one, 0 frames and NULL) makes the queue and starts
    /// the thread, under the object's lock.
    func writeAsync(_ frames: Int, _ list: UnsafePointer<AudioBufferList>?) -> OSStatus {
        takeTurn()
        defer { producing.store(false, ordering: .releasing) }
        var queue = asyncQueue.load(ordering: .acquiring)
        if queue == nil {
            let status = lock.withLock { () -> OSStatus in
                guard !disposed else { return kAudio_ParamError }
                return osStatus { () throws(ExtStatus) in
                    try prepareForWriting()
                    guard let client else { throw .nonPCMClientFormat }
                    let writer = AsyncWriter(owner: self, client: client)
                    guard writer.start() else { throw .parameter }
                    asyncWriter = writer
                    asyncQueue.store(Unmanaged.passUnretained(writer), ordering: .releasing)
                }
            }
            guard status == noErr else { return status }
            queue = asyncQueue.load(ordering: .acquiring)
        }
        guard let writer = queue?.takeUnretainedValue() else { return kAudio_ParamError }
        let failed = writer.failure.exchange(0, ordering: .acquiringAndReleasing)
        if failed != 0 { return failed }
        guard frames > 0 else { return noErr }
        guard let list else { return kAudio_ParamError }
        let buffers = UnsafeMutableAudioBufferListPointer(UnsafeMutablePointer(mutating: list))
        guard buffers.count == writer.client.bufferCount else { return kAudio_ParamError }
        let bytes = frames.multipliedReportingOverflow(by: writer.client.bytesPerFrame)
        guard !bytes.overflow else { return kExtAudioFileError_AsyncWriteTooLarge }
        for buffer in buffers where buffer.mData == nil || Int(buffer.mDataByteSize) < bytes.partialValue { return kAudio_ParamError }
        return writer.enqueue(frames, list)
    }

    /// Waits until the queue is written (before a synchronous write, which must come after it).
    func drainAsyncWriter() {
        guard let writer = lock.withLock({ asyncWriter }) else { return }
        writer.drain()
    }

    /// Writes what the queue holds and ends its thread (ExtAudioFileDispose, a new client format).
    func stopAsyncWriter() {
        takeTurn()
        let queue = asyncQueue.exchange(nil, ordering: .acquiringAndReleasing)
        producing.store(false, ordering: .releasing)
        guard queue != nil, let writer = lock.withLock({ asyncWriter }) else { return }
        writer.stop()
        let failed = writer.failure.exchange(0, ordering: .acquiringAndReleasing)
        lock.withLock {
            if asyncWriter === writer { asyncWriter = nil }
            if failed != 0 && asyncFailureKept == noErr { asyncFailureKept = failed }
        }
    }

    /// The error the writing thread met and no call has returned yet (cleared).
    var asyncFailure: OSStatus {
        lock.withLock {
            defer { asyncFailureKept = noErr }
            return asyncFailureKept
        }
    }
}
