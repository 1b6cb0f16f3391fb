import Dispatch
#if canImport(Glibc)
import Glibc
#endif

// The engine update: completions, fades, groups, voices, streams and meters, once per update.
extension Scene {
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
    var meterOutputs: Int {
        device.layout == .stereo && !device.isHRTFEnabled ? 2 : 1
    }

    /// How often (in mix seconds) the update brings source, group and scene meters up to date.
    static let meteringInterval = 0.1

    /// Meters what every playing source played since the last update into its meter, its groups'
    /// and the scene's (scene lock held).
    func meterLocked(_ state: inout SceneState, _ lock: borrowing ContextLock, now: Double) {
        let elapsed = state.meteredUntil.map { Int(((now - $0) * Double(device.sampleRate)).rounded()) } ?? 0
        state.meteredUntil = now
        let listener = listener.propertiesLocked, listenerVersion = self.listener.versionLocked
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
            let model = state.distanceModel
            state.active.forEachBorrowed { source in
                guard let reached = source.meterLocked(al, model: model, listener: listener, listenerVersion: listenerVersion,
                                                       forGroups: anyGroups, outputs: outputs, at: now) else { return }
                sceneSums?.add(reached)
                if anyGroupMetered, let slot = source.groupLocked?.meterSlot { direct[slot].add(reached) }
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
}
