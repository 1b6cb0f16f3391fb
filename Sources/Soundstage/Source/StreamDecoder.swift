import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import SoundFile

/// One chunk of a stream, decoded ahead: interleaved float samples starting at file frame
/// `start`, and their levels for metering (made on the decoder thread, a pass over the samples).
/// A time-stretched chunk spans `fileFrames` of the file in its `frames`.
struct DecodedChunk {
    let start: Int64
    let samples: [Float]
    let frames: Int
    let levels: BlockLevels
    var fileFrames: Int

    init(start: Int64, samples: [Float], frames: Int, levels: BlockLevels, fileFrames: Int? = nil) {
        self.start = start
        self.samples = samples
        self.frames = frames
        self.levels = levels
        self.fileFrames = fileFrames ?? frames
    }
}

/// The decoder thread every streaming source shares: it reads files (libsndfile, disk I/O) into
/// chunks ahead of playback, so no game thread and no scene lock ever waits for a decode.
///
/// A scene hands work over through its ``StreamFeed``: start or seek at a frame, take what is
/// decoded. The thread decodes one chunk at a time, round robin over the feeds that have room,
/// outside any lock; a chunk decoded for a position the scene has since left is dropped.
final class StreamDecoder: @unchecked Sendable {
    /// The process's decoder (started with the first stream).
    static let shared = StreamDecoder()

    // @unchecked: `feeds`, `next` and every feed's `Shared` state are only touched with `mutex`
    // held; a feed's file only on the decoder thread.
    private var mutex = pthread_mutex_t()
    private var changed = pthread_cond_t()
    private var feeds: [StreamFeed] = []
    private var next = 0
    private var started = false

    private init() {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&changed, nil)
    }

    /// Runs `body` with the decoder's lock held.
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return try body()
    }

    /// Wakes the decoder thread and every waiter (lock held).
    func signalLocked() { pthread_cond_broadcast(&changed) }

    /// Waits for a change (lock held), at most `seconds`.
    func waitLocked(seconds: Double) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let nanoseconds = Int(now.tv_nsec) + Int(seconds * 1e9)
        var deadline = timespec(tv_sec: now.tv_sec + nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
        pthread_cond_timedwait(&changed, &mutex, &deadline)
    }

    /// Adds a feed (lock held); starts the thread the first time. A feed from a pipe gets a
    /// thread of its own: its reads wait for the writer, and must never hold up other streams.
    func registerLocked(_ feed: StreamFeed) {
        if !feed.isSeekable {
            // A pipe's reader runs below the game's threads; a producer's thread is an audio
            // queue's own (it runs the program's callbacks, which keep the queue fed), and keeps
            // the priority of the thread that started it.
            let lower = !feed.isProduced
            DetachedThread.start(name: feed.isProduced ? "ss-audio-queue" : "ss-pipe-decoder") { [self] in
                if lower { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10) }
                runDedicated(feed)
            }
            return
        }
        feeds.append(feed)
        if !started {
            // If the system refuses a thread, the next stream tries again.
            started = DetachedThread.start(name: "ss-decoder") { [self] in
                // Below the game's threads: decoding runs ahead, so it can wait; a frame cannot.
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)   // 0: this thread, on Linux
                run()
            }
        }
        signalLocked()
    }

    private func run() {
        pthread_mutex_lock(&mutex)
        while true {
            feeds.removeAll { $0.shared.closed && !$0.shared.busy }
            guard let feed = nextFeedLocked() else {
                pthread_cond_wait(&changed, &mutex)
                continue
            }
            decodeOneChunkLocked(feed)
        }
    }

    /// Decodes one chunk for `feed` (lock held on entry and exit, released while decoding).
    private func decodeOneChunkLocked(_ feed: StreamFeed) {
        let job = feed.takeJobLocked()
        pthread_mutex_unlock(&mutex)
        let result = feed.decode(job)
        pthread_mutex_lock(&mutex)
        feed.finishJobLocked(job, result)
        pthread_cond_broadcast(&changed)
    }

    /// Decodes one pipe's feed until it is closed. It waits on the feed's own condition, so the
    /// work of other streams (every chunk decoded broadcasts the shared one) never wakes it.
    private func runDedicated(_ feed: StreamFeed) {
        pthread_mutex_lock(&mutex)
        while !feed.shared.closed {
            guard feed.wantsWorkLocked else {
                pthread_cond_wait(feed.wake, &mutex)
                continue
            }
            decodeOneChunkLocked(feed)
        }
        pthread_mutex_unlock(&mutex)
    }

    /// The next feed with room for a chunk, round robin (lock held).
    private func nextFeedLocked() -> StreamFeed? {
        guard !feeds.isEmpty else { return nil }
        for step in 0..<feeds.count {
            let index = (next + step) % feeds.count
            if feeds[index].wantsWorkLocked {
                next = index + 1
                return feeds[index]
            }
        }
        return nil
    }
}

/// A streaming source's side of the ``StreamDecoder``: the file, where to decode next, and the
/// chunks decoded ahead (at most `capacity`).
final class StreamFeed: @unchecked Sendable {
    /// What the scene and the decoder share, under the decoder's lock.
    struct Shared {
        /// Bumped by every start or seek; chunks decoded for an older one are dropped.
        var generation = 0
        /// Where the decoder must seek before its next chunk.
        var seekTarget: Int64?
        /// The next file frame to decode.
        var position: Int64 = 0
        var ready: [DecodedChunk] = []
        /// The decoder reached the end of a stream that does not loop.
        var atEnd = false
        var failure: SoundstageError?
        var loops = false
        /// While looping: how many more times the decoder may jump back to the loop start (nil:
        /// for ever). At 0 the stream plays on to its end.
        var wrapsLeft: Int?
        /// Whether the scene wants chunks (a stream that is not playing or paused does not).
        var active = false
        /// The decoder is working on it now (outside the lock).
        var busy = false
        /// Released: the decoder forgets it (and its file) when not busy.
        var closed = false
        /// Played this many times faster with the pitch kept (SoundTouch); nil: as it is.
        var tempo: Double?
        /// Each channel's gain, applied as chunks are decoded (a stereo player's balance); nil: 1.
        var channelGains: [Float]?
    }

    /// A unit of work taken under the lock and done outside it.
    struct Job {
        let generation: Int
        let seek: Int64?
        let position: Int64
        let loops: Bool
        /// How many times this job may jump back to the loop start (nil: any number).
        let wrapsAllowed: Int?
        /// The time stretch's tempo (nil: none).
        var tempo: Double? = nil
        /// Each channel's gain (nil: 1).
        var channelGains: [Float]? = nil
    }

    /// What decoding one chunk gave.
    enum Outcome {
        case chunk(DecodedChunk, next: Int64, wraps: Int)
        case end(next: Int64, wraps: Int)
        case failed(SoundstageError)
    }

    /// Touched only on the decoder thread once registered (but for ``SoundFile/cancelReads()``,
    /// which any thread may call).
    private let file: SoundFile
    /// Where the file's read position is (decoder thread only): a pipe can only go on from there.
    private var filePosition: Int64 = 0
    /// Whether the file can seek (false for a pipe: it plays once, from its start).
    let isSeekable: Bool
    /// Whether a producer makes the audio as it plays (an audio queue's): its thread is not lowered.
    let isProduced: Bool
    let path: String
    let channels: Int
    let sampleRate: Int
    let chunkFrames: Int
    let capacity: Int
    let loopStart: Int64
    let loopEnd: Int64?
    /// Guarded by ``StreamDecoder``'s lock.
    var shared = Shared()
    private let decoder = StreamDecoder.shared
    /// What a feed with a thread of its own (a pipe's) waits on, with the decoder's lock.
    let wake = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init(file: SoundFile, path: String, chunkFrames: Int, capacity: Int, loopStart: Int64, loopEnd: Int64?, loops: Bool) {
        self.file = file
        isSeekable = file.isSeekable
        isProduced = file.isProduced
        self.path = path
        channels = file.format.channels
        sampleRate = file.format.sampleRate
        self.chunkFrames = chunkFrames
        self.capacity = capacity
        self.loopStart = loopStart
        self.loopEnd = loopEnd
        shared.loops = loops
        pthread_cond_init(wake, nil)
        decoder.withLock { decoder.registerLocked(self) }
    }

    deinit {
        pthread_cond_destroy(wake)
        wake.deallocate()
    }

    /// Wakes whoever waits on the decoder (its lock held): the shared thread, offline renders, and
    /// this feed's own thread.
    func signalLocked() {
        decoder.signalLocked()
        pthread_cond_broadcast(wake)
    }

    // MARK: The scene's side (any thread; takes the decoder's lock briefly)

    /// Restarts decoding at `frame`: what was decoded ahead is dropped. Returns the new generation.
    func restart(at frame: Int64) -> Int {
        let dropped: [DecodedChunk] = decoder.withLock {
            defer { shared.ready = [] }
            return shared.ready
        }
        withExtendedLifetime(dropped) {}    // freed outside the lock
        return decoder.withLock {
            shared.generation += 1
            shared.seekTarget = frame
            shared.position = frame
            shared.ready = []
            shared.atEnd = false
            shared.failure = nil
            shared.active = true
            signalLocked()
            return shared.generation
        }
    }

    /// Stops decoding ahead (the stream let its buffers go) until the next ``restart(at:)``.
    func deactivate() {
        decoder.withLock {
            shared.active = false
            shared.ready = []
        }
    }

    /// Changes whether the stream loops, and how many more times (nil: for ever); takes effect
    /// from the next chunk decoded.
    func setLoops(_ loops: Bool, times: Int? = nil) {
        decoder.withLock {
            shared.loops = loops
            shared.wrapsLeft = loops ? times : nil
            if loops, shared.atEnd {
                // It had reached the end: decoding goes on from the loop start.
                shared.atEnd = false
                shared.seekTarget = loopStart
                shared.position = loopStart
            }
            signalLocked()
        }
    }

    /// Plays the stream `tempo` times faster with its pitch kept from the next start or seek
    /// (nil: as it is). The caller seeks to apply it at once. Returns whether it changed.
    func setTempo(_ tempo: Double?) -> Bool {
        decoder.withLock {
            defer { shared.tempo = tempo }
            return shared.tempo != tempo
        }
    }

    /// Scales each channel by its gain (`gains.count == channels`; nil: 1) from the next start
    /// or seek. The caller seeks to apply it at once. Returns whether it changed.
    func setChannelGains(_ gains: [Float]?) -> Bool {
        decoder.withLock {
            defer { shared.channelGains = gains }
            return shared.channelGains != gains
        }
    }

    /// Takes up to `count` decoded chunks, and whether the stream has nothing more to give
    /// (the end reached with nothing left ready, or a failure).
    func take(upTo count: Int, generation: Int) -> (chunks: [DecodedChunk], finished: Bool, failure: SoundstageError?) {
        decoder.withLock {
            guard generation == shared.generation else { return ([], false, nil) }
            let taken = Array(shared.ready.prefix(count))
            if !taken.isEmpty {
                shared.ready.removeFirst(taken.count)
                // A producer's thread (an audio queue's) is woken once half its chunks are
                // taken, and then makes them all: half the wake-ups of one per chunk (each one
                // a switch of threads, 32 queues woke 1,600 times a second; docs/benchmarks.md).
                if !isProduced || shared.ready.count <= capacity / 2 { signalLocked() }
            }
            let finished = shared.ready.isEmpty && (shared.atEnd || shared.failure != nil)
            return (taken, finished, shared.failure)
        }
    }

    /// Waits (at most `seconds`) until `count` chunks are ready or nothing more will come (the
    /// end, a failure, or a producer starved: an audio queue the program left empty): for
    /// offline renders, which must not outrun the decoder. Never called on a game's path.
    func waitForChunks(_ count: Int, seconds: Double) {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        decoder.withLock {
            // A producer's thread may be waiting for half its chunks to go (``take(upTo:generation:)``).
            if shared.ready.count < min(count, capacity) { signalLocked() }
            while shared.active, shared.ready.count < min(count, capacity), !shared.atEnd, shared.failure == nil,
                  !(isProduced && file.isStarved), DispatchTime.now().uptimeNanoseconds < deadline {
                decoder.waitLocked(seconds: 0.05)
            }
        }
    }

    /// Lets the file go (the source is gone); a read waiting on a pipe's writer ends.
    func close() {
        if !isSeekable { file.cancelReads() }
        decoder.withLock {
            shared.closed = true
            shared.ready = []
            signalLocked()
        }
    }

    // MARK: The decoder thread's side

    /// Whether it has room for another chunk (lock held).
    var wantsWorkLocked: Bool {
        !shared.closed && shared.active && !shared.atEnd && shared.failure == nil && shared.ready.count < capacity
    }

    func takeJobLocked() -> Job {
        defer { shared.seekTarget = nil }
        shared.busy = true
        return Job(generation: shared.generation, seek: shared.seekTarget, position: shared.position, loops: shared.loops,
                   wrapsAllowed: shared.wrapsLeft, tempo: shared.tempo, channelGains: shared.channelGains)
    }

    func finishJobLocked(_ job: Job, _ outcome: Outcome) {
        shared.busy = false
        guard job.generation == shared.generation, !shared.closed else { return }   // a seek came in meanwhile
        switch outcome {
        case .chunk(let chunk, let next, let wraps):
            shared.ready.append(chunk)
            shared.position = next
            countWrapsLocked(wraps)
        case .end(let next, let wraps):
            shared.position = next
            shared.atEnd = true
            countWrapsLocked(wraps)
        case .failed(let error):
            shared.failure = error
        }
    }

    /// Counts jumps back to the loop start against a limited number of loops (lock held).
    private func countWrapsLocked(_ wraps: Int) {
        guard wraps > 0, let left = shared.wrapsLeft else { return }
        shared.wrapsLeft = max(0, left - wraps)
        if shared.wrapsLeft == 0 { shared.loops = false }
    }

    /// The time stretch (decoder thread only), where its output started in the file, the
    /// frames it gave since, and whether the end of the input was pushed through it.
    private var stretcher: TimeStretcher?
    private var stretch = (origin: Int64(0), produced: 0, flushed: false)

    /// Decodes one chunk (decoder thread, no lock): the file's frames as they are, or through the
    /// time stretch when the job has a tempo (SoundTouch missing: as they are), each channel
    /// scaled by the job's gain.
    func decode(_ job: Job) -> Outcome {
        let outcome = decodeUnscaled(job)
        guard let gains = job.channelGains, gains.count == channels, case .chunk(let chunk, let next, let wraps) = outcome else {
            return outcome
        }
        var samples = chunk.samples
        for index in samples.indices { samples[index] *= gains[index % channels] }
        return .chunk(DecodedChunk(start: chunk.start, samples: samples, frames: chunk.frames,
                                   levels: BlockLevels(samples, channels: channels), fileFrames: chunk.fileFrames),
                      next: next, wraps: wraps)
    }

    private func decodeUnscaled(_ job: Job) -> Outcome {
        guard let tempo = job.tempo, tempo != 1 else { return decodePlain(job) }
        if stretcher == nil { stretcher = try? TimeStretcher(channels: channels, sampleRate: sampleRate) }
        guard let stretcher else { return decodePlain(job) }
        if job.seek != nil || stretcher.tempo != tempo {
            stretcher.reset(tempo: tempo)
            stretch = (job.seek ?? job.position, 0, false)
        }
        var samples: [Float] = []
        var next = job.position, wraps = 0
        var input = job
        while samples.count < chunkFrames * channels {
            if stretcher.take(upTo: chunkFrames - samples.count / channels, into: &samples) > 0 { continue }
            if stretch.flushed { break }
            switch decodePlain(input) {
            case .chunk(let chunk, let position, let wrapped):
                stretcher.put(chunk.samples)
                next = position
                wraps += wrapped
            case .end(let position, let wrapped):
                stretcher.flush()
                stretch.flushed = true
                next = position
                wraps += wrapped
            case .failed(let error):
                return .failed(error)
            }
            input = Job(generation: job.generation, seek: nil, position: next, loops: job.loops,
                        wrapsAllowed: job.wrapsAllowed.map { max(0, $0 - wraps) }, tempo: tempo)
        }
        guard !samples.isEmpty else { return .end(next: next, wraps: wraps) }
        let frames = samples.count / channels
        let start = stretch.origin + Int64((Double(stretch.produced) * tempo).rounded())
        stretch.produced += frames
        let end = stretch.origin + Int64((Double(stretch.produced) * tempo).rounded())
        return .chunk(DecodedChunk(start: start, samples: samples, frames: frames, levels: BlockLevels(samples, channels: channels),
                                   fileFrames: Int(end - start)), next: next, wraps: wraps)
    }

    /// Decodes one chunk of the file as it is: up to `chunkFrames` from the job's position,
    /// jumping back to the loop start at the loop end (as many times as the job allows).
    private func decodePlain(_ job: Job) -> Outcome {
        do {
            var position = job.position
            if let target = job.seek, isSeekable || target != filePosition {
                guard isSeekable else {
                    throw SoundstageError(.invalidArgument, "audio read from a pipe cannot seek or loop: it plays once, from its start",
                                          subject: path)
                }
                try file.seek(toFrame: target)
                filePosition = target
                position = target
            }
            var samples: [Float] = []
            samples.reserveCapacity(chunkFrames * channels)
            let start = position
            var emptyReads = 0
            var wraps = 0
            while samples.count < chunkFrames * channels {
                let looping = job.loops && wraps < (job.wrapsAllowed ?? Int.max)
                let wanted = chunkFrames - samples.count / channels
                var limit = wanted
                if looping, let end = loopEnd { limit = Int(min(Int64(wanted), max(0, end - position))) }
                let chunk = limit > 0 ? try file.read(frames: limit) : AudioBuffer(samples: [], channels: channels, sampleRate: sampleRate)
                if chunk.frames == 0 {
                    guard looping, emptyReads == 0 else { break }
                    emptyReads += 1
                    guard isSeekable else { break }
                    wraps += 1
                    try file.seek(toFrame: loopStart)
                    filePosition = loopStart
                    position = loopStart
                    continue
                }
                emptyReads = 0
                samples += chunk.samples
                position += Int64(chunk.frames)
                filePosition += Int64(chunk.frames)
            }
            guard !samples.isEmpty else { return .end(next: position, wraps: wraps) }
            return .chunk(DecodedChunk(start: start, samples: samples, frames: samples.count / channels,
                                       levels: BlockLevels(samples, channels: channels)), next: position, wraps: wraps)
        } catch let error as SoundstageError {
            return .failed(error)
        } catch {
            return .failed(SoundstageError(.io, "cannot read the stream: \(error)", subject: path))
        }
    }
}
