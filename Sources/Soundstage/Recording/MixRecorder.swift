#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import NIOConcurrencyHelpers
import SoundFile
import Synchronization

/// Writes exactly what a device sends to its output — the mix, sample for sample, as the
/// desktop server receives it — to a file, for bug reports and trailers. Start one with
/// ``Device/recordOutput(to:format:)``.
///
/// The render thread only copies each mixed chunk into a queue; a thread of its own writes the
/// file, so a slow disk never makes the output underrun. If the disk cannot keep up (more than
/// ``maxQueuedSeconds`` waiting) or a write fails (disk full), the recording ends there with the
/// file complete up to the last frame written, and ``stop()`` reports why.
public final class MixRecorder: Sendable {
    /// The file being written.
    public let path: String
    /// Frames per second and channels of the file (the device's).
    public let sampleRate: Int
    /// Channels of the file.
    public let channels: Int
    /// How much mixed audio may wait for the disk before the recording gives up (seconds).
    public static let maxQueuedSeconds = 10.0

    private let queue = NIOLockedValueBox(Queue())
    private let wake = ConditionLock(value: 0)
    private let done = ConditionLock(value: false)
    private let writer: WriterBox

    struct Queue {
        var chunks: [[Float]] = []
        var queuedSamples = 0
        var accepting = true
        var stopping = false
        var failure: SoundstageError?
        var framesWritten = 0
    }

    /// What a finished mix recording holds.
    public struct Result: Sendable, Equatable {
        /// The file.
        public var path: String
        /// Frames in it.
        public var frames: Int
        /// Seconds in it.
        public var duration: Double
        /// Why it ended early (disk full, disk too slow), if it did; the file holds what was written.
        public var failure: SoundstageError?
    }

    private final class WriterBox: @unchecked Sendable {
        // @unchecked: used by the writer thread alone, then by stop() after that thread ended.
        let writer: SoundFileWriter
        init(_ writer: SoundFileWriter) { self.writer = writer }
    }

    init(path: String, format: OutputFormat, sampleRate: Int, channels: Int) throws {
        self.path = path
        self.sampleRate = sampleRate
        self.channels = channels
        writer = WriterBox(try SoundFileWriter(path: path, format: format, sampleRate: sampleRate, channels: channels))
        guard DetachedThread.start(name: "ss-mix-recorder", { [self] in writeLoop() }) else {
            try? writer.writer.finish()
            throw SoundstageError(.io, "cannot start the recording's writer thread: the system refused a thread", subject: path)
        }
    }

    /// Whether it still takes audio (false once stopped or failed).
    var isAccepting: Bool { queue.withLockedValue { $0.accepting } }

    /// Called by the render thread with each mixed chunk: a copy, no I/O.
    func append(_ samples: UnsafeBufferPointer<Float>) {
        let limit = Int(Self.maxQueuedSeconds * Double(sampleRate)) * channels
        let posted = queue.withLockedValue { queue -> Bool in
            guard queue.accepting else { return false }
            guard queue.queuedSamples + samples.count <= limit else {
                queue.accepting = false
                queue.failure = SoundstageError(.io, "the disk did not keep up: more than \(Self.maxQueuedSeconds) s of the mix waited "
                                                + "to be written; the recording ends there", subject: path)
                return true
            }
            queue.chunks.append(Array(samples))
            queue.queuedSamples += samples.count
            return true
        }
        if posted {
            wake.lock()
            wake.unlock(withValue: 1)
        }
    }

    /// Stops taking audio, writes what is queued and completes the file.
    func finish() -> Result {
        queue.withLockedValue { queue in
            queue.accepting = false
            queue.stopping = true
        }
        wake.lock()
        wake.unlock(withValue: 1)
        done.lock(whenValue: true)
        done.unlock()
        var failure = queue.withLockedValue { $0.failure }
        do {
            try writer.writer.finish()
        } catch {
            failure = failure ?? (error as? SoundstageError ?? SoundstageError(.io, "\(error)", subject: path))
        }
        let frames = Int(writer.writer.framesWritten)
        return Result(path: path, frames: frames, duration: Double(frames) / Double(sampleRate), failure: failure)
    }

    private func writeLoop() {
        while true {
            // Woken by a chunk or a stop; the timeout only bounds a missed wake-up.
            if wake.lock(whenValue: 1, timeoutSeconds: 0.1) { wake.unlock(withValue: 0) }
            let (chunks, stopping) = queue.withLockedValue { queue -> ([[Float]], Bool) in
                defer {
                    queue.chunks.removeAll()
                    queue.queuedSamples = 0
                }
                return (queue.chunks, queue.stopping)
            }
            for chunk in chunks {
                do {
                    try chunk.withUnsafeBufferPointer { try writer.writer.write(interleaved: $0) }
                } catch {
                    queue.withLockedValue { queue in
                        queue.accepting = false
                        queue.failure = queue.failure ?? (error as? SoundstageError ?? SoundstageError(.io, "\(error)", subject: path))
                    }
                    break
                }
            }
            let failed = queue.withLockedValue { $0.failure != nil }
            if stopping || failed { break }
        }
        done.lock()
        done.unlock(withValue: true)
    }
}

extension Device {
    /// Starts writing exactly what the device sends to its output to `path`, until
    /// ``stopRecordingOutput()``. One recording at a time.
    ///
    /// - Throws: `.invalidArgument` on an OpenAL output (it mixes on its own thread: use the
    ///   desktop output) or when a recording runs already; the file's errors.
    public func recordOutput(to path: String, format: OutputFormat = .wavPCM16) throws {
        guard rendersInEngine else {
            throw SoundstageError(.invalidArgument, "recording the mix needs an output Soundstage renders (the desktop server, or a "
                                  + "loopback device); OpenAL's own output mixes on its own thread", subject: path)
        }
        let recorder = try MixRecorder(path: path, format: format, sampleRate: sampleRate, channels: layout.channelCount)
        let taken = mixRecorder.withLockedValue { current -> Bool in
            guard current == nil else { return false }
            current = recorder
            return true
        }
        guard taken else {
            _ = recorder.finish()
            unlink(path)
            throw SoundstageError(.invalidArgument, "the device's output is being recorded already", subject: path)
        }
        isRecordingMix.store(true, ordering: .releasing)
        noteActivity()      // a resting output wakes: a recording hears the mix as it goes
    }

    /// Ends the recording ``recordOutput(to:format:)`` started: the file is complete when this
    /// returns. Nil if none runs.
    @discardableResult
    public func stopRecordingOutput() -> MixRecorder.Result? {
        let recorder = mixRecorder.withLockedValue { current -> MixRecorder? in
            defer { current = nil }
            return current
        }
        if mixTaps.withLockedValue({ $0.handlers.isEmpty }) { isRecordingMix.store(false, ordering: .releasing) }
        // Wait out a render that holds the recorder, so its last chunk is in the file (unless
        // this is that render's thread — a completion handler — which has appended its chunk).
        if renderingThread.load(ordering: .relaxed) != pthread_self() { renderLock.withLock {} }
        return recorder?.finish()
    }

    /// Hands a mixed chunk to the mix recording, if one runs (render thread).
    func recordMix(_ samples: UnsafeBufferPointer<Float>) {
        guard isRecordingMix.load(ordering: .acquiring) else { return }
        mixRecorder.withLockedValue { $0 }?.append(samples)
        for tap in mixTaps.withLockedValue({ Array($0.handlers.values) }) { tap(samples) }
    }
}
