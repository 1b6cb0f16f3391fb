import COpenAL
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
    }

    struct SourceState {
        var properties = Properties()
        var buffer: Buffer?
        var repeatCount = 0
        /// The OpenAL source while playing or paused (only while the scene is open).
        var name: ALuint?
        var playback = State.initial
        /// Where the next play starts, in seconds.
        var pendingOffset: Double?
        var completionHandler: (@Sendable (Source) -> Void)?
        var group: SoundGroup?
        /// The file a streaming source plays (instead of a buffer).
        var audioStream: AudioStream?
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
        /// Whether what it plays is mono (positioned in 3D); kept with the buffer or stream.
        var spatialized = true
        var streams: [Int: AsyncStream<Void>.Continuation] = [:]
        var nextStreamID = 0
        /// Send levels to particular reverb zones, overriding `properties.reverbSend`.
        var zoneSends: [ObjectIdentifier: Float] = [:]
        /// Its row in the scene's ``VoiceTable`` (−1: none).
        var voiceRow = -1
        /// Where its meter has counted to (``isMeteringEnabled``).
        var metering = MeteringState()
    }

    /// The scene the source belongs to; kept alive by the source.
    public let scene: Scene
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
    private func locked<R, E: Error>(_ body: (inout SourceState, inout Scene.SceneState, borrowing ContextLock) throws(E) -> R) throws(E) -> R {
        try scene.withState { sceneState, lock throws(E) -> R in
            // Whatever the body changed, the voice manager's row follows (even when it throws).
            defer { if sceneState.voices != nil { Self.syncVoice(self, &state, &sceneState) } }
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

    private static func syncVoice(_ source: Source, _ s: inout SourceState, _ sceneState: inout Scene.SceneState) {
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
                defer { s.buffer = newValue; s.spatialized = (newValue?.channels ?? 1) == 1 }
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
            set({ $0.position = newValue }) { n, al in al.must("alSource3f(AL_POSITION)") { alSource3f(n, AL_POSITION, newValue.x, newValue.y, newValue.z) } }
        }
    }

    /// Velocity in units per second (`AL_VELOCITY`), used only for Doppler.
    public var velocity: Vector3 {
        get { read { $0.velocity } }
        set {
            guard scene.refusals.admits(newValue.isUsablePosition, "Source.velocity", newValue, Vector3.positionRule) else { return }
            set({ $0.velocity = newValue }) { n, al in al.must("alSource3f(AL_VELOCITY)") { alSource3f(n, AL_VELOCITY, newValue.x, newValue.y, newValue.z) } }
        }
    }

    /// The direction the source faces (`AL_DIRECTION`); zero (the default) means omnidirectional.
    public var direction: Vector3 {
        get { read { $0.direction } }
        set {
            guard scene.refusals.admits(newValue.isUsablePosition, "Source.direction", newValue, Vector3.positionRule) else { return }
            set({ $0.direction = newValue }) { n, al in al.must("alSource3f(AL_DIRECTION)") { alSource3f(n, AL_DIRECTION, newValue.x, newValue.y, newValue.z) } }
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
            set({ $0.cone = newValue }) { n, al in Self.applyCone(n, newValue, al) }
        }
    }

    /// Whether position, velocity and direction are relative to the listener (`AL_SOURCE_RELATIVE`).
    public var isHeadRelative: Bool {
        get { read { $0.headRelative } }
        set { set({ $0.headRelative = newValue }) { n, al in al.must("alSourcei(AL_SOURCE_RELATIVE)") { alSourcei(n, AL_SOURCE_RELATIVE, newValue ? AL_TRUE : AL_FALSE) } } }
    }

    /// Distance at which the gain is 1 before rolloff (`AL_REFERENCE_DISTANCE`); ≥ 0, default 1.
    public var referenceDistance: Float {
        get { read { $0.referenceDistance } }
        set {
            guard scene.refusals.admits(newValue.isFinite && newValue >= 0, "Source.referenceDistance", newValue, "finite and >= 0") else { return }
            set({ $0.referenceDistance = newValue }) { n, al in al.must("alSourcef(AL_REFERENCE_DISTANCE)") { alSourcef(n, AL_REFERENCE_DISTANCE, newValue) } }
        }
    }

    /// Distance beyond which the clamped models stop attenuating (`AL_MAX_DISTANCE`); ≥ 0.
    public var maxDistance: Float {
        get { read { $0.maxDistance } }
        set {
            guard scene.refusals.admits(!newValue.isNaN && newValue >= 0, "Source.maxDistance", newValue, ">= 0 (infinity: no limit)") else { return }
            set({ $0.maxDistance = newValue }) { n, al in al.must("alSourcef(AL_MAX_DISTANCE)") { alSourcef(n, AL_MAX_DISTANCE, newValue) } }
        }
    }

    /// How fast the gain falls with distance (`AL_ROLLOFF_FACTOR`); ≥ 0, default 1.
    public var rolloffFactor: Float {
        get { read { $0.rolloffFactor } }
        set {
            guard scene.refusals.admits(newValue.isFinite && newValue >= 0, "Source.rolloffFactor", newValue, "finite and >= 0") else { return }
            set({ $0.rolloffFactor = newValue }) { n, al in al.must("alSourcef(AL_ROLLOFF_FACTOR)") { alSourcef(n, AL_ROLLOFF_FACTOR, newValue) } }
        }
    }

    // MARK: Level and pitch

    /// Gain (`AL_GAIN`); linear, ≥ 0, default 1. 0.5 halves the amplitude.
    public var gain: Float {
        get { read { $0.gain } }
        set {
            guard scene.refusals.admits(newValue.isFinite && newValue >= 0, "Source.gain", newValue, "finite and >= 0") else { return }
            set({ $0.gain = newValue }) { n, al in al.must("alSourcef(AL_GAIN)") { alSourcef(n, AL_GAIN, state.properties.openALGain) } }
        }
    }

    /// Lowest gain after distance attenuation (`AL_MIN_GAIN`), 0...1.
    public var minGain: Float {
        get { read { $0.minGain } }
        set {
            guard scene.refusals.admits((0...1).contains(newValue), "Source.minGain", newValue, "in 0...1") else { return }
            set({ $0.minGain = newValue }) { n, al in al.must("alSourcef(AL_MIN_GAIN)") { alSourcef(n, AL_MIN_GAIN, newValue) } }
        }
    }

    /// Highest gain after distance attenuation (`AL_MAX_GAIN`), 0...1.
    public var maxGain: Float {
        get { read { $0.maxGain } }
        set {
            guard scene.refusals.admits((0...1).contains(newValue), "Source.maxGain", newValue, "in 0...1") else { return }
            set({ $0.maxGain = newValue }) { n, al in al.must("alSourcef(AL_MAX_GAIN)") { alSourcef(n, AL_MAX_GAIN, newValue) } }
        }
    }

    /// Playback-rate multiplier (`AL_PITCH`); > 0, default 1. 2.0 doubles the frequency.
    public var pitch: Float {
        get { read { $0.pitch } }
        set {
            guard scene.refusals.admits(newValue.isFinite && newValue > 0, "Source.pitch", newValue, "finite and > 0") else { return }
            set({ $0.pitch = newValue }) { n, al in al.must("alSourcef(AL_PITCH)") { alSourcef(n, AL_PITCH, newValue * state.properties.groupPitch) } }
        }
    }

    /// Whether the buffer loops forever (`AL_LOOPING`). A looping source never completes.
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
                lock.ifOpen { al in al.must("alSourcei(AL_LOOPING)") { alSourcei(name, AL_LOOPING, newValue ? AL_TRUE : AL_FALSE) } }
            }
        }
    }

    // MARK: Audibility

    /// How loud the source reaches the listener now, as a linear gain, computed the way OpenAL
    /// does: ``gain`` × its groups × its fade level × the scene's distance model at its distance
    /// (with its reference distance, rolloff and max distance) × its cone, clamped to
    /// ``minGain``…``maxGain``, × the listener's gain. Unspatialized (multi-channel) sources skip
    /// distance and cone. The ranking a voice manager needs; it reads no OpenAL state.
    public var audibility: Float {
        locked { s, sceneState, _ in
            Self.audibility(s.properties, spatialized: s.spatialized, sceneState.distanceModel, scene.listener.propertiesLocked)
        }
    }

    /// ``audibility`` with the scene's lock held.
    func audibilityLocked(_ model: DistanceModel, _ listener: Listener.Properties) -> Float {
        Self.audibility(state.properties, spatialized: state.spatialized, model, listener)
    }


    /// The voice manager's ranking key (scene lock held): priority first, then audibility.
    func rankKeyLocked(_ model: DistanceModel, _ listener: Listener.Properties) -> Double {
        Self.rankKey(priority: state.priority, state.properties, spatialized: state.spatialized, model, listener)
    }

    static func rankKey(priority: Int, _ p: Properties, spatialized: Bool, _ model: DistanceModel,
                        _ listener: Listener.Properties) -> Double {
        rankKey(priority: Double(priority), audibility: audibility(p, spatialized: spatialized, model, listener))
    }

    /// Priority first (each step outweighs any audibility), then audibility.
    @inline(__always)
    static func rankKey(priority: Double, audibility: Float) -> Double {
        priority * 1_024 + Double(min(audibility, 1_000))
    }

    static func audibility(_ p: Properties, spatialized: Bool, _ model: DistanceModel,
                           _ listener: Listener.Properties) -> Float {
        guard spatialized else {
            return audibility(level: p.openALGain, distance: nil, reference: 0, maxDistance: 0, rolloff: 0, coneFactor: 1,
                              minGain: p.minGain, maxGain: p.maxGain, model: model, listenerGain: listener.gain * listener.duck)
        }
        let relative = p.headRelative ? p.position : p.position - listener.position
        let distance = relative.length
        return audibility(level: p.openALGain, distance: distance, reference: p.referenceDistance, maxDistance: p.maxDistance,
                          rolloff: p.rolloffFactor, coneFactor: coneFactor(p, relative: relative, distance: distance),
                          minGain: p.minGain, maxGain: p.maxGain, model: model, listenerGain: listener.gain * listener.duck)
    }

    /// The formula on plain values: `level` × the distance model at `distance` (nil: not
    /// spatialized) × the cone, clamped to minGain…maxGain, × the listener's gain.
    @inline(__always)
    static func audibility(level: Float, distance: Float?, reference: Float, maxDistance: Float, rolloff: Float,
                           coneFactor: Float, minGain: Float, maxGain: Float, model: DistanceModel, listenerGain: Float) -> Float {
        var level = level
        if let distance {
            level *= model.gain(distance: distance, referenceDistance: reference, maxDistance: maxDistance, rolloff: rolloff) * coneFactor
        }
        return min(max(level, minGain), maxGain) * listenerGain
    }

    /// Whether the source's cone can change its level (a direction and an inner angle under 360°).
    static func hasCone(_ p: Properties) -> Bool { p.direction.length > 0 && p.cone.innerAngle < 360 }

    /// The cone's gain for a listener at `relative` (from the source's view, negated) and `distance`.
    private static func coneFactor(_ p: Properties, relative: Vector3, distance: Float) -> Float {
        let directionLength = p.direction.length
        guard directionLength > 0, distance > 0, p.cone.innerAngle < 360 else { return 1 }
        let cosine = max(-1, min(1, p.direction.dot(relative * (-1 / distance)) / directionLength))
        let angle = 2 * acosf(cosine) * 180 / .pi
        if angle >= p.cone.outerAngle { return p.cone.outerGain }
        if angle > p.cone.innerAngle {
            let t = (angle - p.cone.innerAngle) / (p.cone.outerAngle - p.cone.innerAngle)
            return 1 + (p.cone.outerGain - 1) * t
        }
        return 1
    }

    /// Distance to the listener (scene lock held).
    func distanceLocked(_ listener: Listener.Properties) -> Float {
        state.properties.headRelative ? state.properties.position.length : (state.properties.position - listener.position).length
    }

    // MARK: Effects

    /// How much a wall between the source and the listener muffles it, in dB at high frequencies
    /// (−100…0, default 0): a low-pass on both the direct sound and its reverb sends, as
    /// `AVAudio3DMixing.occlusion` does. −12 lowers the energy above 5 kHz by about 12 dB (the
    /// shelf is −6 dB at 5 kHz and reaches −12 dB from about 10 kHz up); low frequencies pass.
    public var occlusion: Float {
        get { read { $0.occlusion } }
        set {
            guard scene.refusals.admits((-100...0).contains(newValue), "Source.occlusion", newValue, "in -100...0 dB") else { return }
            setEffects { $0.properties.occlusion = newValue }
        }
    }

    /// How much something between the source and the listener (not the room) muffles the direct
    /// sound only, in dB at high frequencies (−100…0, default 0); the reverb it sends is untouched,
    /// as `AVAudio3DMixing.obstruction` does.
    public var obstruction: Float {
        get { read { $0.obstruction } }
        set {
            guard scene.refusals.admits((-100...0).contains(newValue), "Source.obstruction", newValue, "in -100...0 dB") else { return }
            setEffects { $0.properties.obstruction = newValue }
        }
    }

    /// How strongly air absorbs its high frequencies with distance (`AL_AIR_ABSORPTION_FACTOR`,
    /// 0…10, default 0): 1 is the real atmosphere, about −0.05 dB per metre at 5 kHz.
    public var airAbsorption: Float {
        get { read { $0.airAbsorption } }
        set {
            guard scene.refusals.admits((0...10).contains(newValue), "Source.airAbsorption", newValue, "in 0...10") else { return }
            setEffects { $0.properties.airAbsorption = newValue }
        }
    }

    /// The level the source sends to the scene's reverb zones, 0…1 (default 1); a zone-specific
    /// level set with ``setReverbSend(_:to:)`` overrides it. 0 keeps the source dry.
    public var reverbSend: Float {
        get { read { $0.reverbSend } }
        set {
            guard scene.refusals.admits((0...1).contains(newValue), "Source.reverbSend", newValue, "in 0...1") else { return }
            setEffects { $0.properties.reverbSend = newValue }
        }
    }

    /// The level the source sends to `zone`.
    public func reverbSend(to zone: ReverbZone) -> Float {
        locked { s, _, _ in s.zoneSends[ObjectIdentifier(zone)] ?? s.properties.reverbSend }
    }

    /// Sets the level the source sends to one zone, 0…1; nil goes back to ``reverbSend``.
    public func setReverbSend(_ level: Float?, to zone: ReverbZone) {
        guard scene.refusals.admits(zone.scene === scene, "Source.setReverbSend(to:)", zone.name, "a zone of this scene"),
              scene.refusals.admits(level.map { (0...1).contains($0) } ?? true, "Source.setReverbSend", level ?? 0, "in 0...1 or nil")
        else { return }
        setEffects { $0.zoneSends[ObjectIdentifier(zone)] = level }
    }

    /// Changes EFX settings and gives the OpenAL source (if it has one) its filters and sends.
    private func setEffects(_ change: (inout SourceState) -> Void) {
        locked { s, sceneState, lock in
            change(&s)
            lock.ifOpen { al in
                guard (try? scene.enableEffectsLocked(&sceneState, al)) != nil, let name = s.name else { return }
                Self.applyEffects(name, s.properties, s.zoneSends, sceneState.effects, al)
            }
        }
    }

    /// Re-applies filters and sends (scene lock held), e.g. when a zone appears.
    func applyEffectsLocked(_ sceneState: Scene.SceneState, _ al: borrowing ALCalls) {
        guard let name = state.name else { return }
        Self.applyEffects(name, state.properties, state.zoneSends, sceneState.effects, al)
    }

    /// The EFX low-pass `GAINHF` that lowers high frequencies by `decibels`. OpenAL Soft's
    /// low-pass is a high shelf whose `GAINHF` is the gain at its 5 kHz reference: the shelf keeps
    /// falling to `GAINHF²` above it. So `GAINHF` is the square root of the wanted gain: the
    /// energy above 5 kHz drops by about `decibels` (by half of it at 5 kHz itself).
    static func shelfGain(decibels: Float) -> Float {
        min(1, max(0, powf(10, decibels / 40)))
    }

    /// Sets the direct low-pass (occlusion + obstruction), air absorption and a send to every
    /// zone (level, low-passed by occlusion) on `n`. Nothing while the scene uses no effects.
    static func applyEffects(_ n: ALuint, _ p: Properties, _ sends: [ObjectIdentifier: Float], _ fx: SceneEffects,
                             _ al: borrowing ALCalls) {
        guard fx.inUse else { return }
        let filter = fx.filter
        let filterID = ALint(bitPattern: filter)
        let dryHF = shelfGain(decibels: p.occlusion + p.obstruction)
        al.must("alFilterf(AL_LOWPASS_GAIN)") { alFilterf(filter, AL_LOWPASS_GAIN, 1) }
        al.must("alFilterf(AL_LOWPASS_GAINHF)") { alFilterf(filter, AL_LOWPASS_GAINHF, dryHF) }
        al.must("alSourcei(AL_DIRECT_FILTER)") { alSourcei(n, AL_DIRECT_FILTER, filterID) }
        al.must("alSourcef(AL_AIR_ABSORPTION_FACTOR)") { alSourcef(n, AL_AIR_ABSORPTION_FACTOR, p.airAbsorption) }
        let wetHF = shelfGain(decibels: p.occlusion)
        for index in 0..<fx.sendCount {
            if index < fx.zones.count, let zone = fx.zones[index] {
                let level = sends[ObjectIdentifier(zone)] ?? p.reverbSend
                al.must("alFilterf(AL_LOWPASS_GAIN)") { alFilterf(filter, AL_LOWPASS_GAIN, level) }
                al.must("alFilterf(AL_LOWPASS_GAINHF)") { alFilterf(filter, AL_LOWPASS_GAINHF, wetHF) }
                al.must("alSource3i(AL_AUXILIARY_SEND_FILTER)") {
                    alSource3i(n, AL_AUXILIARY_SEND_FILTER, ALint(bitPattern: zone.state.slot), ALint(index), filterID)
                }
            } else {
                al.must("alSource3i(AL_AUXILIARY_SEND_FILTER)") {
                    alSource3i(n, AL_AUXILIARY_SEND_FILTER, ALint(AL_EFFECTSLOT_NULL), ALint(index), ALint(AL_FILTER_NULL))
                }
            }
        }
    }

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
    private static func clockRate(_ p: Properties) -> Double { Double(p.pitch * p.groupPitch) }

    /// The sound's length in seconds (infinite when looping).
    private static func length(_ p: Properties, buffer: Buffer?, repeats: Int) -> Double {
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
        var offset: ALdouble = 0
        al.must("alGetSourcedSOFT(AL_SEC_OFFSET)") { alGetSourcedSOFT(name, AL_SEC_OFFSET, &offset) }
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

    private func refreshGroupFactorsLocked(_ s: inout SourceState, _ lock: borrowing ContextLock) {
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
            lock.ifOpen { al in al.must("alSourcePause") { alSourcePause(name) } }
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
        return true
    }

    var isVirtualLocked: Bool { state.virtualClock != nil }

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
            let name: ALuint
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
                        al.must("alSourcei(AL_BUFFER)") { alSourcei(name, AL_BUFFER, ALint(bitPattern: s.buffer!.id)) }
                    } else {
                        var queue = [ALuint](repeating: s.buffer!.id, count: repeats + 1)
                        try al.call("alSourceQueueBuffers") { alSourceQueueBuffers(name, ALsizei(queue.count), &queue) }
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
                try al.call("alSourcePlay") { alSourcePlay(name) }
            }
            s.playback = .playing
            s.pendingOffset = nil
            // A paused group holds what starts in it until it resumes.
            if let holder = s.group?.pausingGroupLocked {
                sceneState.pendingPlays.removeAll { $0 == name }
                al.must("alSourcePause") { alSourcePause(name) }
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
            lock.ifOpen { al in al.must("alSourcePause") { alSourcePause(name) } }
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

    /// Moves the play position to `seconds` (to the nearest frame). On a stopped or initial source
    /// the next ``play()`` starts there.
    ///
    /// - Throws: `.invalidArgument` when `seconds` is outside the buffer (or the repeat queue).
    public func seek(to seconds: Double) throws {
        try locked { s, _, lock throws(SoundstageError) in
            let length = s.audioStream?.duration ?? (s.buffer?.duration ?? 0) * Double(s.properties.looping ? 1 : s.repeatCount + 1)
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
                al.must("alSourceStop") { alSourceStop(name) }
                al.must("alSourcei(AL_BUFFER)") { alSourcei(name, AL_BUFFER, 0) }
                try stream.start(name, at: Int64((seconds * Double(stream.sampleRate)).rounded()), al)
                // The decoder seeks on its own thread; a playing stream plays on once a chunk is queued.
                stream.startsWhenReady = wasPlaying
            } else if let name = s.name, let buffer = s.buffer {
                let al = try lock.current()
                // What is queued now: repeatCount may have changed since play() built the queue.
                var queued: ALint = 1
                try al.call("alGetSourcei(AL_BUFFERS_QUEUED)") { alGetSourcei(name, AL_BUFFERS_QUEUED, &queued) }
                let repeats = s.properties.looping ? 0 : max(0, Int(queued) - 1)
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
            var value: ALfloat = 0
            if let stream = s.audioStream {
                var frame: Int64 = 0
                lock.ifOpen { al in frame = stream.playbackFrame(name, al) }
                return Double(frame) / Double(stream.sampleRate)
            }
            lock.ifOpen { al in al.must("alGetSourcef(AL_SEC_OFFSET)") { alGetSourcef(name, AL_SEC_OFFSET, &value) } }
            return Double(value)
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
            var value: ALint = 0
            lock.ifOpen { al in al.must("alGetSourcei(AL_SOURCE_STATE)") { alGetSourcei(name, AL_SOURCE_STATE, &value) } }
            switch value {
            case AL_PLAYING: return .playing
            case AL_PAUSED: return .paused
            case AL_INITIAL: return s.playback == .paused ? .paused : .initial   // paused before its first chunk
            default: return .stopped
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

    // MARK: Internals (scene lock held)

    /// Whether the source was playing and OpenAL now reports it stopped by itself.
    func hasEndedLocked(_ al: borrowing ALCalls) -> Bool {
        guard let name = state.name, state.playback == .playing, state.audioStream == nil else { return false }
        var value: ALint = 0
        al.must("alGetSourcei(AL_SOURCE_STATE)") { alGetSourcei(name, AL_SOURCE_STATE, &value) }
        return value == AL_STOPPED
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
    private func completionWorkLocked() -> () -> Void {
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
        var value: ALint = 0
        al.must("alGetSourcei(AL_SOURCE_STATE)") { alGetSourcei(name, AL_SOURCE_STATE, &value) }
        guard value == AL_PLAYING else { return false }
        al.must("alSourcePause") { alSourcePause(name) }
        state.playback = .paused
        return true
    }

    /// Plays the source on from where a suspension paused it, if it is still paused; true if it did.
    func resumeAfterSuspensionLocked(_ al: borrowing ALCalls) -> Bool {
        guard let name = state.name, state.playback == .paused else { return false }
        playOrAwaitLocked(name, al)
        state.playback = .playing
        return true
    }

    /// Plays `name` on (`alSourcePlay`); a stream with nothing queued yet — its decoder still
    /// busy after a start or seek — is started by the update once its first chunk is queued.
    private func playOrAwaitLocked(_ name: ALuint, _ al: borrowing ALCalls) {
        if let stream = state.audioStream, !stream.hasQueued {
            stream.startsWhenReady = true
        } else {
            al.must("alSourcePlay") { alSourcePlay(name) }
        }
    }

    /// Before a migration: the offset and whether it plays (else it is paused); forgets the
    /// OpenAL source, which the scene deletes. Nil when it holds none.
    /// The OpenAL source it holds (scene lock held).
    var nameLocked: ALuint? { state.name }

    /// Notes the offset OpenAL reports now, if OpenAL says it plays or is paused (scene lock
    /// held; OpenAL outputs, every update). OpenAL Soft 1.19 stops every source at offset 0 when
    /// its output dies, some milliseconds before `ALC_CONNECTED` reads 0: such a reading is no note.
    func noteOffsetLocked(_ al: borrowing ALCalls, now: Double) -> (offset: Double, time: Double)? {
        guard let name = state.name, state.audioStream == nil else { return nil }
        var offset: ALdouble = 0
        var value: ALint = 0
        al.must("alGetSourcedSOFT(AL_SEC_OFFSET)") { alGetSourcedSOFT(name, AL_SEC_OFFSET, &offset) }
        al.must("alGetSourcei(AL_SOURCE_STATE)") { alGetSourcei(name, AL_SOURCE_STATE, &value) }
        guard value == AL_PLAYING || value == AL_PAUSED else { return nil }
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
        var offset: ALdouble = 0
        var value: ALint = 0
        al.must("alGetSourcedSOFT(AL_SEC_OFFSET)") { alGetSourcedSOFT(name, AL_SEC_OFFSET, &offset) }
        al.must("alGetSourcei(AL_SOURCE_STATE)") { alGetSourcei(name, AL_SOURCE_STATE, &value) }
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
            al.must("alSourceStop") { alSourceStop(name) }
            al.must("alSourcei(AL_BUFFER)") { alSourcei(name, AL_BUFFER, 0) }
            stream.release(al)
        }
        state.name = nil
        guard value == AL_PLAYING || value == AL_PAUSED || pendingInBatch else {
            state.playback = .stopped     // it ended just before the move
            return nil
        }
        return (Double(offset), value == AL_PLAYING || pendingInBatch)
    }

    /// After a migration: sets up `name` on the new context exactly as before and plays (or
    /// pauses) it at `offset`.
    func restoreLocked(_ name: ALuint, offset: Double, playing: Bool, startWithBatch: Bool,
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
            al.must("alSourcei(AL_BUFFER)") { alSourcei(name, AL_BUFFER, ALint(bitPattern: buffer.id)) }
        } else {
            var queue = [ALuint](repeating: buffer.id, count: repeats + 1)
            try al.call("alSourceQueueBuffers") { alSourceQueueBuffers(name, ALsizei(queue.count), &queue) }
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
    static func setOffset(_ name: ALuint, seconds: Double, buffer: Buffer, repeats: Int, pitch: Float,
                          _ al: borrowing ALCalls) throws(SoundstageError) {
        let last = Double(max(0, buffer.frames * (repeats + 1) - 1))
        let frames = min(max(0, seconds * Double(buffer.sampleRate)), last)
        if pitch == 1 {
            try al.call("alSourcei(AL_SAMPLE_OFFSET)") { alSourcei(name, AL_SAMPLE_OFFSET, ALint(clamping: Int(frames.rounded()))) }
        } else {
            try al.call("alSourcedSOFT(AL_SAMPLE_OFFSET)") { alSourcedSOFT(name, AL_SAMPLE_OFFSET, frames) }
        }
    }

    /// Starts a restored source (then pauses it if it was paused), or leaves its start to the open batch.
    private static func startRestored(_ name: ALuint, playing: Bool, withBatch: Bool, _ sceneState: inout Scene.SceneState,
                                      _ al: borrowing ALCalls) {
        if withBatch {
            sceneState.pendingPlays.append(name)
            return
        }
        al.must("alSourcePlay") { alSourcePlay(name) }
        if !playing { al.must("alSourcePause") { alSourcePause(name) } }
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

    private func releaseNameLocked(_ s: inout SourceState, _ sceneState: inout Scene.SceneState,
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

    /// Reads a property under the scene's lock (no voice-table sync: nothing changes).
    private func read<T>(_ get: (Properties) -> T) -> T {
        scene.withState { _, _ in get(state.properties) }
    }

    @inline(__always)
    private func set(_ change: (inout Properties) -> Void, _ call: (ALuint, borrowing ALCalls) -> Void) {
        locked { s, _, lock in
            change(&s.properties)
            // A name exists only while the scene is open: close() clears it under this lock.
            guard let name = s.name else { return }
            lock.ifOpen { al in call(name, al) }
        }
    }

    private static func applyCone(_ n: ALuint, _ cone: Cone, _ al: borrowing ALCalls) {
        al.must("alSourcef(AL_CONE_INNER_ANGLE)") { alSourcef(n, AL_CONE_INNER_ANGLE, cone.innerAngle) }
        al.must("alSourcef(AL_CONE_OUTER_ANGLE)") { alSourcef(n, AL_CONE_OUTER_ANGLE, cone.outerAngle) }
        al.must("alSourcef(AL_CONE_OUTER_GAIN)") { alSourcef(n, AL_CONE_OUTER_GAIN, cone.outerGain) }
    }

    /// Applies every property to a (reused) OpenAL source.
    static func applyGroupFactors(_ n: ALuint, _ p: Properties, _ al: borrowing ALCalls) {
        al.must("alSourcef(AL_GAIN)") { alSourcef(n, AL_GAIN, p.openALGain) }
        al.must("alSourcef(AL_PITCH)") { alSourcef(n, AL_PITCH, p.pitch * p.groupPitch) }
    }

    static func applyAll(_ n: ALuint, _ p: Properties, _ al: borrowing ALCalls) {
        al.must("alSource3f(AL_POSITION)") { alSource3f(n, AL_POSITION, p.position.x, p.position.y, p.position.z) }
        al.must("alSource3f(AL_VELOCITY)") { alSource3f(n, AL_VELOCITY, p.velocity.x, p.velocity.y, p.velocity.z) }
        al.must("alSource3f(AL_DIRECTION)") { alSource3f(n, AL_DIRECTION, p.direction.x, p.direction.y, p.direction.z) }
        applyCone(n, p.cone, al)
        al.must("alSourcef(AL_GAIN)") { alSourcef(n, AL_GAIN, p.openALGain) }
        al.must("alSourcef(AL_MIN_GAIN)") { alSourcef(n, AL_MIN_GAIN, p.minGain) }
        al.must("alSourcef(AL_MAX_GAIN)") { alSourcef(n, AL_MAX_GAIN, p.maxGain) }
        al.must("alSourcef(AL_PITCH)") { alSourcef(n, AL_PITCH, p.pitch * p.groupPitch) }
        al.must("alSourcei(AL_LOOPING)") { alSourcei(n, AL_LOOPING, p.looping ? AL_TRUE : AL_FALSE) }
        al.must("alSourcei(AL_SOURCE_RELATIVE)") { alSourcei(n, AL_SOURCE_RELATIVE, p.headRelative ? AL_TRUE : AL_FALSE) }
        al.must("alSourcef(AL_REFERENCE_DISTANCE)") { alSourcef(n, AL_REFERENCE_DISTANCE, p.referenceDistance) }
        al.must("alSourcef(AL_MAX_DISTANCE)") { alSourcef(n, AL_MAX_DISTANCE, p.maxDistance) }
        al.must("alSourcef(AL_ROLLOFF_FACTOR)") { alSourcef(n, AL_ROLLOFF_FACTOR, p.rolloffFactor) }
    }

    /// The properties as OpenAL reports them now (nil without an OpenAL source): for tests that
    /// prove a migration restored everything.
    var openALProperties: (properties: Properties, offset: Double, state: State)? {
        locked { s, _, lock -> (Properties, Double, State)? in
            guard let n = s.name else { return nil }
            var result: (Properties, Double, State)?
            lock.ifOpen { al in
                var p = Properties()
                var v = [ALfloat](repeating: 0, count: 3)
                var f: ALfloat = 0
                var i: ALint = 0
                alGetSourcefv(n, AL_POSITION, &v); p.position = Vector3(v[0], v[1], v[2])
                alGetSourcefv(n, AL_VELOCITY, &v); p.velocity = Vector3(v[0], v[1], v[2])
                alGetSourcefv(n, AL_DIRECTION, &v); p.direction = Vector3(v[0], v[1], v[2])
                alGetSourcef(n, AL_CONE_INNER_ANGLE, &f); p.cone.innerAngle = f
                alGetSourcef(n, AL_CONE_OUTER_ANGLE, &f); p.cone.outerAngle = f
                alGetSourcef(n, AL_CONE_OUTER_GAIN, &f); p.cone.outerGain = f
                alGetSourcef(n, AL_GAIN, &f); p.gain = f
                alGetSourcef(n, AL_MIN_GAIN, &f); p.minGain = f
                alGetSourcef(n, AL_MAX_GAIN, &f); p.maxGain = f
                alGetSourcef(n, AL_PITCH, &f); p.pitch = f
                alGetSourcei(n, AL_LOOPING, &i); p.looping = i != 0
                alGetSourcei(n, AL_SOURCE_RELATIVE, &i); p.headRelative = i != 0
                alGetSourcef(n, AL_REFERENCE_DISTANCE, &f); p.referenceDistance = f
                alGetSourcef(n, AL_MAX_DISTANCE, &f); p.maxDistance = f
                alGetSourcef(n, AL_ROLLOFF_FACTOR, &f); p.rolloffFactor = f
                alGetSourcef(n, AL_SEC_OFFSET, &f)
                let offset = Double(f)
                alGetSourcei(n, AL_SOURCE_STATE, &i)
                _ = alGetError()
                result = (p, offset, i == AL_PLAYING ? .playing : (i == AL_PAUSED ? .paused : .stopped))
            }
            return result
        }
    }

    /// A copy of the mirrored properties (tests and migration).
    var snapshot: Properties { read { $0 } }
}
