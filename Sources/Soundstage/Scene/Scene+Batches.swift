#if canImport(Glibc)
import Glibc
#endif

// Atomic updates (batch) and sample-exact scheduled starts.
extension Scene {
    // MARK: Atomic updates

    /// Makes the changes in `body` take effect together, in the same mixer update: source and
    /// listener properties (AL_SOFT_deferred_updates) and every ``Source/play()`` (the sources
    /// start with one `alSourcePlayv` when the batch ends), so a chord starts on one sample and a
    /// teleport moves the listener and its surroundings at once. `pause()` and `stop()` act at
    /// once (and cancel a start the batch holds).
    ///
    /// Batches nest (the outermost one applies). While a batch is open the scene's property
    /// changes from other threads are held back with it, and completions are not checked.
    ///
    /// ```swift
    /// scene.batch {
    ///     for note in chord { try? note.play() }
    /// }
    /// ```
    public func batch<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        beginBatch()
        defer { _ = endBatch() }
        return try body()
    }

    /// Opens a batch, as ``batch(_:)`` does before its body (for callers that cannot pass a
    /// closure, such as the C API). Every call must be matched by ``endBatch()``.
    package func beginBatch() {
        withState { state, lock in
            state.batchDepth += 1
            if state.batchDepth == 1 { lock.ifOpen { al in al.deferUpdates() } }
        }
    }

    /// Closes a batch opened by ``beginBatch()``; the outermost applies what it held. False (and
    /// nothing happens) when no batch is open.
    package func endBatch() -> Bool {
        withState { state, lock in
            guard state.batchDepth > 0 else { return false }
            state.batchDepth -= 1
            guard state.batchDepth == 0 else { return true }
            let starts = state.pendingPlays
            state.pendingPlays = []
            lock.ifOpen { al in
                state.active.writeUnwritten(al)
                al.processUpdates()
                al.playTogether(starts)
            }
            return true
        }
    }

    /// Before the render thread mixes a chunk: writes the source properties set since the last
    /// mix, then starts what ``Source/play()`` handed over (on engine-rendered devices), unless a
    /// batch is open.
    func prepareMix() {
        withState { state, lock in
            let plays = state.batchDepth == 0 && !state.pendingPlays.isEmpty
            guard plays || state.active.hasUnwritten else { return }
            writeUnwrittenLocked(&state, lock)
            guard plays else { return }
            let starts = state.pendingPlays
            state.pendingPlays = []
            lock.ifOpen { al in
                al.playTogether(starts)
            }
        }
    }

    /// Writes the source properties set since the last mix (``Source/unwrittenParameters``):
    /// called by the render thread before each slice it mixes, when some scene has them.
    func writeUnwrittenProperties() {
        withState { state, lock in writeUnwrittenLocked(&state, lock) }
    }

    /// ``writeUnwrittenProperties()`` with the lock held. Inside an open batch OpenAL holds the
    /// writes back with the batch's other changes (`alDeferUpdatesSOFT`).
    func writeUnwrittenLocked(_ state: inout SceneState, _ lock: borrowing ContextLock) {
        guard state.active.hasUnwritten else { return }
        if lock.isOpen, let al = try? lock.current() {
            let deferring = state.batchDepth == 0 && state.active.writesCoalesce
            if deferring { al.deferUpdates() }
            state.active.writeUnwritten(al)
            if deferring { al.processUpdates() }
        } else {
            state.active.dropUnwritten()
        }
    }

    /// Starts `sources` — of this scene or of other scenes of the same device — on exactly the
    /// same sample, at device time `time` (``Device/mixTime``, in seconds, rounded to a frame):
    /// the render thread splits its mix there and starts them all before the next sample. Each
    /// source is set up now, as by ``Source/play()``; its `playbackState` is `.playing` from now.
    ///
    /// - Throws: `.invalidArgument` on a device Soundstage does not render itself (an OpenAL
    ///   output mixes on its own thread), for a time that is not finite or has passed, or a source
    ///   of another device; the errors of ``Source/play()`` — and then none of them is scheduled.
    public func play(_ sources: [Source], at time: Double) throws {
        guard device.rendersInEngine else {
            throw SoundstageError(.invalidArgument, "sample-exact starts need a device Soundstage renders (desktop or loopback); "
                                  + "an OpenAL output mixes on its own thread")
        }
        // A finite time too far for a frame count (1e300 s) is refused too, not trapped on.
        guard time.isFinite, let frame = Int(exactly: (time * Double(device.sampleRate)).rounded()) else {
            throw SoundstageError(.invalidArgument, "cannot start at \(time) s")
        }
        guard frame > device.renderedFrameCount else {
            throw SoundstageError(.invalidArgument, "\(time) s has passed: the device is at \(device.mixTime) s")
        }
        guard sources.allSatisfy({ $0.scene.device === device }) else {
            throw SoundstageError(.invalidArgument, "every source must belong to a scene of this device")
        }
        var scheduled: [Source] = []
        do {
            for source in sources {
                try source.play(startingAt: frame)
                scheduled.append(source)
            }
        } catch {
            for source in scheduled { source.stop() }
            throw error
        }
        device.noteScheduledFrame(frame)
    }

    /// Starts the scheduled plays whose frame has come (the render thread, between two samples).
    func startScheduledPlays(upTo frame: Int) {
        withState { state, lock in
            guard state.scheduledPlays.contains(where: { $0.frame <= frame }) else { return }
            let due = state.scheduledPlays.filter { $0.frame <= frame }
            state.scheduledPlays.removeAll { $0.frame <= frame }
            lock.ifOpen { al in
                var names: [ALName] = []
                for play in due {
                    if play.source.deferStartToFirstChunkLocked() { continue }      // a stream starts with its first chunk
                    names.append(play.name)
                }
                al.playTogether(names)
            }
        }
    }

    /// Whether a ``batch(_:)`` is open.
    public var isBatching: Bool { withState { state, _ in state.batchDepth > 0 } }
}
