/// What a session's audio is for, which decides what it does to other sessions and what they do
/// to it (see docs/sessions.md for the full matrix).
public enum SessionCategory: String, Sendable, Codable, CaseIterable {
    /// Background audio that mixes with everything and yields to every session that does not mix.
    case ambient
    /// The default: game audio that takes the output from ambient sessions and other solo ones.
    case soloAmbient
    /// Audio that keeps playing when others start (music, a podcast); only voice chat interrupts it.
    case playback
    /// Voice chat: the highest priority; interrupts (or ducks) everything else. May record.
    case playAndRecord
    /// Recording (an ``AudioRecorder``), with the session's own scenes silent: interrupts like
    /// `playAndRecord` (the `playback` ones too) but does not hold the output against sessions
    /// that start after it.
    case record
    /// Offline work (rendering, conversion) that neither plays nor records: it mixes with
    /// everything, interrupts nothing, is never interrupted, and its scenes never sound on the output.
    case audioProcessing

    /// Higher wins: audioProcessing and ambient 0, soloAmbient 1, playback 2, playAndRecord and record 3.
    public var priority: Int {
        switch self {
        case .ambient, .audioProcessing: 0
        case .soloAmbient: 1
        case .playback: 2
        case .playAndRecord, .record: 3
        }
    }

    /// Whether the session's scenes and system sounds may sound (all but `record` and `audioProcessing`).
    public var playsAudio: Bool { self != .record && self != .audioProcessing }
}

/// How a session treats the others while it is active.
public struct SessionOptions: OptionSet, Sendable, Hashable {
    /// The session's bits.
    public let rawValue: Int
    /// Creates options from bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Mix with the other sessions instead of interrupting them (and be left alone by sessions
    /// that interrupt, unless the category is `ambient`).
    public static let mixWithOthers = SessionOptions(rawValue: 1)
    /// Mix, and lower the other active sessions to the center's duck gain while this one is active.
    public static let duckOthers = SessionOptions(rawValue: 2)
}

/// Why an interruption began.
public enum InterruptionReason: String, Sendable, Codable {
    /// The application asked for it (focus lost, a cut-scene, its own voice chat).
    case application
    /// Another session of higher (or equal) priority that does not mix became active.
    case otherSessionActivated
    /// The output device went away.
    case deviceUnavailable
    /// The desktop audio server asked Soundstage's stream to pause (`PA_STREAM_EVENT_REQUEST_CORK`,
    /// which `module-role-cork` sends while a `phone` stream plays): the Linux counterpart of an
    /// incoming call on iOS.
    case systemRequest
}

/// Something that happened to a session, in order, stamped with the center's clock.
public struct SessionEvent: Sendable, Equatable, CustomStringConvertible {
    /// What happened.
    public enum Kind: Sendable, Equatable {
        /// The session became active.
        case activated
        /// The session became inactive.
        case deactivated
        /// Its audio was interrupted: it no longer sounds.
        case interruptionBegan(InterruptionReason)
        /// The interruption ended; if `shouldResume`, what was playing has been resumed.
        case interruptionEnded(shouldResume: Bool)
        /// Another session ducks this one to `gain`.
        case ducked(gain: Float)
        /// Ducking ended.
        case unducked
    }

    /// What happened.
    public let kind: Kind
    /// When, on the center's clock (seconds).
    public let time: Double

    /// Creates an event (for observers' tests and replays).
    public init(kind: Kind, time: Double) {
        self.kind = kind
        self.time = time
    }

    /// e.g. `interruptionBegan(application) at 2.0`.
    public var description: String { "\(kind) at \(time)" }
}
