// The codes the Audio Session C API returns (AudioToolbox/AudioSession.h), as a StatusError.

/// An Audio Session C API error on its way out.
struct SessionStatus: StatusError, Equatable {
    /// The code the C function returns.
    let status: OSStatus

    private init(_ code: Int) { status = OSStatus(truncatingIfNeeded: code) }

    /// Before `AudioSessionInitialize`.
    static let notInitialized = SessionStatus(kAudioSessionNotInitialized)
    /// A second `AudioSessionInitialize`.
    static let alreadyInitialized = SessionStatus(kAudioSessionAlreadyInitialized)
    /// No output could be opened for the session.
    static let initialization = SessionStatus(kAudioSessionInitializationError)
    /// A property Soundstage does not have, a read-only one set, a write-only one read, or a NULL pointer.
    static let unsupportedProperty = SessionStatus(kAudioSessionUnsupportedPropertyError)
    /// A value of the wrong size.
    static let badPropertySize = SessionStatus(kAudioSessionBadPropertySizeError)
    /// Activation refused: a session of higher priority that does not mix holds the output.
    static let notActive = SessionStatus(kAudioSessionNotActiveError)
    /// A category or route value iOS does not have.
    static let incompatibleCategory = SessionStatus(kAudioSessionIncompatibleCategory)
}
