import Foundation
import Soundstage

// Every error a SoundstageCompat API throws is an `NSError`, as every error is on iOS.
//
// On Linux a Swift error is not an `NSError`: `catch let error as NSError` — which the compiler
// accepts as exhaustive, as on iOS — does not match a thrown Swift struct, and the program dies
// (swiftlang/swift#65106). iOS code catches that way more than any other, so the iOS names
// throw real `NSError`s: iOS's domain and code for the same failure, a description saying what
// happened, and the `SoundstageError` behind it under `NSUnderlyingErrorKey`.

// Audio File Services' result codes (kAudioFileUnsupportedFileTypeError, kAudio_ParamError, ...),
// which iOS puts in an `NSError` of `NSOSStatusErrorDomain` when `AVAudioPlayer` cannot open a
// file, come from AudioToolbox (re-exported by this module, as AVFoundation brings it on iOS).

extension AVAudioSession {
    /// The codes of the errors an audio session reports (in `NSOSStatusErrorDomain`), with iOS's
    /// raw values.
    public enum ErrorCode: Int, Sendable {
        /// No error.
        case none = 0
        /// The media server failed (on Linux: the desktop audio server refused or dropped the output).
        case mediaServicesFailed = 0x6D73_7276       // 'msrv'
        /// Deactivation refused while playing or recording.
        case isBusy = 0x2161_6374                    // '!act'
        /// The category does not allow the call (recording in a playback category).
        case incompatibleCategory = 0x2163_6174      // '!cat'
        /// A session of higher priority that does not mix holds the output.
        case cannotInterruptOthers = 0x2169_6E74     // '!int'
        /// The app lacks an entitlement (never on Linux).
        case missingEntitlement = 0x656E_743F        // 'ent?'
        /// Siri is recording (never on Linux).
        case siriIsRecording = 0x7369_7269           // 'siri'
        /// Playing may not start.
        case cannotStartPlaying = 0x2170_6C61        // '!pla'
        /// Recording may not start.
        case cannotStartRecording = 0x2172_6563      // '!rec'
        /// A value out of range.
        case badParam = -50
        /// Another session of higher priority (a call) holds the audio: what activating answers
        /// during a phone call on iOS, and during a voice chat's `playAndRecord` session here.
        case insufficientPriority = 0x2170_7269      // '!pri'
        /// The hardware is missing (no output device, no input to record from).
        case resourceNotAvailable = 0x2172_6573      // '!res'
        /// Anything else.
        case unspecified = 0x7768_6174               // 'what'
        /// The session is gone.
        case expiredSession = 0x2173_6573            // '!ses'
        /// The session is not active.
        case sessionNotActive = 0x696E_6163          // 'inac'
    }
}

extension SoundstageError {
    /// This failure as iOS reports the same one: an `NSError` in `NSOSStatusErrorDomain` with
    /// Audio File Services' code for a file's failures (``kAudioFileUnspecifiedError`` for a file
    /// that is not there, as `AVAudioPlayer` on iOS says, ``kAudioFileUnsupportedFileTypeError``
    /// for one it cannot read, ...) and `AVAudioSession.ErrorCode` for the session's
    /// (`NSPOSIXErrorDomain` and the `errno` for a system call's); `localizedDescription` is
    /// ``description`` and `userInfo[NSUnderlyingErrorKey]` is this error.
    public var nsError: NSError {
        var domain = NSOSStatusErrorDomain
        let code: Int
        switch self.code {
        case .notFound: code = Int(kAudioFileUnspecifiedError)
        case .unsupportedFormat: code = Int(kAudioFileUnsupportedFileTypeError)
        case .codecUnavailable: code = Int(kAudioFileUnsupportedDataFormatError)
        case .permissionDenied: code = Int(kAudioFilePermissionsError)
        case .corruptData: code = Int(kAudioFileInvalidFileError)
        case .invalidArgument: code = AVAudioSession.ErrorCode.badParam.rawValue
        case .sessionUnavailable: code = AVAudioSession.ErrorCode.insufficientPriority.rawValue
        case .sessionNotActive: code = AVAudioSession.ErrorCode.sessionNotActive.rawValue
        case .categoryForbids: code = AVAudioSession.ErrorCode.incompatibleCategory.rawValue
        case .noOutputDevice, .noInputDevice: code = AVAudioSession.ErrorCode.resourceNotAvailable.rawValue
        case .audioServer: code = AVAudioSession.ErrorCode.mediaServicesFailed.rawValue
        case .sourceBudgetExhausted, .voiceLimitReached: code = AVAudioSession.ErrorCode.cannotStartPlaying.rawValue
        case .io:
            if case .posix(_, let errno)? = cause {
                domain = NSPOSIXErrorDomain
                code = Int(errno)
            } else {
                code = Int(kAudioFileUnspecifiedError)
            }
        default: code = AVAudioSession.ErrorCode.unspecified.rawValue
        }
        return NSError(domain: domain, code: code, userInfo: [NSLocalizedDescriptionKey: description, NSUnderlyingErrorKey: self])
    }
}

/// Runs `body`, throwing what it throws as an `NSError` (``SoundstageError/nsError`` for
/// Soundstage's errors).
func throwingNSError<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as SoundstageError {
        throw error.nsError
    } catch {
        throw error as NSError
    }
}
