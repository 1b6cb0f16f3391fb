#if canImport(Glibc)
import Glibc
#endif

// A source's filters and reverb sends.
extension Source {
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
    func setEffects(_ change: (inout SourceState) -> Void) {
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
}
