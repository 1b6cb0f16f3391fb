import SoundFile

/// How a streaming source reads its file (see ``Scene/makeStreamingSource(file:options:)``).
public struct StreamOptions: Sendable, Equatable {
    /// Seconds of audio per OpenAL buffer in the queue.
    public var bufferDuration = 0.25
    /// Buffers in the queue (so `bufferCount × bufferDuration` seconds are decoded ahead).
    public var bufferCount = 4
    /// Whether to loop: after `loopEnd` (or the end of the file) play on from `loopStart`, gaplessly.
    public var loops = false
    /// Where a loop starts again, in seconds.
    public var loopStart = 0.0
    /// Where a loop jumps back, in seconds; nil for the end of the file.
    public var loopEnd: Double?
    /// Chunks decoded ahead of OpenAL's queue, 1…`bufferCount`; nil: `bufferCount`. An audio
    /// queue holds one fewer: the program's enqueued buffers are audio waiting ahead already.
    package var decodedAhead: Int?

    /// Four buffers of 250 ms, no loop.
    public init() {}
}

/// The OpenAL side of a streaming source: a small queue of OpenAL buffers, refilled by the
/// engine's update from chunks the ``StreamDecoder`` thread decoded ahead. Nothing here reads the
/// file, so starting, seeking and refilling never wait on a decode. Memory is the queue plus the
/// chunks decoded ahead, whatever the file's length. Its state is guarded by the scene's lock (it
/// lives inside its ``Source``).
final class AudioStream {
    let options: StreamOptions
    let format: ALFormat
    /// The file's length in seconds.
    let duration: Double
    /// Where the file's chunks come from.
    let feed: StreamFeed
    var path: String { feed.path }
    var channels: Int { feed.channels }
    var sampleRate: Int { feed.sampleRate }
    /// Whether it loops (changeable through `Source.isLooping`).
    var loops: Bool {
        didSet { feed.setLoops(loops) }
    }

    /// OpenAL buffers generated for the queue, and those not queued now.
    private var buffers: [ALName] = []
    private var idle: [ALName] = []
    /// Buffers handed to a refill now (filled outside the scene's lock), and those of them
    /// released meanwhile, deleted when the refill brings them back.
    private var filling: [ALName] = []
    private var orphans: [ALName] = []
    /// The device the buffers were made on.
    private var bufferDevice: OpaquePointer?
    /// The decoder generation of the current start or seek.
    private var feedGeneration = 0
    /// What is queued on the source, in play order: the buffer, the file frame it starts at, and
    /// its levels (for meters).
    private(set) var queued: [(id: ALName, start: Int64, frames: Int, fileFrames: Int, levels: BlockLevels)] = []
    /// Frames of the buffers unqueued since the start: with OpenAL's offset into the queue, the
    /// stream's own clock, which the meter counts on.
    private var unqueuedFrames = 0
    /// Where the meter has counted to on that clock (nil until it first looks), and the buffers
    /// unqueued since that it has not counted yet (clock start, levels).
    private var meteredClock: Int?
    private var unmetered: [(clock: Int, levels: BlockLevels)] = []
    /// The file frame playback starts from when nothing is queued yet.
    private var startFrame: Int64 = 0
    /// Asked to play before its first chunk was decoded: the update starts it once one is queued.
    var startsWhenReady = false
    /// Times the queue ran dry and the source was restarted.
    private(set) var underruns = 0
    /// Why decoding stopped early, if it failed.
    private(set) var failure: SoundstageError?
    /// Whether a stream that cannot seek (a pipe) has started: it plays once.
    private var startedOnce = false

    /// - Parameter opened: the file, already open (so its path is looked up once); else `path` is opened.
    init(path: String, options: StreamOptions, opened: SoundFile? = nil) throws {
        guard options.bufferDuration.isFinite, options.bufferDuration > 0, options.bufferDuration <= 10 else {
            throw SoundstageError(.invalidArgument, "bufferDuration must be in (0, 10] s, got \(options.bufferDuration)", subject: path)
        }
        guard (2...64).contains(options.bufferCount) else {
            throw SoundstageError(.invalidArgument, "bufferCount must be in 2...64, got \(options.bufferCount)", subject: path)
        }
        guard options.loopStart.isFinite, options.loopEnd?.isFinite ?? true else {
            throw SoundstageError(.invalidArgument, "loop points must be finite", subject: path)
        }
        let file = try opened ?? SoundFile(path: path)
        guard file.isSeekable || (!options.loops && options.loopStart == 0 && options.loopEnd == nil) else {
            throw SoundstageError(.invalidArgument, "audio read from a pipe cannot loop: it plays once, from its start", subject: path)
        }
        guard let format = Buffer.alFormat(channels: file.format.channels) else {
            throw SoundstageError(.unsupportedFormat, "\(file.format.channels)-channel audio cannot be played", subject: path)
        }
        let rate = file.format.sampleRate
        let start = Int64((options.loopStart * Double(rate)).rounded())
        let end = options.loopEnd.map { Int64(($0 * Double(rate)).rounded()) }
        guard start >= 0, end.map({ $0 > start }) ?? true, Double(start) < Double(max(file.format.frames, 1)) || file.format.frames == 0 else {
            throw SoundstageError(.invalidArgument, "loop points \(options.loopStart)…\(options.loopEnd.map { "\($0)" } ?? "end") s "
                                  + "do not fit the file", subject: path)
        }
        self.options = options
        self.format = format
        duration = file.format.duration
        loops = options.loops
        feed = StreamFeed(file: file, path: path, chunkFrames: max(1, Int(options.bufferDuration * Double(rate))),
                          capacity: min(options.bufferCount, max(1, options.decodedAhead ?? options.bufferCount)), loopStart: start, loopEnd: end, loops: options.loops)
    }

    deinit { feed.close() }

    /// OpenAL buffers it holds now.
    var allocatedBufferCount: Int { buffers.count }

    /// Whether anything is queued on the source (so `alSourcePlay` would sound).
    var hasQueued: Bool { !queued.isEmpty }

    /// Hands the decoder a new start at file frame `frame` for `name` (which has nothing queued)
    /// and queues what is already decoded — nothing, usually: the update queues the first chunk.
    func start(_ name: ALName, at frame: Int64, _ al: borrowing ALCalls) throws(SoundstageError) {
        if !feed.isSeekable {
            guard !startedOnce, frame == 0 else {
                throw SoundstageError(.invalidArgument, "audio read from a pipe plays once, from its start: it cannot be "
                                      + "replayed, sought or moved to another device", subject: path)
            }
            startedOnce = true
        }
        if buffers.isEmpty {
            buffers = try al.makeBuffers(options.bufferCount)
            LiveObjects.buffers.add(buffers.count, ordering: .relaxed)
            bufferDevice = al.currentDevice
        }
        idle = buffers.filter { !filling.contains($0) }     // those being filled come back by themselves
        queued = []
        unqueuedFrames = 0
        meteredClock = nil
        unmetered = []
        startFrame = frame
        startsWhenReady = false
        failure = nil
        feedGeneration = feed.restart(at: frame)
    }

    /// Buffers free for decoded chunks now.
    var idleCount: Int { idle.count }

    /// A refill in progress: free buffers handed out of the scene's lock to be filled.
    struct Refill {
        let stream: AudioStream
        let ids: [ALName]
        /// The device the buffers live on, and the decoder generation they are filled for.
        let device: OpaquePointer?
        let generation: Int
        /// How many chunks an offline render waits for: all it can take for a file (so the
        /// render never outruns the decoder); for a pipe, one, and only when at most one is queued
        /// (it waits on a writer, who may pause: what is queued plays meanwhile).
        let chunksToWaitFor: Int
    }

    /// What a refill filled: the first `chunks.count` of `ids`, in order.
    struct Filled {
        let refill: Refill
        let chunks: [(start: Int64, frames: Int, fileFrames: Int, levels: BlockLevels)]
        let finished: Bool
        let failure: SoundstageError?
    }

    /// Step one (scene lock held): unqueues what OpenAL has played and hands every free buffer
    /// to the refill.
    func beginRefill(_ name: ALName, _ al: borrowing ALCalls) -> Refill {
        let processed = (try? al.processedBufferCount(name)) ?? 0
        for _ in 0..<processed {
            guard let id = try? al.unqueueBuffer(from: name) else { break }
            if let first = queued.first {
                startFrame = first.start + Int64(first.fileFrames)
                if meteredClock != nil { unmetered.append((unqueuedFrames, first.levels)) }
                unqueuedFrames += first.frames
            }
            queued.removeFirst()
            idle.append(id)
        }
        let ids = idle
        idle = []
        filling += ids
        // (Nothing to wait for without free buffers: most updates, which then need not look at
        // the queue, a cache miss a source, 32 audio queues' streams measured.)
        return Refill(stream: self, ids: ids, device: bufferDevice, generation: feedGeneration,
                      chunksToWaitFor: ids.isEmpty || feed.isSeekable ? ids.count : (queued.count <= 1 ? 1 : 0))
    }

    /// Adds the levels of what played since the last call to `sums` (scene lock held): the
    /// buffers unqueued meanwhile, and the queue up to OpenAL's offset now. False on the first
    /// call (it marks where counting starts) and when nothing played.
    func meterLevels(_ name: ALName, _ al: borrowing ALCalls, into sums: inout LevelSums) -> Bool {
        guard let offset = try? al.sampleOffset(name) else { return false }
        let now = unqueuedFrames + offset
        defer {
            meteredClock = now
            unmetered.removeAll(keepingCapacity: true)
        }
        guard let from = meteredClock, now > from else { return false }
        func add(_ levels: BlockLevels, at clock: Int) {
            guard clock < now && clock + levels.frames > from else { return }
            levels.add((max(from, clock) - clock)..<(min(now, clock + levels.frames) - clock), to: &sums)
        }
        for entry in unmetered { add(entry.levels, at: entry.clock) }
        var clock = unqueuedFrames
        for entry in queued {
            add(entry.levels, at: clock)
            clock += entry.frames
        }
        return true
    }

    /// Step two (no scene lock; the device's resource context): copies decoded chunks into the
    /// refill's buffers. An offline render first waits for the decoder to have them.
    func fill(_ refill: Refill, waitForDecoder: Bool, in context: ContextHandle) -> Filled {
        guard !refill.ids.isEmpty else {
            let (_, finished, failure) = feed.take(upTo: 0, generation: refill.generation)
            return Filled(refill: refill, chunks: [], finished: finished, failure: failure)
        }
        if waitForDecoder && refill.chunksToWaitFor > 0 { feed.waitForChunks(refill.chunksToWaitFor, seconds: 2) }
        let (chunks, finished, failure) = feed.take(upTo: refill.ids.count, generation: refill.generation)
        var uploaded: [(start: Int64, frames: Int, fileFrames: Int, levels: BlockLevels)] = []
        if !chunks.isEmpty {
            context.withLock { lock in
                // Only into the device the buffers were made on (a migration may have replaced it).
                guard lock.isOpen, lock.deviceOfContext == refill.device, let al = try? lock.current() else { return }
                for (id, chunk) in zip(refill.ids, chunks) {
                    guard (try? al.fill(id, format: format, samples: chunk.samples, sampleRate: sampleRate)) != nil else { break }
                    uploaded.append((chunk.start, chunk.frames, chunk.fileFrames, chunk.levels))
                }
            }
        }
        return Filled(refill: refill, chunks: uploaded, finished: finished && uploaded.count == chunks.count, failure: failure)
    }

    /// Step three (scene lock held): queues what was filled on `name`, if the stream still
    /// wants it; starts a source that waited for its first chunk, and restarts one whose queue
    /// ran dry before the file's end (an underrun). Returns true if the stream has ended.
    func finishRefill(_ filled: Filled, name: ALName?, playing: Bool, _ al: borrowing ALCalls) throws(SoundstageError) -> Bool {
        let ids = filled.refill.ids
        filling.removeAll { ids.contains($0) }
        if !orphans.isEmpty, !ids.isEmpty {
            // Released while being filled: deleted now, on the device they were made on.
            let gone = ids.filter { orphans.contains($0) }
            orphans.removeAll { gone.contains($0) }
            if !gone.isEmpty, al.currentDevice == filled.refill.device {
                al.deleteBuffers(gone)
            }
        }
        let current = filled.refill.generation == feedGeneration && filled.refill.device == bufferDevice
        var rest = ids.filter { buffers.contains($0) }
        if current, let name {
            for (index, chunk) in filled.chunks.enumerated() where buffers.contains(ids[index]) {
                let buffer = ids[index]
                try al.queue([buffer], on: name)
                queued.append((buffer, chunk.start, chunk.frames, chunk.fileFrames, chunk.levels))
                rest.removeAll { $0 == buffer }
            }
            if let failure = filled.failure { self.failure = failure }
        }
        idle += rest
        guard current, let name, playing else { return false }
        let finished = filled.finished
        let state = try al.stateOrThrow(of: name)
        if startsWhenReady {
            guard !queued.isEmpty else { return finished }
            startsWhenReady = false
            if state != .playing { try al.playOrThrow(name) }
            return false
        }
        guard state == .stopped else { return false }
        if queued.isEmpty && finished { return true }     // played everything there was
        underruns += 1                                    // ran dry with audio still to come
        if queued.isEmpty {
            startsWhenReady = true                        // starts again with the next chunk
        } else {
            try al.playOrThrow(name)
        }
        return false
    }

    /// The file position being heard, in frames, from OpenAL's offset within the queue.
    func playbackFrame(_ name: ALName, _ al: borrowing ALCalls) -> Int64 {
        guard var remaining = try? al.sampleOffset(name) else { return startFrame }
        for entry in queued {
            if remaining < entry.frames {
                // A time-stretched chunk spans fileFrames of the file in its frames.
                return entry.start + (entry.fileFrames == entry.frames ? Int64(remaining)
                                      : Int64((Double(remaining) * Double(entry.fileFrames) / Double(entry.frames)).rounded(.down)))
            }
            remaining -= entry.frames
        }
        return queued.last.map { $0.start + Int64($0.fileFrames) } ?? startFrame
    }

    /// Forgets the queue (the source's buffers were detached), frees the OpenAL buffers and stops
    /// decoding ahead.
    func release(_ al: borrowing ALCalls) {
        queued = []
        idle = []
        startsWhenReady = false
        feed.deactivate()
        guard !buffers.isEmpty else { return }
        // Buffers a refill is filling now are deleted when it brings them back.
        let deletable = buffers.filter { !filling.contains($0) }
        orphans += filling
        al.deleteBuffers(deletable)
        LiveObjects.buffers.subtract(buffers.count, ordering: .relaxed)
        buffers = []
    }
}
