/// One client's audio session: a category, activation, and the interruptions other sessions or
/// the application cause. Create with ``AudioSessionCenter/makeSession(category:options:)``.
public final class AudioSession: Sendable {
    /// The center the session belongs to.
    public let center: AudioSessionCenter

    init(center: AudioSessionCenter) {
        self.center = center
    }

    /// The session's category.
    public var category: SessionCategory { center.snapshot(of: self)?.category ?? .soloAmbient }
    /// The session's options.
    public var options: SessionOptions { center.snapshot(of: self)?.options ?? [] }
    /// Whether the session is active. An interruption makes it inactive; it reactivates by
    /// itself when the interruption ends.
    public var isActive: Bool { center.snapshot(of: self).map { $0.active && $0.interruption == nil } ?? false }
    /// Whether an interruption is in progress.
    public var isInterrupted: Bool { center.snapshot(of: self)?.interruption != nil }
    /// Whether the session's scenes may sound now (active, so not interrupted).
    public var isSounding: Bool { isActive }
    /// Whether another session's `duckOthers` lowers this one now.
    public var isDucked: Bool { center.snapshot(of: self)?.ducked ?? false }

    /// Changes the category and options; takes effect at the next activation.
    public func setCategory(_ category: SessionCategory, options: SessionOptions = []) {
        center.setCategory(category, options: options, of: self)
    }

    /// Puts a scene under this session: it sounds only while the session is active and not
    /// interrupted (until then it is suspended: ``Source/play()`` throws `.sessionNotActive`).
    public func attach(_ scene: Scene) {
        center.attach(scene, to: self)
    }

    /// Puts a system-sound registry under this session: it goes silent while the session does not sound.
    public func attach(_ registry: SystemSoundRegistry) {
        center.attach(registry, to: self)
    }

    /// Activates or deactivates the session.
    ///
    /// Activating interrupts the active sessions this category takes the output from (see
    /// docs/sessions.md) and resumes the session's scenes. Deactivating pauses its scenes, and
    /// ends the interruptions it caused — with `shouldResume` = `notifyOthersOnDeactivation`.
    /// - Throws: `.sessionUnavailable` while a `playAndRecord` session that does not mix (voice
    ///   chat) is active and this one is not `playAndRecord` itself.
    public func setActive(_ active: Bool, notifyOthersOnDeactivation: Bool = true) throws {
        try center.setActive(active, notifyOthers: notifyOthersOnDeactivation, session: self)
    }

    /// Begins an interruption the application asks for (focus lost, a cut-scene, its own voice
    /// chat): playing sources pause where they are, system sounds go silent. No-op unless active.
    public func beginInterruption(reason: InterruptionReason = .application) {
        center.beginInterruption(reason, session: self)
    }

    /// Ends the interruption: the session sounds again and, if `shouldResume`, exactly the
    /// sources that were playing play on from their offsets; otherwise they stay paused until
    /// the game plays them.
    public func endInterruption(shouldResume: Bool) {
        center.endInterruption(shouldResume: shouldResume, session: self)
    }

    /// Calls `handler` with every event of this session, in order, outside Soundstage's locks:
    /// it may call the session back (reactivate it when an interruption ends). Usually on the
    /// thread that caused the event; when another thread is delivering events of the same
    /// center at that moment, on that thread, right after the events queued before it.
    /// Returns a token for ``removeObserver(_:)``.
    @discardableResult
    public func addObserver(_ handler: @escaping @Sendable (SessionEvent) -> Void) -> Int {
        center.observe(self, handler)
    }

    /// Stops calling an observer.
    public func removeObserver(_ token: Int) {
        center.removeObserver(token, of: self)
    }

    /// The session's events as an `AsyncStream` (from now on).
    public func events() -> AsyncStream<SessionEvent> {
        let (stream, continuation) = AsyncStream<SessionEvent>.makeStream()
        let token = addObserver { continuation.yield($0) }
        continuation.onTermination = { [weak self] _ in self?.removeObserver(token) }
        return stream
    }
}
