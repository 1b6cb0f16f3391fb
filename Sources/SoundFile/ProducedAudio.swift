/// Audio made while it plays — a program's buffers decoded as they arrive (an audio queue's) —
/// read front to back by a ``SoundFile`` made with ``SoundFile/init(producer:sampleRate:channels:name:)``.
///
/// ``produce(into:frames:)`` is called on one thread at a time (a streaming source's decoder
/// thread of its own) and may wait for audio; ``cancel()`` may come from any thread.
public protocol FrameProducer: AnyObject, Sendable {
    /// Writes up to `frames` interleaved frames into `destination`, waiting until at least one
    /// can be given; returns how many, 0 at the end (after which every call returns 0).
    func produce(into destination: UnsafeMutablePointer<Float>, frames: Int) throws -> Int
    /// Ends a wait in ``produce(into:frames:)`` and every call after it (they return the end).
    func cancel()
    /// Whether ``produce(into:frames:)`` waits now because nothing has been given to it to
    /// make audio from (a starved audio queue): a reader that renders offline then plays on
    /// without it rather than waiting. Any thread may ask. False unless a producer says so.
    var isStarved: Bool { get }
}

extension FrameProducer {
    /// Never starved, unless the producer says otherwise.
    public var isStarved: Bool { false }
}

/// The ``FrameDecoder`` over a ``FrameProducer``: it cannot seek.
final class ProducedFrames: FrameDecoder {
    let producer: FrameProducer
    let format: AudioFormat

    init(producer: FrameProducer, format: AudioFormat) {
        self.producer = producer
        self.format = format
    }

    func read(into destination: UnsafeMutablePointer<Float>, frames: Int) throws -> Int {
        guard frames > 0 else { return 0 }
        return min(frames, max(0, try producer.produce(into: destination, frames: frames)))
    }

    func seek(toFrame frame: Int64) throws {
        throw SoundstageError(.invalidArgument, "audio made while it plays cannot seek", subject: "<produced>")
    }
}

extension SoundFile {
    /// Audio that `producer` makes while it plays, as interleaved 32-bit floats at `sampleRate`
    /// with `channels` channels, read front to back (it cannot seek; its length is unknown).
    ///
    /// - Throws: `.invalidArgument` for a rate outside 1…768,000 Hz or channels outside 1…64.
    public convenience init(producer: FrameProducer, sampleRate: Int, channels: Int, name: String) throws {
        guard (1...768_000).contains(sampleRate), (1...64).contains(channels) else {
            throw SoundstageError(.invalidArgument, "cannot produce \(channels)-channel audio at \(sampleRate) Hz", subject: name)
        }
        let format = AudioFormat(container: .other, encoding: .float32, sampleRate: sampleRate, channels: channels, frames: 0)
        self.init(produced: ProducedFrames(producer: producer, format: format), name: name)
    }
}
