#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import NIOConcurrencyHelpers
import SoundFile

/// Renders a loopback device at the pace of a real sound card, on a thread of its own: a silent
/// real-time output for machines without one (the daemon uses it), optionally recording what it
/// mixes to a file. Completions and scene timing then behave as on real hardware.
public final class RealTimeRenderer: Sendable {
    /// The loopback device being rendered.
    public let device: Device
    private let recording: Recording
    private let running = NIOLockedValueBox(false)
    private let finished = ConditionLock(value: true)

    /// Prepares to render `device` (a loopback device); `recordingTo` writes the mix to a file.
    public init(device: Device, recordingTo path: String? = nil, format: OutputFormat = .wavPCM16) throws {
        guard device.kind == .loopback else {
            throw SoundstageError(.invalidArgument, "RealTimeRenderer needs a loopback device; an output renders by itself")
        }
        self.device = device
        recording = Recording(try path.map {
            try SoundFileWriter(path: $0, format: format, sampleRate: device.sampleRate, channels: device.layout.channelCount)
        })
    }

    /// Starts rendering one update (10 ms by default) at a time, on time.
    public func start() {
        guard running.withLockedValue({ running in
            defer { running = true }
            return !running
        }) else { return }
        finished.lock()
        finished.unlock(withValue: false)
        let started = DetachedThread.start(name: "ss-render") { [self] in
            let period = Double(device.updateFrames) / Double(device.sampleRate)
            var next = Date().timeIntervalSinceReferenceDate
            while running.withLockedValue({ $0 }) {
                if let chunk = try? device.render(frames: device.updateFrames, inRealTime: true) {
                    recording.withWriter { try? $0?.write(chunk) }
                }
                next += period
                let wait = next - Date().timeIntervalSinceReferenceDate
                if wait > 0 { usleep(UInt32(wait * 1e6)) } else if wait < -1 { next = Date().timeIntervalSinceReferenceDate }
            }
            Soundstage.detachCurrentThread()
            finished.lock()
            finished.unlock(withValue: true)
        }
        // No thread (the system refused one): nothing renders, and stop() must not wait for it.
        if !started {
            running.withLockedValue { $0 = false }
            finished.lock()
            finished.unlock(withValue: true)
        }
    }

    /// Stops rendering and finishes the recording, if any.
    public func stop() throws {
        running.withLockedValue { $0 = false }
        finished.lock(whenValue: true)
        finished.unlock()
        try recording.withWriter { writer in
            try writer?.finish()
            writer = nil
        }
    }
}

/// The file being recorded; the writer is used only under the lock.
private final class Recording: @unchecked Sendable {
    private let lock = NIOLock()
    private var writer: SoundFileWriter?

    init(_ writer: SoundFileWriter?) {
        self.writer = writer
    }

    func withWriter<T>(_ body: (inout SoundFileWriter?) throws -> T) rethrows -> T {
        try lock.withLock { try body(&writer) }
    }
}
