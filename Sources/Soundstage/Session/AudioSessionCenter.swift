import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import NIOConcurrencyHelpers

/// Audio sessions on one device: categories, activation, interruptions and ducking between the
/// clients of the engine — what an iOS audio session gives a game, done for OpenAL scenes.
///
/// A scene attached to a session sounds only while the session is active and not interrupted.
/// On an interruption its playing sources are paused at their offsets (and the session's system
/// sounds go silent); when it ends with `shouldResume`, exactly those sources play on. When no
/// session may sound at all, a real output device is paused (ALC_SOFT_pause_device).
public final class AudioSessionCenter: Sendable {
    /// The device the sessions share.
    public let device: Device
    /// The gain ducked sessions drop to (0...1).
    public let duckGain: Float
    private let clock: @Sendable () -> Double
    /// Serializes whole operations (decide, apply, queue their events in order).
    private let operation = NIOLock()
    private let state = NIOLockedValueBox(CenterState())
    /// Events waiting for their observers, in the order the operations made them, and whether a
    /// thread is delivering them now (see ``deliverQueuedEvents()``).
    private let outbox = NIOLockedValueBox(Outbox())

    struct Outbox {
        var events: [(@Sendable (SessionEvent) -> Void, SessionEvent)] = []
        var delivering = false
    }

    struct SessionState {
        var category: SessionCategory
        var options: SessionOptions
        var active = false
        /// Who interrupted it: nil when not interrupted.
        var interruption: Interrupter?
        var scenes: [WeakScene] = []
        var registries: [SystemSoundRegistry] = []
        var recorders: [WeakRecorder] = []
        var observers: [Int: @Sendable (SessionEvent) -> Void] = [:]
        var nextObserver = 0
        var ducked = false

        var mixes: Bool {
            options.contains(.mixWithOthers) || options.contains(.duckOthers) || category == .ambient || category == .audioProcessing
        }
    }

    enum Interrupter: Equatable {
        case application
        case session(ObjectIdentifier)
        case device
        /// The desktop server asked the output to pause (a phone call).
        case server
    }

    struct WeakScene { weak var scene: Scene? }
    struct WeakRecorder { weak var recorder: AudioRecorder? }

    struct CenterState {
        var sessions: [ObjectIdentifier: SessionState] = [:]
        var order: [ObjectIdentifier] = []
        var devicePaused = false
    }

    /// Creates a center for `device`.
    /// - Parameters:
    ///   - duckGain: what `duckOthers` lowers the other sessions to.
    ///   - clock: seconds, for event time stamps; injectable so tests are deterministic.
    public init(device: Device, duckGain: Float = 0.3,
                clock: @escaping @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }) {
        self.device = device
        if (0...1).contains(duckGain) {
            self.duckGain = duckGain
        } else {
            Diagnostics.emit("soundstage: refused AudioSessionCenter duckGain = \(duckGain) (must be in 0...1); using 0.3")
            self.duckGain = 0.3
        }
        self.clock = clock
        device.addRouteObserver { [weak self] change in self?.routeChanged(change) }
        device.addOutputObserver { [weak self] event in self?.outputEvent(event) }
    }

    /// The desktop server's cork requests, as iOS treats a phone call: every sounding session is
    /// interrupted (`.systemRequest`) and pauses exactly what plays; when the server lets go, the
    /// interruption ends with `shouldResume` and those sources play on from their offsets.
    private func outputEvent(_ event: OutputEvent) {
        switch event {
        case .pauseRequested:
            interruptSounding(by: .server, reason: .systemRequest) { _ in true }
        case .resumeRequested:
            endInterruptions(by: .server, shouldResume: true)
        case .volumeChanged, .underrun, .serverLost, .serverReconnected:
            break
        }
    }

    /// Like iOS when the headphones are pulled: `playback` sessions pause when the output goes
    /// away, and stay paused (shouldResume false) when the new output takes over; other categories
    /// play on through the migration. When the sink stays and only its port changed (a laptop's
    /// headphones pulled: ``RouteChange/port``), the sound already has its new place: the
    /// interruption ends at once, and what it paused stays paused.
    private func routeChanged(_ change: RouteChange) {
        switch change.reason {
        case .oldDeviceUnavailable:
            interruptSounding(by: .device, reason: .deviceUnavailable) { $0.category == .playback }
            if change.previousPort != nil || change.port != nil { endInterruptions(by: .device, shouldResume: false) }
        case .newDeviceAvailable:
            endInterruptions(by: .device, shouldResume: false)
        case .override, .categoryChange, .outputMoved:
            break
        }
    }

    /// Interrupts every active, uninterrupted session that `matches`, on behalf of `interrupter`.
    private func interruptSounding(by interrupter: Interrupter, reason: InterruptionReason,
                                   where matches: (SessionState) -> Bool) {
        run { state, events in
            for id in state.order {
                guard var session = state.sessions[id], session.active, session.interruption == nil,
                      matches(session) else { continue }
                session.interruption = interrupter
                state.sessions[id] = session
                events.append((id, .interruptionBegan(reason)))
            }
        }
    }

    /// Ends every interruption `interrupter` began.
    private func endInterruptions(by interrupter: Interrupter, shouldResume: Bool) {
        run { state, events in
            for id in state.order {
                guard var session = state.sessions[id], session.interruption == interrupter else { continue }
                session.interruption = nil
                state.sessions[id] = session
                events.append((id, .interruptionEnded(shouldResume: shouldResume)))
            }
        }
    }

    /// Creates a session (inactive) with a category and options.
    public func makeSession(category: SessionCategory = .soloAmbient, options: SessionOptions = []) -> AudioSession {
        let session = AudioSession(center: self)
        state.withLockedValue { state in
            state.sessions[ObjectIdentifier(session)] = SessionState(category: category, options: options)
            state.order.append(ObjectIdentifier(session))
        }
        return session
    }

    /// Ends a session for good: deactivates it (ending the interruptions it caused, with
    /// `shouldResume` true), forgets its scenes, registries and observers. The daemon does this
    /// when a client disconnects. Using the session afterwards does nothing.
    public func removeSession(_ session: AudioSession) {
        try? setActive(false, notifyOthers: true, session: session)
        run { state, _ in
            let id = ObjectIdentifier(session)
            state.sessions.removeValue(forKey: id)
            state.order.removeAll { $0 == id }
        }
    }

    /// How many sessions exist.
    public var sessionCount: Int { state.withLockedValue { $0.order.count } }

    /// The categories of the sessions other than `session` that sound now (active, not
    /// interrupted, of a category that plays): what `AVAudioSession.isOtherAudioPlaying` asks.
    public func categoriesSounding(besides session: AudioSession) -> [SessionCategory] {
        state.withLockedValue { state in
            state.order.compactMap { id in
                guard id != ObjectIdentifier(session), let s = state.sessions[id], s.active, s.interruption == nil,
                      s.category.playsAudio else { return nil }
                return s.category
            }
        }
    }

    /// Whether the center has paused the (real) output because no session may sound.
    public var isDevicePaused: Bool { state.withLockedValue { $0.devicePaused } }

    // MARK: Operations (called by AudioSession)

    func attach(_ scene: Scene, to session: AudioSession) {
        run { state, _ in
            state.sessions[ObjectIdentifier(session)]?.scenes.append(WeakScene(scene: scene))
        }
    }

    func attach(_ registry: SystemSoundRegistry, to session: AudioSession) {
        run { state, _ in
            state.sessions[ObjectIdentifier(session)]?.registries.append(registry)
        }
    }

    func attach(_ recorder: AudioRecorder, to session: AudioSession) {
        run { state, _ in
            state.sessions[ObjectIdentifier(session)]?.recorders.append(WeakRecorder(recorder: recorder))
        }
    }

    func setCategory(_ category: SessionCategory, options: SessionOptions, of session: AudioSession) {
        run { state, _ in
            state.sessions[ObjectIdentifier(session)]?.category = category
            state.sessions[ObjectIdentifier(session)]?.options = options
        }
    }

    func setActive(_ active: Bool, notifyOthers: Bool, session: AudioSession) throws {
        let id = ObjectIdentifier(session)
        var failure: SoundstageError?
        run { state, events in
            guard var me = state.sessions[id] else { return }
            if active {
                // Only voice chat holds the output against later sessions (like a phone call).
                let blocked = me.category != .playAndRecord && state.order.contains { other in
                    guard other != id, let o = state.sessions[other], o.active, o.interruption == nil else { return false }
                    return o.category == .playAndRecord && !o.mixes
                }
                if blocked {
                    failure = SoundstageError(.sessionUnavailable,
                                              "a playAndRecord session (voice chat) holds the output; try again when it ends")
                    return
                }
                if me.active && me.interruption == nil { return }
                let wasInterrupted = me.interruption != nil
                me.active = true
                me.interruption = nil
                state.sessions[id] = me
                events.append((id, .activated))
                if wasInterrupted { events.append((id, .interruptionEnded(shouldResume: true))) }
                for other in state.order where other != id {
                    guard var o = state.sessions[other], o.active, o.interruption == nil, Self.interrupts(me, o) else { continue }
                    o.interruption = .session(id)
                    state.sessions[other] = o
                    events.append((other, .interruptionBegan(.otherSessionActivated)))
                }
            } else {
                guard me.active || me.interruption != nil else { return }
                me.active = false
                me.interruption = nil
                state.sessions[id] = me
                events.append((id, .deactivated))
                for other in state.order where other != id {
                    guard var o = state.sessions[other], o.interruption == .session(id) else { continue }
                    o.interruption = nil
                    state.sessions[other] = o
                    events.append((other, .interruptionEnded(shouldResume: notifyOthers)))
                }
            }
        }
        if let failure { throw failure }
    }

    func beginInterruption(_ reason: InterruptionReason, session: AudioSession) {
        let id = ObjectIdentifier(session)
        run { state, events in
            guard var me = state.sessions[id], me.active, me.interruption == nil else { return }
            me.interruption = reason == .deviceUnavailable ? .device : .application
            state.sessions[id] = me
            events.append((id, .interruptionBegan(reason)))
        }
    }

    func endInterruption(shouldResume: Bool, session: AudioSession) {
        let id = ObjectIdentifier(session)
        run { state, events in
            guard var me = state.sessions[id], me.interruption != nil else { return }
            me.interruption = nil
            state.sessions[id] = me
            events.append((id, .interruptionEnded(shouldResume: shouldResume)))
        }
    }

    func observe(_ session: AudioSession, _ handler: @escaping @Sendable (SessionEvent) -> Void) -> Int {
        state.withLockedValue { state in
            let id = ObjectIdentifier(session)
            let token = state.sessions[id]?.nextObserver ?? 0
            state.sessions[id]?.nextObserver += 1
            state.sessions[id]?.observers[token] = handler
            return token
        }
    }

    func removeObserver(_ token: Int, of session: AudioSession) {
        state.withLockedValue { _ = $0.sessions[ObjectIdentifier(session)]?.observers.removeValue(forKey: token) }
    }

    func snapshot(of session: AudioSession) -> SessionState? {
        state.withLockedValue { $0.sessions[ObjectIdentifier(session)] }
    }

    // MARK: Rules

    /// Whether `activating` interrupts `other` (see docs/sessions.md): only sessions that do not
    /// mix interrupt; they interrupt sessions of lower or equal priority, except those that mix
    /// (ambient ones always yield) and `playback` ones, which only voice chat interrupts.
    static func interrupts(_ activating: SessionState, _ other: SessionState) -> Bool {
        if activating.mixes { return false }
        if other.category.priority > activating.category.priority { return false }
        if other.mixes && other.category != .ambient { return false }
        if other.category == .playback && activating.category.priority < SessionCategory.playAndRecord.priority { return false }
        return true
    }

    // MARK: Applying

    /// Runs one operation: `change` decides (under the state lock) and lists events; then the
    /// scenes, registries, ducking and device are brought in line with the new state, and the
    /// events are queued in order — all under the operation lock. Then the observers are called,
    /// outside every lock, so that an observer may call the center again (reactivate its session
    /// when an interruption ends, as iOS code does).
    private func run(_ change: (inout CenterState, inout [(ObjectIdentifier, SessionEvent.Kind)]) -> Void) {
        operation.withLock {
            var kinds: [(ObjectIdentifier, SessionEvent.Kind)] = []
            let (sessions, order, wasPaused) = state.withLockedValue { state -> ([ObjectIdentifier: SessionState], [ObjectIdentifier], Bool) in
                change(&state, &kinds)
                return (state.sessions, state.order, state.devicePaused)
            }
            // Which sessions sound, which are ducked.
            let sounding = Set(order.filter { sessions[$0]!.active && sessions[$0]!.interruption == nil })
            let duckers = sounding.filter { sessions[$0]!.options.contains(.duckOthers) }
            var ducked: [ObjectIdentifier: Bool] = [:]
            for id in order {
                let session = sessions[id]!
                let sounds = sounding.contains(id)
                let resume = kinds.contains { $0.0 == id && $0.1 == .interruptionEnded(shouldResume: true) }
                    || kinds.contains { $0.0 == id && $0.1 == .activated }
                let plays = sounds && session.category.playsAudio
                for scene in session.scenes.compactMap(\.scene) {
                    if plays { scene.resumeFromSuspension(restart: resume) } else { scene.suspend() }
                }
                for registry in session.registries {
                    if plays { registry.endInterruption() } else if !registry.isInterrupted { registry.beginInterruption() }
                }
                for recorder in session.recorders.compactMap(\.recorder) {
                    if sounds && session.category.allowsRecording { recorder.resumeFromSuspension(restart: resume) } else { recorder.suspend() }
                }
                let isDucked = sounds && duckers.contains { $0 != id }
                ducked[id] = isDucked
                for scene in session.scenes.compactMap(\.scene) { scene.setDuck(isDucked ? duckGain : 1) }
                if isDucked != session.ducked { kinds.append((id, isDucked ? .ducked(gain: duckGain) : .unducked)) }
            }
            // Pause a real output when nothing may sound (loopback devices are paused by not rendering).
            let pause = !sounding.contains { sessions[$0]!.category.playsAudio }
            if device.kind != .loopback && pause != wasPaused { device.setOutputPaused(pause) }
            let now = clock()
            let deliveries = state.withLockedValue { state in
                state.devicePaused = pause && device.kind != .loopback
                for (id, value) in ducked { state.sessions[id]?.ducked = value }
                return kinds.flatMap { id, kind in
                    (state.sessions[id]?.observers.values.map { $0 } ?? []).map { ($0, SessionEvent(kind: kind, time: now)) }
                }
            }
            outbox.withLockedValue { $0.events += deliveries }
        }
        deliverQueuedEvents()
    }

    /// Calls the observers of the queued events, in order, with no lock held. One thread
    /// delivers at a time: an operation run meanwhile — on another thread, or by an observer
    /// from inside its call — queues its events behind, and the delivering thread calls them
    /// next. So every observer sees its session's events in the order they happened.
    private func deliverQueuedEvents() {
        let first = outbox.withLockedValue { outbox -> Bool in
            guard !outbox.delivering else { return false }
            outbox.delivering = true
            return true
        }
        guard first else { return }
        while let (handler, event) = outbox.withLockedValue({ outbox -> ((@Sendable (SessionEvent) -> Void), SessionEvent)? in
            guard !outbox.events.isEmpty else {
                outbox.delivering = false
                return nil
            }
            return outbox.events.removeFirst()
        }) {
            handler(event)
        }
    }
}
