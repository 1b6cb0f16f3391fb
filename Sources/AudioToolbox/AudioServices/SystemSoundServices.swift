// System Sound Services (AudioToolbox/AudioServices.h), for C and Swift at once, on the system-sound
// registry of the app's session (ApplicationAudio). Completions follow CallbackRunLoop.swift; the
// block forms, which C on Linux cannot spell, are Swift functions taking a closure.
import NIOConcurrencyHelpers
import Soundstage

/// A System Sound Services error on its way out.
struct SystemSoundStatus: StatusError, Equatable {
    /// The code the C function returns.
    let status: OSStatus

    /// An ID never made, or disposed (iOS's 'pty?').
    static let unsupportedProperty = SystemSoundStatus(status: kAudioServicesUnsupportedPropertyError)
    /// A value of the wrong size.
    static let badPropertySize = SystemSoundStatus(status: kAudioServicesBadPropertySizeError)
    /// A specifier that is not one SystemSoundID.
    static let badSpecifierSize = SystemSoundStatus(status: kAudioServicesBadSpecifierSizeError)
    /// A missing or unreadable file, no output, a NULL pointer.
    static let unspecified = SystemSoundStatus(status: kAudioServicesSystemSoundUnspecifiedError)
    /// Longer than 30 s.
    static let exceededMaximumDuration = SystemSoundStatus(status: kAudioServicesSystemSoundExceededMaximumDurationError)

    /// Soundstage's error as System Sound Services names it.
    init(_ error: any Error) {
        switch (error as? SoundstageError)?.code {
        case .exceededMaximumDuration: self = .exceededMaximumDuration
        case .unknownSoundID: self = .unsupportedProperty
        default: self = .unspecified
        }
    }

    private init(status: OSStatus) { self.status = status }
}

/// What System Sound Services keeps beside the registry: each sound's completion and properties.
final class SystemSoundServices: Sendable {
    typealias Completion = CCallback<AudioServicesSystemSoundCompletionProc>

    private struct Sound {
        var completion: Completion?
        var isUISound: UInt32 = 1
        var completeIfAppDies: UInt32 = 0
    }

    private let sounds = NIOLockedValueBox([CAudioToolbox.SystemSoundID: Sound]())

    static let shared = SystemSoundServices()

    /// The registry of the app's audio, made on first use.
    static func registry() throws(SystemSoundStatus) -> SystemSoundRegistry {
        do { return try ApplicationAudio.shared().registry } catch { throw SystemSoundStatus(error) }
    }

    /// Runs `body` on the registry, mapping Soundstage's errors.
    static func withRegistry<T>(_ body: (SystemSoundRegistry) throws -> T) throws(SystemSoundStatus) -> T {
        let registry = try registry()
        do { return try body(registry) } catch { throw SystemSoundStatus(error) }
    }

    func create(path: String) throws(SystemSoundStatus) -> CAudioToolbox.SystemSoundID {
        let id = try Self.withRegistry { try $0.register(file: path).rawValue }
        sounds.withLockedValue { $0[id] = Sound() }
        return id
    }

    func dispose(_ id: CAudioToolbox.SystemSoundID) throws(SystemSoundStatus) {
        try Self.withRegistry { try $0.dispose(SystemSoundRegistry.SoundID(rawValue: id)) }
        sounds.withLockedValue { $0.removeValue(forKey: id) }?.completion?.detach()
    }

    func addCompletion(_ id: CAudioToolbox.SystemSoundID, _ completion: Completion) throws(SystemSoundStatus) {
        try Self.withRegistry { registry in
            try registry.addCompletion(SystemSoundRegistry.SoundID(rawValue: id)) { sound in
                completion.deliver { completion.function(sound.rawValue, completion.clientData) }
            }
        }
        completion.attach()
        let previous = sounds.withLockedValue { sounds -> Completion? in
            defer { sounds[id, default: Sound()].completion = completion }
            return sounds[id]?.completion
        }
        previous?.detach()
    }

    func removeCompletion(_ id: CAudioToolbox.SystemSoundID) {
        _ = try? Self.withRegistry { try $0.removeCompletion(SystemSoundRegistry.SoundID(rawValue: id)) }
        let previous = sounds.withLockedValue { sounds -> Completion? in
            defer { sounds[id]?.completion = nil }
            return sounds[id]?.completion
        }
        previous?.detach()
    }

    /// Plays a sound; an unknown or disposed ID plays nothing, silently, as on iOS, and its
    /// completion (the block forms') still runs.
    static func play(_ id: CAudioToolbox.SystemSoundID, alert: Bool, completion: (@Sendable () -> Void)?) {
        guard let registry = try? registry() else {
            completion?()
            return
        }
        if id == kSystemSoundID_Vibrate || id == kSystemSoundID_FlashScreen {
            registry.attentionHandler?(SystemSoundRegistry.SoundID(rawValue: id))
            completion?()
            return
        }
        var done: (@Sendable (SystemSoundOutcome) -> Void)?
        if let completion { done = { _ in completion() } }
        do {
            if alert {
                try registry.playAlert(SystemSoundRegistry.SoundID(rawValue: id), completion: done)
            } else {
                try registry.play(SystemSoundRegistry.SoundID(rawValue: id), completion: done)
            }
        } catch {
            completion?()
        }
    }

    // MARK: Properties

    /// The sound a property's specifier names.
    private func sound(_ size: UInt32, _ specifier: UnsafeRawPointer?) throws(SystemSoundStatus) -> CAudioToolbox.SystemSoundID {
        guard size == 4, let specifier else { throw .badSpecifierSize }
        let id = specifier.loadUnaligned(as: CAudioToolbox.SystemSoundID.self)
        guard sounds.withLockedValue({ $0[id] != nil }) else { throw .unsupportedProperty }
        return id
    }

    private static func isKnown(_ property: AudioServicesPropertyID) -> Bool {
        property == kAudioServicesPropertyIsUISound || property == kAudioServicesPropertyCompletePlaybackIfAppDies
    }

    func property(_ property: AudioServicesPropertyID, _ size: UInt32, _ specifier: UnsafeRawPointer?) throws(SystemSoundStatus) -> UInt32 {
        guard Self.isKnown(property) else { throw .unsupportedProperty }
        let id = try sound(size, specifier)
        let kept = sounds.withLockedValue { $0[id] ?? Sound() }
        return property == kAudioServicesPropertyIsUISound ? kept.isUISound : kept.completeIfAppDies
    }

    func setProperty(_ property: AudioServicesPropertyID, _ size: UInt32, _ specifier: UnsafeRawPointer?,
                     _ value: UInt32) throws(SystemSoundStatus) {
        guard Self.isKnown(property) else { throw .unsupportedProperty }
        let id = try sound(size, specifier)
        sounds.withLockedValue { sounds in
            if property == kAudioServicesPropertyIsUISound { sounds[id]?.isUISound = value } else { sounds[id]?.completeIfAppDies = value }
        }
    }

    static func checkProperty(_ property: AudioServicesPropertyID) throws(SystemSoundStatus) {
        guard isKnown(property) else { throw .unsupportedProperty }
    }
}

// MARK: - The C functions

/// `AudioServicesCreateSystemSoundID` from C: registers the sound file at a file URL.
@c(AudioServicesCreateSystemSoundID)
public func _AudioServicesCreateSystemSoundID(_ inFileURL: UnsafeRawPointer?, _ outSystemSoundID: UnsafeMutablePointer<CAudioToolbox.SystemSoundID>?) -> OSStatus {
    osStatus { () throws(SystemSoundStatus) in
        guard let outSystemSoundID, let url = cfURL(inFileURL) else { throw .unspecified }
        outSystemSoundID.pointee = try SystemSoundServices.shared.create(path: url.path)
        CFRunLoopStorage.attachAudioSystem()
    }
}

@c @implementation
public func AudioServicesDisposeSystemSoundID(_ inSystemSoundID: CAudioToolbox.SystemSoundID) -> OSStatus {
    osStatus { () throws(SystemSoundStatus) in try SystemSoundServices.shared.dispose(inSystemSoundID) }
}

@c @implementation
public func AudioServicesPlaySystemSound(_ inSystemSoundID: CAudioToolbox.SystemSoundID) {
    SystemSoundServices.play(inSystemSoundID, alert: false, completion: nil)
}

@c @implementation
public func AudioServicesPlayAlertSound(_ inSystemSoundID: CAudioToolbox.SystemSoundID) {
    SystemSoundServices.play(inSystemSoundID, alert: true, completion: nil)
}

/// `AudioServicesAddSystemSoundCompletion` from C: the routine runs on `inRunLoop` (NULL:
/// Soundstage's own thread) in `inRunLoopMode` each time the sound ends.
@c(AudioServicesAddSystemSoundCompletion)
public func _AudioServicesAddSystemSoundCompletion(_ inSystemSoundID: CAudioToolbox.SystemSoundID, _ inRunLoop: UnsafeRawPointer?,
                                                   _ inRunLoopMode: UnsafeRawPointer?,
                                                   _ inCompletionRoutine: AudioServicesSystemSoundCompletionProc?,
                                                   _ inClientData: UnsafeMutableRawPointer?) -> OSStatus {
    osStatus { () throws(SystemSoundStatus) in
        guard let inCompletionRoutine else { throw .unspecified }
        try SystemSoundServices.shared.addCompletion(inSystemSoundID,
                                                     CCallback(inCompletionRoutine, inClientData, runLoop: inRunLoop, mode: inRunLoopMode))
    }
}

@c @implementation
public func AudioServicesRemoveSystemSoundCompletion(_ inSystemSoundID: CAudioToolbox.SystemSoundID) {
    SystemSoundServices.shared.removeCompletion(inSystemSoundID)
}

@c @implementation
public func AudioServicesGetPropertyInfo(_ inPropertyID: AudioServicesPropertyID, _ inSpecifierSize: UInt32,
                                         _ inSpecifier: UnsafeRawPointer?, _ outPropertyDataSize: UnsafeMutablePointer<UInt32>?,
                                         _ outWritable: UnsafeMutablePointer<Bool>?) -> OSStatus {
    osStatus { () throws(SystemSoundStatus) in
        try SystemSoundServices.checkProperty(inPropertyID)
        outPropertyDataSize?.pointee = 4
        outWritable?.pointee = true
    }
}

@c @implementation
public func AudioServicesGetProperty(_ inPropertyID: AudioServicesPropertyID, _ inSpecifierSize: UInt32,
                                     _ inSpecifier: UnsafeRawPointer?, _ ioPropertyDataSize: UnsafeMutablePointer<UInt32>?,
                                     _ outPropertyData: UnsafeMutableRawPointer?) -> OSStatus {
    osStatus { () throws(SystemSoundStatus) in
        let value = try SystemSoundServices.shared.property(inPropertyID, inSpecifierSize, inSpecifier)
        guard let ioPropertyDataSize, let outPropertyData else { throw .unspecified }
        guard ioPropertyDataSize.pointee >= 4 else { throw .badPropertySize }
        outPropertyData.storeBytes(of: value, as: UInt32.self)
        ioPropertyDataSize.pointee = 4
    }
}

@c @implementation
public func AudioServicesSetProperty(_ inPropertyID: AudioServicesPropertyID, _ inSpecifierSize: UInt32,
                                     _ inSpecifier: UnsafeRawPointer?, _ inPropertyDataSize: UInt32,
                                     _ inPropertyData: UnsafeRawPointer?) -> OSStatus {
    osStatus { () throws(SystemSoundStatus) in
        try SystemSoundServices.checkProperty(inPropertyID)
        guard inPropertyDataSize == 4, let inPropertyData else { throw .badPropertySize }
        try SystemSoundServices.shared.setProperty(inPropertyID, inSpecifierSize, inSpecifier, inPropertyData.loadUnaligned(as: UInt32.self))
    }
}

// MARK: - Swift's block forms

/// Plays a system sound and calls `inCompletionBlock` once when it ends, on Soundstage's thread
/// (iOS's block form; C on Linux has no blocks).
public func AudioServicesPlaySystemSoundWithCompletion(_ inSystemSoundID: CAudioToolbox.SystemSoundID, _ inCompletionBlock: (() -> Void)?) {
    SystemSoundServices.play(inSystemSoundID, alert: false, completion: handedOver(inCompletionBlock))
}

/// Plays an alert sound and calls `inCompletionBlock` once when it ends, on Soundstage's thread.
public func AudioServicesPlayAlertSoundWithCompletion(_ inSystemSoundID: CAudioToolbox.SystemSoundID, _ inCompletionBlock: (() -> Void)?) {
    SystemSoundServices.play(inSystemSoundID, alert: true, completion: handedOver(inCompletionBlock))
}

/// A caller's closure, called once on another thread, as iOS calls a block on its own.
private func handedOver(_ block: (() -> Void)?) -> (@Sendable () -> Void)? {
    guard let block else { return nil }
    let handed = UncheckedBlock(block)
    return { handed.block() }
}

private struct UncheckedBlock: @unchecked Sendable {
    // @unchecked: the caller's closure, called once, as an iOS block is.
    let block: () -> Void
    init(_ block: @escaping () -> Void) { self.block = block }
}
