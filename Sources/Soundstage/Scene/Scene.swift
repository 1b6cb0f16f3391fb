import Dispatch
import NIOConcurrencyHelpers
import Synchronization

/// A scene: one OpenAL context on a device, with its listener, its sources and its physics
/// (distance model, Doppler factor, speed of sound). Several scenes on one device are mixed.
///
/// Playing and paused sources are kept alive by their scene, so a game may fire a sound and drop
/// its reference. ``close()`` stops every source and frees the context; dropping the last
/// reference to an idle scene does the same.
///
/// One lock per scene (its context's) guards the scene, its listener and all its sources, so a
/// per-frame change costs one uncontended lock — and one OpenAL call, which on devices whose mix
/// the engine renders the render thread makes just before the next mix (see
/// ``Source/unwrittenParameters``).
public final class Scene: @unchecked Sendable {
    // @unchecked: `state` is only touched with `context`'s lock held (see `withState`).

    /// The device this scene mixes on; kept alive by the scene.
    public let device: Device
    /// How many sources may be playing or paused at once.
    public let sourceBudget: Int
    /// Values its objects' setters refused (see ``refusedValueCount``).
    let refusals = RefusalLog()
    /// The power of all its sources, when metered.
    let meter = LevelAccumulator()
    /// How many of its meters (scene, groups, sources) are on: the update meters only then.
    let meteringUsers = Atomic<Int>(0)

    /// Whether the scene is metered: the summed power of all its sources as they reach the mix
    /// (one channel; the peak is its loudest source's). Off by default.
    public var isMeteringEnabled: Bool {
        get { meter.isEnabled }
        set { meter.setEnabled(newValue, countingIn: meteringUsers) }
    }

    /// The scene's level over what its sources played since the previous call (nil when off).
    public func meterLevels() -> LevelMeter? { meter.read() }
    /// The scene's listener (the ears).
    public let listener: Listener

    let context: ContextHandle
    /// Whether its sources' property changes wait for the next mix (``Source/unwrittenParameters``):
    /// on devices whose mix the engine renders, where nothing is heard before that mix.
    let writesPropertiesAtMix: Bool
    // Guarded by the context's lock (see `withState`); no runtime exclusivity checks needed.
    @exclusivity(unchecked) private var state = SceneState()

    struct WeakGroup { weak var group: SoundGroup? }

    struct SceneState {
        /// Sources holding an OpenAL source (playing or paused).
        var active = ActiveSources()
        /// The active sources that do not loop: the only ones that can end by themselves.
        var endable: [ObjectIdentifier: Source] = [:]
        /// Every OpenAL source name this scene generated, and those free for reuse.
        var allNames: [ALName] = []
        var freeNames: [ALName] = []
        var distanceModel = DistanceModel.inverseClamped
        var dopplerFactor: Float = 1
        var speedOfSound: Float = 343.3
        /// While true (its audio session is not sounding) nothing may play.
        var suspended = false
        /// The sources that were playing when the scene was suspended, paused at their offsets.
        var pausedBySuspension: [Source] = []
        /// How many ``Scene/batch(_:)`` calls are open (nested ones count).
        var batchDepth = 0
        /// OpenAL sources `play()`ed inside the open batch, started together when it ends.
        var pendingPlays: [ALName] = []
        /// The mix time the meters were last brought up to.
        var meteredUntil: Double?
        /// Plays to start at a device frame (``play(_:at:)``).
        var scheduledPlays: [(name: ALName, frame: Int, source: Source)] = []
        /// Sources with a fade in progress.
        var fading: [ObjectIdentifier: Source] = [:]
        /// The voice manager, when ``Scene/virtualizesVoices`` is on.
        var voices: VoiceManagerState?
        /// Whether `voices` is set: what every setter asks (a stored flag is one byte to test;
        /// asking the optional for its case was an outlined call per setter). Set with `voices`.
        var managesVoices = false
        /// Active streaming sources, refilled at each update.
        var streaming: [ObjectIdentifier: Source] = [:]
        /// The scene's groups (weak: sources and the game keep them alive).
        var groups: [WeakGroup] = []
        /// When `groups` grows to this many entries, freed groups are dropped from it (then the
        /// mark doubles past what is left): amortized O(1) per group made, not O(groups).
        var groupsPruneMark = 64
        var duckings: [Ducking] = []
        /// The device time of the last engine update (for ramp steps).
        var lastUpdate: Double?
        /// Reverb zones and the EFX objects behind them and the sources' filters.
        var effects = SceneEffects()
    }

    init(device: Device, context: ContextHandle, sourceBudget: Int) {
        self.device = device
        self.context = context
        self.sourceBudget = sourceBudget
        self.writesPropertiesAtMix = device.rendersInEngine
        self.listener = Listener(context: context, refusals: refusals)
    }

    deinit {
        close()
    }

    /// Runs `body` with the scene's lock held. `lock.isOpen` tells whether the context exists.
    @inline(__always)
    func withState<R, E: Error>(_ body: (inout SceneState, borrowing ContextLock) throws(E) -> R) throws(E) -> R {
        try context.withLock { lock throws(E) -> R in try body(&state, lock) }
    }

    /// Changes a scene setting and applies it, if the scene is still open.
    func apply(_ change: (inout SceneState) -> Void, _ call: (borrowing ALCalls) -> Void) {
        withState { state, lock in
            change(&state)
            lock.ifOpen { al in call(al) }
        }
    }

    // MARK: Physics

    /// How gain falls with distance (`alDistanceModel`); default `.inverseClamped`.
    public var distanceModel: DistanceModel {
        get { withState { state, _ in state.distanceModel } }
        set { apply({ $0.distanceModel = newValue }) { al in al.setDistanceModel(newValue) } }
    }

    /// Scales the Doppler shift (`alDopplerFactor`); 0 turns Doppler off. Must be ≥ 0.
    public var dopplerFactor: Float {
        get { withState { state, _ in state.dopplerFactor } }
        set {
            guard refusals.admits(newValue.isFinite && newValue >= 0, "Scene.dopplerFactor", newValue, "finite and >= 0") else { return }
            apply({ $0.dopplerFactor = newValue }) { al in al.setDopplerFactor(newValue) }
        }
    }

    /// Speed of sound in units per second (`alSpeedOfSound`); default 343.3. Must be > 0.
    public var speedOfSound: Float {
        get { withState { state, _ in state.speedOfSound } }
        set {
            guard refusals.admits(newValue.isFinite && newValue > 0, "Scene.speedOfSound", newValue, "finite and > 0") else { return }
            apply({ $0.speedOfSound = newValue }) { al in al.setSpeedOfSound(newValue) }
        }
    }

    // MARK: Sources

    /// Creates a source that streams a file of any length through a small queue of buffers the
    /// engine's update refills (memory stays `bufferCount × bufferDuration` of audio whatever the
    /// length). It has every property and control of a source: position, gain, group, `play`,
    /// `pause`, `seek(to:)` (requeues from there), `offset`, `isLooping` (seamless, between the
    /// options' loop points), completion at its end. ``Source/underrunCount`` counts the times its
    /// queue ran dry and it was restarted.
    ///
    /// - Throws: the file's errors (`.notFound`, `.unsupportedFormat`, ...) at once;
    ///   `.invalidArgument` for loop points outside the file.
    public func makeStreamingSource(file path: String, options: StreamOptions = StreamOptions()) throws -> Source {
        Source(scene: self, stream: try AudioStream(path: path, options: options))
    }

    /// Creates a streaming source (as ``makeStreamingSource(file:options:)``) of a file the caller
    /// has already opened, e.g. to check its format first; the source takes it over.
    ///
    /// - Throws: `.invalidArgument` for loop points outside the file.
    public func makeStreamingSource(opened file: SoundFile, options: StreamOptions = StreamOptions()) throws -> Source {
        Source(scene: self, stream: try AudioStream(path: file.name, options: options, opened: file))
    }

    /// Creates a source in this scene, optionally with a buffer attached. A source takes an
    /// OpenAL source from the scene's budget only while it plays or is paused.
    public func makeSource(buffer: Buffer? = nil) -> Source {
        Source(scene: self, buffer: buffer)
    }

    /// Sources currently playing or paused.
    public var activeSourceCount: Int { withState { state, _ in state.active.count } }

    /// OpenAL buffers the scene's streaming sources hold.
    var streamBufferCount: Int {
        withState { state, lock in lock.isOpen ? state.streaming.values.reduce(0) { $0 + $1.streamBufferCountLocked } : 0 }
    }

    /// OpenAL sources this scene holds (active plus pooled for reuse).
    var allocatedSourceCount: Int { withState { state, lock in lock.isOpen ? state.allNames.count : 0 } }

    /// Whether ``close()`` has run.
    public var isClosed: Bool { withState { _, lock in !lock.isOpen } }

    /// Whether the scene has an OpenAL context of its own (false while it uses the device's own,
    /// lent to the first scene; see ``Device/makeScene(sourceBudget:)``).
    var ownsContext: Bool { withState { _, lock in lock.isOpen && !lock.isBorrowed } }

    /// Stops every source, frees the scene's OpenAL sources and destroys its context. Idempotent.
    /// Sources still referenced afterwards are stopped; playing them throws `.released`.
    public func close() {
        var returnsContext = false
        let released: [Source]? = withState { state, lock in
            guard lock.isOpen else { return nil }
            let sources = Array(state.active.values)
            for source in sources { source.detachForCloseLocked() }
            let names = state.allNames
            if !names.isEmpty {
                lock.ifOpen { al in
                    al.deleteSources(names)
                    for source in state.streaming.values { source.releaseStreamLocked(al) }
                }
            }
            lock.ifOpen { al in deleteEffectsLocked(&state, al, forget: true, contextLivesOn: lock.isBorrowed) }
            state.streaming.removeAll()
            state.fading.removeAll()
            for source in state.voices?.virtual.values ?? [:].values { source.detachForCloseLocked() }
            state.voices?.virtual.removeAll()
            state.voices?.table = VoiceTable()
            LiveObjects.sources.subtract(state.allNames.count, ordering: .relaxed)
            state.active.removeAll()
            state.endable.removeAll()
            // Sources a suspension paused or a start waits for hold their scene: forget them, or
            // a closed scene and its sources keep each other alive (a session removed before
            // its scene closed suspended them).
            state.pausedBySuspension.removeAll()
            state.scheduledPlays.removeAll()
            state.pendingPlays.removeAll()
            state.allNames.removeAll()
            state.freeNames.removeAll()
            // The device's own context (lent to this scene) is given back rather than destroyed.
            returnsContext = lock.isBorrowed
            lock.destroy()
            if !returnsContext { LiveObjects.contexts.subtract(1, ordering: .relaxed) }
            return sources
        }
        guard let released else { return }
        for source in released { source.finishStreams() }
        device.sceneClosed(self, returningContext: returnsContext)
    }

}
