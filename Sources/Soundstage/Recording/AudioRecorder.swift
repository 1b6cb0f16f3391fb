import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import NIOConcurrencyHelpers
import SoundFile

/// Records an input of the desktop audio server (PulseAudio, or PipeWire through
/// pipewire-pulse) to a file, like `AVAudioRecorder`: prepare, record, pause and resume, stop,
/// a duration limit, metering and a completion.
///
/// ```swift
/// let recorder = try AudioRecorder(path: "take.flac", settings: .init(format: .flac), session: chat)
/// try recorder.record(forDuration: 10)
/// let result = recorder.waitUntilFinished()
/// ```
///
/// A thread of its own reads the server's record stream and writes the file, so no call waits
/// on the disk. Under an ``AudioSession`` the recorder follows the same rules as playback: its
/// category must be `record` or `playAndRecord`, it records only while the session is active,
/// an interruption pauses it and the end of one (with `shouldResume`) records on.
///
/// Nothing recorded is lost to a failure: when the input vanishes or the disk fills, the file is
/// completed with what was recorded so far, and ``result`` says why it ended. A recorder the app
/// lets go of stops, and its file is completed.
public final class AudioRecorder: Sendable {
    /// The file being written.
    public let path: String
    /// How it records.
    public let settings: Settings
    /// The session it belongs to, if any.
    public let session: AudioSession?
    private let completion: (@Sendable (Result) -> Void)?
    private let control = NIOLockedValueBox(Control())
    private let meter = LevelAccumulator()
    private let finished = ConditionLock(value: false)

    struct Control {
        var state: State = .idle
        /// Whether the session's suspension paused a recording (it resumes when it lifts).
        var pausedBySession = false
        var suspended = false
        var stopRequested = false
        var limitFrames: Int?
        var frames = 0
        var sampleRate = 0
        var channels = 0
        var inputName: String?
        var firstFrameTime: Double?
        /// Whether a pause broke the timeline (arrivals no longer date the first frame).
        var pausedOnce = false
        var result: Result?
        var threadStarted = false
        /// The recorder's thread (`pthread_self()`), so a completion that calls ``stop()`` does not wait for itself.
        var thread: UInt = 0
    }

    /// Creates a recorder; nothing opens until ``prepareToRecord()`` or ``record()``.
    ///
    /// - Parameters:
    ///   - path: the file to write (replaced when the recording ends; written under a temporary
    ///     name until then).
    ///   - session: the session that governs it; its category must allow recording when recording starts.
    ///   - completion: called once, on the recorder's thread, when the recording ends (before
    ///     ``waitUntilFinished(timeout:)`` and ``stop()`` return).
    /// - Throws: `.invalidArgument` for a rate or channel count no file can hold.
    public init(path: String, settings: Settings = Settings(), session: AudioSession? = nil,
                completion: (@Sendable (Result) -> Void)? = nil) throws(SoundstageError) {
        if let rate = settings.sampleRate, !SampleRateLimits.conversion.contains(rate) {
            throw SoundstageError(.invalidArgument, "recording sample rate \(rate) is outside "
                                  + SampleRateLimits.describe(SampleRateLimits.conversion), subject: path)
        }
        if let channels = settings.channels, !(1...32).contains(channels) {
            throw SoundstageError(.invalidArgument, "recording channel count \(channels) is outside 1...32", subject: path)
        }
        self.path = path
        self.settings = settings
        self.session = session
        self.completion = completion
        session?.center.attach(self, to: session!)
    }


    // MARK: State

    /// Where the recorder is.
    public var state: State { control.withLockedValue { $0.state } }
    /// Whether it is recording now.
    public var isRecording: Bool { state == .recording }
    /// Seconds recorded so far.
    public var currentTime: Double {
        control.withLockedValue { $0.sampleRate > 0 ? Double($0.frames) / Double($0.sampleRate) : 0 }
    }
    /// Frames recorded so far.
    public var framesRecorded: Int { control.withLockedValue { $0.frames } }
    /// The file's rate and channel count, known once prepared.
    public var format: (sampleRate: Int, channels: Int)? {
        control.withLockedValue { $0.sampleRate > 0 ? ($0.sampleRate, $0.channels) : nil }
    }
    /// When the first recorded frame was captured at the input, in seconds of the uptime clock
    /// (`DispatchTime.now().uptimeNanoseconds / 1e9`). Each chunk's arrival bounds it (the chunk's
    /// last frame was captured before it arrived), and the estimate keeps the tightest bound, so
    /// it sharpens over the first second. Frame `n` was captured at `firstFrameTime + n / rate`
    /// until the first pause.
    public var firstFrameTime: Double? { control.withLockedValue { $0.firstFrameTime } }
    /// The finished recording, once ``state`` is `finished`.
    public var result: Result? { control.withLockedValue { $0.result } }

    /// Whether the recording is metered (per channel, like ``Device/isOutputMeteringEnabled``).
    public var isMeteringEnabled: Bool {
        get { meter.isEnabled }
        set { meter.isEnabled = newValue }
    }
    /// The levels of what was recorded since the previous call (nil when off or nothing new).
    public func meterLevels() -> LevelMeter? { meter.read() }

    // MARK: Control

    /// Opens the input and the file, so that ``record()`` starts at once.
    /// - Throws: `.noInputDevice` when no server answers or the input does not exist,
    ///   `.audioServer` when the server refuses, file errors (`.notFound`, `.permissionDenied`,
    ///   `.unsupportedFormat`) for the file, `.invalidArgument` once finished.
    public func prepareToRecord() throws(SoundstageError) {
        let step = control.withLockedValue { control -> Int in
            if control.state == .finished { return 0 }
            guard !control.threadStarted else { return 1 }
            control.threadStarted = true
            return 2
        }
        if step == 0 { throw SoundstageError(.invalidArgument, "the recording has finished", subject: path) }
        guard step == 2 else { return }
        let opened: (PulseConnection, SoundFileWriter)
        do throws(SoundstageError) {
            opened = try open()
        } catch {
            control.withLockedValue { $0.threadStarted = false }
            throw error
        }
        let (connection, writer) = opened
        let shape = connection.withLock { (connection.sampleRate, connection.channels) }
        control.withLockedValue { control in
            control.sampleRate = shape.0
            control.channels = shape.1
            if control.state == .idle { control.state = .prepared }
        }
        let work = Work(connection: connection, writer: writer, completion: completion)
        // The thread holds the recorder weakly: a recorder the app lets go of stops, and its
        // file is completed (as AVAudioRecorder does when released).
        DetachedThread.start(name: "ss-recorder") { [weak self] in
            self?.control.withLockedValue { $0.thread = pthread_self() }
            var corked = true
            var chunk: [Float] = []
            while true {
                guard let recorder = self else {
                    let result = Self.complete(work, reason: .stopped)
                    work.completion?(result)
                    return
                }
                if let reason = recorder.captureStep(work, corked: &corked, chunk: &chunk) {
                    recorder.finish(work, reason: reason)
                    return
                }
            }
        }
    }

    /// Starts recording, or resumes after ``pause()``.
    /// - Throws: `.categoryForbids` when its session's category is not `record` or
    ///   `playAndRecord`, `.sessionNotActive` when the session is inactive or interrupted, and
    ///   what ``prepareToRecord()`` throws.
    public func record() throws(SoundstageError) {
        try checkSession()
        try prepareToRecord()
        let ok = control.withLockedValue { control -> Bool in
            guard control.state != .finished else { return false }
            control.state = .recording
            control.pausedBySession = false
            return true
        }
        guard ok else { throw SoundstageError(.invalidArgument, "the recording has finished", subject: path) }
    }

    /// Records until `seconds` are in the file (counting what was recorded before), then stops
    /// by itself (reason `durationReached`).
    public func record(forDuration seconds: Double) throws(SoundstageError) {
        // A bound keeps the frame count an Int at any rate (1e9 s is over 30 years).
        guard seconds.isFinite, seconds > 0, seconds <= 1e9 else {
            throw SoundstageError(.invalidArgument, "recording duration \(seconds) must be finite, > 0 and <= 1e9 s", subject: path)
        }
        try prepareToRecord()
        control.withLockedValue { $0.limitFrames = Int((seconds * Double($0.sampleRate)).rounded()) }
        try record()
    }

    /// Pauses; ``record()`` goes on in the same file.
    public func pause() {
        control.withLockedValue { control in
            if control.state == .recording {
                control.state = .paused
                control.pausedOnce = true
            }
            control.pausedBySession = false
        }
    }

    /// Ends the recording and completes the file; returns the result (nil if it was never
    /// prepared: no file is written then). Waits for the recorder's thread to finish the file.
    @discardableResult
    public func stop() -> Result? {
        let started = control.withLockedValue { control -> Bool in
            control.stopRequested = true
            if !control.threadStarted && control.state != .finished { control.state = .finished }
            return control.threadStarted
        }
        guard started else { return nil }
        return waitUntilFinished()
    }

    /// Waits until the recording ends (by ``stop()``, its duration, or a failure); nil after
    /// `timeout` seconds, or if it was never prepared.
    @discardableResult
    public func waitUntilFinished(timeout: Double? = nil) -> Result? {
        let (started, thread) = control.withLockedValue { ($0.threadStarted, $0.thread) }
        guard started else { return nil }
        if thread == pthread_self() { return result }     // asked from the completion itself
        if let timeout {
            guard finished.lock(whenValue: true, timeoutSeconds: max(0, timeout)) else { return nil }
        } else {
            finished.lock(whenValue: true)
        }
        finished.unlock()
        return result
    }

    // MARK: Inputs

    /// The inputs the desktop server offers, monitors of its sinks included.
    /// - Throws: `.noInputDevice` when no server answers.
    public static func availableInputs(server: String? = nil) throws(SoundstageError) -> [AudioInput] {
        try PulseConnection.listing(server: server, what: "input") { connection throws(SoundstageError) in try connection.sourcesLocked() }
    }

    /// Whether a real input exists: a source of the desktop server that is not a sink's monitor.
    /// False when no server answers (recording needs one).
    public static func captureAvailable(server: String? = nil) -> Bool {
        ((try? availableInputs(server: server)) ?? []).contains { !$0.isMonitor }
    }

    // MARK: Sessions

    private func checkSession() throws(SoundstageError) {
        guard let session else { return }
        guard session.category.allowsRecording else {
            throw SoundstageError(.categoryForbids, "recording needs a session of category record or playAndRecord; this one is "
                                  + session.category.rawValue, subject: path)
        }
        guard session.isActive else {
            throw SoundstageError(.sessionNotActive, "the recorder's session is " + (session.isInterrupted ? "interrupted" : "not active"),
                                  subject: path)
        }
    }

    /// The session stopped sounding (interrupted, deactivated, or its category no longer
    /// records): a recording pauses and remembers it.
    func suspend() {
        control.withLockedValue { control in
            guard !control.suspended else { return }
            control.suspended = true
            if control.state == .recording {
                control.state = .paused
                control.pausedOnce = true
                control.pausedBySession = true
            }
        }
    }

    /// The session sounds again: with `restart`, a recording the suspension paused goes on.
    func resumeFromSuspension(restart: Bool) {
        control.withLockedValue { control in
            guard control.suspended else { return }
            control.suspended = false
            if restart && control.pausedBySession && control.state == .paused { control.state = .recording }
            control.pausedBySession = false
        }
    }

    // MARK: The recorder's thread

    /// What the thread owns: the stream and the file.
    private final class Work: @unchecked Sendable {
        // @unchecked: handed to the recorder's thread at its start, used by it alone.
        let connection: PulseConnection
        let writer: SoundFileWriter
        let completion: (@Sendable (Result) -> Void)?
        init(connection: PulseConnection, writer: SoundFileWriter, completion: (@Sendable (Result) -> Void)?) {
            self.connection = connection
            self.writer = writer
            self.completion = completion
        }
    }

    private func open() throws(SoundstageError) -> (PulseConnection, SoundFileWriter) {
        let options = DesktopOutputOptions(applicationName: settings.applicationName, streamName: "\(settings.applicationName) recording",
                                           role: MediaRole(rawValue: "production"), server: settings.server)
        let connection: PulseConnection
        do throws(SoundstageError) {
            // iLBC codes 8 kHz mono: the server converts whatever the source is to that.
            let ilbc = settings.format.encoding == .ilbc
            connection = try PulseConnection(options: options, stream: .record(source: settings.input,
                                                                                 sampleRate: ilbc ? ILBCMode.sampleRate : settings.sampleRate,
                                                                                 channels: ilbc ? 1 : settings.channels))
        } catch {
            guard error.code == .noOutputDevice else { throw error }
            throw SoundstageError(.noInputDevice, "no desktop audio server (PulseAudio or PipeWire) answers, so there is no input "
                                  + "to record", subject: settings.server, cause: error.cause)
        }
        let shape = connection.withLock { (connection.sampleRate, connection.channels) }
        do {
            let writer = try SoundFileWriter(path: path, format: settings.format, sampleRate: shape.0, channels: shape.1,
                                             bitRate: settings.bitRate)
            return (connection, writer)
        } catch let error as SoundstageError {
            throw error
        } catch {
            throw SoundstageError(.io, "\(error)", subject: path)
        }
    }

    /// One turn of the recorder's thread: follows the state (corked unless recording), waits for
    /// audio (at most 50 ms), writes what came; returns why to stop, if it must.
    private func captureStep(_ work: Work, corked: inout Bool, chunk: inout [Float]) -> FinishReason? {
        let connection = work.connection
        let now = control.withLockedValue { $0 }
        if now.stopRequested { return .stopped }
        let wantCorked = now.state != .recording
        if wantCorked != corked {
            connection.withLock { _ = connection.corkLocked(wantCorked) }
            corked = wantCorked
        }
        var failure: SoundstageError?
        chunk.removeAll(keepingCapacity: true)
        connection.withLock {
            do throws(SoundstageError) {
                if try connection.readLocked({ chunk.append(contentsOf: $0) }) == 0 {
                    connection.waitLocked(until: Date().addingTimeInterval(0.05))
                    _ = try connection.readLocked { chunk.append(contentsOf: $0) }
                }
            } catch {
                failure = error
            }
        }
        if !chunk.isEmpty, let stop = take(chunk, writer: work.writer) { return stop }
        return failure.map { .inputLost($0.message) }
    }

    /// Writes what was read while recording (never past the duration limit); returns a reason
    /// to stop, if any.
    private func take(_ samples: [Float], writer: SoundFileWriter) -> FinishReason? {
        let arrival = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
        let plan = control.withLockedValue { control -> (Int, Bool)? in
            guard control.state == .recording, control.channels > 0 else { return nil }
            var frames = samples.count / control.channels
            if let limit = control.limitFrames { frames = max(0, min(frames, limit - control.frames)) }
            if !control.pausedOnce && frames > 0 {
                let bound = arrival - Double(control.frames + frames) / Double(control.sampleRate)
                control.firstFrameTime = min(control.firstFrameTime ?? bound, bound)
            }
            return (frames, control.limitFrames.map { control.frames + frames >= $0 } ?? false)
        }
        guard let (frames, reachesLimit) = plan else { return nil }
        let channels = writer.channels
        do {
            try samples.withUnsafeBufferPointer { buffer in
                let part = UnsafeBufferPointer(rebasing: buffer[0..<(frames * channels)])
                if meter.isEnabled { meter.add(part, channels: channels) }
                try writer.write(interleaved: part)
            }
        } catch {
            let written = Int(writer.framesWritten)
            control.withLockedValue { $0.frames = written }
            return .writeFailed(error as? SoundstageError ?? SoundstageError(.io, "\(error)", subject: path))
        }
        control.withLockedValue { $0.frames += frames }
        return reachesLimit ? .durationReached : nil
    }

    private func finish(_ work: Work, reason: FinishReason) {
        let result = Self.complete(work, reason: reason)
        control.withLockedValue { control in
            control.frames = result.frames
            control.state = .finished
            control.result = result
        }
        // The completion first: whoever waits for the end finds it has run.
        work.completion?(result)
        finished.lock()
        finished.unlock(withValue: true)
    }

    /// Stops capturing and completes the file; the result of the recording.
    @discardableResult
    private static func complete(_ work: Work, reason: FinishReason) -> Result {
        work.connection.withLock { _ = work.connection.corkLocked(true, timeout: 0.5) }
        var fileError: SoundstageError?
        do {
            try work.writer.finish()
        } catch {
            fileError = error as? SoundstageError ?? SoundstageError(.io, "\(error)", subject: work.writer.path)
        }
        return Result(path: work.writer.path, frames: Int(work.writer.framesWritten), sampleRate: work.writer.sampleRate,
                      channels: work.writer.channels, reason: reason, fileError: fileError)
    }
}

extension SessionCategory {
    /// Whether a session of this category may record (`record`, `playAndRecord`).
    public var allowsRecording: Bool { self == .record || self == .playAndRecord }
}
