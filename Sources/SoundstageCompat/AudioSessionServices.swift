import Foundation
import Soundstage

/// A property of the C Audio Session API (a four-character code).
public typealias AudioSessionPropertyID = UInt32
/// The interruption listener `AudioSessionInitialize` takes: client data and
/// `kAudioSessionBeginInterruption` or `kAudioSessionEndInterruption`.
public typealias AudioSessionInterruptionListener = @convention(c) (UnsafeMutableRawPointer?, UInt32) -> Void
/// A property listener: client data, the property, the size of the value and the value.
public typealias AudioSessionPropertyListener = @convention(c) (UnsafeMutableRawPointer?, AudioSessionPropertyID, UInt32, UnsafeRawPointer?) -> Void

/// The interruption listener's states.
public let kAudioSessionBeginInterruption: UInt32 = 1
public let kAudioSessionEndInterruption: UInt32 = 0

/// The properties Soundstage answers.
public let kAudioSessionProperty_AudioCategory: AudioSessionPropertyID = 0x6163_6174            // 'acat'
public let kAudioSessionProperty_OtherAudioIsPlaying: AudioSessionPropertyID = 0x6F74_6872     // 'othr'
public let kAudioSessionProperty_AudioInputAvailable: AudioSessionPropertyID = 0x6169_6176     // 'aiav'
public let kAudioSessionProperty_AudioRouteChange: AudioSessionPropertyID = 0x726F_6368        // 'roch'
public let kAudioSessionProperty_CurrentHardwareSampleRate: AudioSessionPropertyID = 0x6368_7372 // 'chsr'
public let kAudioSessionProperty_CurrentHardwareOutputVolume: AudioSessionPropertyID = 0x6368_6F76 // 'chov'
public let kAudioSessionProperty_CurrentHardwareIOBufferDuration: AudioSessionPropertyID = 0x6368_6264 // 'chbd'
public let kAudioSessionProperty_PreferredHardwareIOBufferDuration: AudioSessionPropertyID = 0x696F_6264 // 'iobd'
public let kAudioSessionProperty_PreferredHardwareSampleRate: AudioSessionPropertyID = 0x6873_7223 // 'hsr#'

/// Categories for `kAudioSessionProperty_AudioCategory` (a `UInt32`).
public let kAudioSessionCategory_AmbientSound: UInt32 = 0x616D_6269     // 'ambi'
public let kAudioSessionCategory_SoloAmbientSound: UInt32 = 0x736F_6C6F // 'solo'
public let kAudioSessionCategory_MediaPlayback: UInt32 = 0x6D65_6469    // 'medi'
public let kAudioSessionCategory_RecordAudio: UInt32 = 0x7265_6361      // 'reca'
public let kAudioSessionCategory_PlayAndRecord: UInt32 = 0x706C_6172    // 'plar'
public let kAudioSessionCategory_AudioProcessing: UInt32 = 0x7072_6F63  // 'proc'

/// The route-change dictionary's reason key (`kAudioSession_AudioRouteChangeKey_Reason`) and
/// its values, as `kAudioSessionProperty_AudioRouteChange` listeners receive them.
public let kAudioSession_AudioRouteChangeKey_Reason = "OutputDeviceDidChange_Reason"
public let kAudioSessionRouteChangeReason_NewDeviceAvailable: UInt32 = 1
public let kAudioSessionRouteChangeReason_OldDeviceUnavailable: UInt32 = 2
public let kAudioSessionRouteChangeReason_CategoryChange: UInt32 = 3
public let kAudioSessionRouteChangeReason_Override: UInt32 = 4

/// Status codes.
public let kAudioSessionNoError: OSStatus = 0
public let kAudioSessionNotInitialized: OSStatus = 0x2169_6E69        // '!ini'
public let kAudioSessionAlreadyInitialized: OSStatus = 0x696E_6974    // 'init'
public let kAudioSessionUnsupportedPropertyError: OSStatus = 0x7074_793F // 'pty?'
public let kAudioSessionBadPropertySizeError: OSStatus = 0x2173_697A  // '!siz'
public let kAudioSessionNotActiveError: OSStatus = 0x2161_6374        // '!act'
public let kAudioSessionIncompatibleCategory: OSStatus = 0x2163_6174  // '!cat'

/// The C Audio Session API's state: the listeners, over `AVAudioSession.sharedInstance()`.
final class AudioSessionServices: @unchecked Sendable {
    static let shared = AudioSessionServices()
    private let lock = NSLock()
    private var initialized = false
    private var interruption: (AudioSessionInterruptionListener, UnsafeMutableRawPointer?)?
    private var routeListeners: [(AudioSessionPropertyListener, UnsafeMutableRawPointer?)] = []
    private var tokens: [NSObjectProtocol] = []

    func initialize(_ listener: AudioSessionInterruptionListener?, _ data: UnsafeMutableRawPointer?) -> OSStatus {
        lock.lock()
        defer { lock.unlock() }
        if initialized { return kAudioSessionAlreadyInitialized }
        guard (try? CompatEngine.shared()) != nil else { return kAudioServicesSystemSoundUnspecifiedError }
        initialized = true
        interruption = listener.map { ($0, data) }
        let session = AVAudioSession.sharedInstance()
        tokens.append(NotificationCenter.default.addObserver(forName: AVAudioSession.interruptionNotification, object: session, queue: nil) {
            [weak self] note in
            guard let self, let raw = note.userInfo?[AVAudioSessionInterruptionTypeKey] as? UInt,
                  let listener = lock.withLock({ interruption }) else { return }
            listener.0(listener.1, raw == AVAudioSession.InterruptionType.began.rawValue ? kAudioSessionBeginInterruption : kAudioSessionEndInterruption)
        })
        tokens.append(NotificationCenter.default.addObserver(forName: AVAudioSession.routeChangeNotification, object: session, queue: nil) {
            [weak self] note in
            guard let self, let reason = note.userInfo?[AVAudioSessionRouteChangeReasonKey] as? UInt else { return }
            var value = UInt32(reason)
            for listener in lock.withLock({ routeListeners }) {
                withUnsafeBytes(of: &value) { listener.0(listener.1, kAudioSessionProperty_AudioRouteChange, UInt32($0.count), $0.baseAddress) }
            }
        })
        return kAudioSessionNoError
    }

    var isInitialized: Bool { lock.withLock { initialized } }

    func addRouteListener(_ listener: AudioSessionPropertyListener, _ data: UnsafeMutableRawPointer?) {
        lock.withLock { routeListeners.append((listener, data)) }
    }

    func removeRouteListeners() { lock.withLock { routeListeners.removeAll() } }
}

/// Initializes the session and installs the interruption listener (called with
/// `kAudioSessionBeginInterruption` / `kAudioSessionEndInterruption` on the engine's thread).
/// `inRunLoop` and `inRunLoopMode` are ignored.
@discardableResult
public func AudioSessionInitialize(_ inRunLoop: CFRunLoop?, _ inRunLoopMode: CFString?, _ inInterruptionListener: AudioSessionInterruptionListener?,
                                   _ inClientData: UnsafeMutableRawPointer?) -> OSStatus {
    AudioSessionServices.shared.initialize(inInterruptionListener, inClientData)
}

/// Activates or deactivates the session.
@discardableResult
public func AudioSessionSetActive(_ active: Bool) -> OSStatus {
    guard AudioSessionServices.shared.isInitialized else { return kAudioSessionNotInitialized }
    do {
        try AVAudioSession.sharedInstance().setActive(active)
        return kAudioSessionNoError
    } catch {
        return kAudioSessionNotActiveError
    }
}

/// Sets a property: `kAudioSessionProperty_AudioCategory` (a `UInt32` category) and
/// `kAudioSessionProperty_PreferredHardwareIOBufferDuration` / `_PreferredHardwareSampleRate`
/// (a `Float64`). Others are `kAudioSessionUnsupportedPropertyError`.
@discardableResult
public func AudioSessionSetProperty(_ inID: AudioSessionPropertyID, _ inDataSize: UInt32, _ inData: UnsafeRawPointer) -> OSStatus {
    guard AudioSessionServices.shared.isInitialized else { return kAudioSessionNotInitialized }
    let session = AVAudioSession.sharedInstance()
    switch inID {
    case kAudioSessionProperty_AudioCategory:
        guard inDataSize == 4 else { return kAudioSessionBadPropertySizeError }
        let category: AVAudioSession.Category
        switch inData.loadUnaligned(as: UInt32.self) {
        case kAudioSessionCategory_AmbientSound: category = .ambient
        case kAudioSessionCategory_SoloAmbientSound: category = .soloAmbient
        case kAudioSessionCategory_MediaPlayback: category = .playback
        case kAudioSessionCategory_RecordAudio: category = .record
        case kAudioSessionCategory_PlayAndRecord: category = .playAndRecord
        default: return kAudioSessionIncompatibleCategory
        }
        return (try? session.setCategory(category)) != nil ? kAudioSessionNoError : kAudioSessionIncompatibleCategory
    case kAudioSessionProperty_PreferredHardwareIOBufferDuration, kAudioSessionProperty_PreferredHardwareSampleRate:
        guard inDataSize == 8 else { return kAudioSessionBadPropertySizeError }
        let value = inData.loadUnaligned(as: Double.self)
        do {
            if inID == kAudioSessionProperty_PreferredHardwareSampleRate {
                try session.setPreferredSampleRate(value)
            } else {
                try session.setPreferredIOBufferDuration(value)
            }
            return kAudioSessionNoError
        } catch {
            return kAudioSessionBadPropertySizeError
        }
    default:
        return kAudioSessionUnsupportedPropertyError
    }
}

/// Reads a property into `outData` (of `ioDataSize` bytes, updated to the size written):
/// `_AudioCategory`, `_OtherAudioIsPlaying` and `_AudioInputAvailable` (`UInt32`),
/// `_CurrentHardwareSampleRate` and `_CurrentHardwareIOBufferDuration` (`Float64`),
/// `_CurrentHardwareOutputVolume` (`Float32`).
@discardableResult
public func AudioSessionGetProperty(_ inID: AudioSessionPropertyID, _ ioDataSize: UnsafeMutablePointer<UInt32>,
                                    _ outData: UnsafeMutableRawPointer) -> OSStatus {
    guard AudioSessionServices.shared.isInitialized else { return kAudioSessionNotInitialized }
    let session = AVAudioSession.sharedInstance()
    func write<T>(_ value: T) -> OSStatus {
        guard ioDataSize.pointee >= UInt32(MemoryLayout<T>.size) else { return kAudioSessionBadPropertySizeError }
        outData.storeBytes(of: value, as: T.self)
        ioDataSize.pointee = UInt32(MemoryLayout<T>.size)
        return kAudioSessionNoError
    }
    switch inID {
    case kAudioSessionProperty_AudioCategory:
        let code: UInt32 = switch session.category {
        case .ambient: kAudioSessionCategory_AmbientSound
        case .playback: kAudioSessionCategory_MediaPlayback
        case .record: kAudioSessionCategory_RecordAudio
        case .playAndRecord: kAudioSessionCategory_PlayAndRecord
        default: kAudioSessionCategory_SoloAmbientSound
        }
        return write(code)
    case kAudioSessionProperty_OtherAudioIsPlaying: return write(UInt32(session.isOtherAudioPlaying ? 1 : 0))
    case kAudioSessionProperty_AudioInputAvailable: return write(UInt32(session.isInputAvailable ? 1 : 0))
    case kAudioSessionProperty_CurrentHardwareSampleRate: return write(session.sampleRate)
    case kAudioSessionProperty_CurrentHardwareIOBufferDuration: return write(session.ioBufferDuration)
    case kAudioSessionProperty_CurrentHardwareOutputVolume: return write(session.outputVolume)
    default: return kAudioSessionUnsupportedPropertyError
    }
}

/// Adds a listener; only `kAudioSessionProperty_AudioRouteChange` is reported (the value is the
/// reason, a `UInt32`, where iOS passes a dictionary holding it).
@discardableResult
public func AudioSessionAddPropertyListener(_ inID: AudioSessionPropertyID, _ inProc: AudioSessionPropertyListener,
                                            _ inClientData: UnsafeMutableRawPointer?) -> OSStatus {
    guard AudioSessionServices.shared.isInitialized else { return kAudioSessionNotInitialized }
    guard inID == kAudioSessionProperty_AudioRouteChange else { return kAudioSessionUnsupportedPropertyError }
    AudioSessionServices.shared.addRouteListener(inProc, inClientData)
    return kAudioSessionNoError
}

/// Removes the route-change listeners.
@discardableResult
public func AudioSessionRemovePropertyListener(_ inID: AudioSessionPropertyID) -> OSStatus {
    guard inID == kAudioSessionProperty_AudioRouteChange else { return kAudioSessionUnsupportedPropertyError }
    AudioSessionServices.shared.removeRouteListeners()
    return kAudioSessionNoError
}
