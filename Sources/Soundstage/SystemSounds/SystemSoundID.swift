/// The handle of a registered system sound (the counterpart of iOS's `SystemSoundID`).
public struct SystemSoundID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The number; IDs are never reused within a registry.
    public let rawValue: UInt32
    /// Wraps a number.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// The number.
    public var description: String { String(rawValue) }
}

/// How one play attempt of a system sound ended. Every attempt gets exactly one.
public enum SystemSoundOutcome: Sendable, Equatable {
    /// It played to its end.
    case finished
    /// A newer system sound took its place (one at a time by default).
    case replaced
    /// The same sound was started within the coalescing window and is still playing; this
    /// attempt added nothing (reported at once).
    case coalesced
    /// Nothing was heard: system sounds are disabled, or an interruption is in progress.
    case silenced
    /// The sound was disposed while playing.
    case disposed
    /// The attempt failed (e.g. an unknown ID); the error says why.
    case failed(SoundstageError)
}

extension SystemSoundRegistry {
    /// ``SystemSoundID`` by another name, for code where `SystemSoundID` means something else
    /// (SoundstageCompat declares Audio Toolbox's `UInt32` one).
    public typealias SoundID = SystemSoundID
}
