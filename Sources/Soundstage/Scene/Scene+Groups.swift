#if canImport(Glibc)
import Glibc
#endif

// Crossfades, groups and ducking.
extension Scene {
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
            if state.groups.count >= state.groupsPruneMark {
                state.groups.removeAll { $0.group == nil }
                state.groupsPruneMark = max(64, state.groups.count * 2)
            }
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

    func refreshSourcesLocked(_ state: inout SceneState, _ lock: borrowing ContextLock, within group: SoundGroup?) {
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
    func advanceGroupsLocked(_ state: inout SceneState, _ lock: borrowing ContextLock,
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
}
