import Foundation
import Soundstage

/// A registered system sound (Audio Toolbox's `SystemSoundID`).
public typealias SystemSoundID = UInt32
/// A completion procedure, as `AudioServicesAddSystemSoundCompletion` takes it.
public typealias AudioServicesSystemSoundCompletionProc = @convention(c) (SystemSoundID, UnsafeMutableRawPointer?) -> Void

/// No error.
public let kAudioServicesNoError: OSStatus = 0
/// An ID that was never registered or was disposed (iOS's 'pty?': no such property).
public let kAudioServicesUnsupportedPropertyError: OSStatus = 0x7074_793F   // 'pty?'
/// A wrong property size.
public let kAudioServicesBadPropertySizeError: OSStatus = 0x2173_697A      // '!siz'
/// A wrong specifier size.
public let kAudioServicesBadSpecifierSizeError: OSStatus = 0x2173_7063     // '!spc'
/// The sound could not be created or played (a missing or unreadable file, an unknown ID).
public let kAudioServicesSystemSoundUnspecifiedError: OSStatus = -1500
/// A client timed out (never returned by Soundstage).
public let kAudioServicesSystemSoundClientTimedOutError: OSStatus = -1501
/// The sound is longer than a system sound may be (30 s).
public let kAudioServicesSystemSoundExceededMaximumDurationError: OSStatus = -1502
/// Vibrates the device on iOS. On Linux it calls the registry's attention handler
/// (``SystemSoundRegistry/attentionHandler``: a game may flash its window or rumble a pad),
/// and does nothing else.
public let kSystemSoundID_Vibrate: SystemSoundID = 0x0000_0FFF
/// The user-interface sound effects' pseudo-ID is not registered on Linux.
public let kSystemSoundID_UserPreferredAlert: SystemSoundID = 0x0000_1000

/// Registers the file at `inFileURL` and writes its ID to `outSystemSoundID`.
@discardableResult
public func AudioServicesCreateSystemSoundID(_ inFileURL: CFURL, _ outSystemSoundID: UnsafeMutablePointer<SystemSoundID>) -> OSStatus {
    SystemSoundServices.status {
        outSystemSoundID.pointee = try CompatEngine.shared().registry.register(file: inFileURL.path).rawValue
    }
}

/// Disposes of a system sound.
@discardableResult
public func AudioServicesDisposeSystemSoundID(_ inSystemSoundID: SystemSoundID) -> OSStatus {
    SystemSoundServices.status { try CompatEngine.shared().registry.dispose(engineID(inSystemSoundID)) }
}

/// Plays a system sound (errors are silent, as on iOS).
public func AudioServicesPlaySystemSound(_ inSystemSoundID: SystemSoundID) {
    SystemSoundServices.play(inSystemSoundID, alert: false, completion: nil)
}

/// Plays a system sound as an alert (with the registry's attention handler).
public func AudioServicesPlayAlertSound(_ inSystemSoundID: SystemSoundID) {
    SystemSoundServices.play(inSystemSoundID, alert: true, completion: nil)
}

/// Plays a system sound and calls `inCompletionBlock` when it ends, once, on the engine's
/// thread (any closure is taken, as iOS takes any block).
public func AudioServicesPlaySystemSoundWithCompletion(_ inSystemSoundID: SystemSoundID, _ inCompletionBlock: (() -> Void)?) {
    SystemSoundServices.play(inSystemSoundID, alert: false, completion: SystemSoundServices.handOver(inCompletionBlock))
}

/// Plays an alert sound and calls `inCompletionBlock` when it ends, once, on the engine's thread.
public func AudioServicesPlayAlertSoundWithCompletion(_ inSystemSoundID: SystemSoundID, _ inCompletionBlock: (() -> Void)?) {
    SystemSoundServices.play(inSystemSoundID, alert: true, completion: SystemSoundServices.handOver(inCompletionBlock))
}

/// Calls `inCompletionRoutine` with `inClientData` each time the sound finishes playing.
/// `inRunLoop` and `inRunLoopMode` are ignored: it runs on the engine's thread.
@discardableResult
public func AudioServicesAddSystemSoundCompletion(_ inSystemSoundID: SystemSoundID, _ inRunLoop: CFRunLoop?, _ inRunLoopMode: CFString?,
                                                  _ inCompletionRoutine: AudioServicesSystemSoundCompletionProc,
                                                  _ inClientData: UnsafeMutableRawPointer?) -> OSStatus {
    let data = HandedOver(inClientData)
    return SystemSoundServices.status {
        try CompatEngine.shared().registry.addCompletion(engineID(inSystemSoundID)) { id in
            CompatOutput.deliver { inCompletionRoutine(id.rawValue, data.value) }
        }
    }
}

/// Removes the completion of a system sound.
public func AudioServicesRemoveSystemSoundCompletion(_ inSystemSoundID: SystemSoundID) {
    _ = SystemSoundServices.status { try CompatEngine.shared().registry.removeCompletion(engineID(inSystemSoundID)) }
}

/// Soundstage's own sound ID type (this module's `SystemSoundID` is Audio Toolbox's `UInt32`).
typealias EngineSoundID = SystemSoundRegistry.SoundID

/// Soundstage's sound ID for Audio Toolbox's number.
func engineID(_ raw: UInt32) -> EngineSoundID { EngineSoundID(rawValue: raw) }

/// The glue between Audio Toolbox's spelling and ``SystemSoundRegistry``.
enum SystemSoundServices {
    /// A caller's completion, called on the engine's thread as iOS calls a block on its own.
    static func handOver(_ completion: (() -> Void)?) -> (@Sendable () -> Void)? {
        guard let completion else { return nil }
        let handed = HandedOver(completion)
        return { CompatOutput.deliver { handed.value() } }
    }

    /// Runs `body`, mapping its error to Audio Toolbox's status codes.
    static func status(_ body: () throws -> Void) -> OSStatus {
        do {
            try body()
            return kAudioServicesNoError
        } catch let error as SoundstageError {
            switch error.code {
            case .exceededMaximumDuration: return kAudioServicesSystemSoundExceededMaximumDurationError
            case .unknownSoundID: return kAudioServicesUnsupportedPropertyError
            default: return kAudioServicesSystemSoundUnspecifiedError
            }
        } catch {
            return kAudioServicesSystemSoundUnspecifiedError
        }
    }

    static func play(_ id: SystemSoundID, alert: Bool, completion: (@Sendable () -> Void)?) {
        guard let registry = try? CompatEngine.shared().registry else { return }
        if id == kSystemSoundID_Vibrate {
            registry.attentionHandler?(engineID(id))
            completion?()
            return
        }
        var done: (@Sendable (SystemSoundOutcome) -> Void)?
        if let completion { done = { _ in completion() } }
        let sound: EngineSoundID = engineID(id)
        do {
            if alert { try registry.playAlert(sound, completion: done) } else { try registry.play(sound, completion: done) }
        } catch {
            // An unknown or disposed ID plays nothing, silently, as on iOS; its completion still runs.
            completion?()
        }
    }
}
