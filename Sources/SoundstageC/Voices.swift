import CSoundstage
import Soundstage

extension VoiceLimit: HandleObject {
    /// Sources keep their limit after its handle is destroyed.
    func handleDestroyed() {}
}

@c @implementation
public func ss_voice_limit_create(_ scene: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ maxVoices: Int32,
                                  _ policy: ss_steal_policy, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> ss_result {
    capi {
        let out = try require(out, "out_limit")
        let name = try string(name, "name")
        let maxVoices = try checked(maxVoices, 1...1_000_000, "max_voices")
        let steal: VoiceLimit.StealPolicy
        switch policy {
        case SS_STEAL_OLDEST: steal = .oldest
        case SS_STEAL_QUIETEST: steal = .quietest
        case SS_STEAL_FARTHEST: steal = .farthest
        case SS_STEAL_NONE: steal = .none
        default: throw CAPIError(SS_ERROR_INVALID_ARGUMENT, "\(policy.rawValue) is not an ss_steal_policy")
        }
        let limit = try withScene(scene) { $0.makeVoiceLimit(name, maxVoices: maxVoices, steal: steal) }
        try publish(limit, .voiceLimit, parent: scene, to: out)
    }
}

@c @implementation
public func ss_voice_limit_destroy(_ limit: OpaquePointer?) -> ss_result {
    capi { try HandleTable.shared.destroy(limit, kind: .voiceLimit) }
}

@c @implementation
public func ss_source_set_voice_limit(_ source: OpaquePointer?, _ limit: OpaquePointer?) -> ss_result {
    capi {
        try withSource(source) { s in
            guard limit != nil else { try setting(finite: true) { s.voiceLimit = nil }; return }
            try HandleTable.shared.with(limit, .voiceLimit, as: VoiceLimit.self) { l in try setting(finite: true) { s.voiceLimit = l } }
        }
    }
}

@c @implementation
public func ss_source_set_priority(_ source: OpaquePointer?, _ priority: Int32) -> ss_result {
    capi {
        let priority = try checked(priority, -1_000_000...1_000_000, "priority")
        try withSource(source) { $0.priority = priority }
    }
}

@c @implementation
public func ss_source_get_priority(_ source: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> ss_result {
    reading(out) { Int32(try withSource(source) { $0.priority }) }
}

@c @implementation
public func ss_source_is_virtual(_ source: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> ss_result {
    capi {
        let out = try require(out)
        out.pointee = try withSource(source) { $0.isVirtual } ? 1 : 0
    }
}

@c @implementation
public func ss_scene_set_voice_callback(_ scene: OpaquePointer?, _ callback: ss_voice_callback?,
                                        _ userData: UnsafeMutableRawPointer?) -> ss_result {
    capi {
        try withScene(scene) { s in
            guard s.virtualizesVoices else {
                throw CAPIError(SS_ERROR_INVALID_STATE, "the scene's voice management is off (ss_scene_set_virtualizes_voices)")
            }
            guard let callback else { s.voiceEventHandler = nil; return }
            let target = CCallback(function: callback, userData: userData)
            let handle = CCallback(function: scene, userData: nil)
            s.voiceEventHandler = { event in
                let kind: ss_voice_event_kind = switch event.kind {
                case .stolen: SS_VOICE_STOLEN
                case .virtualized: SS_VOICE_VIRTUALIZED
                case .realized: SS_VOICE_REALIZED
                }
                target.function(handle.function, HandleTable.shared.handle(of: event.source), kind, target.userData)
            }
        }
    }
}

@c @implementation
public func ss_scene_get_voice_statistics(_ scene: OpaquePointer?, _ out: UnsafeMutablePointer<ss_voice_statistics>?) -> ss_result {
    capi {
        let out = try require(out)
        let v = try withScene(scene) { $0.voiceStatistics }
        out.pointee = ss_voice_statistics(real_voices: Int32(clamping: v.realVoices), virtual_voices: Int32(clamping: v.virtualVoices),
                                          steals: Int64(v.steals), virtualizations: Int64(v.virtualizations),
                                          realizations: Int64(v.realizations), rankings: Int64(v.updates),
                                          last_ranking_us: v.lastUpdateMicroseconds, peak_ranking_us: v.peakUpdateMicroseconds,
                                          total_ranking_us: v.totalUpdateMicroseconds)
    }
}
