#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

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
    /// Of ``totalUpdateMicroseconds``, the part spent choosing (computing every voice's key and
    /// selecting the top ones); the rest is OpenAL work for the voices that changed.
    public var totalSelectionMicroseconds = 0.0

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

/// A managed voice's ranking inputs, as ``Source/syncVoiceLocked(_:)`` hands them to the table.
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
