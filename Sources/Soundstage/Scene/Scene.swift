import COpenAL
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
/// per-frame change costs one uncontended lock and one OpenAL call.
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
    // Guarded by the context's lock (see `withState`); no runtime exclusivity checks needed.
    @exclusivity(unchecked) private var state = SceneState()

    struct WeakGroup { weak var group: SoundGroup? }

    struct SceneState {
        /// Sources holding an OpenAL source (playing or paused).
        var active: [ObjectIdentifier: Source] = [:]
        /// The active sources that do not loop: the only ones that can end by themselves.
        var endable: [ObjectIdentifier: Source] = [:]
        /// Every OpenAL source name this scene generated, and those free for reuse.
        var allNames: [ALuint] = []
        var freeNames: [ALuint] = []
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
        var pendingPlays: [ALuint] = []
        /// The mix time the meters were last brought up to.
        var meteredUntil: Double?
        /// Plays to start at a device frame (``play(_:at:)``).
        var scheduledPlays: [(name: ALuint, frame: Int, source: Source)] = []
        /// Sources with a fade in progress.
        var fading: [ObjectIdentifier: Source] = [:]
        /// The voice manager, when ``Scene/virtualizesVoices`` is on.
        var voices: VoiceManagerState?
        /// Active streaming sources, refilled at each update.
        var streaming: [ObjectIdentifier: Source] = [:]
        /// The scene's groups (weak: sources and the game keep them alive).
        var groups: [WeakGroup] = []
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
    private func apply(_ change: (inout SceneState) -> Void, _ call: (borrowing ALCalls) -> Void) {
        withState { state, lock in
            change(&state)
            lock.ifOpen { al in call(al) }
        }
    }

    // MARK: Physics

    /// How gain falls with distance (`alDistanceModel`); default `.inverseClamped`.
    public var distanceModel: DistanceModel {
        get { withState { state, _ in state.distanceModel } }
        set { apply({ $0.distanceModel = newValue }) { al in al.must("alDistanceModel") { alDistanceModel(newValue.alValue) } } }
    }

    /// Scales the Doppler shift (`alDopplerFactor`); 0 turns Doppler off. Must be ≥ 0.
    public var dopplerFactor: Float {
        get { withState { state, _ in state.dopplerFactor } }
        set {
            guard refusals.admits(newValue.isFinite && newValue >= 0, "Scene.dopplerFactor", newValue, "finite and >= 0") else { return }
            apply({ $0.dopplerFactor = newValue }) { al in al.must("alDopplerFactor") { alDopplerFactor(newValue) } }
        }
    }

    /// Speed of sound in units per second (`alSpeedOfSound`); default 343.3. Must be > 0.
    public var speedOfSound: Float {
        get { withState { state, _ in state.speedOfSound } }
        set {
            guard refusals.admits(newValue.isFinite && newValue > 0, "Scene.speedOfSound", newValue, "finite and > 0") else { return }
            apply({ $0.speedOfSound = newValue }) { al in al.must("alSpeedOfSound") { alSpeedOfSound(newValue) } }
        }
    }

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
        withState { state, lock in
            state.batchDepth += 1
            if state.batchDepth == 1 { lock.ifOpen { al in al.must("alDeferUpdatesSOFT") { alDeferUpdatesSOFT() } } }
        }
        defer {
            withState { state, lock in
                state.batchDepth -= 1
                guard state.batchDepth == 0 else { return }
                let starts = state.pendingPlays
                state.pendingPlays = []
                lock.ifOpen { al in
                    al.must("alProcessUpdatesSOFT") { alProcessUpdatesSOFT() }
                    if !starts.isEmpty { al.must("alSourcePlayv") { starts.withUnsafeBufferPointer { alSourcePlayv(ALsizei($0.count), $0.baseAddress) } } }
                }
            }
        }
        return try body()
    }

    /// Starts what ``Source/play()`` handed over (on engine-rendered devices), unless a batch is
    /// open: called by the render thread before it mixes each chunk.
    func startPendingPlays() {
        withState { state, lock in
            guard state.batchDepth == 0, !state.pendingPlays.isEmpty else { return }
            let starts = state.pendingPlays
            state.pendingPlays = []
            lock.ifOpen { al in
                al.must("alSourcePlayv") { starts.withUnsafeBufferPointer { alSourcePlayv(ALsizei($0.count), $0.baseAddress) } }
            }
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
        guard time.isFinite else { throw SoundstageError(.invalidArgument, "cannot start at \(time) s") }
        let frame = Int((time * Double(device.sampleRate)).rounded())
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
                var names: [ALuint] = []
                for play in due {
                    if play.source.deferStartToFirstChunkLocked() { continue }      // a stream starts with its first chunk
                    names.append(play.name)
                }
                if !names.isEmpty {
                    al.must("alSourcePlayv") { names.withUnsafeBufferPointer { alSourcePlayv(ALsizei($0.count), $0.baseAddress) } }
                }
            }
        }
    }

    /// Whether a ``batch(_:)`` is open.
    public var isBatching: Bool { withState { state, _ in state.batchDepth > 0 } }

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

    /// Stops every source, frees the scene's OpenAL sources and destroys its context. Idempotent.
    /// Sources still referenced afterwards are stopped; playing them throws `.released`.
    public func close() {
        let released: [Source]? = withState { state, lock in
            guard lock.isOpen else { return nil }
            let sources = Array(state.active.values)
            for source in sources { source.detachForCloseLocked() }
            let names = state.allNames
            if !names.isEmpty {
                lock.ifOpen { al in
                    al.freeing {
                        names.withUnsafeBufferPointer { names in
                            alSourceStopv(ALsizei(names.count), names.baseAddress)
                            alDeleteSources(ALsizei(names.count), names.baseAddress)
                        }
                    }
                    for source in state.streaming.values { source.releaseStreamLocked(al) }
                }
            }
            lock.ifOpen { al in deleteEffectsLocked(&state, al, forget: true) }
            state.streaming.removeAll()
            state.fading.removeAll()
            for source in state.voices?.virtual.values ?? [:].values { source.detachForCloseLocked() }
            state.voices?.virtual.removeAll()
            state.voices?.table = VoiceTable()
            LiveObjects.sources.subtract(state.allNames.count, ordering: .relaxed)
            state.active.removeAll()
            state.endable.removeAll()
            state.allNames.removeAll()
            state.freeNames.removeAll()
            lock.destroy()
            LiveObjects.contexts.subtract(1, ordering: .relaxed)
            return sources
        }
        guard let released else { return }
        for source in released { source.finishStreams() }
        device.sceneClosed(self)
    }

    /// Finds sources that played to their end, returns their OpenAL sources to the pool and runs
    /// their completion handlers (outside the lock).
    func update(at now: Double) {
        // On an OpenAL output, a disconnect stops every source at offset 0: nothing may end
        // then, and offsets are noted while it is connected so a migration resumes from them.
        let watchesRoute = device.kind == .output
        // An offline render waits for the decoder here too, so its output never depends on timing.
        var streamsDone = serviceStreams(waitForDecoder: device.kind == .loopback, checkRoute: watchesRoute)
        let (completions, toStop, fadeDone): ([() -> Void], [Source], [@Sendable () -> Void]) = withState { state, lock in
            guard state.batchDepth == 0 else { return ([], [], []) }
            var done: [() -> Void] = []
            if !state.endable.isEmpty || (watchesRoute && !state.active.isEmpty),
               !watchesRoute || device.isOutputConnected() {
                lock.ifOpen { al in
                    var ended: [Source] = []
                    // Looping sources never end by themselves; ask OpenAL about the others only.
                    // Played again, not started yet: not ended.
                    let starting = Set(state.pendingPlays + state.scheduledPlays.map(\.name))
                    for source in state.endable.values
                    where !starting.contains(source.nameLocked ?? 0) && source.hasEndedLocked(al)
                        && (!watchesRoute || source.endLooksRealLocked(now: now)) {
                        ended.append(source)
                    }
                    let notes = watchesRoute ? state.active.values.compactMap { source in
                        source.noteOffsetLocked(al, now: now).map { (source, $0) }
                    } : []
                    // Connected still, after reading: what was read is true (OpenAL Soft marks a
                    // device disconnected before it stops the sources).
                    guard !watchesRoute || device.isOutputConnected() else { return }
                    for (source, note) in notes { source.keepOffsetNoteLocked(note) }
                    for source in ended { done.append(source.finishLocked(&state, al)) }
                }
            }
            done += manageVoicesLocked(&state, lock, now: now)
            var (stops, fades) = advanceGroupsLocked(&state, lock, now: now)
            for (id, source) in state.fading {
                let step = source.advanceFadeLocked(now: now, lock)
                source.syncVoiceLocked(&state)
                guard step.over else { continue }
                state.fading.removeValue(forKey: id)
                if step.stop { stops.append(source) }
                if let completion = step.completion { fades.append(completion) }
            }
            updateZonesLocked(state, lock)
            // Meters are brought up to date ten times a second (what was played in between is
            // all counted: the ranges accumulate).
            if meteringUsers.load(ordering: .relaxed) > 0, now - (state.meteredUntil ?? -1) >= Self.meteringInterval {
                let began = DispatchTime.now().uptimeNanoseconds
                meterLocked(&state, lock, now: now)
                device.meteringBusyNanoseconds.add(Int(DispatchTime.now().uptimeNanoseconds - began), ordering: .relaxed)
            }
            return (done, stops, fades)
        }
        streamsDone += completions
        for completion in streamsDone { completion() }
        for source in toStop { source.stop() }
        for completion in fadeDone { completion() }
        deliverVoiceEvents()
    }

    /// Refills every playing stream from what the decoder has ready and finishes those that
    /// played to their end; returns their completions, to run outside the lock.
    ///
    /// The copy into OpenAL buffers (`alBufferData`, tens of µs a chunk) is made outside the
    /// scene's lock, in the device's resource context: the lock is held only to unqueue and to
    /// queue, one stream at a time, so a game thread setting a property never waits behind a refill.
    ///
    /// - Parameter waitForDecoder: an offline render's refill waits (outside every lock) until the
    ///   decoder has filled each stream's free buffers, so the mix does not depend on its timing.
    @discardableResult
    func serviceStreams(waitForDecoder: Bool, checkRoute: Bool = false) -> [() -> Void] {
        let streams = withState { state, lock in
            lock.isOpen && state.batchDepth == 0 ? Array(state.streaming.values) : []
        }
        guard !streams.isEmpty, !checkRoute || device.isOutputConnected() else { return [] }
        var done: [() -> Void] = []
        for source in streams {
            guard let refill = withState({ state, lock in
                state.batchDepth == 0 && state.streaming[ObjectIdentifier(source)] != nil ? source.beginRefillLocked(lock) : nil
            }) else { continue }
            let filled = refill.stream.fill(refill, waitForDecoder: waitForDecoder, in: device.resourceContext)
            withState { state, lock in
                lock.ifOpen { al in
                    if source.finishRefillLocked(filled, al) { done.append(source.finishLocked(&state, al)) }
                }
            }
        }
        return done
    }

    /// The channels of group and scene meters: left and right on a stereo mix without HRTF
    /// (through OpenAL Soft's panning), one (the total power) on other layouts and with HRTF.
    private var meterOutputs: Int {
        device.layout == .stereo && !device.isHRTFEnabled ? 2 : 1
    }

    /// How often (in mix seconds) the update brings source, group and scene meters up to date.
    static let meteringInterval = 0.1

    /// Meters what every playing source played since the last update into its meter, its groups'
    /// and the scene's (scene lock held).
    private func meterLocked(_ state: inout SceneState, _ lock: borrowing ContextLock, now: Double) {
        let elapsed = state.meteredUntil.map { Int(((now - $0) * Double(device.sampleRate)).rounded()) } ?? 0
        state.meteredUntil = now
        let listener = listener.propertiesLocked
        lock.ifOpen { al in
            let outputs = meterOutputs
            // The update's sums: the scene's, and what reached the mix from each group's own
            // sources (by the group's slot), added up the tree once at the end; nothing here
            // allocates or walks groups per source.
            var sceneSums = meter.isEnabled ? LevelSums(channels: outputs) : nil
            var groups: [SoundGroup] = []
            var anyGroupMetered = false
            for weak in state.groups {
                guard let group = weak.group else { continue }
                group.meterSlot = groups.count
                groups.append(group)
                anyGroupMetered = anyGroupMetered || group.meter.isEnabled
            }
            var direct = [LevelSums](repeating: LevelSums(channels: outputs), count: anyGroupMetered ? groups.count : 0)
            let anyGroups = sceneSums != nil || anyGroupMetered
            var reached = LevelSums(channels: outputs)
            for source in state.active.values {
                guard source.meterLocked(al, model: state.distanceModel, listener: listener, forGroups: anyGroups, at: now,
                                         reached: &reached) else { continue }
                sceneSums?.add(reached, countsFrames: false)
                if anyGroupMetered, let slot = source.groupLocked?.meterSlot { direct[slot].add(reached, countsFrames: false) }
            }
            var groupSums = [LevelSums?](repeating: nil, count: direct.count)
            for (slot, group) in groups.enumerated() where !direct.isEmpty {
                var target: SoundGroup? = group
                while let current = target {
                    if current.meter.isEnabled, let into = current.meterSlot {
                        if groupSums[into] == nil { groupSums[into] = LevelSums(channels: outputs) }
                        groupSums[into]!.add(direct[slot], countsFrames: false)
                    }
                    target = current.parent
                }
            }
            guard elapsed > 0 else { return }
            if var sums = sceneSums {
                sums.frames = elapsed
                meter.add(sums)
            }
            for (slot, sums) in groupSums.enumerated() {
                guard var sums else { continue }
                sums.frames = elapsed
                groups[slot].meter.add(sums)
            }
        }
    }

    /// Delivers the voice manager's waiting events to its handler, outside the lock.
    func deliverVoiceEvents() {
        let (handler, events) = withState { state, _ in takeVoiceEventsLocked(&state) }
        guard let handler else { return }
        for event in events { handler(event) }
    }

    /// Crossfades: starts `incoming` at fade level 0 and, over `seconds`, fades it up to 1 while
    /// `outgoing` fades down to 0 and stops — both beginning in the same mixer update. E.g. from
    /// one music track (a streaming source) to the next.
    /// - Throws: what `incoming.play()` throws (nothing changes then).
    public func crossfade(from outgoing: Source, to incoming: Source, over seconds: Double) throws {
        guard outgoing.scene === self && incoming.scene === self else {
            throw SoundstageError(.invalidArgument, "both sources of a crossfade must belong to this scene")
        }
        guard seconds.isFinite, seconds >= 0 else {
            throw SoundstageError(.invalidArgument, "a crossfade lasts a finite time >= 0, not \(seconds) s")
        }
        try batch {
            try incoming.play()
            withState { state, lock in
                incoming.setFadeLevelLocked(0, lock)
                incoming.syncVoiceLocked(&state)
            }
            incoming.fade(to: 1, over: seconds)
            outgoing.fade(to: 0, over: seconds, stopAtEnd: true)
        }
    }

    // MARK: Groups

    /// Creates a group (bus) of this scene's sources, optionally inside `parent`.
    public func makeGroup(_ name: String, parent: SoundGroup? = nil) -> SoundGroup {
        var parent = parent
        if !refusals.admits(parent == nil || parent!.scene === self, "Scene.makeGroup(parent:)", parent!.name, "a group of this scene") {
            parent = nil        // made a top-level group instead
        }
        let group = SoundGroup(name: name, parent: parent, scene: self)
        withState { state, _ in
            state.groups.removeAll { $0.group == nil }
            state.groups.append(WeakGroup(group: group))
        }
        return group
    }

    /// Ducks `target` while `trigger` sounds (any source in it or its child groups playing with a
    /// non-zero gain): `target` ramps to `gain` over `attack` seconds when the trigger starts and
    /// back to 1 over `release` seconds after it falls silent. Several rules on one group: the
    /// lowest factor wins. E.g. music under dialogue: `addDucking(of: music, whileSounding: dialogue,
    /// to: 0.3, attack: 0.1, release: 0.5)`.
    public func addDucking(of target: SoundGroup, whileSounding trigger: SoundGroup, to gain: Float,
                           attack: Double = 0.1, release: Double = 0.5) {
        guard refusals.admits(target.scene === self && trigger.scene === self, "Scene.addDucking(of:whileSounding:)",
                              "\(target.name), \(trigger.name)", "groups of this scene"),
              refusals.admits((0...1).contains(gain), "Scene.addDucking(to:)", gain, "in 0...1"),
              refusals.admits(attack.isFinite && attack >= 0 && release.isFinite && release >= 0,
                              "Scene.addDucking(attack:release:)", "\(attack), \(release)", "finite and >= 0") else { return }
        withState { state, _ in
            state.duckings.append(Ducking(target: target, trigger: trigger, gain: gain, attack: attack, release: release))
        }
    }

    /// Changes a group's settings and gives every affected source its new gain and pitch.
    func changeGroup(_ group: SoundGroup, _ change: (inout SoundGroup.GroupState) -> Void) {
        withState { state, lock in
            change(&group.state)
            refreshSourcesLocked(&state, lock, within: group)
        }
    }

    func pauseGroup(_ group: SoundGroup) {
        withState { state, lock in
            group.state.paused = true
            let now = device.mixTime
            let members = Array(state.active.values) + Array(state.voices?.virtual.values ?? [:].values)
            for source in members where source.groupLocked?.isWithin(group) == true {
                if source.pauseLocked(lock, now: now) { group.state.pausedSources[ObjectIdentifier(source)] = source }
                source.syncVoiceLocked(&state)
            }
        }
    }

    func resumeGroup(_ group: SoundGroup) {
        withState { state, lock in
            group.state.paused = false
            let held = group.state.pausedSources.values
            group.state.pausedSources = [:]
            // Sources an ancestor's pause still holds stay paused (they resume with it).
            for source in held {
                if let holder = group.pausingGroupLocked {
                    holder.state.pausedSources[ObjectIdentifier(source)] = source
                } else {
                    source.resumeLocked(lock, now: device.mixTime)
                    source.syncVoiceLocked(&state)
                }
            }
        }
    }

    private func refreshSourcesLocked(_ state: inout SceneState, _ lock: borrowing ContextLock, within group: SoundGroup?) {
        // Virtual voices too: their group factors rank them, and they play with them once real.
        let sources = Array(state.active.values) + Array(state.voices?.virtual.values ?? [:].values)
        for source in sources {
            guard let own = source.groupLocked, group.map({ own.isWithin($0) }) ?? true else { continue }
            source.refreshGroupFactorsLocked(lock)
            source.syncVoiceLocked(&state)
        }
    }

    /// Advances fades and ducking ramps to `now`; returns the sources that fade-outs stop and the
    /// fades' completions, to run outside the lock.
    private func advanceGroupsLocked(_ state: inout SceneState, _ lock: borrowing ContextLock,
                                     now: Double) -> ([Source], [@Sendable () -> Void]) {
        let elapsed = max(0, now - (state.lastUpdate ?? now))
        state.lastUpdate = now
        guard !state.groups.isEmpty else { return ([], []) }
        var changed = false
        var stops: [Source] = []
        var completions: [@Sendable () -> Void] = []
        for group in state.groups.compactMap(\.group) {
            guard var fade = group.state.fade else { continue }
            let start = fade.start ?? now
            fade.start = start
            let progress = fade.duration > 0 ? min(1, (now - start) / fade.duration) : 1
            group.state.gain = fade.from + (fade.to - fade.from) * Float(progress)
            changed = true
            if progress >= 1 {
                group.state.fade = nil
                if fade.stopAtEnd {
                    stops += state.active.values.filter { $0.groupLocked?.isWithin(group) == true }
                }
                if let completion = fade.completion { completions.append(completion) }
            } else {
                group.state.fade = fade
            }
        }
        if !state.duckings.isEmpty {
            state.duckings.removeAll { $0.target == nil || $0.trigger == nil }
            var factors: [ObjectIdentifier: Float] = [:]
            for index in state.duckings.indices {
                var rule = state.duckings[index]
                let trigger = rule.trigger!
                let sounding = state.active.values.contains { source in
                    source.isPlayingLocked && source.groupLocked?.isWithin(trigger) == true
                        && source.groupLocked!.effectiveGainLocked > 0
                }
                let depth = 1 - rule.gain
                if sounding {
                    rule.level = rule.attack > 0 ? max(rule.gain, rule.level - depth * Float(elapsed / rule.attack)) : rule.gain
                } else {
                    rule.level = rule.release > 0 ? min(1, rule.level + depth * Float(elapsed / rule.release)) : 1
                }
                state.duckings[index] = rule
                let key = ObjectIdentifier(rule.target!)
                factors[key] = min(factors[key] ?? 1, rule.level)
            }
            for group in state.groups.compactMap(\.group) {
                let duck = factors[ObjectIdentifier(group)] ?? 1
                if duck != group.state.duck { group.state.duck = duck; changed = true }
            }
        }
        if changed { refreshSourcesLocked(&state, lock, within: nil) }
        return (stops, completions)
    }

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
    /// start together. Buffers must already have their new names.
    func migrate(to newDevice: OpaquePointer, attributes: [ALCint], lostAt: Double? = nil) throws(SoundstageError) {
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
                al.freeing {
                    names.withUnsafeBufferPointer { names in
                        alSourceStopv(ALsizei(names.count), names.baseAddress)
                        alDeleteSources(ALsizei(names.count), names.baseAddress)
                    }
                }
                // The zones' slots, the filter and the effect are rebuilt on the new device below.
                deleteEffectsLocked(&state, al, forget: false)
            }
            LiveObjects.sources.subtract(names.count, ordering: .relaxed)
            state.streaming = [:]
            state.allNames = []
            state.freeNames = []
            state.active = [:]
            state.endable = [:]
            let newContext: OpaquePointer
            do throws(SoundstageError) {
                newContext = try OpenAL.createContext(on: newDevice, attributes, for: "the scene's context on the new device")
            } catch {
                lock.destroy()
                LiveObjects.contexts.subtract(1, ordering: .relaxed)
                throw error
            }
            lock.rebind(to: newContext)
            let al = try lock.current()
            alDeferUpdatesSOFT()
            defer { if state.batchDepth == 0 { alProcessUpdatesSOFT() } }
            al.must("alDistanceModel") { alDistanceModel(state.distanceModel.alValue) }
            al.must("alDopplerFactor") { alDopplerFactor(state.dopplerFactor) }
            al.must("alSpeedOfSound") { alSpeedOfSound(state.speedOfSound) }
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
    func acquireNameLocked(_ state: inout SceneState, _ al: borrowing ALCalls) throws(SoundstageError) -> ALuint {
        if let reused = state.freeNames.popLast() { return reused }
        guard state.allNames.count < sourceBudget else {
            throw SoundstageError(.sourceBudgetExhausted,
                                  "all \(sourceBudget) sources of the scene's budget are playing or paused; "
                                  + "stop one, or create the scene with a larger sourceBudget")
        }
        var name: ALuint = 0
        try al.call("alGenSources") { alGenSources(1, &name) }
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

    /// Stops `name`, detaches its buffer and returns it to the pool.
    func releaseNameLocked(_ name: ALuint, of source: Source, _ state: inout SceneState, _ al: borrowing ALCalls) {
        state.pendingPlays.removeAll { $0 == name }
        state.scheduledPlays.removeAll { $0.name == name }
        state.active.removeValue(forKey: ObjectIdentifier(source))
        state.endable.removeValue(forKey: ObjectIdentifier(source))
        var current: ALint = 0
        alGetSourcei(name, AL_SOURCE_STATE, &current)
        if current != AL_STOPPED && current != AL_INITIAL { al.must("alSourceStop") { alSourceStop(name) } }
        al.must("alSourcei(AL_BUFFER)") { alSourcei(name, AL_BUFFER, 0) }
        state.streaming.removeValue(forKey: ObjectIdentifier(source))   // the source frees its stream's buffers
        state.freeNames.append(name)
    }
}

