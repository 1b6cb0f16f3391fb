#if canImport(Glibc)
import Glibc
#endif

// play, pause, stop, rewind, seek, and completion.
extension Source {
    // MARK: Playback

    /// Starts playing, or resumes a paused source from where it paused. Playing an already
    /// playing source restarts it from the beginning, as `alSourcePlay` does.
    ///
    /// - Throws: `.invalidArgument` without a buffer; `.sourceBudgetExhausted` when the scene's
    ///   budget of OpenAL sources is in use; `.released` when the scene is closed.
    public func play() throws {
        try play(startingAt: nil)
    }

    /// ``play()``, started by the render thread exactly at device frame `frame` when given
    /// (``Scene/play(_:at:)``).
    func play(startingAt frame: Int?) throws {
        defer { scene.deliverVoiceEvents() }
        defer { scene.device.noteActivity() }   // a resting output wakes (after the lock: it may poke the stream)
        try locked { s, sceneState, lock throws(SoundstageError) in
            guard s.buffer != nil || s.audioStream != nil else {
                throw SoundstageError(.invalidArgument, "the source has no buffer to play")
            }
            guard !sceneState.suspended else {
                throw SoundstageError(.sessionNotActive,
                                      "the scene's audio session is inactive or interrupted; play again once it is active")
            }
            let al = try lock.current()
            let now = scene.device.mixTime
            if sceneState.voices != nil, s.audioStream == nil {
                if let limit = s.voiceLimit { try scene.admitLocked(self, under: limit, &sceneState, lock) }
                if s.name == nil {
                    // Resuming a paused virtual voice: at its clock's offset.
                    let resumeAt = s.virtualClock.map { $0.offset(at: now, rate: Self.clockRate(s.properties)) }
                    let key = Self.rankKey(priority: s.priority, s.properties, spatialized: s.spatialized,
                                           sceneState.distanceModel, scene.listener.propertiesLocked)
                    if !scene.hasFreeSlotLocked(sceneState) && !scene.preemptForLocked(newcomerKey: key, &sceneState, al, now: now) {
                        s.virtualClock = VirtualClock(offset: resumeAt ?? s.pendingOffset ?? 0, since: now)
                        s.playback = .playing
                        s.pendingOffset = nil
                        s.startedAt = now
                        s.properties.groupGain = s.group?.effectiveGainLocked ?? 1
                        s.properties.groupPitch = s.group?.effectivePitchLocked ?? 1
                        sceneState.voices!.virtual[ObjectIdentifier(self)] = self
                        return
                    }
                    if let resumeAt {
                        s.virtualClock = nil
                        sceneState.voices!.virtual.removeValue(forKey: ObjectIdentifier(self))
                        s.pendingOffset = resumeAt
                        s.playback = .initial
                    }
                }
            }
            s.startedAt = now
            let offset = s.playback == .paused ? nil : s.pendingOffset
            let name: ALName
            s.properties.groupGain = s.group?.effectiveGainLocked ?? 1
            s.properties.groupPitch = s.group?.effectivePitchLocked ?? 1
            if let existing = s.name {
                name = existing
                Self.applyGroupFactors(name, s.properties, al)
            } else if let stream = s.audioStream {
                name = try scene.acquireNameLocked(&sceneState, al)
                Self.applyAll(name, s.properties, al)
                Self.applyEffects(name, s.properties, s.zoneSends, sceneState.effects, al)
                do throws(SoundstageError) {
                    try stream.start(name, at: Int64(((offset ?? 0) * Double(stream.sampleRate)).rounded()), al)
                } catch {
                    stream.release(al)
                    sceneState.freeNames.append(name)
                    throw error
                }
                s.name = name
                scene.markActiveLocked(self, looping: stream.loops, &sceneState)
                sceneState.streaming[ObjectIdentifier(self)] = self
            } else {
                name = try scene.acquireNameLocked(&sceneState, al)
                Self.applyAll(name, s.properties, al)
                Self.applyEffects(name, s.properties, s.zoneSends, sceneState.effects, al)
                let repeats = s.properties.looping ? 0 : s.repeatCount
                do throws(SoundstageError) {
                    if repeats == 0 {
                        al.attach(s.buffer!.id, to: name)
                    } else {
                        try al.queue(Array(repeating: s.buffer!.id, count: repeats + 1), on: name)
                    }
                } catch {
                    sceneState.freeNames.append(name)
                    throw error
                }
                s.name = name
                scene.markActiveLocked(self, looping: s.properties.looping, &sceneState)
            }
            if let offset, offset > 0, s.audioStream == nil, let buffer = s.buffer {
                try Self.setOffset(name, seconds: offset, buffer: buffer, repeats: s.properties.looping ? 0 : s.repeatCount,
                                   pitch: s.properties.pitch * s.properties.groupPitch, al)
            }
            if let frame {
                // Started by the render thread on exactly that frame (a stream without its first
                // chunk by then starts when it comes).
                sceneState.scheduledPlays.append((name, frame, self))
            } else if let stream = s.audioStream, !stream.hasQueued {
                // Its first chunk is still being decoded: the update starts it once it is queued.
                stream.startsWhenReady = true
            } else if sceneState.batchDepth > 0 || scene.device.rendersInEngine {
                // Started by the render thread before it mixes its next chunk (or at the batch's
                // end): alSourcePlay waits for the mixer, and a game's frame must not.
                if !sceneState.pendingPlays.contains(name) { sceneState.pendingPlays.append(name) }
            } else {
                try al.playOrThrow(name)
            }
            s.playback = .playing
            s.pendingOffset = nil
            // A paused group holds what starts in it until it resumes.
            if let holder = s.group?.pausingGroupLocked {
                sceneState.pendingPlays.removeAll { $0 == name }
                al.pause(name)
                s.playback = .paused
                holder.state.pausedSources[ObjectIdentifier(self)] = self
            }
        }
    }

    /// Pauses (`alSourcePause`); ``play()`` resumes at the same offset. No-op unless playing.
    public func pause() {
        locked { s, sceneState, lock in
            if let clock = s.virtualClock, s.playback == .playing {
                let now = scene.device.mixTime
                s.virtualClock = VirtualClock(offset: clock.offset(at: now, rate: Self.clockRate(s.properties)), since: nil)
                s.playback = .paused
                return
            }
            guard let name = s.name, s.playback == .playing else { return }
            sceneState.pendingPlays.removeAll { $0 == name }
            sceneState.scheduledPlays.removeAll { $0.name == name }
            lock.ifOpen { al in al.pause(name) }
            s.playback = .paused
        }
    }

    /// Stops (`alSourceStop`) and returns the OpenAL source to the scene. The next ``play()``
    /// starts from the beginning (or from a ``seek(to:)`` made after stopping). No completion runs.
    public func stop() {
        locked { s, sceneState, lock in
            releaseNameLocked(&s, &sceneState, lock, playback: .stopped)
            s.pendingOffset = nil
        }
    }

    /// Stops and returns to the initial state, offset 0 (`alSourceRewind`).
    public func rewind() {
        locked { s, sceneState, lock in
            releaseNameLocked(&s, &sceneState, lock, playback: .initial)
            s.pendingOffset = nil
        }
    }

    /// How far ``seek(to:)`` may go, in seconds: the stream's length, or the buffer's times its
    /// plays (once when looping).
    public var seekableDuration: Double { locked { s, _, _ in Self.seekableDuration(s) } }

    private static func seekableDuration(_ s: SourceState) -> Double {
        s.audioStream?.duration ?? (s.buffer?.duration ?? 0) * Double(s.properties.looping ? 1 : s.repeatCount + 1)
    }

    /// Moves the play position to `seconds` (to the nearest frame). On a stopped or initial source
    /// the next ``play()`` starts there.
    ///
    /// - Throws: `.invalidArgument` when `seconds` is outside the buffer (or the repeat queue).
    public func seek(to seconds: Double) throws {
        try locked { s, _, lock throws(SoundstageError) in
            let length = Self.seekableDuration(s)
            guard seconds.isFinite, seconds >= 0, seconds < max(length, .leastNonzeroMagnitude) else {
                throw SoundstageError(.invalidArgument, "cannot seek to \(seconds) s; the sound is \(length) s long")
            }
            if let stream = s.audioStream, !stream.feed.isSeekable {
                throw SoundstageError(.invalidArgument, "audio read from a pipe cannot seek: it plays once, from its start",
                                      subject: stream.path)
            }
            if let clock = s.virtualClock {
                // A virtual voice: its clock jumps there (and keeps running if it was).
                s.virtualClock = VirtualClock(offset: seconds, since: clock.since.map { _ in scene.device.mixTime })
            } else if let name = s.name, let stream = s.audioStream {
                // Requeue from the new position; a playing stream plays on from there.
                let al = try lock.current()
                let wasPlaying = s.playback == .playing
                al.stop(name)
                al.detachBuffers(from: name)
                try stream.start(name, at: Int64((seconds * Double(stream.sampleRate)).rounded()), al)
                // The decoder seeks on its own thread; a playing stream plays on once a chunk is queued.
                stream.startsWhenReady = wasPlaying
            } else if let name = s.name, let buffer = s.buffer {
                let al = try lock.current()
                // What is queued now: repeatCount may have changed since play() built the queue.
                let queued = try al.queuedBufferCount(name)
                let repeats = s.properties.looping ? 0 : max(0, queued - 1)
                guard seconds < buffer.duration * Double(repeats + 1) else {
                    throw SoundstageError(.invalidArgument, "cannot seek to \(seconds) s; \(buffer.duration * Double(repeats + 1)) s are queued")
                }
                try Self.setOffset(name, seconds: seconds, buffer: buffer, repeats: repeats,
                                   pitch: s.properties.pitch * s.properties.groupPitch, al)
            } else {
                s.pendingOffset = seconds
            }
        }
    }

    /// The play position in seconds (`AL_SEC_OFFSET`); within the whole queue when repeating.
    public var offset: Double {
        locked { s, _, lock in
            if let clock = s.virtualClock { return clock.offset(at: scene.device.mixTime, rate: Self.clockRate(s.properties)) }
            guard let name = s.name else { return s.pendingOffset ?? 0 }
            // A disconnected OpenAL output has zeroed every offset: the last note is the truth.
            if s.audioStream == nil, let note = s.offsetNote, !scene.device.isOutputConnectedIfWatched { return note.offset }
            var value = 0.0
            if let stream = s.audioStream {
                var frame: Int64 = 0
                lock.ifOpen { al in frame = stream.playbackFrame(name, al) }
                return Double(frame) / Double(stream.sampleRate)
            }
            lock.ifOpen { al in value = al.secondsOffset(name) }
            return value
        }
    }

    /// The playback state, as OpenAL reports it now (while an OpenAL output is disconnected,
    /// and OpenAL reports every source stopped, the engine's own: what resumes after the migration).
    public var playbackState: State {
        locked { s, sceneState, lock in
            guard let name = s.name, scene.device.isOutputConnectedIfWatched else { return s.playback }
            if sceneState.pendingPlays.contains(name) || sceneState.scheduledPlays.contains(where: { $0.name == name }) {
                return s.playback       // starts with the next chunk, or at its scheduled frame
            }
            if s.audioStream?.startsWhenReady == true { return s.playback }     // waits for its decoder
            var value = OpenALSourceState.stopped
            lock.ifOpen { al in value = al.state(of: name) }
            switch value {
            case .playing: return .playing
            case .paused: return .paused
            case .initial: return s.playback == .paused ? .paused : .initial   // paused before its first chunk
            case .stopped: return .stopped
            }
        }
    }

    // MARK: Completion

    /// Called once each time the source plays to its natural end (not on ``stop()``), from the
    /// engine's update: during ``Device/render(frames:)`` on a loopback device, on the update
    /// thread for a real output. It runs outside Soundstage's locks and may use the API.
    public var completionHandler: (@Sendable (Source) -> Void)? {
        get { locked { s, _, _ in s.completionHandler } }
        set { locked { s, _, _ in s.completionHandler = newValue } }
    }

    /// An `AsyncStream` that yields each time the source plays to its natural end.
    /// It finishes when the scene closes.
    public func completions() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let id = locked { s, _, _ in
            defer { s.nextStreamID += 1 }
            s.streams[s.nextStreamID] = continuation
            return s.nextStreamID
        }
        continuation.onTermination = { [weak self] _ in
            self?.locked { s, _, _ in _ = s.streams.removeValue(forKey: id) }
        }
        return stream
    }
}
