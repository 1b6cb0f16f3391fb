#if canImport(Glibc)
import Glibc
#endif

// Suspension by sessions, migration to another device, and OpenAL source bookkeeping.
extension Scene {
    // MARK: Sessions

    /// Whether the scene is suspended by its audio session (inactive or interrupted): its playing
    /// sources are paused at their offsets and ``Source/play()`` throws `.sessionNotActive`.
    public var isSuspended: Bool { withState { state, _ in state.suspended } }

    /// Pauses every playing source, remembering which, and refuses plays until ``resumeFromSuspension(restart:)``.
    /// Returns the sources it paused.
    @discardableResult
    func suspend() -> [Source] {
        withState { state, lock in
            guard !state.suspended else { return [] }
            state.suspended = true
            var paused: [Source] = []
            lock.ifOpen { al in
                for source in state.active.values where source.pauseForSuspensionLocked(al, &state) { paused.append(source) }
            }
            let now = device.mixTime
            for source in state.voices?.virtual.values ?? [:].values where source.pauseLocked(lock, now: now) {
                paused.append(source)
            }
            state.pausedBySuspension = paused
            for source in paused { source.syncVoiceLocked(&state) }
            return paused
        }
    }

    /// Lifts a suspension. With `restart`, exactly the sources it paused — and that are still
    /// paused (not stopped, rewound or released since) — play on from their offsets; otherwise
    /// they stay paused until the game plays them. Returns the sources it restarted.
    @discardableResult
    func resumeFromSuspension(restart: Bool) -> [Source] {
        withState { state, lock in
            guard state.suspended else { return [] }
            state.suspended = false
            let paused = state.pausedBySuspension
            state.pausedBySuspension = []
            guard restart else { return [] }
            var restarted: [Source] = []
            lock.ifOpen { al in
                for source in paused where source.resumeAfterSuspensionLocked(al) { restarted.append(source) }
            }
            let now = device.mixTime
            for source in paused where source.isVirtualLocked && source.resumeLocked(lock, now: now) { restarted.append(source) }
            for source in restarted { source.syncVoiceLocked(&state) }
            return restarted
        }
    }

    /// Scales the scene's output by `factor` (ducking), on top of the listener's own gain.
    func setDuck(_ factor: Float) {
        listener.setDuck(factor)
    }

    // MARK: Migration

    /// Moves the scene to another `ALCdevice`: records every playing or paused source's offset
    /// and state, deletes the old OpenAL sources, creates a context on `newDevice`, and restores
    /// physics, listener and sources — in one deferred update (AL_SOFT_deferred_updates), so they
    /// start together. Buffers must already have their new names. A scene that borrowed the old
    /// device's own context borrows `deviceContext`, the new device's.
    func migrate(to newDevice: OpaquePointer, deviceContext: OpaquePointer, attributes: ALContextAttributes,
                 lostAt: Double? = nil) throws(SoundstageError) {
        try withState { state, lock throws(SoundstageError) in
            guard lock.isOpen else { return }
            var captured: [(source: Source, offset: Double, playing: Bool, deferred: Bool)] = []
            let names = state.allNames
            // Plays an open batch holds have not started: they start with the batch, on their new names.
            let pending = Set(state.pendingPlays)
            state.pendingPlays = []
            lock.ifOpen { al in
                for source in state.active.values {
                    let deferred = source.nameLocked.map { pending.contains($0) } ?? false
                    if let capture = source.captureForMigrationLocked(al, pendingInBatch: deferred, lostAt: lostAt) {
                        captured.append((source, capture.offset, capture.playing, deferred))
                    }
                }
                al.deleteSources(names)
                // The zones' slots, the filter and the effect are rebuilt on the new device below.
                deleteEffectsLocked(&state, al, forget: false)
            }
            LiveObjects.sources.subtract(names.count, ordering: .relaxed)
            state.streaming = [:]
            state.allNames = []
            state.freeNames = []
            state.active.removeAll()
            state.endable = [:]
            // A scene that borrowed the old device's context borrows the new device's.
            if lock.isBorrowed {
                lock.rebind(to: deviceContext, borrowed: true)
            } else {
                let newContext: OpaquePointer
                do throws(SoundstageError) {
                    newContext = try OpenAL.createContext(on: newDevice, attributes, for: "the scene's context on the new device")
                } catch {
                    lock.destroy()
                    LiveObjects.contexts.subtract(1, ordering: .relaxed)
                    throw error
                }
                lock.rebind(to: newContext)
            }
            let al = try lock.current()
            al.deferUpdates()
            defer { if state.batchDepth == 0 { al.processUpdates() } }
            al.setDistanceModel(state.distanceModel)
            al.setDopplerFactor(state.dopplerFactor)
            al.setSpeedOfSound(state.speedOfSound)
            listener.reapplyLocked(al)
            try rebuildEffectsLocked(&state, al)
            for item in captured {
                let name = try acquireNameLocked(&state, al)
                try item.source.restoreLocked(name, offset: item.offset, playing: item.playing, startWithBatch: item.deferred,
                                              &state, al)
            }
            // Sources that ended just before the move are no longer voices: rebuild the table.
            if state.voices != nil {
                for source in state.voices!.table.members { source.forgetVoiceRowLocked() }
                state.voices!.table = VoiceTable()
                for source in Array(state.active.values) + Array(state.voices!.virtual.values) { source.syncVoiceLocked(&state) }
            }
        }
    }

    // MARK: Source bookkeeping (called with the lock held)

    /// An OpenAL source for `source`: reused from the pool or newly generated within the budget.
    func acquireNameLocked(_ state: inout SceneState, _ al: borrowing ALCalls) throws(SoundstageError) -> ALName {
        if let reused = state.freeNames.popLast() { return reused }
        guard state.allNames.count < sourceBudget else {
            throw SoundstageError(.sourceBudgetExhausted,
                                  "all \(sourceBudget) sources of the scene's budget are playing or paused; "
                                  + "stop one, or create the scene with a larger sourceBudget")
        }
        let name = try al.makeSource()
        state.allNames.append(name)
        LiveObjects.sources.add(1, ordering: .relaxed)
        return name
    }

    /// Records `source` as active (holding an OpenAL source), and as endable unless it loops.
    func markActiveLocked(_ source: Source, looping: Bool, _ state: inout SceneState) {
        let id = ObjectIdentifier(source)
        state.active[id] = source
        if looping { state.endable.removeValue(forKey: id) } else { state.endable[id] = source }
    }

    /// Stops `name`, detaches its buffer and returns it to the pool, initial as a new source: a
    /// stopped one counts every buffer queued on it as processed, so a stream scheduled on it
    /// would see its first chunks played before its frame (and restart it at once as run dry).
    func releaseNameLocked(_ name: ALName, of source: Source, _ state: inout SceneState, _ al: borrowing ALCalls) {
        state.pendingPlays.removeAll { $0 == name }
        state.scheduledPlays.removeAll { $0.name == name }
        state.active.removeValue(forKey: ObjectIdentifier(source))
        state.endable.removeValue(forKey: ObjectIdentifier(source))
        if al.state(of: name) != .initial { al.rewind(name) }
        al.detachBuffers(from: name)
        state.streaming.removeValue(forKey: ObjectIdentifier(source))   // the source frees its stream's buffers
        state.freeNames.append(name)
    }
}
