#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import NIOConcurrencyHelpers
import Synchronization
import SoundFile

/// Soundstage's own output on the desktop server: a thread renders the device's mix (an OpenAL
/// Soft loopback device, exactly as offline renders do) whenever the libpulse stream asks for
/// audio, and writes it there. Owning the stream is what lets the engine choose its latency,
/// name itself and its role, follow the default sink, keep its clock through a pulled sink,
/// honour the server's cork requests and drain every tail before closing.
///
/// The render thread is the only one that renders, writes, drains, corks and reconnects; other
/// threads only post requests (``setPaused(_:)``, ``drain(timeout:)``, ``stop()``) and wake it.
final class DesktopOutput: Sendable {
    let options: DesktopOutputOptions
    private let channels: Int
    private let sampleRate: Int
    private let connection: NIOLockedValueBox<PulseConnection?>
    private let control = NIOLockedValueBox(Control())
    private let finished = ConditionLock(value: true)
    private let observers = NIOLockedValueBox(Observers())
    /// Whether everything queued on the server is silence (the render thread's last writes, as
    /// long as the queue, were all silent): a play then skips the queue (``skipSilentQueue``).
    private let queueIsSilent = Atomic<Bool>(false)

    struct Control {
        var stopping = false
        var drainOnStop = true
        var enginePaused = false
        var serverPaused = false
        var corked = false
        var drainTickets = 0
        var drainsDone = 0
        /// Whether the last drain reached the server's end of the queue.
        var lastDrainSucceeded = true
        var connected = true
        var sink: String?
        var server = ""
        var underruns = 0
        var volume: Float = 1
        var muted = false
        var latency: Double?
        var renderThread: UInt = 0
        /// The render thread's kernel thread ID (tests watch its wake-ups in /proc).
        var renderThreadID: Int32?
        /// Resting (``DesktopOutputOptions/idleTimeout``): corked, asleep until the device's
        /// activity count moves past `restActivity` or `restWake` (a scheduled play) comes.
        var resting = false
        var restActivity = 0
        var restWake: Date?
        /// Woken from a rest: the corked stream is filled before it is uncorked (see ``wakeUp``).
        var priming = false
    }

    struct Observers {
        var handlers: [Int: @Sendable (OutputEvent) -> Void] = [:]
        var next = 0
    }

    /// Connects to the server and opens the stream (nothing is rendered until ``start(rendering:)``).
    init(options: DesktopOutputOptions, sampleRate: Int, channels: Int) throws(SoundstageError) {
        guard options.latency.isFinite, (0.005...0.5).contains(options.latency) else {
            throw SoundstageError(.invalidArgument, "desktop output latency \(options.latency) s is outside 0.005...0.5")
        }
        guard options.idleTimeout.isFinite, (0...3_600).contains(options.idleTimeout) else {
            throw SoundstageError(.invalidArgument, "desktop output idle timeout \(options.idleTimeout) s is outside 0...3600 (0: never rest)")
        }
        self.options = options
        self.channels = channels
        self.sampleRate = sampleRate
        let opened = try PulseConnection(options: options, sampleRate: sampleRate, channels: channels)
        connection = NIOLockedValueBox(opened)
        let (sink, server) = opened.withLock { (opened.sinkNameLocked, opened.serverDescription) }
        control.withLockedValue { control in
            control.sink = sink
            control.server = server
        }
    }

    // MARK: Requests from other threads

    /// Starts the render thread for `device` (held weakly: closing or dropping the device stops it).
    func start(rendering device: Device) {
        finished.lock()
        finished.unlock(withValue: false)
        let target = WeakDevice(device)
        let started = DetachedThread.start(name: "ss-desktop-out") { [self] in
            let id = DetachedThread.currentThreadID()
            control.withLockedValue { control in
                control.renderThread = pthread_self()
                control.renderThreadID = id
            }
            renderLoop(target)
            Soundstage.detachCurrentThread()
            finished.lock()
            finished.unlock(withValue: true)
        }
        // No thread (the system refused one): nothing plays, and stop() must not wait for it.
        if !started {
            finished.lock()
            finished.unlock(withValue: true)
        }
    }

    /// Stops the render thread; with `drain`, after the server has played everything written.
    func stop(drain: Bool = true) {
        let alreadyStopping = control.withLockedValue { control -> Bool in
            defer { control.stopping = true; control.drainOnStop = drain }
            return control.stopping
        }
        if !alreadyStopping { poke() }
        guard !isRenderThread else { return }
        finished.lock(whenValue: true)
        finished.unlock()
        connection.withLockedValue { $0 = nil }
    }

    /// Pauses the output when no session may sound: what is queued plays out first (drained),
    /// then the stream is corked, so no tail is held back to sound later.
    func setPaused(_ paused: Bool) {
        control.withLockedValue { $0.enginePaused = paused }
        poke()
    }

    /// Waits until everything rendered so far has reached the server's sink, or `timeout`.
    /// The render thread stops rendering while it drains, so the engine clock waits too.
    /// - Returns: false if the stream could not be drained (no server, timeout, stopped).
    @discardableResult
    func drain(timeout: Double = 5) -> Bool {
        guard !isRenderThread else { return false }
        let ticket = control.withLockedValue { control -> Int? in
            guard !control.stopping else { return nil }
            control.drainTickets += 1
            return control.drainTickets
        }
        guard let ticket else { return false }
        poke()
        // Drains are rare (the end of a play): polling the render thread's count is enough.
        let deadline = Date().addingTimeInterval(timeout + 1)
        while control.withLockedValue({ $0.drainsDone }) < ticket {
            guard Date() < deadline else { return false }
            usleep(1_000)
        }
        return control.withLockedValue { $0.lastDrainSucceeded }
    }

    /// The output's state now; the latency is asked of the server (a round trip, up to 0.5 s
    /// when it is slow to answer).
    func status(rest: OutputRest) -> OutputStatus {
        let latency = connection.withLockedValue { $0 }.flatMap { connection in connection.withLock { connection.latencyLocked(sampleRate: sampleRate) } }
        return control.withLockedValue { control in
            OutputStatus(backend: OutputBackend.desktop.rawValue, server: control.server, sink: control.sink,
                         targetLatency: options.latency, latency: latency ?? control.latency, underruns: control.underruns,
                         volume: control.volume, muted: control.muted, paused: control.corked && (control.enginePaused || control.serverPaused),
                         connected: control.connected, resting: rest.isResting, rests: rest.rests)
        }
    }

    func addObserver(_ handler: @escaping @Sendable (OutputEvent) -> Void) -> Int {
        observers.withLockedValue { observers in
            defer { observers.next += 1 }
            observers.handlers[observers.next] = handler
            return observers.next
        }
    }

    func removeObserver(_ token: Int) {
        observers.withLockedValue { _ = $0.handlers.removeValue(forKey: token) }
    }

    private var isRenderThread: Bool { control.withLockedValue { $0.renderThread } == pthread_self() }

    private func poke() { connection.withLockedValue { $0 }?.poke() }

    /// Wakes a resting output, or one whose queue holds only silence (the device noted activity).
    func wake() { poke() }

    /// The render thread's kernel thread ID, once it runs.
    var renderThreadID: Int32? { control.withLockedValue { $0.renderThreadID } }

    /// Whether a play should wake the render thread at once: it rests, or its queue is silence.
    var wantsActivity: Bool { queueIsSilent.load(ordering: .relaxed) }

    // MARK: The render thread

    /// A mixed sample below this is silence for resting (-90 dBFS: a 16-bit sink's last bit).
    static let silence: Float = 1.0 / 32_768

    private func renderLoop(_ target: WeakDevice) {
        var scratch = [Float](repeating: 0, count: 4_096 * channels)
        var backoff = 0.05
        var nextAttempt = Date()
        var completedTickets = 0
        // Rest after this many frames of silence (never when the timeout is 0): checked each time
        // the run of silent frames written passes a multiple of it.
        let idleFrames = options.idleTimeout > 0 ? max(1, Int((options.idleTimeout * Double(sampleRate)).rounded())) : Int.max
        // Consecutive silent frames written, and the activity count last acted on.
        var silentRun = 0 {
            didSet { if silentRun == 0 { nextRestCheck = idleFrames } }
        }
        // The run of silence at which to check next whether to rest.
        var nextRestCheck = idleFrames
        let restCheckInterval = max(1, sampleRate / 20)
        var seenActivity = 0
        // Nothing written yet to the stream now open: its first write starts with silence.
        var freshStream = true
        while true {
            guard let device = target.device, !device.isClosed else { break }
            let wanted = control.withLockedValue { $0 }
            guard let connection = connection.withLockedValue({ $0 }) else {
                if wanted.stopping { break }
                freshStream = true
                // No server: nothing is queued anywhere, but nothing reached a sink either.
                if wanted.drainTickets > completedTickets { completedTickets = finishDrains(upTo: wanted.drainTickets, succeeded: false) }
                if Date() >= nextAttempt { reconnect(device, backoff: &backoff, nextAttempt: &nextAttempt) } else { usleep(5_000) }
                continue
            }
            // Wait until the server wants audio, something happened, or another thread asks;
            // while resting, until something may sound or a scheduled play comes near.
            var frames = 0
            var events: [PulseConnection.Event] = []
            connection.withLock {
                while true {
                    events = connection.takeEventsLocked()
                    let now = control.withLockedValue { $0 }
                    if !events.isEmpty || connection.failureLocked != nil || now.stopping
                        || now.drainTickets > completedTickets || now.enginePaused != wanted.enginePaused
                        || (now.enginePaused || now.serverPaused || now.resting) != now.corked { break }
                    if now.resting {
                        if device.rest.activityCount != now.restActivity || now.restWake.map({ Date() >= $0 }) == true { break }
                        connection.waitLocked(until: now.restWake ?? Date().addingTimeInterval(10))
                        continue
                    }
                    frames = now.corked ? 0 : connection.writableFramesLocked
                    if frames > 0 { break }
                    if queueIsSilent.load(ordering: .relaxed) && device.rest.activityCount != seenActivity { break }
                    // Corked (paused), nothing is due until a request pokes: no timer, so a
                    // paused output wakes no thread (it woke ten times a second).
                    connection.waitLocked(until: now.corked ? nil : Date().addingTimeInterval(0.1))
                }
            }
            deliver(events, on: device)
            if let why = connection.withLock({ connection.failureLocked }) {
                lose(device, connection: connection, why: why)
                backoff = 0.05
                nextAttempt = Date()
                continue
            }
            var now = control.withLockedValue { $0 }
            if now.resting, now.stopping || device.rest.activityCount != now.restActivity || now.restWake.map({ Date() >= $0 }) == true {
                endRest(device)
                silentRun = 0
                seenActivity = device.rest.activityCount
                queueIsSilent.store(false, ordering: .relaxed)
                now = control.withLockedValue { $0 }
            }
            let activity = device.rest.activityCount
            if activity != seenActivity {
                seenActivity = activity
                if queueIsSilent.load(ordering: .relaxed), !now.corked, !now.resting, !now.stopping, device.nextScheduledFrame == nil {
                    queueIsSilent.store(false, ordering: .relaxed)
                    silentRun = 0
                    guard skipSilentQueue(device, connection, &scratch) else { break }
                    continue
                }
            }
            if now.priming, !now.stopping, now.drainTickets <= completedTickets, now.corked, !now.enginePaused, !now.serverPaused {
                guard wakeUp(device, connection, &scratch) else { break }
                continue
            }
            if now.stopping {
                // A corked stream holds nothing to hear (a rest or a pause drained it first; what
                // a server's cork request holds back stays muted): draining it would only wait.
                if now.drainOnStop && !now.corked { _ = connection.withLock { connection.drainLocked(timeout: 5) } }
                break
            }
            if now.drainTickets > completedTickets {
                // Resting, nothing is queued but silence that has played: drained.
                let drained = now.resting || connection.withLock { connection.drainLocked(timeout: 5) }
                completedTickets = finishDrains(upTo: now.drainTickets, succeeded: drained)
                continue
            }
            let shouldCork = now.enginePaused || now.serverPaused || now.resting
            if shouldCork != now.corked {
                // Resting over a queue of silence (the mix has been silent for longer than the
                // queue): cork at once, nothing audible is lost, and the wake writes over the
                // queue. (A drain first waited for PulseAudio's answer, which never came before
                // its 2 s timeout: the stream corked 2 s late.) The rest's clock starts when the
                // queue would have played out, so the frames it adds land where they would have
                // been heard.
                let silentQueue = shouldCork && now.resting && !now.enginePaused && !now.serverPaused
                    && queueIsSilent.load(ordering: .relaxed)
                let queued = connection.withLock { () -> Double in
                    // Pausing because nothing may sound, or resting over sound: let the queue play
                    // out first. Pausing because the server asked: it has muted us, so keep the
                    // queue for the resume.
                    if shouldCork && !now.serverPaused && !silentQueue { _ = connection.drainLocked(timeout: 2) }
                    connection.corkLocked(shouldCork)
                    return silentQueue ? connection.grantedLatencyLocked(sampleRate: sampleRate) ?? options.latency : 0
                }
                control.withLockedValue { $0.corked = shouldCork }
                if shouldCork && now.resting { device.rest.begin(after: queued) }
                continue
            }
            guard frames > 0 else { continue }
            let count = min(frames, scratch.count / channels)
            guard let silent = renderAndWrite(count, device, connection, &scratch, leadingSilence: freshStream ? leadingSilence : 0) else { break }
            freshStream = false
            guard silent else {
                silentRun = 0
                queueIsSilent.store(false, ordering: .relaxed)
                continue
            }
            silentRun += count
            let queued = connection.withLock { connection.grantedLatencyLocked(sampleRate: sampleRate) }.map { Int($0 * Double(sampleRate)) } ?? Int.max
            queueIsSilent.store(silentRun >= queued, ordering: .relaxed)
            // At the timeout, and every 50 ms after it while something still keeps it awake (a
            // check that waited for the next multiple of the timeout rested up to twice as late).
            if silentRun >= nextRestCheck {
                nextRestCheck = silentRun + restCheckInterval
                beginRestIfQuiet(device, horizon: idleFrames)
            }
        }
        if let device = target.device { endRest(device) }
        let pending = control.withLockedValue { $0.drainTickets }
        _ = finishDrains(upTo: pending, succeeded: false)
    }

    /// Renders `count` frames and writes them to the stream. Returns whether they were silent,
    /// or nil if the engine cannot render (the device is closed: the loop ends). A refused
    /// write means the stream or the connection failed: libpulse's state callback records
    /// that, and the loop's next turn handles it as a loss.
    /// With `leadingSilence`, that many of the `count` frames are silence ahead of the mix (the
    /// clock counts them), written with it in one message.
    private func renderAndWrite(_ count: Int, _ device: Device, _ connection: PulseConnection, _ scratch: inout [Float],
                                leadingSilence: Int = 0, atReadIndex: Bool = false) -> Bool? {
        let samples = count * channels
        let padding = min(leadingSilence, count) * channels
        let rendered = scratch.withUnsafeMutableBufferPointer { buffer -> Bool in
            buffer[0..<padding].update(repeating: 0)
            guard padding < samples else { return true }
            do { try device.renderForOutput(into: UnsafeMutableBufferPointer(rebasing: buffer[padding..<samples])) } catch {
                if !ProcessExit.isExiting { Diagnostics.emit("soundstage: the desktop output stopped rendering: \(error)") }
                return false
            }
            return true
        }
        guard rendered else { return nil }
        device.renderedFrames.add(padding / channels, ordering: .relaxed)
        try? scratch.withUnsafeBufferPointer { buffer in
            try connection.withLock { try connection.writeLocked(UnsafeBufferPointer(rebasing: buffer[0..<samples]), atReadIndex: atReadIndex) }
        }
        return !scratch[0..<samples].contains { abs($0) >= Self.silence }
    }

    /// Wakes from a rest. The queue ran dry or was corked over silence, and the server's read
    /// index ran on through that; written after the old write index, the first ~5 ms of the next
    /// sound were skipped (PipeWire); uncorked empty and written after, the stream underran at
    /// once and PulseAudio cut a gap into the sound. So the mix is written where the server
    /// reads next (`PA_SEEK_RELATIVE_ON_READ`), one target length of it:
    /// - on PipeWire into the still corked stream, behind ``leadingSilence``, then uncorked;
    /// - on PulseAudio into the stream just uncorked, as over a silent queue (``skipSilentQueue``):
    ///   PulseAudio rewinds its sink to play the write at once. The uncork is not waited for: the
    ///   write follows it on the same connection. Behind ``leadingSilence``, as a new stream's
    ///   first write: a stream that starts again plays from where its sink has got to, up to
    ///   ~2 ms past the read index. (With no silence ahead, a tone after a rest lost its first
    ///   89 frames once on CI; written corked behind 2 ms of silence, a UI sound after a rest
    ///   reached the sink 1.4 ms after libcanberra's; behind 1 ms, tones lost 21-23 frames.)
    /// Returns false if the engine cannot render.
    private func wakeUp(_ device: Device, _ connection: PulseConnection, _ scratch: inout [Float]) -> Bool {
        let onPipeWire = connection.withLock { connection.isPipeWireLocked }
        if !onPipeWire {
            connection.withLock { connection.uncorkWithoutWaitingLocked() }
            control.withLockedValue { control in
                control.corked = false
                control.priming = false
            }
            return skipSilentQueue(device, connection, &scratch)
        }
        guard renderAndWrite(leadingSilence, device, connection, &scratch, leadingSilence: leadingSilence, atReadIndex: true) != nil else { return false }
        while true {
            let frames = connection.withLock { connection.writableFramesLocked }
            guard frames > 0 else { break }
            guard renderAndWrite(min(frames, scratch.count / channels), device, connection, &scratch) != nil else { return false }
        }
        connection.withLock { _ = connection.corkLocked(false) }
        control.withLockedValue { control in
            control.corked = false
            control.priming = false
        }
        return true
    }

    /// Silence (2 ms) written, and counted by the clock, ahead of the first sound on a new
    /// stream, after a rest, or over a silent queue. PulseAudio plays a stream that starts (again)
    /// from where its sink has got to, up to ~2 ms past the read index (measured): the sound then
    /// starts after the silence instead of losing its first samples. (Without it on a new stream,
    /// a sound that began in the stream's first write lost 20-90 frames in 7 of 16 runs beside
    /// `stress-ng --cpu 2`; with it, none in 16.)
    private var leadingSilence: Int { sampleRate / 500 }

    /// A play on a stream whose queue holds only silence: the new mix replaces the queue,
    /// written where the server reads (`PA_SEEK_RELATIVE_ON_READ`), so the sound is heard at once
    /// instead of behind a queue's length of silence (~11 ms at the 20 ms target on PulseAudio),
    /// behind ``leadingSilence``. (On PulseAudio without it the UI sound reached the sink 2 ms
    /// sooner, as soon as libcanberra's, and every tone of the skip tests was whole alone, but
    /// with the servers' two test processes side by side a tone lost its first 77 frames: a
    /// stream plays the write from where its sink has got to, up to ~2 ms past the read index,
    /// as after a rest.) One write of the whole target length; on PipeWire made while the
    /// stream is corked, as a wake from a rest is, so the server places it when nothing reads.
    /// (A flush and then a write lost the sound's first frames when the sink read past the
    /// emptied queue during the flush's round trip, 37 frames once on CI. Uncorked, PipeWire's
    /// pulse server lost 32 frames beside `stress-ng`, its graph thread reading that cycle's
    /// share of the old queue as the write landed; corked, PulseAudio lost 228-240 in every
    /// run beside it, resuming the stream past where the write began.) Not with a play scheduled: the
    /// frames dropped were counted by the clock, so what is heard next comes a queue's length
    /// earlier against it. Returns false if the engine cannot render.
    private func skipSilentQueue(_ device: Device, _ connection: PulseConnection, _ scratch: inout [Float]) -> Bool {
        let granted = connection.withLock { connection.grantedLatencyLocked(sampleRate: sampleRate) }
        let count = min(max(1, Int((granted ?? options.latency) * Double(sampleRate))), scratch.count / channels)
        let corking = connection.withLock { connection.isPipeWireLocked && connection.corkLocked(true) }
        let rendered = renderAndWrite(count, device, connection, &scratch, leadingSilence: leadingSilence, atReadIndex: true) != nil
        if corking { connection.withLock { _ = connection.corkLocked(false) } }
        return rendered
    }

    /// After `horizon` frames of silent mix: rests if nothing can sound within as many frames
    /// (``Device/isQuiet(before:)``). The drain, the cork and the rest's clock follow on the
    /// loop's next turn. The activity count is read first, so a play racing this decision wakes
    /// the output at once.
    private func beginRestIfQuiet(_ device: Device, horizon: Int) {
        let seen = device.rest.activityCount
        let clock = device.renderedFrameCount
        guard device.isQuiet(before: clock + horizon) else { return }
        // Wake early enough for a scheduled play: its frame is rendered, and heard, on time.
        let lead = 0.05 + 2 * options.latency
        let wake = device.nextScheduledFrame.map { Date().addingTimeInterval(Double($0 - clock) / Double(sampleRate) - lead) }
        control.withLockedValue { control in
            control.resting = true
            control.restActivity = seen
            control.restWake = wake
        }
    }

    /// Ends a rest, if one runs: the clock takes the time it lasted; the uncork follows on the
    /// loop's next turn.
    private func endRest(_ device: Device) {
        device.rest.end(of: device)
        control.withLockedValue { control in
            control.priming = control.resting && control.corked
            control.resting = false
            control.restWake = nil
        }
    }

    private func finishDrains(upTo ticket: Int, succeeded: Bool) -> Int {
        control.withLockedValue { control in
            guard ticket > control.drainsDone else { return }
            control.drainsDone = ticket
            control.lastDrainSucceeded = succeeded
        }
        return ticket
    }

    /// Passes the server's events on: route changes to the device, the rest to observers.
    private func deliver(_ events: [PulseConnection.Event], on device: Device) {
        for event in events {
            switch event {
            case .corkRequested:
                control.withLockedValue { $0.serverPaused = true }
                notify(.pauseRequested)
            case .uncorkRequested:
                control.withLockedValue { $0.serverPaused = false }
                notify(.resumeRequested)
            case let .moved(from, to, vanished):
                control.withLockedValue { $0.sink = to }
                if vanished {
                    device.postRoute(RouteChange(reason: .oldDeviceUnavailable, time: device.mixTime, previousOutput: from, output: nil))
                    device.postRoute(RouteChange(reason: .newDeviceAvailable, time: device.mixTime, previousOutput: from, output: to))
                } else {
                    device.postRoute(RouteChange(reason: .outputMoved, time: device.mixTime, previousOutput: from, output: to))
                }
            case let .portChanged(change):
                // The stream stays on its sink; what changed is where that sink sounds.
                device.postRoute(RouteChange(reason: change.reason, time: device.mixTime, previousOutput: change.sink,
                                             output: change.sink, previousPort: change.previousPort, port: change.port))
            case let .volume(volume, muted):
                control.withLockedValue { $0.volume = volume; $0.muted = muted }
                notify(.volumeChanged(volume: volume, muted: muted))
            case .underrun:
                // A queue drained before a cork (a rest, a session's pause) runs out as asked:
                // PulseAudio reports that underflow too, and it is heard as nothing.
                guard let count = control.withLockedValue({ control -> Int? in
                    guard !control.corked else { return nil }
                    control.underruns += 1
                    return control.underruns
                }) else { continue }
                notify(.underrun(count: count))
            case .failed:
                break  // handled by the caller, after every event before it was delivered
            }
        }
    }

    /// Hands the connection a sink's info as libpulse's answer to `pa_context_get_sink_info_by_index`
    /// would (``PulseConnection/sinkInfoArrived(_:)``): for tests, where no server the tests can
    /// start has a sink with ports to switch. From then on the server's own answers about the
    /// sink are counted (``sinkInfoAnswers``) but not read. False without a connection.
    @discardableResult
    func receiveSinkInfo(_ snapshot: SinkPortSnapshot) -> Bool {
        guard let connection = connection.withLockedValue({ $0 }) else { return false }
        connection.withLock {
            connection.sinkInfoFromTest = true
            connection.sinkInfoArrived(snapshot)
        }
        return true
    }

    /// How many times the server has answered a question about the sink's ports on the current
    /// connection (after the stream opened or moved, and after each change of its sink): for tests.
    var sinkInfoAnswers: Int {
        guard let connection = connection.withLockedValue({ $0 }) else { return 0 }
        return connection.withLock { connection.sinkInfoAnswers }
    }

    private func notify(_ event: OutputEvent) {
        let handlers = observers.withLockedValue { Array($0.handlers.values) }
        for handler in handlers { handler(event) }
    }

    /// The server went away (or killed the stream): drop the connection, freeze the clock (nothing
    /// renders), and say so. Sources keep their exact offsets: the loopback device never stops them.
    private func lose(_ device: Device, connection lost: PulseConnection, why: String) {
        let (sink, latency) = lost.withLock { (lost.sinkNameLocked, lost.latencyLocked(sampleRate: sampleRate)) }
        endRest(device)     // the clock stops while no server plays, resting or not
        connection.withLockedValue { $0 = nil }
        control.withLockedValue { control in
            control.connected = false
            control.corked = false
            control.priming = false
            control.latency = latency
        }
        device.postRoute(RouteChange(reason: .oldDeviceUnavailable, time: device.mixTime, previousOutput: sink, output: nil))
        notify(.serverLost(reason: why))
    }

    private func reconnect(_ device: Device, backoff: inout Double, nextAttempt: inout Date) {
        do {
            let opened = try PulseConnection(options: options, sampleRate: sampleRate, channels: channels, timeout: 1)
            let (sink, server) = opened.withLock { (opened.sinkNameLocked, opened.serverDescription) }
            let previous = control.withLockedValue { control -> String? in
                defer {
                    control.sink = sink
                    control.server = server
                    control.connected = true
                }
                return control.sink
            }
            connection.withLockedValue { $0 = opened }
            device.postRoute(RouteChange(reason: .newDeviceAvailable, time: device.mixTime, previousOutput: previous, output: sink))
            notify(.serverReconnected)
        } catch {
            nextAttempt = Date().addingTimeInterval(backoff)
            backoff = min(backoff * 2, 2)
        }
    }
}

/// The render thread's reference to its device: weak, so dropping the device stops the output.
private final class WeakDevice: @unchecked Sendable {
    // @unchecked: a weak reference, read (atomically, by the runtime) on the render thread only.
    weak var device: Device?
    init(_ device: Device) { self.device = device }
}
