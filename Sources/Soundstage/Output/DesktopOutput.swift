#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import NIOConcurrencyHelpers
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
            control.withLockedValue { $0.renderThread = pthread_self() }
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
    var status: OutputStatus {
        let latency = connection.withLockedValue { $0 }.flatMap { connection in connection.withLock { connection.latencyLocked(sampleRate: sampleRate) } }
        return control.withLockedValue { control in
            OutputStatus(backend: OutputBackend.desktop.rawValue, server: control.server, sink: control.sink,
                         targetLatency: options.latency, latency: latency ?? control.latency, underruns: control.underruns,
                         volume: control.volume, muted: control.muted, paused: control.corked, connected: control.connected)
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

    // MARK: The render thread

    private func renderLoop(_ target: WeakDevice) {
        let chunk = 4_096
        var scratch = [Float](repeating: 0, count: chunk * channels)
        var backoff = 0.05
        var nextAttempt = Date()
        var completedTickets = 0
        while true {
            guard let device = target.device, !device.isClosed else { break }
            let wanted = control.withLockedValue { $0 }
            guard let connection = connection.withLockedValue({ $0 }) else {
                if wanted.stopping { break }
                // No server: nothing is queued anywhere, but nothing reached a sink either.
                if wanted.drainTickets > completedTickets { completedTickets = finishDrains(upTo: wanted.drainTickets, succeeded: false) }
                if Date() >= nextAttempt { reconnect(device, backoff: &backoff, nextAttempt: &nextAttempt) } else { usleep(5_000) }
                continue
            }
            // Wait until the server wants audio, something happened, or another thread asks.
            var frames = 0
            var events: [PulseConnection.Event] = []
            connection.withLock {
                while true {
                    events = connection.takeEventsLocked()
                    let now = control.withLockedValue { $0 }
                    if !events.isEmpty || connection.failureLocked != nil || now.stopping
                        || now.drainTickets > completedTickets || now.enginePaused != wanted.enginePaused
                        || (now.enginePaused || now.serverPaused) != now.corked { break }
                    frames = now.corked ? 0 : connection.writableFramesLocked
                    if frames > 0 { break }
                    connection.waitLocked(until: Date().addingTimeInterval(0.1))
                }
            }
            deliver(events, on: device)
            if let why = connection.withLock({ connection.failureLocked }) {
                lose(device, connection: connection, why: why)
                backoff = 0.05
                nextAttempt = Date()
                continue
            }
            let now = control.withLockedValue { $0 }
            if now.stopping {
                if now.drainOnStop { _ = connection.withLock { connection.drainLocked(timeout: 5) } }
                break
            }
            if now.drainTickets > completedTickets {
                let drained = connection.withLock { connection.drainLocked(timeout: 5) }
                completedTickets = finishDrains(upTo: now.drainTickets, succeeded: drained)
                continue
            }
            let shouldCork = now.enginePaused || now.serverPaused
            if shouldCork != now.corked {
                connection.withLock {
                    // Pausing because nothing may sound: let the queue play out first. Pausing
                    // because the server asked: it has muted us, so keep the queue for the resume.
                    if shouldCork && !now.serverPaused { _ = connection.drainLocked(timeout: 2) }
                    connection.corkLocked(shouldCork)
                }
                control.withLockedValue { $0.corked = shouldCork }
                continue
            }
            guard frames > 0 else { continue }
            let count = min(frames, chunk)
            let rendered = scratch.withUnsafeMutableBufferPointer { buffer -> Bool in
                let slice = UnsafeMutableBufferPointer(rebasing: buffer[0..<(count * channels)])
                do { try device.renderForOutput(into: slice) } catch { Diagnostics.emit("soundstage: the desktop output stopped rendering: \(error)"); return false }
                return true
            }
            guard rendered else { break }
            // A refused write means the stream or the connection failed: libpulse's state
            // callback records that, and the next turn of the loop handles it as a loss.
            try? scratch.withUnsafeBufferPointer { buffer in
                try connection.withLock { try connection.writeLocked(UnsafeBufferPointer(rebasing: buffer[0..<(count * channels)])) }
            }
        }
        let pending = control.withLockedValue { $0.drainTickets }
        _ = finishDrains(upTo: pending, succeeded: false)
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
            case let .volume(volume, muted):
                control.withLockedValue { $0.volume = volume; $0.muted = muted }
                notify(.volumeChanged(volume: volume, muted: muted))
            case .underrun:
                let count = control.withLockedValue { control -> Int in
                    control.underruns += 1
                    return control.underruns
                }
                notify(.underrun(count: count))
            case .failed:
                break  // handled by the caller, after every event before it was delivered
            }
        }
    }

    private func notify(_ event: OutputEvent) {
        let handlers = observers.withLockedValue { Array($0.handlers.values) }
        for handler in handlers { handler(event) }
    }

    /// The server went away (or killed the stream): drop the connection, freeze the clock (nothing
    /// renders), and say so. Sources keep their exact offsets: the loopback device never stops them.
    private func lose(_ device: Device, connection lost: PulseConnection, why: String) {
        let (sink, latency) = lost.withLock { (lost.sinkNameLocked, lost.latencyLocked(sampleRate: sampleRate)) }
        connection.withLockedValue { $0 = nil }
        control.withLockedValue { control in
            control.connected = false
            control.corked = false
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
