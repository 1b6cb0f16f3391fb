#if canImport(Glibc)
import Glibc
#endif

// Real and virtual voices, and streamed buffers, under the scene's lock.
extension Source {
    // MARK: Voices

    /// Importance for the voice manager (``Scene/virtualizesVoices``): higher wins a real voice
    /// before any lower one, whatever their audibility. Default 0; within ±1,000,000.
    public var priority: Int {
        get { locked { s, _, _ in s.priority } }
        set {
            guard scene.refusals.admits((-1_000_000...1_000_000).contains(newValue), "Source.priority", newValue, "in -1000000...1000000") else { return }
            locked { s, _, _ in s.priority = newValue }
        }
    }

    /// The per-sound limit the source counts against ("at most 4 footsteps"), if any.
    public var voiceLimit: VoiceLimit? {
        get { locked { s, _, _ in s.voiceLimit } }
        set { locked { s, _, _ in s.voiceLimit = newValue } }
    }

    /// Whether the voice manager keeps it virtual now: logically playing, its clock running, but
    /// without an OpenAL source (silent).
    public var isVirtual: Bool { locked { s, _, _ in s.virtualClock != nil } }

    var voiceLimitLocked: VoiceLimit? { state.voiceLimit }
    var startedAtLocked: Double { state.startedAt }
    var isStreamingLocked: Bool { state.audioStream != nil }

    /// How fast a virtual clock runs: the pitch OpenAL would play at.
    static func clockRate(_ p: Properties) -> Double { Double(p.pitch * p.groupPitch) }

    /// The sound's length in seconds (infinite when looping).
    static func length(_ p: Properties, buffer: Buffer?, repeats: Int) -> Double {
        p.looping ? .infinity : (buffer?.duration ?? 0) * Double(repeats + 1)
    }

    /// Ends a virtual voice that played to its end: its completion work, to run outside the lock.
    func finishVirtualLocked(_ sceneState: inout Scene.SceneState) -> () -> Void {
        state.virtualClock = nil
        state.playback = .stopped
        syncVoiceLocked(&sceneState)
        return completionWorkLocked()
    }

    /// Gives up the OpenAL source, keeping the clock running from the current offset (scene lock held).
    func virtualizeLocked(_ sceneState: inout Scene.SceneState, _ al: borrowing ALCalls, now: Double) {
        guard let name = state.name else { return }
        let offset = al.secondsOffset(name)
        scene.releaseNameLocked(name, of: self, &sceneState, al)
        state.name = nil
        state.virtualClock = VirtualClock(offset: Double(offset), since: now)
        syncVoiceLocked(&sceneState)
    }

    /// Takes an OpenAL source and plays on at the clock's offset (scene lock held).
    func realizeLocked(_ sceneState: inout Scene.SceneState, _ al: borrowing ALCalls, now: Double) throws(SoundstageError) {
        guard let clock = state.virtualClock, state.buffer != nil else { return }
        var offset = clock.offset(at: now, rate: Self.clockRate(state.properties))
        if let duration = state.buffer?.duration, duration > 0, state.properties.looping {
            offset = offset.truncatingRemainder(dividingBy: duration)
        }
        let name = try scene.acquireNameLocked(&sceneState, al)
        state.virtualClock = nil
        state.properties.groupGain = state.group?.effectiveGainLocked ?? 1
        state.properties.groupPitch = state.group?.effectivePitchLocked ?? 1
        try restoreLocked(name, offset: offset, playing: true, startWithBatch: false, &sceneState, al)
        syncVoiceLocked(&sceneState)
    }

    /// Stops it (a steal): gives back its OpenAL source or ends its virtual clock; no completion.
    func stopLocked(_ sceneState: inout Scene.SceneState, _ lock: borrowing ContextLock) {
        releaseNameLocked(&state, &sceneState, lock, playback: .stopped)
        state.pendingOffset = nil
        syncVoiceLocked(&sceneState)
    }

    // MARK: Streaming

    /// Whether the source streams a file (``Scene/makeStreamingSource(file:options:)``).
    public var isStreaming: Bool { locked { s, _, _ in s.audioStream != nil } }

    /// How often the stream's queue ran dry (the engine was too late to refill it) and it was
    /// restarted; 0 for a source that does not stream.
    public var underrunCount: Int { locked { s, _, _ in s.audioStream?.underruns ?? 0 } }

    /// Why the stream stopped early — its file could not be read or decoded past some point
    /// (the source then ends as if the file ended there); nil while all is well, and for a
    /// source that does not stream.
    public var streamError: SoundstageError? { locked { s, _, _ in s.audioStream?.failure } }

    /// The first step of a refill (scene lock held): the stream's played buffers come back and
    /// its free ones are handed to the refill; nil when it holds no OpenAL source now.
    func beginRefillLocked(_ lock: borrowing ContextLock) -> AudioStream.Refill? {
        guard let stream = state.audioStream, let name = state.name, lock.isOpen, let al = try? lock.current() else { return nil }
        return stream.beginRefill(name, al)
    }

    /// The last step of a refill (scene lock held): queues what was filled, starts or restarts
    /// the source as needed; true if it played to its end.
    func finishRefillLocked(_ filled: AudioStream.Filled, _ al: borrowing ALCalls) -> Bool {
        guard let stream = state.audioStream else { return false }
        do {
            return try stream.finishRefill(filled, name: state.name, playing: state.playback == .playing, al)
        } catch {
            return true          // unusable from here on: end it (its completion reports)
        }
    }

    /// A stream with nothing queued yet (scene lock held): it is marked to start with its first
    /// chunk instead of now.
    func deferStartToFirstChunkLocked() -> Bool {
        guard let stream = state.audioStream, !stream.hasQueued else { return false }
        stream.startsWhenReady = true
        return true
    }

    /// A playing stream's feed and how many chunks its free buffers would take now (nil when it
    /// does not stream, is not playing or has no free buffer).
    func streamDemand() -> (StreamFeed, Int)? {
        locked { s, _, _ in
            guard let stream = s.audioStream, s.name != nil, s.playback == .playing, stream.idleCount > 0 else { return nil }
            return (stream.feed, stream.idleCount)
        }
    }

    /// OpenAL buffers its stream holds (scene lock held).
    var streamBufferCountLocked: Int { state.audioStream?.allocatedBufferCount ?? 0 }

    /// Frees the stream's OpenAL buffers once its source gave its OpenAL source back (scene lock held).
    func releaseStreamLocked(_ al: borrowing ALCalls) {
        state.audioStream?.release(al)
    }
}
