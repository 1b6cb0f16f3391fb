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

    /// The voice manager's part of the engine update (scene lock held): ends virtual voices whose
    /// clocks ran past their sound, then gives the OpenAL sources to the top-ranked playing sources.
    /// Returns completions to run outside the lock.
    func manageVoicesLocked(_ state: inout SceneState, _ lock: borrowing ContextLock, now: Double) -> [() -> Void] {
        guard state.voices != nil, !state.suspended else { return [] }
        let started = DispatchTime.now().uptimeNanoseconds
        var completions: [() -> Void] = []
        for (id, source) in state.voices!.virtual where source.virtualClockEndedLocked(now: now) {
            state.voices!.virtual.removeValue(forKey: id)
            completions.append(source.finishVirtualLocked())
        }
        let candidates = state.active.values.filter { $0.isPlayingLocked && !$0.isStreamingLocked }
            + state.voices!.virtual.values.filter(\.isPlayingLocked)
        let occupied = state.active.count - state.active.values.filter { $0.isPlayingLocked && !$0.isStreamingLocked }.count
        let slots = max(0, sourceBudget - occupied)
        if !(state.voices!.virtual.isEmpty && candidates.count <= slots) {
            let listener = listener.propertiesLocked
            let model = state.distanceModel
            let ranked = candidates.map { (source: $0, priority: $0.priorityLocked, level: $0.audibilityLocked(model, listener)) }
                .sorted { $0.priority != $1.priority ? $0.priority > $1.priority : $0.level > $1.level }
            let keep = Set(ranked.prefix(slots).map { ObjectIdentifier($0.source) })
            lock.ifOpen { al in
                for source in state.active.values where source.isPlayingLocked && !source.isStreamingLocked
                    && !keep.contains(ObjectIdentifier(source)) {
                    source.virtualizeLocked(&state, al, now: now)
                    state.voices!.virtual[ObjectIdentifier(source)] = source
                    state.voices!.statistics.virtualizations += 1
                    state.voices!.pending.append(VoiceEvent(kind: .virtualized, source: source))
                }
                for (id, source) in state.voices!.virtual where keep.contains(id) && source.isPlayingLocked {
                    guard (try? source.realizeLocked(&state, al, now: now)) != nil else { continue }
                    state.voices!.virtual.removeValue(forKey: id)
                    state.voices!.statistics.realizations += 1
                    state.voices!.pending.append(VoiceEvent(kind: .realized, source: source))
                }
            }
        }
        let micros = Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000
        state.voices!.statistics.updates += 1
        state.voices!.statistics.lastUpdateMicroseconds = micros
        state.voices!.statistics.totalUpdateMicroseconds += micros
        state.voices!.statistics.peakUpdateMicroseconds = max(state.voices!.statistics.peakUpdateMicroseconds, micros)
        return completions
    }

    /// Takes the voice events waiting for delivery (scene lock held).
    func takeVoiceEventsLocked(_ state: inout SceneState) -> (handler: (@Sendable (VoiceEvent) -> Void)?, events: [VoiceEvent]) {
        guard let voices = state.voices, !voices.pending.isEmpty else { return (nil, []) }
        state.voices!.pending = []
        return (voices.handler, voices.pending)
    }
}
