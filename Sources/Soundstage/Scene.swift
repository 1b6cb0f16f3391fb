import COpenAL
import NIOConcurrencyHelpers
import Synchronization

/// A scene: one OpenAL context on a device, with its listener, its sources and its physics
/// (distance model, Doppler factor, speed of sound). Several scenes on one device are mixed.
///
/// Playing and paused sources are kept alive by their scene, so a game may fire a sound and drop
/// its reference. ``close()`` stops every source and frees the context; dropping the last
/// reference to an idle scene does the same.
public final class Scene: Sendable {
    /// The device this scene mixes on; kept alive by the scene.
    public let device: Device
    /// How many sources may be playing or paused at once.
    public let sourceBudget: Int
    /// The scene's listener (the ears).
    public let listener: Listener

    let context: ContextHandle
    private let state: NIOLockedValueBox<SceneState>

    struct SceneState {
        var closed = false
        /// Sources holding an OpenAL source (playing or paused).
        var active: [ObjectIdentifier: Source] = [:]
        /// Every OpenAL source name this scene generated, and those free for reuse.
        var allNames: [ALuint] = []
        var freeNames: [ALuint] = []
        var distanceModel = DistanceModel.inverseClamped
        var dopplerFactor: Float = 1
        var speedOfSound: Float = 343.3
    }

    init(device: Device, context: ContextHandle, sourceBudget: Int) {
        self.device = device
        self.context = context
        self.sourceBudget = sourceBudget
        self.state = NIOLockedValueBox(SceneState())
        self.listener = Listener(context: context)
        listener.scene = self
    }

    deinit {
        close()
    }

    // MARK: Physics

    /// How gain falls with distance (`alDistanceModel`); default `.inverseClamped`.
    public var distanceModel: DistanceModel {
        get { state.withLock { $0.distanceModel } }
        set {
            withOpenContext { state, al in
                state.distanceModel = newValue
                al.must("alDistanceModel") { alDistanceModel(newValue.alValue) }
            }
        }
    }

    /// Scales the Doppler shift (`alDopplerFactor`); 0 turns Doppler off. Must be ≥ 0.
    public var dopplerFactor: Float {
        get { state.withLock { $0.dopplerFactor } }
        set {
            precondition(newValue.isFinite && newValue >= 0, "dopplerFactor must be finite and >= 0, got \(newValue)")
            withOpenContext { state, al in
                state.dopplerFactor = newValue
                al.must("alDopplerFactor") { alDopplerFactor(newValue) }
            }
        }
    }

    /// Speed of sound in units per second (`alSpeedOfSound`); default 343.3. Must be > 0.
    public var speedOfSound: Float {
        get { state.withLock { $0.speedOfSound } }
        set {
            precondition(newValue.isFinite && newValue > 0, "speedOfSound must be finite and > 0, got \(newValue)")
            withOpenContext { state, al in
                state.speedOfSound = newValue
                al.must("alSpeedOfSound") { alSpeedOfSound(newValue) }
            }
        }
    }

    // MARK: Sources

    /// Creates a source in this scene, optionally with a buffer attached. A source takes an
    /// OpenAL source from the scene's budget only while it plays or is paused.
    public func makeSource(buffer: Buffer? = nil) -> Source {
        Source(scene: self, buffer: buffer)
    }

    /// Sources currently playing or paused.
    public var activeSourceCount: Int { state.withLock { $0.active.count } }

    /// OpenAL sources this scene holds (active plus pooled for reuse).
    var allocatedSourceCount: Int { state.withLock { $0.closed ? 0 : $0.allNames.count } }

    /// Whether ``close()`` has run.
    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Stops every source, frees the scene's OpenAL sources and destroys its context. Idempotent.
    public func close() {
        let taken = state.withLock { state -> (active: [Source], names: [ALuint])? in
            guard !state.closed else { return nil }
            state.closed = true
            let taken = (Array(state.active.values), state.allNames)
            state.active.removeAll()
            state.allNames.removeAll()
            state.freeNames.removeAll()
            return taken
        }
        guard let taken else { return }
        for source in taken.active { source.detachForClose() }
        if !taken.names.isEmpty {
            try? OpenAL.withContext(context) { _ throws(SoundstageError) in
                taken.names.withUnsafeBufferPointer { names in
                    alSourceStopv(ALsizei(names.count), names.baseAddress)
                    alDeleteSources(ALsizei(names.count), names.baseAddress)
                }
                _ = alGetError()
            }
            LiveObjects.sources.subtract(taken.names.count, ordering: .relaxed)
        }
        OpenAL.destroy(context)
        LiveObjects.contexts.subtract(1, ordering: .relaxed)
        device.sceneClosed(self)
    }

    /// Finds sources that played to their end, returns their OpenAL sources to the pool and runs
    /// their completion handlers (outside every lock).
    func update() {
        // Looping sources never end by themselves; only the others need asking.
        let active = state.withLock { state in
            state.active.isEmpty ? [] : state.active.values.filter { !$0.loopsForever }
        }
        guard !active.isEmpty else { return }
        var completions: [() -> Void] = []
        for source in active {
            if let completion = source.finishIfEnded() { completions.append(completion) }
        }
        for completion in completions { completion() }
    }

    // MARK: Internals for Source and Listener

    /// Runs `body` under the scene lock with the context current; a no-op once closed.
    func withOpenContext(_ body: (inout SceneState, borrowing ALCalls) throws(SoundstageError) -> Void) {
        state.withLock { state in
            guard !state.closed else { return }
            try? OpenAL.withContext(context) { al throws(SoundstageError) in try body(&state, al) }
        }
    }

    /// Gives `source` an OpenAL source (reused or new), lets `setUp` configure and start it, and
    /// records it as active — all under the scene lock, so ``close()`` cannot interleave.
    func activate(_ source: Source, existing: ALuint?,
                  _ setUp: (ALuint, borrowing ALCalls) throws(SoundstageError) -> Void) throws(SoundstageError) -> ALuint {
        try state.withLock { state throws(SoundstageError) -> ALuint in
            guard !state.closed else { throw SoundstageError(.released, "the scene is closed") }
            let name: ALuint
            var fresh = false
            if let existing {
                name = existing
            } else if let reused = state.freeNames.popLast() {
                name = reused
            } else {
                guard state.allNames.count < sourceBudget else {
                    throw SoundstageError(.sourceBudgetExhausted,
                                          "all \(sourceBudget) sources of the scene's budget are playing or paused; "
                                          + "stop one, or create the scene with a larger sourceBudget")
                }
                var generated: ALuint = 0
                try OpenAL.withContext(context) { al throws(SoundstageError) in
                    try al.call("alGenSources") { alGenSources(1, &generated) }
                }
                name = generated
                fresh = true
            }
            do throws(SoundstageError) {
                try OpenAL.withContext(context) { al throws(SoundstageError) in try setUp(name, al) }
            } catch {
                if fresh { state.allNames.append(name) }
                if existing == nil { state.freeNames.append(name) }
                if fresh { LiveObjects.sources.add(1, ordering: .relaxed) }
                throw error
            }
            if fresh {
                state.allNames.append(name)
                LiveObjects.sources.add(1, ordering: .relaxed)
            }
            state.active[ObjectIdentifier(source)] = source
            return name
        }
    }

    /// Stops `name`, detaches its buffer and returns it to the pool; `source` is no longer active.
    func deactivate(_ source: Source, name: ALuint) {
        state.withLock { state in
            state.active.removeValue(forKey: ObjectIdentifier(source))
            guard !state.closed else { return }
            try? OpenAL.withContext(context) { al throws(SoundstageError) in
                var stopped: ALint = 0
                alGetSourcei(name, AL_SOURCE_STATE, &stopped)
                if stopped != AL_STOPPED && stopped != AL_INITIAL { al.must("alSourceStop") { alSourceStop(name) } }
                al.must("alSourcei(AL_BUFFER)") { alSourcei(name, AL_BUFFER, 0) }
            }
            state.freeNames.append(name)
        }
    }
}
