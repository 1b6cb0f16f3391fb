import COpenAL
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

    /// Four buffers of 250 ms, no loop.
    public init() {}
}

/// The decoder side of a streaming source: a file read in chunks into a small queue of OpenAL
/// buffers that the engine's update refills. Memory is the queue plus one chunk, whatever the
/// file's length. Its state is guarded by the scene's lock (it lives inside its ``Source``).
final class AudioStream {
    let file: SoundFile
    let path: String
    let options: StreamOptions
    let channels: Int
    let sampleRate: Int
    let format: ALenum
    let bufferFrames: Int
    /// Loop points in frames.
    let loopStart: Int64
    let loopEnd: Int64?
    /// Whether it loops (changeable through `Source.isLooping`).
    var loops: Bool

    /// OpenAL buffers generated for the queue, and those not queued now.
    private var buffers: [ALuint] = []
    private var idle: [ALuint] = []
    /// What is queued on the source, in play order: the buffer and the file frame it starts at.
    private(set) var queued: [(id: ALuint, start: Int64, frames: Int)] = []
    /// The next file frame to decode.
    private var position: Int64 = 0
    /// The decoder reached the end and does not loop.
    private(set) var exhausted = false
    /// Times the queue ran dry and the source was restarted.
    private(set) var underruns = 0

    init(path: String, options: StreamOptions) throws {
        precondition(options.bufferDuration > 0 && options.bufferDuration <= 10, "bufferDuration must be in (0, 10] s")
        precondition((2...64).contains(options.bufferCount), "bufferCount must be in 2...64")
        let file = try SoundFile(path: path)
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
        self.file = file
        self.path = path
        self.options = options
        channels = file.format.channels
        sampleRate = rate
        self.format = format
        bufferFrames = max(1, Int(options.bufferDuration * Double(rate)))
        loopStart = start
        loopEnd = end
        loops = options.loops
    }

    /// OpenAL buffers it holds now.
    var allocatedBufferCount: Int { buffers.count }

    /// The file's length in seconds.
    var duration: Double { file.format.duration }

    /// Queues audio from file frame `frame` on `name` (which has nothing queued).
    func start(_ name: ALuint, at frame: Int64, _ al: borrowing ALCalls) throws(SoundstageError) {
        if buffers.isEmpty {
            buffers = [ALuint](repeating: 0, count: options.bufferCount)
            try al.call("alGenBuffers") { alGenBuffers(ALsizei(buffers.count), &buffers) }
            LiveObjects.buffers.add(buffers.count, ordering: .relaxed)
        }
        idle = buffers
        queued = []
        exhausted = false
        try seek(to: frame)
        while let id = idle.popLast() {
            guard try fill(id, al) else { idle.append(id); break }
            try queue(id, name, al)
        }
    }

    /// Unqueues what OpenAL has played, refills and requeues it; restarts the source if the queue
    /// ran dry before the file's end (an underrun). Returns true if the stream has ended.
    func service(_ name: ALuint, playing: Bool, _ al: borrowing ALCalls) throws(SoundstageError) -> Bool {
        var processed: ALint = 0
        al.must("alGetSourcei(AL_BUFFERS_PROCESSED)") { alGetSourcei(name, AL_BUFFERS_PROCESSED, &processed) }
        for _ in 0..<Int(processed) {
            var id: ALuint = 0
            try al.call("alSourceUnqueueBuffers") { alSourceUnqueueBuffers(name, 1, &id) }
            queued.removeFirst()
            idle.append(id)
        }
        while !exhausted, let id = idle.popLast() {
            guard try fill(id, al) else { idle.append(id); break }
            try queue(id, name, al)
        }
        guard playing else { return false }
        var state: ALint = 0
        al.must("alGetSourcei(AL_SOURCE_STATE)") { alGetSourcei(name, AL_SOURCE_STATE, &state) }
        guard state == AL_STOPPED else { return false }
        if queued.isEmpty { return true }       // played everything there was
        underruns += 1                          // ran dry with audio still to come: start again
        try al.call("alSourcePlay") { alSourcePlay(name) }
        return false
    }

    /// The file position being heard, in frames, from OpenAL's offset within the queue.
    func playbackFrame(_ name: ALuint, _ al: borrowing ALCalls) -> Int64 {
        var offset: ALint = 0
        al.must("alGetSourcei(AL_SAMPLE_OFFSET)") { alGetSourcei(name, AL_SAMPLE_OFFSET, &offset) }
        var remaining = Int(offset)
        for entry in queued {
            if remaining < entry.frames { return entry.start + Int64(remaining) }
            remaining -= entry.frames
        }
        return position
    }

    /// Forgets the queue (the source's buffers were detached) and frees the OpenAL buffers.
    func release(_ al: borrowing ALCalls) {
        queued = []
        idle = []
        guard !buffers.isEmpty else { return }
        buffers.withUnsafeBufferPointer { alDeleteBuffers(ALsizei($0.count), $0.baseAddress) }
        _ = alGetError()
        LiveObjects.buffers.subtract(buffers.count, ordering: .relaxed)
        buffers = []
    }

    // MARK: Decoding

    private func seek(to frame: Int64) throws(SoundstageError) {
        do {
            try file.seek(toFrame: frame)
        } catch let error as SoundstageError {
            throw error
        } catch {
            throw SoundstageError(.io, "cannot seek the stream: \(error)", subject: path)
        }
        position = frame
    }

    /// Decodes up to one buffer's worth into `id`, jumping back at the loop end; false if nothing
    /// was left (the end of a stream that does not loop).
    private func fill(_ id: ALuint, _ al: borrowing ALCalls) throws(SoundstageError) -> Bool {
        var samples: [Float] = []
        samples.reserveCapacity(bufferFrames * channels)
        let start = position
        var emptyReads = 0
        while samples.count < bufferFrames * channels {
            let wanted = bufferFrames - samples.count / channels
            var limit = wanted
            if loops, let end = loopEnd { limit = Int(min(Int64(wanted), max(0, end - position))) }
            let chunk: AudioBuffer
            do {
                chunk = limit > 0 ? try file.read(frames: limit) : AudioBuffer(samples: [], channels: channels, sampleRate: sampleRate)
            } catch let error as SoundstageError {
                throw error
            } catch {
                throw SoundstageError(.io, "cannot read the stream: \(error)", subject: path)
            }
            if chunk.frames == 0 {
                guard loops, emptyReads == 0 else {
                    if !loops { exhausted = true }
                    break
                }
                emptyReads += 1
                try seek(to: loopStart)
                continue
            }
            emptyReads = 0
            samples += chunk.samples
            position += Int64(chunk.frames)
        }
        guard !samples.isEmpty else { return false }
        let bytes = samples.count * MemoryLayout<Float>.size
        try al.call("alBufferData") {
            samples.withUnsafeBytes { alBufferData(id, format, $0.baseAddress, ALsizei(bytes), ALsizei(sampleRate)) }
        }
        queued.append((id, start, samples.count / channels))
        return true
    }

    private func queue(_ id: ALuint, _ name: ALuint, _ al: borrowing ALCalls) throws(SoundstageError) {
        var buffer = id
        try al.call("alSourceQueueBuffers") { alSourceQueueBuffers(name, 1, &buffer) }
    }
}
