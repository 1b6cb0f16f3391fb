import CSoundstage
import Soundstage

extension SoundGroup: HandleObject {
    /// A group has no OpenAL object: it lives while sources or child groups use it.
    func handleDestroyed() {}
}

@inline(__always)
func withGroup<R>(_ handle: OpaquePointer?, _ body: (SoundGroup) throws -> R) throws -> R {
    try HandleTable.shared.with(handle, .group, as: SoundGroup.self, body)
}

/// Runs a setter on a group and reports a value its scene refused.
@inline(__always)
private func settingGroup(_ handle: OpaquePointer?, finite: Bool, function: StaticString = #function,
                          _ body: (SoundGroup) throws -> Void) throws {
    try withGroup(handle) { g in try setting(finite: finite, function: function) { try body(g) } }
}

@c @implementation
public func ss_group_create(_ scene: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ parent: OpaquePointer?,
                            _ out: UnsafeMutablePointer<OpaquePointer?>?) -> ss_result {
    capi {
        let out = try require(out, "out_group")
        let name = try string(name, "name")
        let group = try withScene(scene) { s in
            guard parent != nil else { return s.makeGroup(name) }
            return try withGroup(parent) { p in
                guard p.scene === s else { throw CAPIError(SS_ERROR_INVALID_ARGUMENT, "the parent group belongs to another scene") }
                return s.makeGroup(name, parent: p)
            }
        }
        try publish(group, .group, parent: scene, to: out)
    }
}

@c @implementation
public func ss_group_destroy(_ group: OpaquePointer?) -> ss_result {
    capi { try HandleTable.shared.destroy(group, kind: .group) }
}

@c @implementation
public func ss_group_set_gain(_ group: OpaquePointer?, _ gain: Float) -> ss_result {
    capi { try settingGroup(group, finite: gain.isFinite) { $0.gain = gain } }
}

@c @implementation
public func ss_group_get_gain(_ group: OpaquePointer?, _ out: UnsafeMutablePointer<Float>?) -> ss_result {
    capi {
        let out = try require(out)
        out.pointee = try withGroup(group) { $0.gain }
    }
}

@c @implementation
public func ss_group_set_muted(_ group: OpaquePointer?, _ muted: Int32) -> ss_result {
    capi { try withGroup(group) { $0.isMuted = flag(muted) } }
}

@c @implementation
public func ss_group_is_muted(_ group: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> ss_result {
    readingFlag(out) { try withGroup(group) { $0.isMuted } }
}

@c @implementation
public func ss_group_set_pitch(_ group: OpaquePointer?, _ pitch: Float) -> ss_result {
    capi { try settingGroup(group, finite: pitch.isFinite) { $0.pitch = pitch } }
}

@c @implementation
public func ss_group_get_pitch(_ group: OpaquePointer?, _ out: UnsafeMutablePointer<Float>?) -> ss_result {
    reading(out) { try withGroup(group) { $0.pitch } }
}

@c @implementation
public func ss_group_pause(_ group: OpaquePointer?) -> ss_result {
    capi { try withGroup(group) { $0.pause() } }
}

@c @implementation
public func ss_group_resume(_ group: OpaquePointer?) -> ss_result {
    capi { try withGroup(group) { $0.resume() } }
}

@c @implementation
public func ss_group_is_paused(_ group: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> ss_result {
    capi {
        let out = try require(out)
        out.pointee = try withGroup(group) { $0.isPaused } ? 1 : 0
    }
}

@c @implementation
public func ss_group_fade(_ group: OpaquePointer?, _ gain: Float, _ seconds: Double, _ stopAtEnd: Int32,
                          _ callback: ss_group_callback?, _ userData: UnsafeMutableRawPointer?) -> ss_result {
    capi {
        let completion: (@Sendable () -> Void)? = callback.map { callback in
            let target = CCallback(function: callback, userData: userData)
            let handle = CCallback(function: group, userData: nil)
            return { target.function(handle.function, target.userData) }
        }
        try settingGroup(group, finite: gain.isFinite && seconds.isFinite) {
            $0.fade(to: gain, over: seconds, stopAtEnd: flag(stopAtEnd), completion: completion)
        }
    }
}

@c @implementation
public func ss_scene_add_ducking(_ scene: OpaquePointer?, _ target: OpaquePointer?, _ trigger: OpaquePointer?, _ gain: Float,
                                 _ attack: Double, _ release: Double) -> ss_result {
    capi {
        try withGroup(target) { targetGroup in
            try withGroup(trigger) { triggerGroup in
                try withScene(scene) { s in
                    guard targetGroup.scene === s, triggerGroup.scene === s else {
                        throw CAPIError(SS_ERROR_INVALID_ARGUMENT, "the groups must belong to the scene (\(targetGroup.scene === s ? "trigger" : "target") does not)")
                    }
                    try setting(finite: gain.isFinite && attack.isFinite && release.isFinite) {
                        s.addDucking(of: targetGroup, whileSounding: triggerGroup, to: gain, attack: attack, release: release)
                    }
                }
            }
        }
    }
}

@c @implementation
public func ss_group_set_metering(_ group: OpaquePointer?, _ enabled: Int32) -> ss_result {
    capi { try withGroup(group) { $0.isMeteringEnabled = flag(enabled) } }
}

@c @implementation
public func ss_group_is_metering(_ group: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> ss_result {
    readingFlag(out) { try withGroup(group) { $0.isMeteringEnabled } }
}

@c @implementation
public func ss_group_get_levels(_ group: OpaquePointer?, _ out: UnsafeMutablePointer<ss_levels>?) -> ss_result {
    capi {
        let out = try require(out)
        fill(try withGroup(group) { $0.meterLevels() }, out)
    }
}
