import COpenAL
import Foundation

/// At most `maxVoices` sources that share this limit play at once ("at most 4 footsteps"); a
/// play beyond it steals a voice by `policy`. Create with ``Scene/makeVoiceLimit(_:maxVoices:steal:)``
/// and put sources under it with ``Source/voiceLimit``. Counts real and virtual voices alike.
public final class VoiceLimit: Sendable {
    /// Which playing source a new play replaces when the limit is full.
    public enum StealPolicy: String, Sendable, CaseIterable {
        /// The one that started first.
        case oldest
        /// The one with the lowest ``Source/audibility``.
        case quietest
        /// The one farthest from the listener.
        case farthest
        /// None: the new play is refused with `.voiceLimitReached`.
        case none
    }

    /// A name for people.
    public let name: String
    /// How many may play at once (≥ 1).
    public let maxVoices: Int
    /// What a play beyond the limit does.
    public let policy: StealPolicy

    init(name: String, maxVoices: Int, policy: StealPolicy) {
        self.name = name
        self.maxVoices = maxVoices
        self.policy = policy
    }
}

/// Something the voice manager did to a source.
public struct VoiceEvent: Sendable {
    /// What happened.
    public enum Kind: String, Sendable {
        /// A new play under a full ``VoiceLimit`` stopped it.
        case stolen
        /// It lost its OpenAL source to louder or more important ones; its clock runs on.
        case virtualized
        /// It got an OpenAL source back and plays on at its clock's offset.
        case realized
    }

    /// What happened.
    public let kind: Kind
    /// To which source.
    public let source: Source
}

/// Counters of a scene's voice manager (``Scene/voiceStatistics``).
public struct VoiceStatistics: Sendable, Equatable {
    /// Playing sources that hold an OpenAL source now.
    public var realVoices = 0
    /// Playing sources without one (their clocks run).
    public var virtualVoices = 0
    /// Voices stolen by ``VoiceLimit``s.
    public var steals = 0
    /// Times a real voice became virtual.
    public var virtualizations = 0
    /// Times a virtual voice became real.
    public var realizations = 0
    /// Engine updates that ranked voices, and the time they took.
    public var updates = 0
    /// The last ranking's cost, in microseconds.
    public var lastUpdateMicroseconds = 0.0
    /// The costliest ranking so far.
    public var peakUpdateMicroseconds = 0.0
    /// All rankings together, in microseconds (divide by ``updates`` for the mean).
    public var totalUpdateMicroseconds = 0.0

    /// Zeroes.
    public init() {}
}

/// A virtual voice's playback clock: the offset it had when it last resumed (or started) and
/// the mix time then (nil while paused).
struct VirtualClock {
    var offset: Double
    var since: Double?

    func offset(at now: Double, rate: Double) -> Double {
        offset + (since.map { max(0, now - $0) } ?? 0) * rate
    }
}

/// A managed voice's ranking inputs: a copy of what its ranking needs, kept by ``VoiceTable`` in
/// one contiguous array so a ranking of thousands of voices reads memory in order instead of
/// visiting thousands of `Source` objects (which cost a cache miss each — most of the old cost).
struct VoiceRow {
    var properties: Source.Properties
    var priority: Int
    var spatialized: Bool
    var playing: Bool
    var virtual: Bool
    /// Mix time at which a playing virtual voice's clock passes the end of its sound (infinity
    /// when it loops, is paused or is real).
    var endsAt: Double
}

/// The managed voices — sources of a voice-managing scene that hold an OpenAL source or a
/// virtual clock, except streams — with their rows. A source's row is rewritten from its state
/// (``Source/syncVoiceLocked(_:)``) whenever that state changes under the scene's lock.
struct VoiceTable {
    private(set) var rows: [VoiceRow] = []
    private(set) var members: [Source] = []

    /// Appends a row; returns its index.
    mutating func append(_ row: VoiceRow, for source: Source) -> Int {
        rows.append(row)
        members.append(source)
        return rows.count - 1
    }

    mutating func update(_ index: Int, _ row: VoiceRow) { rows[index] = row }

    /// Removes row `index` by moving the last row into it; returns the source that moved (whose
    /// index is now `index`), if any.
    mutating func remove(at index: Int) -> Source? {
        let last = rows.count - 1
        if index != last {
            rows[index] = rows[last]
            members[index] = members[last]
        }
        rows.removeLast()
        members.removeLast()
        return index != last ? members[index] : nil
    }
}

/// The scene's voice-manager state (present when ``Scene/virtualizesVoices`` is on).
struct VoiceManagerState {
    var virtual: [ObjectIdentifier: Source] = [:]
    var table = VoiceTable()
    /// Scratch space of the ranking, kept between rankings.
    var keys: [Double] = []
    var candidates: [Int] = []
    /// Mix time of the last ranking, and how often to rank.
    var lastRanking: Double?
    var rankingInterval = 0.05
    var statistics = VoiceStatistics()
    var handler: (@Sendable (VoiceEvent) -> Void)?
    /// Events waiting to be delivered outside the lock.
    var pending: [VoiceEvent] = []
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
                for source in state.active.values { source.syncVoiceLocked(&state) }
            } else {
                for source in state.voices?.table.members ?? [] { source.forgetVoiceRowLocked() }
                state.voices = nil
            }
        } }
    }

    /// How often the voice manager re-ranks the playing sources, in seconds of mix time (default
    /// 0.05: every fifth 10 ms update). A new play that outranks the weakest real voice takes its
    /// OpenAL source at once; otherwise it waits, virtual, for the next ranking.
    public var voiceRankingInterval: Double {
        get { withState { state, _ in state.voices?.rankingInterval ?? 0.05 } }
        set {
            precondition(newValue.isFinite && newValue >= 0, "voiceRankingInterval must be finite and >= 0")
            withState { state, _ in state.voices?.rankingInterval = newValue }
        }
    }

    /// Called with each ``VoiceEvent``, outside Soundstage's locks.
    public var voiceEventHandler: (@Sendable (VoiceEvent) -> Void)? {
        get { withState { state, _ in state.voices?.handler } }
        set { withState { state, _ in state.voices?.handler = newValue } }
    }

    /// The voice manager's counters.
    public var voiceStatistics: VoiceStatistics {
        withState { state, _ in
            guard var statistics = state.voices?.statistics else { return VoiceStatistics() }
            statistics.virtualVoices = state.voices!.virtual.values.filter(\.isPlayingLocked).count
            statistics.realVoices = state.active.values.filter(\.isPlayingLocked).count
            return statistics
        }
    }

    /// Creates a per-sound limit: at most `maxVoices` of the sources under it play at once.
    public func makeVoiceLimit(_ name: String, maxVoices: Int, steal policy: VoiceLimit.StealPolicy) -> VoiceLimit {
        precondition(maxVoices >= 1, "maxVoices must be >= 1")
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
        var ended: [Source] = []
        for (index, row) in state.voices!.table.rows.enumerated() where row.endsAt <= now {
            ended.append(state.voices!.table.members[index])
        }
        for source in ended {
            state.voices!.virtual.removeValue(forKey: ObjectIdentifier(source))
            completions.append(source.finishVirtualLocked(&state))
        }
        // Rank the playing ones; paused real voices and streams keep their OpenAL sources.
        let listener = listener.propertiesLocked
        let model = state.distanceModel
        // Taken out (not copied) so they stay uniquely referenced and keep their capacity.
        var keys = state.voices!.keys
        var candidates = state.voices!.candidates
        state.voices!.keys = []
        state.voices!.candidates = []
        keys.removeAll(keepingCapacity: true)
        candidates.removeAll(keepingCapacity: true)
        var realPlaying = 0
        var anyVirtual = false
        state.voices!.table.rows.withUnsafeBufferPointer { rows in
            for index in rows.indices where rows[index].playing {
                let row = rows[index]
                if row.virtual { anyVirtual = true } else { realPlaying += 1 }
                candidates.append(index)
                keys.append(Source.rankKey(priority: row.priority, row.properties, spatialized: row.spatialized, model, listener))
            }
        }
        let slots = max(0, sourceBudget - (state.active.count - realPlaying))
        if anyVirtual || candidates.count > slots {
            let keep = Self.topIndices(keys, count: slots)
            let members = state.voices!.table.members
            lock.ifOpen { al in
                // Make room first, then fill it: virtualizing and realizing keep every row in place.
                for (position, index) in candidates.enumerated()
                where !keep[position] && !state.voices!.table.rows[index].virtual {
                    let source = members[index]
                    source.virtualizeLocked(&state, al, now: now)
                    state.voices!.virtual[ObjectIdentifier(source)] = source
                    state.voices!.statistics.virtualizations += 1
                    state.voices!.pending.append(VoiceEvent(kind: .virtualized, source: source))
                }
                for (position, index) in candidates.enumerated()
                where keep[position] && state.voices!.table.rows[index].virtual {
                    let source = members[index]
                    guard (try? source.realizeLocked(&state, al, now: now)) != nil else { continue }
                    state.voices!.virtual.removeValue(forKey: ObjectIdentifier(source))
                    state.voices!.statistics.realizations += 1
                    state.voices!.pending.append(VoiceEvent(kind: .realized, source: source))
                }
            }
        }
        state.voices!.keys = keys
        state.voices!.candidates = candidates
        let micros = Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000
        state.voices!.statistics.updates += 1
        state.voices!.statistics.lastUpdateMicroseconds = micros
        state.voices!.statistics.totalUpdateMicroseconds += micros
        state.voices!.statistics.peakUpdateMicroseconds = max(state.voices!.statistics.peakUpdateMicroseconds, micros)
        return completions
    }

    /// Which of `keys` are among the `count` largest (ties broken by position), in O(n) on average.
    static func topIndices(_ keys: [Double], count: Int) -> [Bool] {
        guard count < keys.count else { return [Bool](repeating: true, count: keys.count) }
        guard count > 0 else { return [Bool](repeating: false, count: keys.count) }
        // Quickselect the count-th largest value.
        var values = keys
        var low = 0, high = values.count - 1
        let target = count - 1
        var generator = SystemRandomNumberGenerator()
        while low < high {
            values.swapAt(Int.random(in: low...high, using: &generator), high)
            let pivot = values[high]
            var store = low
            for i in low..<high where values[i] > pivot {
                values.swapAt(i, store)
                store += 1
            }
            values.swapAt(store, high)
            if store == target { break }
            if store < target { low = store + 1 } else { high = store - 1 }
        }
        let threshold = values[target]
        var keep = [Bool](repeating: false, count: keys.count)
        var taken = 0
        for (index, key) in keys.enumerated() where key > threshold {
            keep[index] = true
            taken += 1
        }
        for (index, key) in keys.enumerated() where key == threshold && taken < count {
            keep[index] = true
            taken += 1
        }
        return keep
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
        return (voices.handler, voices.pending)
    }
}
