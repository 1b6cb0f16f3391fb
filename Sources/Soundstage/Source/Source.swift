#if canImport(Glibc)
import Glibc
#endif

/// A sound emitter in a scene: where it is, how it sounds, and its playback (play, pause, stop,
/// rewind, seek).
///
/// Property setters apply at once and need no `await`, so a game loop can move sources every
/// frame. A source holds an OpenAL source from its scene's budget only while playing or paused;
/// in between, its properties live in Swift and are applied when it next plays.
///
/// Only mono buffers are spatialized: with a multi-channel buffer, position, distance, cone and
/// Doppler have no effect.
public final class Source: @unchecked Sendable {
    // @unchecked: `state` is only touched with the scene's lock held (`scene.context`).

    /// Playback state (`AL_SOURCE_STATE`).
    public enum State: String, Sendable {
        /// Never played, or rewound.
        case initial
        /// Playing.
        case playing
        /// Paused; ``Source/play()`` resumes from the same offset.
        case paused
        /// Stopped, or played to its end.
        case stopped
    }

    /// A cone: full gain inside `innerAngle`, `outerGain` outside `outerAngle`, interpolated
    /// between (degrees, 0...360; 360 means omnidirectional). Needs a non-zero ``Source/direction``.
    public struct Cone: Sendable, Equatable {
        /// Full-gain angle in degrees.
        public var innerAngle: Float
        /// Angle beyond which the gain is `outerGain`, in degrees.
        public var outerAngle: Float
        /// Gain outside the outer angle (0...1).
        public var outerGain: Float

        /// Creates a cone.
        public init(innerAngle: Float, outerAngle: Float, outerGain: Float) {
            self.innerAngle = innerAngle
            self.outerAngle = outerAngle
            self.outerGain = outerGain
        }

        /// No directionality (360°, 360°, gain 0): OpenAL's default.
        public static let omnidirectional = Cone(innerAngle: 360, outerAngle: 360, outerGain: 0)
    }

    /// Every settable property, mirrored in Swift so it survives between plays (and devices).
    struct Properties: Equatable {
        var position = Vector3.zero
        var velocity = Vector3.zero
        var direction = Vector3.zero
        var cone = Cone.omnidirectional
        var gain: Float = 1
        var minGain: Float = 0
        var maxGain: Float = 1
        var pitch: Float = 1
        var looping = false
        var headRelative = false
        var referenceDistance: Float = 1
        var maxDistance: Float = .greatestFiniteMagnitude
        var rolloffFactor: Float = 1
        /// What the source's groups multiply its gain and pitch by (1 without a group).
        var groupGain: Float = 1
        var groupPitch: Float = 1
        /// The source's own fade (``Source/fade(to:over:stopAtEnd:completion:)``), 1 when none.
        var fadeGain: Float = 1
        /// EFX: occlusion and obstruction in dB (≤ 0), air absorption factor, send level to zones.
        var occlusion: Float = 0
        var obstruction: Float = 0
        var airAbsorption: Float = 0
        var reverbSend: Float = 1

        /// The gain OpenAL gets.
        var openALGain: Float { gain * groupGain * fadeGain }
        /// The pitch OpenAL gets.
        var openALPitch: Float { pitch * groupPitch }
    }

    struct SourceState {
        // What a meter update reads comes first, together (a few cache lines, not the whole
        // state's ten); the properties come right after, so that a setter and the write before
        // the mix find the name, the version and the position in the object's first cache line.
        /// The OpenAL source while playing or paused (only while the scene is open).
        var name: ALName?
        var playback = State.initial
        /// Whether what it plays is mono (positioned in 3D); kept with the buffer or stream.
        var spatialized = true
        /// Counts changes of ``properties`` (so a meter knows when its cached gain is stale).
        var propertiesVersion: UInt32 = 0
        var properties = Properties() { didSet { propertiesVersion &+= 1 } }
        /// The file a streaming source plays (instead of a buffer).
        var audioStream: AudioStream?
        /// Where its meter has counted to (``isMeteringEnabled``).
        var metering = MeteringState()
        var buffer: Buffer?
        var repeatCount = 0
        /// Where the next play starts, in seconds.
        var pendingOffset: Double?
        var completionHandler: (@Sendable (Source) -> Void)?
        var group: SoundGroup?
        /// A fade of ``Properties/fadeGain`` in progress.
        var fade: SoundGroup.Fade?
        /// While the voice manager keeps it virtual: its playback clock.
        var virtualClock: VirtualClock?
        /// On an OpenAL output: its offset (seconds) at the last update while the output was
        /// connected, and that update's mix time. A disconnect zeroes OpenAL's offsets, so a
        /// migration resumes from this instead.
        var offsetNote: (offset: Double, time: Double)?
        var priority = 0
        var voiceLimit: VoiceLimit?
        /// Mix time of its last start (for the `oldest` steal policy).
        var startedAt = 0.0
        var streams: [Int: AsyncStream<Void>.Continuation] = [:]
        var nextStreamID = 0
        /// Send levels to particular reverb zones, overriding `properties.reverbSend`.
        var zoneSends: [ObjectIdentifier: Float] = [:]
        /// Its row in the scene's ``VoiceTable`` (−1: none).
        var voiceRow = -1
    }

    /// The scene the source belongs to; kept alive by the source.
    public let scene: Scene
    /// The properties set since the last mix and not yet written to OpenAL (bits of
    /// ``SourceParameter``), on a device whose mix the engine renders: they are written together
    /// just before it mixes (``Scene/writeUnwrittenProperties()``). Guarded by the scene's lock;
    /// kept out of `state` so that the scene's list of them can change it while a setter holds `state`
    /// (declared before `state` to sit in the same cache line as its first fields).
    @exclusivity(unchecked) var unwrittenParameters: UInt16 = 0
    // Guarded by the scene's lock (every access is under it), so the runtime's exclusivity
    // checks would only repeat what the lock ensures; they cost more than the voice ranking's math.
    // Touched by Source's own files only (Source.swift and its extensions).
    @exclusivity(unchecked) var state = SourceState()
    /// Whether it is metered (``isMeteringEnabled``); the sums are in its state.
    let meter = MeterSwitch()

    init(scene: Scene, buffer: Buffer?) {
        self.scene = scene
        // A buffer of another device is refused: the source is made without one.
        let buffer = scene.refusals.admits(buffer == nil || buffer!.device === scene.device, "Scene.makeSource(buffer:)",
                                           buffer?.name ?? "a buffer of another device", "a buffer of this scene's device") ? buffer : nil
        state.buffer = buffer
        state.spatialized = (buffer?.channels ?? 1) == 1
    }

    init(scene: Scene, stream: AudioStream) {
        self.scene = scene
        state.audioStream = stream
        state.spatialized = stream.channels == 1
        state.properties.looping = false        // a stream loops in its decoder, never in OpenAL
    }

    /// Runs `body` with the scene's lock held.
    @inline(__always)
    func locked<R, E: Error>(_ body: (inout SourceState, inout Scene.SceneState, borrowing ContextLock) throws(E) -> R) throws(E) -> R {
        try scene.withState { sceneState, lock throws(E) -> R in
            // Whatever the body changed, the voice manager's row follows (even when it throws).
            defer { if sceneState.managesVoices { Self.syncVoice(self, &state, &sceneState) } }
            return try body(&state, &sceneState, lock)
        }
    }

    // MARK: Voice table

    /// Rewrites the source's row in the scene's voice table from its state: adds it when it
    /// became a managed voice (holding an OpenAL source or a virtual clock, playing or paused,
    /// not streaming), removes it when it stopped being one (scene lock held).
    func syncVoiceLocked(_ sceneState: inout Scene.SceneState) {
        Self.syncVoice(self, &state, &sceneState)
    }

    static func syncVoice(_ source: Source, _ s: inout SourceState, _ sceneState: inout Scene.SceneState) {
        guard sceneState.voices != nil else { s.voiceRow = -1; return }
        let member = s.audioStream == nil && (s.name != nil || s.virtualClock != nil)
            && (s.playback == .playing || s.playback == .paused)
        if member {
            var endsAt = Double.infinity
            if s.playback == .playing, !s.properties.looping, let clock = s.virtualClock, let since = clock.since {
                let rate = clockRate(s.properties)
                let length = Self.length(s.properties, buffer: s.buffer, repeats: s.repeatCount)
                endsAt = rate > 0 ? since + (length - clock.offset) / rate : .infinity
            }
            let row = VoiceRow(properties: s.properties, priority: s.priority, spatialized: s.spatialized,
                               playing: s.playback == .playing, virtual: s.virtualClock != nil, endsAt: endsAt)
            if s.voiceRow >= 0 {
                sceneState.voices!.table.update(s.voiceRow, row)
            } else {
                s.voiceRow = sceneState.voices!.table.append(row, for: source)
            }
        } else if s.voiceRow >= 0 {
            if let moved = sceneState.voices!.table.remove(at: s.voiceRow) { moved.state.voiceRow = s.voiceRow }
            s.voiceRow = -1
        }
    }

    /// The scene dropped its voice table (voice management turned off, or the scene closed).
    func forgetVoiceRowLocked() { state.voiceRow = -1 }

    // MARK: Sound

    /// The buffer played. Setting it stops the source first (OpenAL cannot swap the buffer of a
    /// playing source). The buffer must belong to the scene's device.
    public var buffer: Buffer? {
        get { locked { s, _, _ in s.buffer } }
        set {
            guard scene.refusals.admits(newValue == nil || newValue!.device === scene.device, "Source.buffer",
                                        newValue?.name ?? "nil", "a buffer of this scene's device"),
                  scene.refusals.admits(!isStreaming, "Source.buffer", newValue?.name ?? "nil",
                                        "nil for a streaming source (it plays its file)") else { return }
            let old = locked { s, sceneState, lock in
                releaseNameLocked(&s, &sceneState, lock, playback: .initial)
                s.pendingOffset = nil
                defer {
                    s.buffer = newValue
                    s.spatialized = (newValue?.channels ?? 1) == 1
                    s.metering.levels = nil     // the meter's copy of the old buffer's levels
                }
                return s.buffer
            }
            _ = old // the previous buffer may be freed here, outside the scene's lock
        }
    }

    /// Extra times the buffer plays back to back after the first, gaplessly (a buffer queue);
    /// 0 plays once. Ignored while ``isLooping`` is on. Takes effect at the next ``play()`` from
    /// a stopped or initial state.
    public var repeatCount: Int {
        get { locked { s, _, _ in s.repeatCount } }
        set {
            guard scene.refusals.admits((0...10_000).contains(newValue), "Source.repeatCount", newValue, "in 0...10000") else { return }
            locked { s, _, _ in s.repeatCount = newValue }
        }
    }

    // MARK: Spatial properties

    /// Position (`AL_POSITION`); relative to the listener when ``isHeadRelative``.
    public var position: Vector3 {
        get { read { $0.position } }
        set {
            guard scene.refusals.admits(newValue.isUsablePosition, "Source.position", newValue, Vector3.positionRule) else { return }
            set({ $0.position = newValue }, .position)
        }
    }

    /// Places a head-relative source 1 unit away at `azimuth` (radians, positive to the right)
    /// with `gain`, which may exceed 1 (the gain limit follows it): an ``AudioPlayer``'s pan.
    func place(azimuth: Float, gain: Float) {
        let position = Vector3(sinf(azimuth), 0, -cosf(azimuth))
        set({
            $0.position = position
            $0.gain = gain
            $0.maxGain = max(1, gain)
        }, [.position, .gain, .maxGain])
    }

    /// Velocity in units per second (`AL_VELOCITY`), used only for Doppler.
    public var velocity: Vector3 {
        get { read { $0.velocity } }
        set {
            guard scene.refusals.admits(newValue.isUsablePosition, "Source.velocity", newValue, Vector3.positionRule) else { return }
            set({ $0.velocity = newValue }, .velocity)
        }
    }

    /// The direction the source faces (`AL_DIRECTION`); zero (the default) means omnidirectional.
    public var direction: Vector3 {
        get { read { $0.direction } }
        set {
            guard scene.refusals.admits(newValue.isUsablePosition, "Source.direction", newValue, Vector3.positionRule) else { return }
            set({ $0.direction = newValue }, .direction)
        }
    }

    /// The directional cone (`AL_CONE_INNER_ANGLE`, `AL_CONE_OUTER_ANGLE`, `AL_CONE_OUTER_GAIN`).
    public var cone: Cone {
        get { read { $0.cone } }
        set {
            guard scene.refusals.admits((0...360).contains(newValue.innerAngle) && (0...360).contains(newValue.outerAngle)
                                        && (0...1).contains(newValue.outerGain), "Source.cone",
                                        "inner \(newValue.innerAngle), outer \(newValue.outerAngle), outerGain \(newValue.outerGain)",
                                        "angles in 0...360, outerGain in 0...1") else { return }
            set({ $0.cone = newValue }, SourceParameter.cone)
        }
    }

    /// Whether position, velocity and direction are relative to the listener (`AL_SOURCE_RELATIVE`).
    public var isHeadRelative: Bool {
        get { read { $0.headRelative } }
        set { set({ $0.headRelative = newValue }, .headRelative) }
    }

    /// Distance at which the gain is 1 before rolloff (`AL_REFERENCE_DISTANCE`); ≥ 0, default 1.
    public var referenceDistance: Float {
        get { read { $0.referenceDistance } }
        set {
            guard scene.refusals.admits(newValue.isFinite && newValue >= 0, "Source.referenceDistance", newValue, "finite and >= 0") else { return }
            set({ $0.referenceDistance = newValue }, .referenceDistance)
        }
    }

    /// Distance beyond which the clamped models stop attenuating (`AL_MAX_DISTANCE`); ≥ 0.
    public var maxDistance: Float {
        get { read { $0.maxDistance } }
        set {
            guard scene.refusals.admits(!newValue.isNaN && newValue >= 0, "Source.maxDistance", newValue, ">= 0 (infinity: no limit)") else { return }
            set({ $0.maxDistance = newValue }, .maxDistance)
        }
    }

    /// How fast the gain falls with distance (`AL_ROLLOFF_FACTOR`); ≥ 0, default 1.
    public var rolloffFactor: Float {
        get { read { $0.rolloffFactor } }
        set {
            guard scene.refusals.admits(newValue.isFinite && newValue >= 0, "Source.rolloffFactor", newValue, "finite and >= 0") else { return }
            set({ $0.rolloffFactor = newValue }, .rolloffFactor)
        }
    }

    // MARK: Level and pitch

    /// Gain (`AL_GAIN`); linear, ≥ 0, default 1. 0.5 halves the amplitude.
    public var gain: Float {
        get { read { $0.gain } }
        set {
            guard scene.refusals.admits(newValue.isFinite && newValue >= 0, "Source.gain", newValue, "finite and >= 0") else { return }
            set({ $0.gain = newValue }, .gain)
        }
    }

    /// Lowest gain after distance attenuation (`AL_MIN_GAIN`), 0...1.
    public var minGain: Float {
        get { read { $0.minGain } }
        set {
            guard scene.refusals.admits((0...1).contains(newValue), "Source.minGain", newValue, "in 0...1") else { return }
            set({ $0.minGain = newValue }, .minGain)
        }
    }

    /// Highest gain after distance attenuation (`AL_MAX_GAIN`), 0...1.
    public var maxGain: Float {
        get { read { $0.maxGain } }
        set {
            guard scene.refusals.admits((0...1).contains(newValue), "Source.maxGain", newValue, "in 0...1") else { return }
            set({ $0.maxGain = newValue }, .maxGain)
        }
    }

    /// Playback-rate multiplier (`AL_PITCH`); > 0, default 1. 2.0 doubles the frequency.
    public var pitch: Float {
        get { read { $0.pitch } }
        set {
            guard scene.refusals.admits(newValue.isFinite && newValue > 0, "Source.pitch", newValue, "finite and > 0") else { return }
            set({ $0.pitch = newValue }, .pitch)
        }
    }

    /// Whether the buffer loops forever (`AL_LOOPING`). A looping source never completes.
    /// For a streaming source: loops between its loop points `times` more times (nil: for ever),
    /// counted by the decoder at the sample; then plays on to the end. `loops == false` plays on.
    func setStreamLoops(_ loops: Bool, times: Int?) {
        locked { s, sceneState, _ in
            guard let stream = s.audioStream, stream.feed.isSeekable || !loops else { return }
            // A counted loop ends: the scene watches for its end as for a source that plays once.
            let endless = loops && times == nil
            stream.loops = endless
            stream.feed.setLoops(loops, times: times)
            if s.name != nil { scene.markActiveLocked(self, looping: endless, &sceneState) }
        }
    }

    /// Plays a streaming source `tempo` times faster with its pitch kept (nil: as it is), from
    /// where it is now: a playing stream requeues from its position (as a seek does).
    func setStreamTempo(_ tempo: Double?) {
        let queued: Bool = locked { s, _, _ in
            guard let stream = s.audioStream, stream.feed.setTempo(tempo) else { return false }
            return s.name != nil && stream.hasQueued
        }
        if queued { try? seek(to: offset) }
    }

    /// Scales a streaming source's channels by `gains` (one per channel; nil: 1 each) as they are
    /// decoded, from where it is now: a playing stream requeues from its position (as a seek does).
    func setStreamChannelGains(_ gains: [Float]?) {
        let queued: Bool = locked { s, _, _ in
            guard let stream = s.audioStream, stream.feed.setChannelGains(gains) else { return false }
            return s.name != nil && stream.hasQueued
        }
        if queued { try? seek(to: offset) }
    }

    public var isLooping: Bool {
        get { locked { s, _, _ in s.audioStream?.loops ?? s.properties.looping } }
        set {
            locked { s, sceneState, lock in
                if let stream = s.audioStream {
                    // A stream loops in its decoder (between its loop points), never in OpenAL.
                    guard scene.refusals.admits(!newValue || stream.feed.isSeekable, "Source.isLooping", newValue,
                                                "false for audio read from a pipe (it plays once)") else { return }
                    stream.loops = newValue
                    if s.name != nil { scene.markActiveLocked(self, looping: newValue, &sceneState) }
                    return
                }
                s.properties.looping = newValue
                guard let name = s.name else { return }
                scene.markActiveLocked(self, looping: newValue, &sceneState)
                lock.ifOpen { al in SourceParameter.looping.write(name, s.properties, al) }
            }
        }
    }

    /// Reads a property under the scene's lock (no voice-table sync: nothing changes).
    func read<T>(_ get: (Properties) -> T) -> T {
        scene.withState { _, _ in get(state.properties) }
    }

    /// Changes a property and, while the source holds an OpenAL source, writes `parameter` (its
    /// entry in the table of ``SourceParameter``s).
    ///
    /// On a device whose mix the engine renders (loopback, desktop output) nothing reaches OpenAL
    /// until the next mix, so the write waits for it: the render thread writes every property set
    /// since the last mix just before mixing (``Scene/writeUnwrittenProperties()``), with one error
    /// read for them all, and the game's thread only takes the lock and notes the change. On an
    /// OpenAL output (which mixes on its own thread, at any moment) the write is made at once.
    @inline(__always)
    func set(_ change: (inout Properties) -> Void, _ parameter: SourceParameter) {
        locked { s, sceneState, lock in
            change(&s.properties)
            // A name exists only while the scene is open: close() clears it under this lock.
            guard let name = s.name else { return }
            if scene.writesPropertiesAtMix {
                if sceneState.active.noteUnwritten(self, parameter.bit) { scene.device.hasUnwrittenProperties.store(true, ordering: .relaxed) }
            } else {
                lock.ifOpen { al in parameter.write(name, s.properties, al) }
            }
        }
    }

    /// Changes a property that spans several OpenAL parameters (the cone).
    func set(_ change: (inout Properties) -> Void, _ parameters: [SourceParameter]) {
        locked { s, sceneState, lock in
            change(&s.properties)
            guard let name = s.name else { return }
            if scene.writesPropertiesAtMix {
                let bits = parameters.reduce(UInt16(0)) { $0 | $1.bit }
                if sceneState.active.noteUnwritten(self, bits) { scene.device.hasUnwrittenProperties.store(true, ordering: .relaxed) }
            } else {
                lock.ifOpen { al in for parameter in parameters { parameter.write(name, s.properties, al) } }
            }
        }
    }

    /// Writes what the groups and the fade change (gain and pitch) to an OpenAL source.
    static func applyGroupFactors(_ n: ALName, _ p: Properties, _ al: borrowing ALCalls) {
        for parameter in SourceParameter.groupFactors { parameter.write(n, p, al) }
    }

    /// Writes every property to a (reused, or migrated) OpenAL source.
    static func applyAll(_ n: ALName, _ p: Properties, _ al: borrowing ALCalls) {
        for parameter in SourceParameter.allCases { parameter.write(n, p, al) }
    }

    /// The properties as OpenAL reports them now (nil without an OpenAL source): for tests that
    /// prove a migration restored everything. Gain and pitch read back as OpenAL's, with the
    /// groups' factors in them.
    var openALProperties: (properties: Properties, offset: Double, state: State)? {
        locked { s, _, lock -> (Properties, Double, State)? in
            guard let n = s.name else { return nil }
            var result: (Properties, Double, State)?
            lock.ifOpen { al in
                // What waits for the next mix is written first (again at the mix: the same values).
                let waiting = unwrittenParameters
                if waiting != 0 { al.must("alSource* (the properties set since the last mix)") { SourceParameter.send(waiting, to: n, s.properties) } }
                var p = Properties()
                for parameter in SourceParameter.allCases { parameter.read(n, &p, al) }
                let state = al.state(of: n)
                result = (p, al.secondsOffset(n), state == .playing ? .playing : (state == .paused ? .paused : .stopped))
            }
            return result
        }
    }

    /// A copy of the mirrored properties (tests and migration).
    var snapshot: Properties { read { $0 } }
}
