import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// The ranking's scratch space and memory, kept between rankings.
struct VoiceSelection {
    /// A row and its ranking key.
    struct Entry {
        var key: Double
        var row: Int
        /// Higher key first; on equal keys, the earlier row.
        @inline(__always)
        func ranksAbove(_ other: Entry) -> Bool { key > other.key || (key == other.key && row < other.row) }
    }

    var audibility: [Float] = []
    var chosen: [Entry] = []
    /// Rows at or above this key are gathered first (see ``VoiceTable/top(_:_:_:selection:kept:)``).
    var threshold = -Double.infinity
}

/// The scene's voice-manager state (present when ``Scene/virtualizesVoices`` is on).
struct VoiceManagerState {
    var virtual: [ObjectIdentifier: Source] = [:]
    var table = VoiceTable()
    /// Scratch space of the ranking, kept between rankings.
    var selection = VoiceSelection()
    var kept: [Bool] = []
    /// Mix time of the last ranking, and how often to rank.
    var lastRanking: Double?
    var rankingInterval = 0.05
    var statistics = VoiceStatistics()
    var handler: (@Sendable (VoiceEvent) -> Void)?
    /// Events waiting to be delivered outside the lock.
    var pending: [VoiceEvent] = []
    /// The latest events, oldest first (at most ``recentLimit``): what ``Device/mixSnapshot(meters:)``
    /// shows as recently stolen or virtualized. Kept as snapshots, not sources: a source holds its
    /// scene, so holding sources here would keep the scene alive.
    var recent: [VoiceEventSnapshot] = []
    static let recentLimit = 16
}

extension Scene {
    /// Whether the scene manages voices: games create as many sources as they like; at most
    /// ``sourceBudget`` of the playing ones hold OpenAL sources, chosen at every engine update by
    /// ``Source/priority`` and then ``Source/audibility``; the others are *virtual* — silent, their
    /// clocks running — and come back at the right offset when they rank high enough again.
    /// `play()` then never throws `.sourceBudgetExhausted`. Streaming sources always stay real.
    /// Off by default; turn it on before playing.
    public var virtualizesVoices: Bool {
        get { withState { state, _ in state.voices != nil } }
        set { withState { state, _ in
            if newValue {
                guard state.voices == nil else { return }
                state.voices = VoiceManagerState()
                state.managesVoices = true
                for source in state.active.values { source.syncVoiceLocked(&state) }
            } else {
                for source in state.voices?.table.members ?? [] { source.forgetVoiceRowLocked() }
                state.voices = nil
                state.managesVoices = false
            }
        } }
    }

    /// How often the voice manager re-ranks the playing sources, in seconds of mix time (default
    /// 0.05: every fifth 10 ms update). A new play that outranks the weakest real voice takes its
    /// OpenAL source at once; otherwise it waits, virtual, for the next ranking.
    public var voiceRankingInterval: Double {
        get { withState { state, _ in state.voices?.rankingInterval ?? 0.05 } }
        set {
            guard refusals.admits(newValue.isFinite && newValue >= 0, "Scene.voiceRankingInterval", newValue, "finite and >= 0") else { return }
            withState { state, _ in state.voices?.rankingInterval = newValue }
        }
    }

    /// Called with each ``VoiceEvent``, outside Soundstage's locks.
    public var voiceEventHandler: (@Sendable (VoiceEvent) -> Void)? {
        get { withState { state, _ in state.voices?.handler } }
        set { withState { state, _ in state.voices?.handler = newValue } }
    }

    /// The voice manager's counters, and the voices playing now (real ones even when voice
    /// management is off).
    public var voiceStatistics: VoiceStatistics {
        withState { state, _ in
            // Real voices are counted with voice management off too (every playing source is one).
            var statistics = state.voices?.statistics ?? VoiceStatistics()
            statistics.virtualVoices = state.voices?.virtual.values.filter(\.isPlayingLocked).count ?? 0
            statistics.realVoices = state.active.values.filter(\.isPlayingLocked).count
            return statistics
        }
    }

    /// Zeroes the voice manager's counters (steals, virtualizations, rankings and their costs),
    /// e.g. to measure from a point on.
    public func resetVoiceStatistics() {
        withState { state, _ in state.voices?.statistics = VoiceStatistics() }
    }

    /// Creates a per-sound limit: at most `maxVoices` of the sources under it play at once.
    public func makeVoiceLimit(_ name: String, maxVoices: Int, steal policy: VoiceLimit.StealPolicy) -> VoiceLimit {
        var maxVoices = maxVoices
        if !refusals.admits(maxVoices >= 1, "Scene.makeVoiceLimit(maxVoices:)", maxVoices, ">= 1") { maxVoices = 1 }
        return VoiceLimit(name: name, maxVoices: maxVoices, policy: policy)
    }

    /// Whether an OpenAL source is free for a new real voice (scene lock held).
    func hasFreeSlotLocked(_ state: SceneState) -> Bool {
        !state.freeNames.isEmpty || state.allNames.count < sourceBudget
    }

    /// Makes room under `limit` for `newcomer` (scene lock held): steals by the policy, or refuses.
    func admitLocked(_ newcomer: Source, under limit: VoiceLimit, _ state: inout SceneState,
                     _ lock: borrowing ContextLock) throws(SoundstageError) {
        let members = (Array(state.active.values) + Array(state.voices?.virtual.values ?? [:].values)).filter {
            $0 !== newcomer && $0.voiceLimitLocked === limit && $0.isPlayingLocked
        }
        guard members.count >= limit.maxVoices else { return }
        let listener = listener.propertiesLocked
        let model = state.distanceModel
        let victim: Source?
        switch limit.policy {
        case .none:
            throw SoundstageError(.voiceLimitReached,
                                  "\(members.count) sounds of the limit '\(limit.name)' are playing (at most \(limit.maxVoices)); this one was refused")
        case .oldest: victim = members.min { $0.startedAtLocked < $1.startedAtLocked }
        case .quietest: victim = members.min { $0.audibilityLocked(model, listener) < $1.audibilityLocked(model, listener) }
        case .farthest: victim = members.max { $0.distanceLocked(listener) < $1.distanceLocked(listener) }
        }
        guard let victim else { return }
        victim.stopLocked(&state, lock)
        state.voices?.statistics.steals += 1
        state.voices?.pending.append(VoiceEvent(kind: .stolen, source: victim))
    }

    /// The voice manager's part of the engine update (scene lock held), every
    /// ``voiceRankingInterval``: ends virtual voices whose clocks ran past their sound, then gives
    /// the OpenAL sources to the top-ranked playing sources (an O(n) selection, no sort), reading
    /// the ranking inputs from the contiguous ``VoiceTable`` and touching only the sources that
    /// change. Returns completions to run outside the lock.
    func manageVoicesLocked(_ state: inout SceneState, _ lock: borrowing ContextLock, now: Double) -> [() -> Void] {
        guard state.voices != nil, !state.suspended else { return [] }
        if let last = state.voices!.lastRanking, now - last < state.voices!.rankingInterval - 1e-9 { return [] }
        state.voices!.lastRanking = now
        let started = DispatchTime.now().uptimeNanoseconds
        var completions: [() -> Void] = []
        // Virtual voices whose clocks ran out end (each leaves the table).
        for source in state.voices!.table.ended(by: now) {
            state.voices!.virtual.removeValue(forKey: ObjectIdentifier(source))
            completions.append(source.finishVirtualLocked(&state))
        }
        // Paused real voices and streams keep their OpenAL sources; the rest go to the best ranked.
        let census = state.voices!.table.census()
        let slots = max(0, sourceBudget - (state.active.count - census.realPlaying))
        if census.anyVirtual || census.playing > slots {
            // The scratch space is taken out (not copied) so it stays unique and keeps its capacity.
            var selection = state.voices!.selection, kept = state.voices!.kept
            state.voices!.selection = VoiceSelection()
            state.voices!.kept = []
            state.voices!.table.top(slots, state.distanceModel, listener.propertiesLocked, selection: &selection, kept: &kept)
            state.voices!.statistics.totalSelectionMicroseconds += Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000
            // Real voices that lost: virtual (making room), then the virtual ones that won: real.
            // Neither changes which row a source has.
            var losers: [Source] = [], winners: [Source] = []
            do {
                let table = state.voices!.table        // one copy (of array references), not one per row
                for index in 0..<table.count where table.isPlaying(index) {
                    let virtual = table.isVirtual(index)
                    if kept[index] && virtual { winners.append(table.members[index]) }
                    if !kept[index] && !virtual { losers.append(table.members[index]) }
                }
            }
            lock.ifOpen { al in
                for source in losers {
                    source.virtualizeLocked(&state, al, now: now)
                    state.voices!.virtual[ObjectIdentifier(source)] = source
                    state.voices!.statistics.virtualizations += 1
                    state.voices!.pending.append(VoiceEvent(kind: .virtualized, source: source))
                }
                for source in winners {
                    guard (try? source.realizeLocked(&state, al, now: now)) != nil else { continue }
                    state.voices!.virtual.removeValue(forKey: ObjectIdentifier(source))
                    state.voices!.statistics.realizations += 1
                    state.voices!.pending.append(VoiceEvent(kind: .realized, source: source))
                }
            }
            state.voices!.selection = selection
            state.voices!.kept = kept
        }
        let micros = Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000
        state.voices!.statistics.updates += 1
        state.voices!.statistics.lastUpdateMicroseconds = micros
        state.voices!.statistics.totalUpdateMicroseconds += micros
        state.voices!.statistics.peakUpdateMicroseconds = max(state.voices!.statistics.peakUpdateMicroseconds, micros)
        return completions
    }

    /// When a new play (ranked `newcomerKey`) finds no free OpenAL source: if it outranks the weakest real voice, that
    /// one turns virtual and gives it its source (scene lock held). True if a source was freed.
    func preemptForLocked(newcomerKey: Double, _ state: inout SceneState, _ al: borrowing ALCalls, now: Double) -> Bool {
        guard state.voices != nil else { return false }
        let listener = listener.propertiesLocked
        let model = state.distanceModel
        var weakest: (source: Source, key: Double)?
        for source in state.active.values where source.isPlayingLocked && !source.isStreamingLocked {
            let key = source.rankKeyLocked(model, listener)
            if weakest == nil || key < weakest!.key { weakest = (source, key) }
        }
        guard let weakest, newcomerKey > weakest.key else { return false }
        weakest.source.virtualizeLocked(&state, al, now: now)
        state.voices!.virtual[ObjectIdentifier(weakest.source)] = weakest.source
        state.voices!.statistics.virtualizations += 1
        state.voices!.pending.append(VoiceEvent(kind: .virtualized, source: weakest.source))
        return true
    }

    /// Takes the voice events waiting for delivery (scene lock held).
    func takeVoiceEventsLocked(_ state: inout SceneState) -> (handler: (@Sendable (VoiceEvent) -> Void)?, events: [VoiceEvent]) {
        guard let voices = state.voices, !voices.pending.isEmpty else { return (nil, []) }
        state.voices!.pending = []
        let now = device.mixTime
        state.voices!.recent.append(contentsOf: voices.pending.suffix(VoiceManagerState.recentLimit).map {
            VoiceEventSnapshot(kind: $0.kind.rawValue, source: $0.source.snapshotID, file: $0.source.fileLocked, time: now)
        })
        if state.voices!.recent.count > VoiceManagerState.recentLimit {
            state.voices!.recent.removeFirst(state.voices!.recent.count - VoiceManagerState.recentLimit)
        }
        return (voices.handler, voices.pending)
    }
}
