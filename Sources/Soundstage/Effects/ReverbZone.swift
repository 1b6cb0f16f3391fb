
/// Where a reverb zone is heard: the listener inside the region hears the zone's reverb at full
/// level; outside, the level falls in a straight line to 0 over `fade` units.
public enum ReverbRegion: Sendable, Equatable {
    /// Everywhere (a scene-wide reverb).
    case everywhere
    /// A sphere around `center` of `radius` units.
    case sphere(center: Vector3, radius: Float, fade: Float)
    /// An axis-aligned box from `min` to `max`.
    case box(min: Vector3, max: Vector3, fade: Float)

    /// How much of the zone a listener at `position` hears, 0…1.
    public func weight(at position: Vector3) -> Float {
        let outside: Float
        let fade: Float
        switch self {
        case .everywhere:
            return 1
        case let .sphere(center, radius, width):
            outside = max(0, (position - center).length - radius)
            fade = width
        case let .box(low, high, width):
            let dx = max(low.x - position.x, 0, position.x - high.x)
            let dy = max(low.y - position.y, 0, position.y - high.y)
            let dz = max(low.z - position.z, 0, position.z - high.z)
            outside = Vector3(dx, dy, dz).length
            fade = width
        }
        if outside <= 0 { return 1 }
        return fade > 0 ? max(0, 1 - outside / fade) : 0
    }

    /// Nil when the region is valid, otherwise why not.
    package var problem: String? {
        switch self {
        case .everywhere:
            return nil
        case let .sphere(center, radius, fade):
            guard center.isFinite, radius.isFinite, radius >= 0 else { return "a sphere needs a finite center and a radius >= 0" }
            return fade.isFinite && fade >= 0 ? nil : "fade must be finite and >= 0"
        case let .box(low, high, fade):
            guard low.isFinite, high.isFinite, low.x <= high.x, low.y <= high.y, low.z <= high.z else {
                return "a box needs finite corners with min <= max on every axis"
            }
            return fade.isFinite && fade >= 0 ? nil : "fade must be finite and >= 0"
        }
    }
}

/// A reverb zone: an EFX auxiliary effect slot running an EAX reverb (``preset``) that every
/// source of the scene sends to (at its ``Source/reverbSend`` level, or a per-zone level set with
/// ``Source/setReverbSend(_:to:)``). Its level follows the listener: full inside its ``region``,
/// fading to silence outside — so walking into a cave brings in the cave's reverb.
///
/// Create with ``Scene/makeReverbZone(_:preset:region:gain:)``; it lives until ``remove()`` or
/// the scene closes. A scene holds at most ``Scene/maxReverbZones`` zones (the device's auxiliary
/// sends per source).
public final class ReverbZone: @unchecked Sendable {
    // @unchecked: `state` is only touched with the scene's lock held (or once the scene is gone,
    // when nothing changes it any more).

    /// The zone's name, for people (and scene files).
    public let name: String
    /// The scene it belongs to; nil once that scene is gone. (Weak: the scene holds its zones.)
    public var scene: Scene? { owner }
    private weak var owner: Scene?

    struct ZoneState {
        var preset: ReverbPreset
        var gain: Float
        var region: ReverbRegion
        /// The auxiliary send index every source uses for this zone.
        var sendIndex: Int
        /// The effect slot (0 once removed or the scene is closed).
        var slot: ALName = 0
        /// The slot gain OpenAL has (gain × weight), to skip unchanged updates.
        var appliedGain: Float = -1
        var removed = false
    }

    var state: ZoneState

    init(name: String, scene: Scene, preset: ReverbPreset, region: ReverbRegion, gain: Float, sendIndex: Int) {
        self.name = name
        owner = scene
        state = ZoneState(preset: preset, gain: gain, region: region, sendIndex: sendIndex)
    }

    /// Reads the state under the scene's lock (directly once the scene is gone).
    private func read<T>(_ get: (ZoneState) -> T) -> T {
        guard let owner else { return get(state) }
        return owner.withState { _, _ in get(state) }
    }

    /// Changes the zone under its scene's lock, with the context current.
    private func change(_ body: (inout ZoneState, _ effect: ALName, borrowing ALCalls) throws(SoundstageError) -> Void)
        throws(SoundstageError) {
        guard let owner else { throw SoundstageError(.released, "the reverb zone '\(name)' outlived its scene") }
        try owner.changeZone(self, body)
    }

    /// The reverb's settings. Setting one reloads the effect (sources keep their sends).
    /// - Throws: `.invalidArgument` naming a value outside the EFX range (the old preset stays);
    ///   `.released` once the zone is removed or its scene closed.
    public func setPreset(_ preset: ReverbPreset) throws {
        try change { state, effect, al throws(SoundstageError) in
            try Scene.loadPresetLocked(preset, effect: effect, into: state.slot, al)
            state.preset = preset
        }
    }

    /// The reverb's settings.
    public var preset: ReverbPreset { read { $0.preset } }

    /// The zone's level (the slot's gain) where it is heard fully, 0…1 (default 1). Setting it on a
    /// removed zone does nothing.
    public var gain: Float {
        get { read { $0.gain } }
        set {
            guard owner?.refusals.admits((0...1).contains(newValue), "ReverbZone.gain", newValue, "in 0...1") ?? (0...1).contains(newValue) else { return }
            try? change { state, _, _ in state.gain = newValue }
        }
    }

    /// Where the listener hears the zone. Setting it on a removed zone does nothing.
    public var region: ReverbRegion {
        get { read { $0.region } }
        set {
            guard owner?.refusals.admits(newValue.problem == nil, "ReverbZone.region", newValue.problem ?? "", "a valid region") ?? (newValue.problem == nil) else { return }
            try? change { state, _, _ in state.region = newValue }
        }
    }

    /// How much of the zone the listener hears where it is now, 0…1 (``region``'s weight; 0 once
    /// the scene is gone).
    public var weight: Float {
        guard let owner else { return 0 }
        return owner.withState { _, _ in state.region.weight(at: owner.listener.propertiesLocked.position) }
    }

    /// Whether ``remove()`` has run (or the scene closed).
    public var isRemoved: Bool { read { $0.removed } }

    /// Takes the zone out of the scene: every source stops sending to it and its effect slot is
    /// freed. Reverb already in the slot ends at once. Idempotent.
    public func remove() {
        owner?.removeZone(self)
    }
}
