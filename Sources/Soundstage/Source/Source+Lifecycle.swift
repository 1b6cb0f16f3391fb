#if canImport(Glibc)
import Glibc
#endif

// The end of a play, suspension, migration to another device, and closing, under the scene's lock.
extension Source {
    // MARK: Internals (scene lock held)

    /// Whether the source was playing and OpenAL now reports it stopped by itself.
    func hasEndedLocked(_ al: borrowing ALCalls) -> Bool {
        guard let name = state.name, state.playback == .playing, state.audioStream == nil else { return false }
        return al.state(of: name) == .stopped
    }

    /// Returns an ended source's OpenAL source to the pool, and the completion work to run once
    /// the lock is released.
    func finishLocked(_ sceneState: inout Scene.SceneState, _ al: borrowing ALCalls) -> () -> Void {
        if let name = state.name {
            scene.releaseNameLocked(name, of: self, &sceneState, al)
            state.audioStream?.release(al)
        }
        state.name = nil
        state.playback = .stopped
        syncVoiceLocked(&sceneState)
        return completionWorkLocked()
    }

    /// What a completion runs (handler, streams), to call outside the lock.
    func completionWorkLocked() -> () -> Void {
        let handler = state.completionHandler
        let streams = Array(state.streams.values)
        return { [self] in
            handler?(self)
            for stream in streams { stream.yield() }
        }
    }

    /// Pauses the source if it is playing (for a suspension); true if it did.
    func pauseForSuspensionLocked(_ al: borrowing ALCalls, _ sceneState: inout Scene.SceneState) -> Bool {
        guard let name = state.name, state.playback == .playing else { return false }
        if sceneState.pendingPlays.contains(name) || sceneState.scheduledPlays.contains(where: { $0.name == name }) {
            sceneState.pendingPlays.removeAll { $0 == name }    // it had not started yet: it waits paused
            sceneState.scheduledPlays.removeAll { $0.name == name }
            state.playback = .paused
            return true
        }
        if let stream = state.audioStream, stream.startsWhenReady {
            stream.startsWhenReady = false          // waiting for its first chunk: it waits paused
            state.playback = .paused
            return true
        }
        guard al.state(of: name) == .playing else { return false }
        al.pause(name)
        state.playback = .paused
        return true
    }

    /// Plays the source on from where a suspension paused it, if it is still paused; true if it did.
    func resumeAfterSuspensionLocked(_ al: borrowing ALCalls) -> Bool {
        guard let name = state.name, state.playback == .paused else { return false }
        playOrAwaitLocked(name, al)
        state.playback = .playing
        scene.device.noteActivity()     // a resting output wakes
        return true
    }

    /// Plays `name` on (`alSourcePlay`); a stream with nothing queued yet — its decoder still
    /// busy after a start or seek — is started by the update once its first chunk is queued.
    func playOrAwaitLocked(_ name: ALName, _ al: borrowing ALCalls) {
        if let stream = state.audioStream, !stream.hasQueued {
            stream.startsWhenReady = true
        } else {
            al.play(name)
        }
    }

    /// Before a migration: the offset and whether it plays (else it is paused); forgets the
    /// OpenAL source, which the scene deletes. Nil when it holds none.
    /// The OpenAL source it holds (scene lock held).
    var nameLocked: ALName? { state.name }

    /// Notes the offset OpenAL reports now, if OpenAL says it plays or is paused (scene lock
    /// held; OpenAL outputs, every update). OpenAL Soft 1.19 stops every source at offset 0 when
    /// its output dies, some milliseconds before `ALC_CONNECTED` reads 0: such a reading is no note.
    func noteOffsetLocked(_ al: borrowing ALCalls, now: Double) -> (offset: Double, time: Double)? {
        guard let name = state.name, state.audioStream == nil else { return nil }
        let offset = al.secondsOffset(name)
        let value = al.state(of: name)
        guard value == .playing || value == .paused else { return nil }
        return (offset, now)
    }

    /// Whether OpenAL's "stopped" can be the sound's real end: its own clock (the last note,
    /// advanced at its pitch) has reached the end. An early stop is what a dying output looks
    /// like; the route check then migrates it. Half a second on, still connected, it is believed.
    func endLooksRealLocked(now: Double) -> Bool {
        guard let note = state.offsetNote, state.playback == .playing else { return true }
        let predicted = note.offset + max(0, now - note.time) * Self.clockRate(state.properties)
        let length = Self.length(state.properties, buffer: state.buffer, repeats: state.repeatCount)
        return predicted >= length - 0.05 || now - note.time > 0.5
    }

    /// Keeps a note taken while the output was still connected.
    func keepOffsetNoteLocked(_ note: (offset: Double, time: Double)) { state.offsetNote = note }

    /// - Parameter lostAt: the mix time a disconnect was noticed, when the output went away:
    ///   OpenAL has stopped every source at offset 0 by then, so the offset comes from the last
    ///   note, advanced to that time, and the state from the engine's own bookkeeping.
    func captureForMigrationLocked(_ al: borrowing ALCalls, pendingInBatch: Bool,
                                   lostAt: Double? = nil) -> (offset: Double, playing: Bool)? {
        guard let name = state.name else { return nil }
        var offset = al.secondsOffset(name)
        let value = al.state(of: name)
        if let lostAt, state.audioStream == nil, state.playback != .stopped {
            let playing = state.playback == .playing
            var estimate = state.offsetNote.map { note in
                note.offset + (playing ? max(0, lostAt - note.time) * Double(state.properties.pitch * state.properties.groupPitch) : 0)
            } ?? 0
            if state.properties.looping, let buffer = state.buffer, buffer.duration > 0 {
                estimate = estimate.truncatingRemainder(dividingBy: buffer.duration)
            }
            state.name = nil
            state.offsetNote = nil
            return (estimate, playing || pendingInBatch)
        }
        if let stream = state.audioStream {
            // Its buffers live on the old output: note where it was, free them there.
            offset = Double(stream.playbackFrame(name, al)) / Double(stream.sampleRate)
            al.stop(name)
            al.detachBuffers(from: name)
            stream.release(al)
        }
        state.name = nil
        guard value == .playing || value == .paused || pendingInBatch else {
            state.playback = .stopped     // it ended just before the move
            return nil
        }
        return (offset, value == .playing || pendingInBatch)
    }

    /// After a migration: sets up `name` on the new context exactly as before and plays (or
    /// pauses) it at `offset`.
    func restoreLocked(_ name: ALName, offset: Double, playing: Bool, startWithBatch: Bool,
                       _ sceneState: inout Scene.SceneState, _ al: borrowing ALCalls) throws(SoundstageError) {
        if let stream = state.audioStream {
            Self.applyAll(name, state.properties, al)
            Self.applyEffects(name, state.properties, state.zoneSends, sceneState.effects, al)
            try stream.start(name, at: Int64((offset * Double(stream.sampleRate)).rounded()), al)
            // It plays on once the decoder has its first chunk (a paused one waits for play()).
            stream.startsWhenReady = playing
            state.name = name
            state.playback = playing ? .playing : .paused
            scene.markActiveLocked(self, looping: stream.loops, &sceneState)
            sceneState.streaming[ObjectIdentifier(self)] = self
            return
        }
        guard let buffer = state.buffer else { return }
        Self.applyAll(name, state.properties, al)
        Self.applyEffects(name, state.properties, state.zoneSends, sceneState.effects, al)
        let repeats = state.properties.looping ? 0 : state.repeatCount
        if repeats == 0 {
            al.attach(buffer.id, to: name)
        } else {
            try al.queue(Array(repeating: buffer.id, count: repeats + 1), on: name)
        }
        if offset > 0 {
            try Self.setOffset(name, seconds: offset, buffer: buffer, repeats: repeats,
                               pitch: state.properties.pitch * state.properties.groupPitch, al)
        }
        Self.startRestored(name, playing: playing, withBatch: startWithBatch, &sceneState, al)
        state.name = name
        state.playback = playing ? .playing : .paused
        scene.markActiveLocked(self, looping: state.properties.looping, &sceneState)
    }

    /// Moves `name` — playing `buffer`, queued `repeats + 1` times, at `pitch` — to `seconds`.
    /// At pitch 1 the position is rounded to a whole frame: a fractional one would make OpenAL
    /// Soft 1.19 interpolate the voice for as long as it plays — extra work on every voice a voice
    /// manager realizes at its clock's offset, and a slight low-pass. At other pitches the voice
    /// is resampled anyway, so the exact position is kept (in double precision).
    static func setOffset(_ name: ALName, seconds: Double, buffer: Buffer, repeats: Int, pitch: Float,
                          _ al: borrowing ALCalls) throws(SoundstageError) {
        let last = Double(max(0, buffer.frames * (repeats + 1) - 1))
        let frames = min(max(0, seconds * Double(buffer.sampleRate)), last)
        try al.setSampleOffset(name, frames: frames, exact: pitch != 1)
    }

    /// Starts a restored source (then pauses it if it was paused), or leaves its start to the open batch.
    static func startRestored(_ name: ALName, playing: Bool, withBatch: Bool, _ sceneState: inout Scene.SceneState,
                                      _ al: borrowing ALCalls) {
        if withBatch {
            sceneState.pendingPlays.append(name)
            return
        }
        al.play(name)
        if !playing { al.pause(name) }
    }

    /// Called by ``Scene/close()``: forget the OpenAL source (the scene deletes it).
    func detachForCloseLocked() {
        state.voiceRow = -1
        state.name = nil
        state.virtualClock = nil
        if state.playback == .playing || state.playback == .paused { state.playback = .stopped }
    }

    /// Ends the completion streams after the scene closed (outside the lock).
    func finishStreams() {
        let streams = locked { s, _, _ in Array(s.streams.values) }
        for stream in streams { stream.finish() }
    }

    func releaseNameLocked(_ s: inout SourceState, _ sceneState: inout Scene.SceneState,
                                   _ lock: borrowing ContextLock, playback: State) {
        if s.virtualClock != nil {
            s.virtualClock = nil
            sceneState.voices?.virtual.removeValue(forKey: ObjectIdentifier(self))
        }
        if let name = s.name {
            let stream = s.audioStream
            lock.ifOpen { al in
                scene.releaseNameLocked(name, of: self, &sceneState, al)
                stream?.release(al)
            }
            s.name = nil
        }
        s.playback = playback
    }
}
