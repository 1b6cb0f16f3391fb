// The Audio Session C API (AudioToolbox/AudioSession.h), for C and Swift at once, on the app's
// session (ApplicationAudio): the same Soundstage session AVAudioSession and the system sounds use.
// AudioSessionInitialize's run loop and the property listeners' follow CallbackRunLoop.swift.
import NIOConcurrencyHelpers
import Soundstage

/// The C API's state: the listeners and the values iOS keeps for the app.
package final class AudioSessionServices: Sendable {
    typealias InterruptionListener = CCallback<AudioSessionInterruptionListener>
    typealias PropertyListener = CCallback<AudioSessionPropertyListener>

    private struct State {
        var initialized = false
        /// Where every listener runs: AudioSessionInitialize's run loop and mode.
        var loop: CFRunLoopStorage?
        var loopMode = CFRunLoopStorage.defaultMode
        var interruption: InterruptionListener?
        var listeners: [(id: AudioSessionPropertyID, listener: PropertyListener)] = []
        /// The tokens of what this object observes on the app's audio now.
        var attached: (audio: ApplicationAudio, session: Int, route: Int)?
        var interruptionType = UInt32(kAudioSessionInterruptionType_ShouldResume)
        var preferredSampleRate = 0.0
        var preferredIOBufferDuration: Float32 = 0
        var mode = UInt32(kAudioSessionMode_Default)
        var mixWithOthers = false
        var duckOthers = false
        var defaultToSpeaker = false
        var bluetoothInput = false
        /// A pulled output told once, as iOS tells it.
        var routeFolding = RouteChangeFolding()
    }

    private let state = NIOLockedValueBox(State())

    package static let shared = AudioSessionServices()

    /// `AudioSessionInitialize`.
    func initialize(_ listener: InterruptionListener?) throws(SessionStatus) {
        let audio: ApplicationAudio
        do { audio = try ApplicationAudio.shared() } catch { throw .initialization }
        let already = state.withLockedValue { state -> Bool in
            if state.initialized { return true }
            state.initialized = true
            state.interruption = listener
            state.loop = listener?.loop
            state.loopMode = listener?.mode ?? CFRunLoopStorage.defaultMode
            return false
        }
        if already { throw .alreadyInitialized }
        listener?.attach()   // the session lasts as long as the process, as on iOS
        ApplicationAudio.addObserver { [self] audio in attach(to: audio) }
        attach(to: audio)
    }

    /// Follows the app's audio (the first, or the one `CompatOutput.use(device:)` made).
    private func attach(to audio: ApplicationAudio) {
        let previous = state.withLockedValue { $0.attached }
        if let previous {
            if previous.audio === audio { return }
            previous.audio.session.removeObserver(previous.session)
            previous.audio.device.removeRouteObserver(previous.route)
        }
        let session = audio.session.addObserver { [self] event in sessionEvent(event) }
        let route = audio.device.addRouteObserver { [self] change in routeChanged(change) }
        state.withLockedValue { $0.attached = (audio, session, route) }
    }

    /// A listener a caller passed: NULL is kAudioSessionUnsupportedPropertyError once initialized.
    func listener(_ function: AudioSessionPropertyListener?) throws(SessionStatus) -> AudioSessionPropertyListener {
        _ = try audio()
        guard let function else { throw .unsupportedProperty }
        return function
    }

    /// The app's audio, once initialized.
    func audio() throws(SessionStatus) -> ApplicationAudio {
        guard let audio = state.withLockedValue({ $0.initialized ? $0.attached?.audio : nil }) else { throw .notInitialized }
        return audio
    }

    private func sessionEvent(_ event: SessionEvent) {
        let begin: Bool
        switch event.kind {
        case .interruptionBegan: begin = true
        case .interruptionEnded(let shouldResume):
            begin = false
            state.withLockedValue {
                $0.interruptionType = UInt32(shouldResume ? kAudioSessionInterruptionType_ShouldResume : kAudioSessionInterruptionType_ShouldNotResume)
            }
        default: return
        }
        let (listener, audio) = state.withLockedValue { ($0.interruption, $0.attached?.audio) }
        if begin { audio?.interruptionBegins() }
        guard let listener else {
            if !begin { audio?.restoreApplicationOpenAL() }   // no listener to wait for
            return
        }
        let value = UInt32(begin ? kAudioSessionBeginInterruption : kAudioSessionEndInterruption)
        listener.deliver {
            listener.function(listener.clientData, value)
            // The listener has made its context current again: give the device back.
            if !begin { audio?.restoreApplicationOpenAL() }
        }
    }

    private func routeChanged(_ change: RouteChange) {
        guard state.withLockedValue({ $0.routeFolding.tells(change) }) else { return }
        let reason = switch change.reason {
        case .oldDeviceUnavailable, .outputMoved: kAudioSessionRouteChangeReason_OldDeviceUnavailable
        case .newDeviceAvailable: kAudioSessionRouteChangeReason_NewDeviceAvailable
        case .override: kAudioSessionRouteChangeReason_Override
        case .categoryChange: kAudioSessionRouteChangeReason_CategoryChange
        }
        announceRouteChange(reason: reason)
    }

    /// Calls the route-change listeners with iOS's dictionary: the reason, a CFNumber, under
    /// kAudioSession_AudioRouteChangeKey_Reason. The dictionary lives until every listener has run.
    func announceRouteChange(reason: Int) {
        let listeners = state.withLockedValue { $0.listeners.filter { $0.id == AudioSessionPropertyID(kAudioSessionProperty_AudioRouteChange) } }
        guard !listeners.isEmpty else { return }
        var code = Int32(reason)
        let dictionary = CFDictionaryStorage([(CFStringStorage(kAudioSession_AudioRouteChangeKey_Reason), CFNumberStorage(sint32: &code))])
        for (_, listener) in listeners {
            listener.deliver {
                withExtendedLifetime(dictionary) {
                    var pointer: UnsafeRawPointer? = cfUnretained(dictionary)
                    withUnsafeBytes(of: &pointer) { bytes in
                        // The value is the CFDictionaryRef itself, as on iOS (inData points at it).
                        listener.function(listener.clientData, AudioSessionPropertyID(kAudioSessionProperty_AudioRouteChange),
                                          UInt32(bytes.count), bytes.baseAddress)
                    }
                }
            }
        }
    }

    // MARK: Listeners

    /// The properties whose listeners are accepted: route changes are reported; the others never
    /// change on Soundstage (docs/audiotoolbox.md).
    private static let listenable: Set<Int> = [
        kAudioSessionProperty_AudioRouteChange, kAudioSessionProperty_CurrentHardwareOutputVolume,
        kAudioSessionProperty_AudioInputAvailable, kAudioSessionProperty_ServerDied,
        kAudioSessionProperty_CurrentHardwareInputNumberChannels, kAudioSessionProperty_CurrentHardwareOutputNumberChannels,
        kAudioSessionProperty_InputGainAvailable,
    ]

    func addListener(_ id: AudioSessionPropertyID, _ function: AudioSessionPropertyListener,
                     _ clientData: UnsafeMutableRawPointer?) throws(SessionStatus) {
        _ = try audio()
        guard Self.listenable.contains(Int(id)) else { throw .unsupportedProperty }
        let listener = state.withLockedValue { PropertyListener(function, clientData, loop: $0.loop, mode: $0.loopMode) }
        let replaced = state.withLockedValue { state -> PropertyListener? in
            let index = state.listeners.firstIndex { $0.id == id && $0.listener.isSame(as: listener) }
            defer { if let index { state.listeners[index].listener = listener } else { state.listeners.append((id, listener)) } }
            return index.map { state.listeners[$0].listener }
        }
        listener.attach()
        replaced?.detach()
    }

    /// Removes the listeners of `id` (those with `function` and `clientData` when given).
    func removeListeners(_ id: AudioSessionPropertyID, matching: (AudioSessionPropertyListener, UnsafeMutableRawPointer?)?) throws(SessionStatus) {
        _ = try audio()
        guard Self.listenable.contains(Int(id)) else { throw .unsupportedProperty }
        let match = matching.map { PropertyListener($0.0, $0.1, loop: nil, mode: "") }
        let removed = state.withLockedValue { state -> [PropertyListener] in
            func goes(_ entry: (id: AudioSessionPropertyID, listener: PropertyListener)) -> Bool {
                entry.id == id && (match.map { entry.listener.isSame(as: $0) } ?? true)
            }
            let gone = state.listeners.filter(goes).map(\.listener)
            state.listeners.removeAll(where: goes)
            return gone
        }
        for listener in removed { listener.detach() }
    }

    // MARK: Properties

    /// The value of a property, as its bytes.
    func value(_ id: AudioSessionPropertyID) throws(SessionStatus) -> [UInt8] {
        let audio = try audio()
        let kept = state.withLockedValue { $0 }
        func bytes<T>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }
        switch Int(id) {
        case kAudioSessionProperty_AudioCategory: return bytes(Self.code(of: audio.session.category))
        case kAudioSessionProperty_PreferredHardwareSampleRate:
            return bytes(kept.preferredSampleRate > 0 ? kept.preferredSampleRate : Double(audio.device.sampleRate))
        case kAudioSessionProperty_PreferredHardwareIOBufferDuration:
            return bytes(kept.preferredIOBufferDuration > 0 ? kept.preferredIOBufferDuration : Self.ioBufferDuration(audio.device))
        case kAudioSessionProperty_CurrentHardwareSampleRate: return bytes(Double(audio.device.sampleRate))
        case kAudioSessionProperty_CurrentHardwareIOBufferDuration: return bytes(Self.ioBufferDuration(audio.device))
        case kAudioSessionProperty_CurrentHardwareOutputNumberChannels: return bytes(UInt32(audio.device.layout.channelCount))
        case kAudioSessionProperty_CurrentHardwareInputNumberChannels: return bytes(UInt32(Self.inputAvailable(audio) ? 1 : 0))
        case kAudioSessionProperty_AudioInputAvailable: return bytes(UInt32(Self.inputAvailable(audio) ? 1 : 0))
        case kAudioSessionProperty_CurrentHardwareOutputVolume:
            let status = audio.device.outputStatus
            return bytes(Float32(status.muted ? 0 : min(1, max(0, status.volume))))
        case kAudioSessionProperty_CurrentHardwareOutputLatency: return bytes(Float32((try? audio.device.info)?.latency ?? 0))
        case kAudioSessionProperty_CurrentHardwareInputLatency: return bytes(Float32(0))
        case kAudioSessionProperty_OtherAudioIsPlaying:
            return bytes(UInt32(audio.center.categoriesSounding(besides: audio.session).isEmpty ? 0 : 1))
        case kAudioSessionProperty_OtherMixableAudioShouldDuck: return bytes(UInt32(kept.duckOthers ? 1 : 0))
        case kAudioSessionProperty_OverrideCategoryMixWithOthers: return bytes(UInt32(kept.mixWithOthers ? 1 : 0))
        case kAudioSessionProperty_OverrideCategoryDefaultToSpeaker: return bytes(UInt32(kept.defaultToSpeaker ? 1 : 0))
        case kAudioSessionProperty_OverrideCategoryEnableBluetoothInput: return bytes(UInt32(kept.bluetoothInput ? 1 : 0))
        case kAudioSessionProperty_InterruptionType: return bytes(kept.interruptionType)
        case kAudioSessionProperty_Mode: return bytes(kept.mode)
        case kAudioSessionProperty_InputGainAvailable: return bytes(UInt32(0))
        default: throw .unsupportedProperty
        }
    }

    /// The size of a property's value (also of the set-only route override).
    func size(_ id: AudioSessionPropertyID) throws(SessionStatus) -> Int {
        if Int(id) == kAudioSessionProperty_OverrideAudioRoute { _ = try audio(); return 4 }
        return try value(id).count
    }

    func setValue(_ id: AudioSessionPropertyID, _ data: UnsafeRawBufferPointer) throws(SessionStatus) {
        let audio = try audio()
        func read<T>(_: T.Type) throws(SessionStatus) -> T {
            guard data.count == MemoryLayout<T>.size else { throw .badPropertySize }
            return data.loadUnaligned(as: T.self)
        }
        switch Int(id) {
        case kAudioSessionProperty_AudioCategory:
            guard let category = Self.category(of: try read(UInt32.self)) else { throw .incompatibleCategory }
            let changed = audio.session.category != category
            // Overrides are not sticky across a change of category (Apple's documentation).
            state.withLockedValue { state in
                if changed { (state.mixWithOthers, state.duckOthers, state.defaultToSpeaker, state.bluetoothInput) = (false, false, false, false) }
            }
            applyCategory(category, to: audio)
            if changed && audio.session.isActive { announceRouteChange(reason: kAudioSessionRouteChangeReason_CategoryChange) }
        case kAudioSessionProperty_PreferredHardwareSampleRate:
            let rate = try read(Float64.self)
            guard rate.isFinite, rate >= 0 else { throw .unsupportedProperty }
            state.withLockedValue { $0.preferredSampleRate = rate }
        case kAudioSessionProperty_PreferredHardwareIOBufferDuration:
            let duration = try read(Float32.self)
            guard duration.isFinite, duration >= 0 else { throw .unsupportedProperty }
            state.withLockedValue { $0.preferredIOBufferDuration = duration }
        case kAudioSessionProperty_OverrideAudioRoute:
            let route = Int(try read(UInt32.self))
            guard route == kAudioSessionOverrideAudioRoute_None || route == kAudioSessionOverrideAudioRoute_Speaker else { throw .unsupportedProperty }
        case kAudioSessionProperty_OtherMixableAudioShouldDuck:
            let on = try read(UInt32.self) != 0
            state.withLockedValue {
                $0.duckOthers = on
                if on { $0.mixWithOthers = true }   // ducking others means mixing with them (Apple's documentation)
            }
            applyCategory(audio.session.category, to: audio)
        case kAudioSessionProperty_OverrideCategoryMixWithOthers:
            let on = try read(UInt32.self) != 0
            state.withLockedValue { $0.mixWithOthers = on }
            applyCategory(audio.session.category, to: audio)
        case kAudioSessionProperty_OverrideCategoryDefaultToSpeaker:
            let on = try read(UInt32.self) != 0
            state.withLockedValue { $0.defaultToSpeaker = on }
        case kAudioSessionProperty_OverrideCategoryEnableBluetoothInput:
            let on = try read(UInt32.self) != 0
            state.withLockedValue { $0.bluetoothInput = on }
        case kAudioSessionProperty_Mode:
            let mode = Int(try read(UInt32.self))
            guard [kAudioSessionMode_Default, kAudioSessionMode_VoiceChat, kAudioSessionMode_VideoRecording,
                   kAudioSessionMode_Measurement, kAudioSessionMode_GameChat].contains(mode) else { throw .unsupportedProperty }
            state.withLockedValue { $0.mode = UInt32(mode) }
        default:
            throw .unsupportedProperty
        }
    }

    private func applyCategory(_ category: SessionCategory, to audio: ApplicationAudio) {
        let (mix, duck) = state.withLockedValue { ($0.mixWithOthers, $0.duckOthers) }
        var options: SessionOptions = []
        if mix { options.insert(.mixWithOthers) }
        if duck { options.insert(.duckOthers) }
        audio.session.setCategory(category, options: options)
    }

    func setActive(_ active: Bool, flags: UInt32) throws(SessionStatus) {
        let audio = try audio()
        do {
            try audio.session.setActive(active, notifyOthersOnDeactivation: flags & UInt32(kAudioSessionSetActiveFlag_NotifyOthersOnDeactivation) != 0)
        } catch {
            throw .notActive
        }
    }

    // MARK: Values

    static func code(of category: SessionCategory) -> UInt32 {
        let code = switch category {
        case .ambient: kAudioSessionCategory_AmbientSound
        case .soloAmbient: kAudioSessionCategory_SoloAmbientSound
        case .playback: kAudioSessionCategory_MediaPlayback
        case .record: kAudioSessionCategory_RecordAudio
        case .playAndRecord: kAudioSessionCategory_PlayAndRecord
        case .audioProcessing: kAudioSessionCategory_AudioProcessing
        }
        return UInt32(code)
    }

    static func category(of code: UInt32) -> SessionCategory? {
        switch Int(code) {
        case kAudioSessionCategory_AmbientSound, kAudioSessionCategory_UserInterfaceSoundEffects: .ambient
        case kAudioSessionCategory_SoloAmbientSound: .soloAmbient
        case kAudioSessionCategory_MediaPlayback, kAudioSessionCategory_LiveAudio: .playback
        case kAudioSessionCategory_RecordAudio: .record
        case kAudioSessionCategory_PlayAndRecord: .playAndRecord
        case kAudioSessionCategory_AudioProcessing: .audioProcessing
        default: nil
        }
    }

    /// The I/O buffer duration the program asked for (kAudioSessionProperty_PreferredHardwareIOBufferDuration
    /// or AVAudioSession's preferredIOBufferDuration), 0 until asked: a device unit's render slice.
    package var preferredIOBufferDuration: Float32 {
        get { state.withLockedValue { $0.preferredIOBufferDuration } }
        set { state.withLockedValue { $0.preferredIOBufferDuration = newValue } }
    }

    private static func ioBufferDuration(_ device: Device) -> Float32 {
        guard let info = try? device.info, info.sampleRate > 0 else { return 0 }
        return Float32(info.updateFrames) / Float32(info.sampleRate)
    }

    private static func inputAvailable(_ audio: ApplicationAudio) -> Bool {
        AudioRecorder.captureAvailable(server: audio.device.desktopOptions?.server)
    }
}

// MARK: - The C functions

/// `AudioSessionInitialize` from C: the interruption listener called on `inRunLoop` (NULL:
/// Soundstage's own thread) in `inRunLoopMode` (NULL: the default mode).
@c(AudioSessionInitialize)
public func _AudioSessionInitialize(_ inRunLoop: UnsafeRawPointer?, _ inRunLoopMode: UnsafeRawPointer?,
                                    _ inInterruptionListener: AudioSessionInterruptionListener?,
                                    _ inClientData: UnsafeMutableRawPointer?) -> OSStatus {
    osStatus { () throws(SessionStatus) in
        let listener = inInterruptionListener.map { CCallback($0, inClientData, runLoop: inRunLoop, mode: inRunLoopMode) }
        try AudioSessionServices.shared.initialize(listener)
        CFRunLoopStorage.attachAudioSystem()
    }
}

@c @implementation
public func AudioSessionSetActive(_ active: Bool) -> OSStatus {
    osStatus { () throws(SessionStatus) in try AudioSessionServices.shared.setActive(active, flags: 0) }
}

@c @implementation
public func AudioSessionSetActiveWithFlags(_ active: Bool, _ inFlags: UInt32) -> OSStatus {
    osStatus { () throws(SessionStatus) in try AudioSessionServices.shared.setActive(active, flags: inFlags) }
}

@c @implementation
public func AudioSessionGetProperty(_ inID: AudioSessionPropertyID, _ ioDataSize: UnsafeMutablePointer<UInt32>?,
                                    _ outData: UnsafeMutableRawPointer?) -> OSStatus {
    osStatus { () throws(SessionStatus) in
        let value = try AudioSessionServices.shared.value(inID)
        guard let ioDataSize, let outData else { throw .unsupportedProperty }
        guard Int(ioDataSize.pointee) >= value.count else { throw .badPropertySize }
        value.withUnsafeBytes { outData.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        ioDataSize.pointee = UInt32(value.count)
    }
}

@c @implementation
public func AudioSessionSetProperty(_ inID: AudioSessionPropertyID, _ inDataSize: UInt32, _ inData: UnsafeRawPointer?) -> OSStatus {
    osStatus { () throws(SessionStatus) in
        guard let inData else {
            _ = try AudioSessionServices.shared.audio()
            throw .unsupportedProperty
        }
        try AudioSessionServices.shared.setValue(inID, UnsafeRawBufferPointer(start: inData, count: Int(inDataSize)))
    }
}

@c @implementation
public func AudioSessionGetPropertySize(_ inID: AudioSessionPropertyID, _ outDataSize: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    osStatus { () throws(SessionStatus) in
        let size = try AudioSessionServices.shared.size(inID)
        guard let outDataSize else { throw .unsupportedProperty }
        outDataSize.pointee = UInt32(size)
    }
}

@c @implementation
public func AudioSessionAddPropertyListener(_ inID: AudioSessionPropertyID, _ inProc: AudioSessionPropertyListener?,
                                            _ inClientData: UnsafeMutableRawPointer?) -> OSStatus {
    osStatus { () throws(SessionStatus) in
        try AudioSessionServices.shared.addListener(inID, try AudioSessionServices.shared.listener(inProc), inClientData)
    }
}

@c @implementation
public func AudioSessionRemovePropertyListener(_ inID: AudioSessionPropertyID) -> OSStatus {
    osStatus { () throws(SessionStatus) in try AudioSessionServices.shared.removeListeners(inID, matching: nil) }
}

@c @implementation
public func AudioSessionRemovePropertyListenerWithUserData(_ inID: AudioSessionPropertyID, _ inProc: AudioSessionPropertyListener?,
                                                           _ inClientData: UnsafeMutableRawPointer?) -> OSStatus {
    osStatus { () throws(SessionStatus) in
        try AudioSessionServices.shared.removeListeners(inID, matching: (try AudioSessionServices.shared.listener(inProc), inClientData))
    }
}
