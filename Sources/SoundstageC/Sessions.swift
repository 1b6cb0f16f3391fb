import NIOConcurrencyHelpers
import CSoundstage
import Soundstage
import Synchronization

/// What a session handle holds: the session and its C callback's observer.
final class CSession: HandleObject {
    let session: AudioSession
    private let observer = ObserverToken()

    init(_ session: AudioSession) { self.session = session }

    /// Replaces the observer (nil: none).
    func setObserver(_ handler: (@Sendable (SessionEvent) -> Void)?) {
        observer.replace(handler.map { handler in { self.session.addObserver(handler) } }, remove: session.removeObserver)
    }

    func handleDestroyed() {
        setObserver(nil)
        session.center.removeSession(session)
    }
}

@inline(__always)
func withSession<R>(_ handle: OpaquePointer?, _ body: (CSession) throws -> R) throws -> R {
    try HandleTable.shared.with(handle, .session, as: CSession.self, body)
}

private let categories: [(ss_session_category, SessionCategory)] = [
    (SS_CATEGORY_AMBIENT, .ambient), (SS_CATEGORY_SOLO_AMBIENT, .soloAmbient), (SS_CATEGORY_PLAYBACK, .playback),
    (SS_CATEGORY_PLAY_AND_RECORD, .playAndRecord), (SS_CATEGORY_RECORD, .record), (SS_CATEGORY_AUDIO_PROCESSING, .audioProcessing),
]

private func category(_ c: ss_session_category) throws -> SessionCategory {
    guard let category = categories.first(where: { $0.0 == c })?.1 else {
        throw CAPIError(SS_ERROR_INVALID_ARGUMENT, "\(c.rawValue) is not an ss_session_category")
    }
    return category
}

private func options(_ bits: Int32) throws -> SessionOptions {
    guard bits & ~3 == 0 else { throw CAPIError(SS_ERROR_INVALID_ARGUMENT, "options \(bits) has bits no ss_session_options names") }
    return SessionOptions(rawValue: Int(bits))
}

@c @implementation
public func ss_session_create(_ device: OpaquePointer?, _ category: ss_session_category, _ options: Int32,
                              _ out: UnsafeMutablePointer<OpaquePointer?>?) -> ss_result {
    capi {
        let out = try require(out, "out_session")
        let category = try SoundstageC.category(category)
        let options = try SoundstageC.options(options)
        let session = try withDevice(device) { $0.center.makeSession(category: category, options: options) }
        try publish(CSession(session), .session, parent: device, to: out)
    }
}

@c @implementation
public func ss_session_destroy(_ session: OpaquePointer?) -> ss_result {
    capi { try HandleTable.shared.destroy(session, kind: .session) }
}

@c @implementation
public func ss_session_set_category(_ session: OpaquePointer?, _ category: ss_session_category, _ options: Int32) -> ss_result {
    capi {
        let category = try SoundstageC.category(category)
        let options = try SoundstageC.options(options)
        try withSession(session) { $0.session.setCategory(category, options: options) }
    }
}

@c @implementation
public func ss_session_set_active(_ session: OpaquePointer?, _ active: Int32) -> ss_result {
    capi { try withSession(session) { try $0.session.setActive(flag(active)) } }
}

@c @implementation
public func ss_session_attach_scene(_ session: OpaquePointer?, _ scene: OpaquePointer?) -> ss_result {
    capi {
        try withScene(scene) { s in
            try withSession(session) { c in
                guard c.session.center.device === s.device else {
                    throw CAPIError(SS_ERROR_INVALID_ARGUMENT, "the scene belongs to another device than the session")
                }
                c.session.attach(s)
            }
        }
    }
}

@c @implementation
public func ss_session_attach_registry(_ session: OpaquePointer?, _ registry: OpaquePointer?) -> ss_result {
    capi {
        try withRegistry(registry) { r in
            try withSession(session) { c in
                guard c.session.center.device === r.device else {
                    throw CAPIError(SS_ERROR_INVALID_ARGUMENT, "the registry belongs to another device than the session")
                }
                c.session.attach(r)
            }
        }
    }
}

@c @implementation
public func ss_session_begin_interruption(_ session: OpaquePointer?) -> ss_result {
    capi { try withSession(session) { $0.session.beginInterruption() } }
}

@c @implementation
public func ss_session_end_interruption(_ session: OpaquePointer?, _ shouldResume: Int32) -> ss_result {
    capi { try withSession(session) { $0.session.endInterruption(shouldResume: flag(shouldResume)) } }
}

@c @implementation
public func ss_session_get_state(_ session: OpaquePointer?, _ out: UnsafeMutablePointer<ss_session_state>?) -> ss_result {
    capi {
        let out = try require(out)
        out.pointee = try withSession(session) { c in
            let s = c.session
            return ss_session_state(category: categories.first { $0.1 == s.category }!.0, options: Int32(s.options.rawValue),
                                    active: s.isActive ? 1 : 0, interrupted: s.isInterrupted ? 1 : 0, ducked: s.isDucked ? 1 : 0)
        }
    }
}

/// The C form of a session event.
private func event(_ event: SessionEvent) -> ss_session_event {
    var result = ss_session_event(kind: SS_SESSION_ACTIVATED, reason: SS_INTERRUPTION_APPLICATION, should_resume: 0,
                                  duck_gain: 0, time: event.time)
    switch event.kind {
    case .activated: result.kind = SS_SESSION_ACTIVATED
    case .deactivated: result.kind = SS_SESSION_DEACTIVATED
    case let .interruptionBegan(reason):
        result.kind = SS_SESSION_INTERRUPTION_BEGAN
        result.reason = switch reason {
        case .application: SS_INTERRUPTION_APPLICATION
        case .otherSessionActivated: SS_INTERRUPTION_OTHER_SESSION
        case .deviceUnavailable: SS_INTERRUPTION_DEVICE_UNAVAILABLE
        case .systemRequest: SS_INTERRUPTION_SYSTEM_REQUEST
        }
    case let .interruptionEnded(shouldResume):
        result.kind = SS_SESSION_INTERRUPTION_ENDED
        result.should_resume = shouldResume ? 1 : 0
    case let .ducked(gain):
        result.kind = SS_SESSION_DUCKED
        result.duck_gain = gain
    case .unducked: result.kind = SS_SESSION_UNDUCKED
    }
    return result
}

@c @implementation
public func ss_session_set_callback(_ session: OpaquePointer?, _ callback: ss_session_callback?,
                                    _ userData: UnsafeMutableRawPointer?) -> ss_result {
    capi {
        try withSession(session) { c in
            guard let callback else { c.setObserver(nil); return }
            let target = CCallback(function: callback, userData: userData)
            let handle = CCallback(function: session, userData: nil)
            c.setObserver { change in
                var e = event(change)
                target.function(handle.function, &e, target.userData)
            }
        }
    }
}
