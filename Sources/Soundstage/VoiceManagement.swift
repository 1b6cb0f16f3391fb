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

/// The scene's voice-manager state (present when ``Scene/virtualizesVoices`` is on).
struct VoiceManagerState {
    var virtual: [ObjectIdentifier: Source] = [:]
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
            if newValue { state.voices = state.voices ?? VoiceManagerState() } else { state.voices = nil }
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
    /// the OpenAL sources to the top-ranked playing sources (an O(n) selection, no sort).
    /// Returns completions to run outside the lock.
    func manageVoicesLocked(_ state: inout SceneState, _ lock: borrowing ContextLock, now: Double) -> [() -> Void] {
        guard var voices = state.voices, !state.suspended else { return [] }
        if let last = voices.lastRanking, now - last < voices.rankingInterval - 1e-9 { return [] }
        state.voices = nil                       // keep `voices` unique while it changes
        defer { state.voices = voices }
        voices.lastRanking = now
        let started = DispatchTime.now().uptimeNanoseconds
        var completions: [() -> Void] = []
        let listener = listener.propertiesLocked
        let model = state.distanceModel
        var candidates: [Source] = []
        var keys: [Double] = []
        candidates.reserveCapacity(state.active.count + voices.virtual.count)
        keys.reserveCapacity(candidates.capacity)
        var occupied = 0
        for source in state.active.values {
            guard source.isPlayingLocked && !source.isStreamingLocked else { occupied += 1; continue }
            candidates.append(source)
            keys.append(source.rankKeyLocked(model, listener))
        }
        // Virtual voices: one pass that ends those whose clocks ran out and ranks the rest.
        var ended: [ObjectIdentifier] = []
        for (id, source) in voices.virtual where source.isPlayingLocked {
            if source.virtualClockEndedLocked(now: now) {
                ended.append(id)
                completions.append(source.finishVirtualLocked())
                continue
            }
            candidates.append(source)
            keys.append(source.rankKeyLocked(model, listener))
        }
        for id in ended { voices.virtual.removeValue(forKey: id) }
        let slots = max(0, sourceBudget - occupied)
        if !voices.virtual.isEmpty || candidates.count > slots {
            let keep = Self.topIndices(keys, count: slots)
            lock.ifOpen { al in
                for index in candidates.indices where !keep[index] && !candidates[index].isVirtualLocked {
                    let source = candidates[index]
                    source.virtualizeLocked(&state, al, now: now)
                    voices.virtual[ObjectIdentifier(source)] = source
                    voices.statistics.virtualizations += 1
                    voices.pending.append(VoiceEvent(kind: .virtualized, source: source))
                }
                for index in candidates.indices where keep[index] && candidates[index].isVirtualLocked {
                    let source = candidates[index]
                    guard (try? source.realizeLocked(&state, al, now: now)) != nil else { continue }
                    voices.virtual.removeValue(forKey: ObjectIdentifier(source))
                    voices.statistics.realizations += 1
                    voices.pending.append(VoiceEvent(kind: .realized, source: source))
                }
            }
        }
        let micros = Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000
        voices.statistics.updates += 1
        voices.statistics.lastUpdateMicroseconds = micros
        voices.statistics.totalUpdateMicroseconds += micros
        voices.statistics.peakUpdateMicroseconds = max(voices.statistics.peakUpdateMicroseconds, micros)
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
