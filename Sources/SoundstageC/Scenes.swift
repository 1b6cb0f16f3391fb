import CSoundstage
import Soundstage

extension Scene: HandleObject {
    func handleDestroyed() { close() }

    /// Makes the scene's refused values reach the C caller: the refusal's text becomes the
    /// thread's last error and the setter that caused it returns SS_ERROR_NOT_FINITE or
    /// SS_ERROR_OUT_OF_RANGE (see `checkRefusal`), instead of a line on stderr.
    func installCRefusalHandler() {
        refusedValueHandler = { refusal in
            soundstage_internal_set_error(refusal.description)
            soundstage_internal_note_refusal()
        }
    }
}

@inline(__always)
func withScene<R>(_ handle: OpaquePointer?, _ body: (Scene) throws -> R) throws -> R {
    try HandleTable.shared.with(handle, .scene, as: Scene.self, body)
}

/// Runs a setter on a scene's object and reports a value it refused. The flag is cleared first:
/// a refusal some other call met on this thread (an engine-internal setter, a scene file's
/// motion) must not be taken for this setter's.
///
/// `finite` false (some argument is NaN or an infinity) is always SS_ERROR_NOT_FINITE, as the
/// header promises: the engine refuses and counts such a value itself (so its message names the
/// property), and should a setter ever accept one (the Swift API takes `maxDistance = .infinity`
/// for no limit: callers pass NaN for it), the call still reports it.
@inline(__always)
func setting(finite: Bool, function: StaticString = #function, _ body: () throws -> Void) throws {
    soundstage_internal_clear_refusal()
    try body()
    try checkRefusal(finite: finite)
    if !finite { throw notFinite(function) }
}

@inline(never)
private func notFinite(_ function: StaticString) -> CAPIError {
    let name = "\(function)".prefix { $0 != "(" }
    return CAPIError(SS_ERROR_NOT_FINITE, "\(name): an argument is NaN or an infinity (every value must be finite)")
}

extension Vector3 {
    init(_ v: ss_vec3) { self.init(v.x, v.y, v.z) }
    var c: ss_vec3 { ss_vec3(x: x, y: y, z: z) }
    static func finite(_ v: ss_vec3) -> Bool { v.x.isFinite && v.y.isFinite && v.z.isFinite }
}

@c @implementation
public func ss_scene_create(_ device: OpaquePointer?, _ budget: Int32, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> ss_result {
    capi {
        let out = try require(out, "out_scene")
        let budget = budget == 0 ? 256 : try checked(budget, 1...4096, "source_budget")
        let scene = try withDevice(device) { try $0.device.makeScene(sourceBudget: budget) }
        scene.installCRefusalHandler()
        try publish(scene, .scene, parent: device, to: out)
    }
}

@c @implementation
public func ss_scene_destroy(_ scene: OpaquePointer?) -> ss_result {
    capi { try HandleTable.shared.destroy(scene, kind: .scene) }
}

private let distanceModels: [(ss_distance_model, DistanceModel)] = [
    (SS_DISTANCE_NONE, .none), (SS_DISTANCE_INVERSE, .inverse), (SS_DISTANCE_INVERSE_CLAMPED, .inverseClamped),
    (SS_DISTANCE_LINEAR, .linear), (SS_DISTANCE_LINEAR_CLAMPED, .linearClamped), (SS_DISTANCE_EXPONENT, .exponent),
    (SS_DISTANCE_EXPONENT_CLAMPED, .exponentClamped),
]

@c @implementation
public func ss_scene_set_distance_model(_ scene: OpaquePointer?, _ model: ss_distance_model) -> ss_result {
    capi {
        guard let model = distanceModels.first(where: { $0.0 == model })?.1 else {
            throw CAPIError(SS_ERROR_INVALID_ARGUMENT, "\(model.rawValue) is not an ss_distance_model")
        }
        try withScene(scene) { $0.distanceModel = model }
    }
}

@c @implementation
public func ss_scene_get_distance_model(_ scene: OpaquePointer?, _ out: UnsafeMutablePointer<ss_distance_model>?) -> ss_result {
    capi {
        let out = try require(out)
        let model = try withScene(scene) { $0.distanceModel }
        out.pointee = distanceModels.first { $0.1 == model }!.0
    }
}

@c @implementation
public func ss_scene_set_doppler_factor(_ scene: OpaquePointer?, _ factor: Float) -> ss_result {
    capi { try withScene(scene) { s in try setting(finite: factor.isFinite) { s.dopplerFactor = factor } } }
}

@c @implementation
public func ss_scene_set_speed_of_sound(_ scene: OpaquePointer?, _ speed: Float) -> ss_result {
    capi { try withScene(scene) { s in try setting(finite: speed.isFinite) { s.speedOfSound = speed } } }
}

@c @implementation
public func ss_scene_get_doppler_factor(_ scene: OpaquePointer?, _ out: UnsafeMutablePointer<Float>?) -> ss_result {
    reading(out) { try withScene(scene) { $0.dopplerFactor } }
}

@c @implementation
public func ss_scene_get_speed_of_sound(_ scene: OpaquePointer?, _ out: UnsafeMutablePointer<Float>?) -> ss_result {
    reading(out) { try withScene(scene) { $0.speedOfSound } }
}

@c @implementation
public func ss_scene_get_active_source_count(_ scene: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> ss_result {
    capi {
        let out = try require(out)
        out.pointee = Int32(clamping: try withScene(scene) { $0.activeSourceCount })
    }
}

@c @implementation
public func ss_scene_get_refused_value_count(_ scene: OpaquePointer?, _ out: UnsafeMutablePointer<Int64>?) -> ss_result {
    capi {
        let out = try require(out)
        out.pointee = Int64(try withScene(scene) { $0.refusedValueCount })
    }
}

// MARK: Listener

@c @implementation
public func ss_listener_set_position(_ scene: OpaquePointer?, _ position: ss_vec3) -> ss_result {
    capi { try withScene(scene) { s in try setting(finite: Vector3.finite(position)) { s.listener.position = Vector3(position) } } }
}

@c @implementation
public func ss_listener_set_velocity(_ scene: OpaquePointer?, _ velocity: ss_vec3) -> ss_result {
    capi { try withScene(scene) { s in try setting(finite: Vector3.finite(velocity)) { s.listener.velocity = Vector3(velocity) } } }
}

@c @implementation
public func ss_listener_set_orientation(_ scene: OpaquePointer?, _ at: ss_vec3, _ up: ss_vec3) -> ss_result {
    capi {
        try withScene(scene) { s in
            try setting(finite: Vector3.finite(at) && Vector3.finite(up)) { s.listener.setOrientation(at: Vector3(at), up: Vector3(up)) }
        }
    }
}

@c @implementation
public func ss_listener_set_gain(_ scene: OpaquePointer?, _ gain: Float) -> ss_result {
    capi { try withScene(scene) { s in try setting(finite: gain.isFinite) { s.listener.gain = gain } } }
}

@c @implementation
public func ss_listener_get_position(_ scene: OpaquePointer?, _ out: UnsafeMutablePointer<ss_vec3>?) -> ss_result {
    capi {
        let out = try require(out)
        out.pointee = try withScene(scene) { $0.listener.position.c }
    }
}

@c @implementation
public func ss_listener_get_orientation(_ scene: OpaquePointer?, _ at: UnsafeMutablePointer<ss_vec3>?,
                                        _ up: UnsafeMutablePointer<ss_vec3>?) -> ss_result {
    capi {
        let (a, u) = try withScene(scene) { ($0.listener.at, $0.listener.up) }
        at?.pointee = a.c
        up?.pointee = u.c
    }
}

@c @implementation
public func ss_listener_get_velocity(_ scene: OpaquePointer?, _ out: UnsafeMutablePointer<ss_vec3>?) -> ss_result {
    reading(out) { try withScene(scene) { $0.listener.velocity.c } }
}

@c @implementation
public func ss_listener_get_gain(_ scene: OpaquePointer?, _ out: UnsafeMutablePointer<Float>?) -> ss_result {
    capi {
        let out = try require(out)
        out.pointee = try withScene(scene) { $0.listener.gain }
    }
}

// MARK: Batches, scheduled starts, crossfades

@c @implementation
public func ss_scene_begin_batch(_ scene: OpaquePointer?) -> ss_result {
    capi { try withScene(scene) { $0.beginBatch() } }
}

@c @implementation
public func ss_scene_end_batch(_ scene: OpaquePointer?) -> ss_result {
    capi {
        guard try withScene(scene, { $0.endBatch() }) else {
            throw CAPIError(SS_ERROR_INVALID_STATE, "ss_scene_end_batch without ss_scene_begin_batch")
        }
    }
}

@c @implementation
public func ss_scene_play_at(_ scene: OpaquePointer?, _ sources: UnsafePointer<OpaquePointer?>?, _ count: Int,
                             _ time: Double) -> ss_result {
    capi {
        let count = try checked(count, 0...65_536, "count")
        guard let sources, count > 0 else {
            if count > 0 { throw CAPIError.null("sources") }
            return
        }
        guard time.isFinite else { throw CAPIError(SS_ERROR_NOT_FINITE, "time = \(time) (must be finite)") }
        // Strong references keep the sources alive even if another thread destroys a handle meanwhile.
        let list = try (0..<count).map { index in try withSource(sources[index]) { $0 } }
        try withScene(scene) { try $0.play(list, at: time) }
    }
}

@c @implementation
public func ss_scene_crossfade(_ scene: OpaquePointer?, _ outgoing: OpaquePointer?, _ incoming: OpaquePointer?,
                               _ seconds: Double) -> ss_result {
    capi {
        let seconds = try checked(seconds, 0...86_400, "seconds")
        try withSource(outgoing) { from in
            try withSource(incoming) { to in
                try withScene(scene) { try $0.crossfade(from: from, to: to, over: seconds) }
            }
        }
    }
}

@c @implementation
public func ss_scene_set_metering(_ scene: OpaquePointer?, _ enabled: Int32) -> ss_result {
    capi { try withScene(scene) { $0.isMeteringEnabled = flag(enabled) } }
}

@c @implementation
public func ss_scene_is_metering(_ scene: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> ss_result {
    readingFlag(out) { try withScene(scene) { $0.isMeteringEnabled } }
}

@c @implementation
public func ss_scene_get_levels(_ scene: OpaquePointer?, _ out: UnsafeMutablePointer<ss_levels>?) -> ss_result {
    capi {
        let out = try require(out)
        fill(try withScene(scene) { $0.meterLevels() }, out)
    }
}

@c @implementation
public func ss_scene_set_virtualizes_voices(_ scene: OpaquePointer?, _ enabled: Int32) -> ss_result {
    capi { try withScene(scene) { $0.virtualizesVoices = flag(enabled) } }
}

@c @implementation
public func ss_scene_get_virtualizes_voices(_ scene: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> ss_result {
    readingFlag(out) { try withScene(scene) { $0.virtualizesVoices } }
}
