#if canImport(Glibc)
import Glibc
#endif

// Fades, group factors, and pausing with a group or session.
extension Source {
    // MARK: Fades

    /// Moves the source's level in a straight line from its current fade level to `level` (a
    /// multiplier on ``gain``, 1 = as set) over `seconds` of mix time, starting at the next engine
    /// update; with `stopAtEnd` it stops when the fade ends (a fade-out). `completion` runs once
    /// at the end, outside Soundstage's locks. A new fade replaces one in progress.
    public func fade(to level: Float, over seconds: Double, stopAtEnd: Bool = false,
                     completion: (@Sendable () -> Void)? = nil) {
        guard scene.refusals.admits(level.isFinite && level >= 0, "Source.fade(to:)", level, "finite and >= 0"),
              scene.refusals.admits(seconds.isFinite && seconds >= 0, "Source.fade(over:)", seconds, "finite and >= 0") else { return }
        locked { s, sceneState, _ in
            s.fade = SoundGroup.Fade(from: s.properties.fadeGain, to: level, start: nil, duration: seconds,
                                     stopAtEnd: stopAtEnd, completion: completion)
            sceneState.fading[ObjectIdentifier(self)] = self
        }
    }

    /// The source's fade level now (1 when it never faded).
    public var fadeLevel: Float { read { $0.fadeGain } }

    /// Sets the fade level at once (cancelling a fade): e.g. 0 before fading a source in.
    func setFadeLevelLocked(_ level: Float, _ lock: borrowing ContextLock) {
        state.fade = nil
        state.properties.fadeGain = level
        guard let name = state.name else { return }
        let properties = state.properties
        lock.ifOpen { al in Self.applyGroupFactors(name, properties, al) }
    }

    /// Advances the fade to `now` (scene lock held): whether it is over, whether to stop, and its completion.
    func advanceFadeLocked(now: Double, _ lock: borrowing ContextLock) -> (over: Bool, stop: Bool, completion: (@Sendable () -> Void)?) {
        guard var fade = state.fade else { return (true, false, nil) }
        let start = fade.start ?? now
        fade.start = start
        let progress = fade.duration > 0 ? min(1, (now - start) / fade.duration) : 1
        state.properties.fadeGain = fade.from + (fade.to - fade.from) * Float(progress)
        if let name = state.name {
            let properties = state.properties
            lock.ifOpen { al in Self.applyGroupFactors(name, properties, al) }
        }
        guard progress >= 1 else {
            state.fade = fade
            return (false, false, nil)
        }
        state.fade = nil
        return (true, fade.stopAtEnd, fade.completion)
    }

    // MARK: Group

    /// The group (bus) the source plays in: its gain, mute, pitch, pause, fades and ducking apply
    /// on top of the source's own. Must belong to the same scene. Applies at once.
    public var group: SoundGroup? {
        get { locked { s, _, _ in s.group } }
        set {
            guard scene.refusals.admits(newValue == nil || newValue!.scene === scene, "Source.group", newValue?.name ?? "nil", "a group of this scene") else { return }
            locked { s, _, lock in
                s.group = newValue
                refreshGroupFactorsLocked(&s, lock)
            }
        }
    }

    /// Recomputes what the groups multiply gain and pitch by and gives OpenAL the result (scene lock held).
    func refreshGroupFactorsLocked(_ lock: borrowing ContextLock) {
        refreshGroupFactorsLocked(&state, lock)
    }

    func refreshGroupFactorsLocked(_ s: inout SourceState, _ lock: borrowing ContextLock) {
        let gain = s.group?.effectiveGainLocked ?? 1, pitch = s.group?.effectivePitchLocked ?? 1
        guard gain != s.properties.groupGain || pitch != s.properties.groupPitch else { return }
        s.properties.groupGain = gain
        s.properties.groupPitch = pitch
        guard let name = s.name else { return }
        let properties = s.properties
        lock.ifOpen { al in Self.applyGroupFactors(name, properties, al) }
    }

    /// The source's group (scene lock held).
    var groupLocked: SoundGroup? { state.group }

    /// Whether it is playing now, as far as Soundstage knows (scene lock held).
    var isPlayingLocked: Bool { state.playback == .playing }

    /// Pauses it if playing (scene lock held), freezing a virtual voice's clock; true if it did.
    func pauseLocked(_ lock: borrowing ContextLock, now: Double) -> Bool {
        guard state.playback == .playing else { return false }
        if let clock = state.virtualClock {
            state.virtualClock = VirtualClock(offset: clock.offset(at: now, rate: Self.clockRate(state.properties)), since: nil)
        } else {
            guard let name = state.name else { return false }
            lock.ifOpen { al in al.pause(name) }
        }
        state.playback = .paused
        return true
    }

    /// Plays it on if it is still paused (scene lock held); a virtual voice's clock runs again.
    @discardableResult
    func resumeLocked(_ lock: borrowing ContextLock, now: Double) -> Bool {
        guard state.playback == .paused else { return false }
        if state.virtualClock != nil {
            state.virtualClock!.since = now
        } else {
            guard let name = state.name else { return false }
            lock.ifOpen { al in playOrAwaitLocked(name, al) }
        }
        state.playback = .playing
        scene.device.noteActivity()     // a resting output wakes
        return true
    }

    var isVirtualLocked: Bool { state.virtualClock != nil }
}
