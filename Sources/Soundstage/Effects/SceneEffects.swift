
/// A scene's EFX objects: reverb zones (one auxiliary effect slot each, all sources sending to
/// them), one EAX reverb effect and one low-pass filter used as scratch objects — OpenAL Soft
/// copies an effect's settings into a slot, and a filter's into a source, when they are attached,
/// so one of each serves every zone and source.
struct SceneEffects {
    /// Whether the scene's sources get filters and sends (set once a zone exists or a source is
    /// occluded, obstructed or absorbs air). Until then no source touches EFX at all.
    var inUse = false
    /// Whether the device has ALC_EXT_EFX (looked up once).
    var available: Bool?
    var filter: ALName = 0
    var effect: ALName = 0
    /// The zones, by auxiliary send index (nil: a free send).
    var zones: [ReverbZone?] = []
    /// Slots of removed zones, parked for the next zone (see ``ALCalls/parkEffectSlot(_:)``).
    var spareSlots: [ALName] = []
    /// Auxiliary sends per source on this device.
    var sendCount = 0

    /// EFX objects alive: (effect slots, effects, filters).
    var objectCounts: (slots: Int, effects: Int, filters: Int) {
        (zones.count(where: { $0 != nil }) + spareSlots.count, effect != 0 ? 1 : 0, filter != 0 ? 1 : 0)
    }
}

extension Scene {
    /// How many reverb zones the scene may hold at once: the device's auxiliary sends per source
    /// (Soundstage asks OpenAL Soft for 4).
    public var maxReverbZones: Int {
        withState { state, lock in lock.isOpen ? sendCountLocked(&state) : 0 }
    }

    /// The device's auxiliary sends per source (0 without ALC_EXT_EFX); creates nothing.
    private func sendCountLocked(_ state: inout SceneState) -> Int {
        if state.effects.inUse { return state.effects.sendCount }
        let (available, sends) = device.effectSends
        state.effects.available = available
        return sends
    }

    /// The scene's reverb zones, in creation order of their sends.
    public var reverbZones: [ReverbZone] { withState { state, _ in state.effects.zones.compactMap { $0 } } }

    /// Adds a reverb zone running `preset`, heard by the listener within `region`, that every
    /// source sends to (playing ones from now on). E.g. a cave around the cave's mouth:
    ///
    /// ```swift
    /// let cave = try scene.makeReverbZone("cave", preset: .cave,
    ///                                     region: .sphere(center: Vector3(0, 0, -40), radius: 25, fade: 5))
    /// ```
    ///
    /// - Throws: `.invalidArgument` for a gain outside 0…1, an invalid region, a preset value
    ///   outside the EFX range, or when the scene already has ``maxReverbZones`` zones;
    ///   `.extensionMissing` without ALC_EXT_EFX; `.released` once the scene is closed.
    @discardableResult
    public func makeReverbZone(_ name: String, preset: ReverbPreset, region: ReverbRegion = .everywhere,
                               gain: Float = 1) throws -> ReverbZone {
        guard gain.isFinite, (0...1).contains(gain) else {
            throw SoundstageError(.invalidArgument, "reverb zone '\(name)': gain must be in 0...1, got \(gain)")
        }
        if let problem = region.problem {
            throw SoundstageError(.invalidArgument, "reverb zone '\(name)': \(problem)")
        }
        return try withState { state, lock throws(SoundstageError) -> ReverbZone in
            let al = try lock.current()
            let sends = try enableEffectsLocked(&state, al)
            guard let index = (0..<sends).first(where: { $0 >= state.effects.zones.count || state.effects.zones[$0] == nil }) else {
                throw SoundstageError(.invalidArgument,
                                      "the scene already has \(sends) reverb zones, as many as a source can send to; remove one first")
            }
            let zone = ReverbZone(name: name, scene: self, preset: preset, region: region, gain: gain, sendIndex: index)
            // From the first zone on, the device mixes in multiples of 4 frames (OpenAL Soft's reverb).
            device.usesReverb.store(true, ordering: .relaxed)
            // The preset first (it may refuse a value): a refused zone takes no slot.
            try preset.load(into: state.effects.effect, al)
            let slot: ALName
            if let spare = state.effects.spareSlots.popLast() {
                slot = spare
            } else {
                slot = try al.makeEffectSlot()
                LiveObjects.effectSlots.add(1, ordering: .relaxed)
            }
            al.load(state.effects.effect, into: slot)
            zone.state.slot = slot
            while state.effects.zones.count <= index { state.effects.zones.append(nil) }
            state.effects.zones[index] = zone
            applyZoneGainLocked(zone, al)
            for source in state.active.values { source.applyEffectsLocked(state, al) }
            return zone
        }
    }

    /// Turns effects on for the scene: checks ALC_EXT_EFX and creates the scratch filter and
    /// effect. Returns the number of auxiliary sends per source.
    @discardableResult
    func enableEffectsLocked(_ state: inout SceneState, _ al: borrowing ALCalls) throws(SoundstageError) -> Int {
        if state.effects.inUse { return state.effects.sendCount }
        let sends = sendCountLocked(&state)
        guard state.effects.available == true else {
            throw SoundstageError(.extensionMissing, "the output has no ALC_EXT_EFX: reverb and filters are unavailable")
        }
        try createScratchObjectsLocked(&state, al)
        state.effects.sendCount = sends
        state.effects.inUse = true
        return sends
    }

    private func createScratchObjectsLocked(_ state: inout SceneState, _ al: borrowing ALCalls) throws(SoundstageError) {
        let (filter, effect) = try al.makeLowpassAndReverb()
        state.effects.filter = filter
        state.effects.effect = effect
        LiveObjects.filters.add(1, ordering: .relaxed)
        LiveObjects.effects.add(1, ordering: .relaxed)
    }

    /// Loads `preset` into the scratch effect and copies it into `slot`.
    static func loadPresetLocked(_ preset: ReverbPreset, effect: ALName, into slot: ALName, _ al: borrowing ALCalls) throws(SoundstageError) {
        try preset.load(into: effect, al)
        al.load(effect, into: slot)
    }

    /// Sets the zone's slot gain to gain × the listener's weight in its region, if it changed.
    func applyZoneGainLocked(_ zone: ReverbZone, _ al: borrowing ALCalls) {
        let level = zone.state.gain * zone.state.region.weight(at: listener.propertiesLocked.position)
        guard level != zone.state.appliedGain, zone.state.slot != 0 else { return }
        zone.state.appliedGain = level
        al.setGain(level, ofSlot: zone.state.slot)
    }

    /// Each update: zones follow the listener.
    func updateZonesLocked(_ state: SceneState, _ lock: borrowing ContextLock) {
        guard state.effects.zones.contains(where: { $0 != nil }) else { return }
        lock.ifOpen { al in
            for zone in state.effects.zones.compactMap({ $0 }) { applyZoneGainLocked(zone, al) }
        }
    }

    /// Runs `change` on a live zone's state with its scene's lock held and the context current,
    /// then applies its gain.
    func changeZone(_ zone: ReverbZone,
                    _ change: (inout ReverbZone.ZoneState, _ effect: ALName, borrowing ALCalls) throws(SoundstageError) -> Void)
        throws(SoundstageError) {
        try withState { state, lock throws(SoundstageError) in
            guard !zone.state.removed else { throw SoundstageError(.released, "the reverb zone '\(zone.name)' was removed") }
            let al = try lock.current()
            try change(&zone.state, state.effects.effect, al)
            applyZoneGainLocked(zone, al)
        }
    }

    func removeZone(_ zone: ReverbZone) {
        withState { state, lock in
            guard !zone.state.removed else { return }
            zone.state.removed = true
            let index = zone.state.sendIndex
            state.effects.zones[index] = nil
            lock.ifOpen { al in
                // Every OpenAL source (pooled ones too) holds a reference on the slot: they let go first.
                for name in state.allNames { al.clearSend(index, of: name) }
                al.parkEffectSlot(zone.state.slot)
                state.effects.spareSlots.append(zone.state.slot)
            }
            zone.state.slot = 0
        }
    }

    /// Deletes every EFX object (the scene's sources already deleted) just before the context is
    /// destroyed: the effect and the filter (device objects) here, the slots with the context
    /// (deleting them first would leave holes another thread's `alcCreateContext` trips on).
    /// With `forget`, the zones are marked removed (the scene closes); otherwise they keep their
    /// settings for ``rebuildEffectsLocked(_:_:)`` on a new context.
    /// A context that outlives the scene (the device's own, borrowed) keeps the slots, parked, so
    /// they cost no mixing until the device replaces that context.
    func deleteEffectsLocked(_ state: inout SceneState, _ al: borrowing ALCalls, forget: Bool, contextLivesOn: Bool = false) {
        guard state.effects.inUse else { return }
        LiveObjects.effectSlots.subtract(state.effects.spareSlots.count, ordering: .relaxed)
        state.effects.spareSlots = []
        for zone in state.effects.zones.compactMap({ $0 }) {
            if contextLivesOn && zone.state.slot != 0 { al.parkEffectSlot(zone.state.slot) }
            LiveObjects.effectSlots.subtract(1, ordering: .relaxed)
            zone.state.slot = 0
            zone.state.appliedGain = -1
            if forget { zone.state.removed = true }
        }
        al.deleteLowpassAndReverb(filter: state.effects.filter, effect: state.effects.effect)
        LiveObjects.effects.subtract(1, ordering: .relaxed)
        LiveObjects.filters.subtract(1, ordering: .relaxed)
        state.effects.effect = 0
        state.effects.filter = 0
        if forget {
            state.effects.zones = []
            state.effects.inUse = false
        }
    }

    /// After a migration: the scratch objects and every zone's slot again, on the new context.
    func rebuildEffectsLocked(_ state: inout SceneState, _ al: borrowing ALCalls) throws(SoundstageError) {
        guard state.effects.inUse else { return }
        try createScratchObjectsLocked(&state, al)
        for zone in state.effects.zones.compactMap({ $0 }) {
            let slot = try al.makeEffectSlot()
            LiveObjects.effectSlots.add(1, ordering: .relaxed)
            zone.state.slot = slot
            try Self.loadPresetLocked(zone.state.preset, effect: state.effects.effect, into: slot, al)
            applyZoneGainLocked(zone, al)
        }
    }

    /// Gives every zone a fresh effect state (its preset loaded again): after the output's guard
    /// found a non-finite mix, so a reverb that heard it does not ring NaN for good.
    func resetEffectStates() {
        withState { state, lock in
            guard state.effects.inUse else { return }
            lock.ifOpen { al in
                for zone in state.effects.zones.compactMap({ $0 }) where zone.state.slot != 0 {
                    al.clearEffectState(of: zone.state.slot)
                    try? Self.loadPresetLocked(zone.state.preset, effect: state.effects.effect, into: zone.state.slot, al)
                }
            }
        }
    }

    /// EFX objects the scene holds (0s once closed).
    var effectObjectCounts: (slots: Int, effects: Int, filters: Int) {
        withState { state, lock in lock.isOpen ? state.effects.objectCounts : (0, 0, 0) }
    }
}
