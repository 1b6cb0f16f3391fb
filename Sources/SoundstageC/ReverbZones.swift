import CSoundstage
import Soundstage
#if canImport(Glibc)
import Glibc
#endif

extension ReverbZone: HandleObject {
    /// Destroying a zone's handle removes the zone (its effect slot is freed).
    func handleDestroyed() { remove() }
}

@inline(__always)
func withZone<R>(_ handle: OpaquePointer?, _ body: (ReverbZone) throws -> R) throws -> R {
    try HandleTable.shared.with(handle, .reverbZone, as: ReverbZone.self, body)
}

/// The preset names as C strings, made once and never freed (ss_reverb_preset_name returns them).
private struct PresetNames: @unchecked Sendable {
    // @unchecked: immutable after initialization; the strings are never written or freed.
    let pointers: [UnsafePointer<CChar>]
    init() { pointers = ReverbPreset.allNames.map { UnsafePointer(strdup($0)!) } }
}

private let presetNames = PresetNames()

@c @implementation
public func ss_reverb_preset_count() -> Int32 { Int32(presetNames.pointers.count) }

@c @implementation
public func ss_reverb_preset_name(_ index: Int32) -> UnsafePointer<CChar>? {
    presetNames.pointers.indices.contains(Int(index)) ? presetNames.pointers[Int(index)] : nil
}

/// A preset by name.
private func preset(_ name: UnsafePointer<CChar>?) throws -> ReverbPreset {
    let name = try string(name, "preset")
    guard let preset = ReverbPreset.named(name) else {
        throw CAPIError(SS_ERROR_NOT_FOUND, "no reverb preset named '\(name)' (ss_reverb_preset_name lists them)")
    }
    return preset
}

/// A region from its C form (NULL: everywhere).
private func region(_ pointer: UnsafePointer<ss_reverb_region>?) throws -> ReverbRegion {
    guard let r = pointer?.pointee else { return .everywhere }
    let values = [r.center.x, r.center.y, r.center.z, r.radius, r.min.x, r.min.y, r.min.z, r.max.x, r.max.y, r.max.z, r.fade]
    guard values.allSatisfy(\.isFinite) else { throw CAPIError(SS_ERROR_NOT_FINITE, "the region holds NaN or an infinity") }
    let result: ReverbRegion
    switch r.kind {
    case SS_REGION_EVERYWHERE: result = .everywhere
    case SS_REGION_SPHERE: result = .sphere(center: Vector3(r.center), radius: r.radius, fade: r.fade)
    case SS_REGION_BOX: result = .box(min: Vector3(r.min), max: Vector3(r.max), fade: r.fade)
    default: throw CAPIError(SS_ERROR_INVALID_ARGUMENT, "\(r.kind.rawValue) is not an ss_region_kind")
    }
    if let problem = result.problem { throw CAPIError(SS_ERROR_OUT_OF_RANGE, "region: \(problem)") }
    return result
}

@c @implementation
public func ss_reverb_zone_create(_ scene: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ presetName: UnsafePointer<CChar>?,
                                  _ region: UnsafePointer<ss_reverb_region>?, _ gain: Float,
                                  _ out: UnsafeMutablePointer<OpaquePointer?>?) -> ss_result {
    capi {
        let out = try require(out, "out_zone")
        let name = try string(name, "name")
        let preset = try preset(presetName)
        let region = try SoundstageC.region(region)
        let gain = try checked(gain, 0...1, "gain")
        let zone = try withScene(scene) { try $0.makeReverbZone(name, preset: preset, region: region, gain: gain) }
        try publish(zone, .reverbZone, parent: scene, to: out)
    }
}

@c @implementation
public func ss_reverb_zone_destroy(_ zone: OpaquePointer?) -> ss_result {
    capi { try HandleTable.shared.destroy(zone, kind: .reverbZone) }
}

@c @implementation
public func ss_reverb_zone_set_preset(_ zone: OpaquePointer?, _ name: UnsafePointer<CChar>?) -> ss_result {
    capi {
        let preset = try preset(name)
        try withZone(zone) { try $0.setPreset(preset) }
    }
}

/// A reverb value by its scene-file name, with the key path that reads and writes it.
private func reverbSetting(_ name: UnsafePointer<CChar>?) throws -> (String, WritableKeyPath<ReverbPreset, Float>) {
    let setting = try string(name, "setting")
    guard let keyPath = ReverbPreset.settingNames.first(where: { $0.name == setting })?.value else {
        let names = ReverbPreset.settingNames.map(\.name).joined(separator: ", ")
        throw CAPIError(SS_ERROR_NOT_FOUND, "no reverb setting named '\(setting)'; settings: \(names)")
    }
    return (setting, keyPath)
}

@c @implementation
public func ss_reverb_zone_set_value(_ zone: OpaquePointer?, _ setting: UnsafePointer<CChar>?, _ value: Float) -> ss_result {
    capi {
        let (setting, keyPath) = try reverbSetting(setting)
        guard value.isFinite else { throw CAPIError(SS_ERROR_NOT_FINITE, "\(setting) = \(value) (must be finite)") }
        try withZone(zone) { z in
            var preset = z.preset
            preset[keyPath: keyPath] = value
            try z.setPreset(preset)
        }
    }
}

@c @implementation
public func ss_reverb_zone_get_value(_ zone: OpaquePointer?, _ setting: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<Float>?) -> ss_result {
    reading(out) {
        let (_, keyPath) = try reverbSetting(setting)
        return try withZone(zone) { $0.preset[keyPath: keyPath] }
    }
}

@c @implementation
public func ss_reverb_zone_set_gain(_ zone: OpaquePointer?, _ gain: Float) -> ss_result {
    capi {
        let gain = try checked(gain, 0...1, "gain")
        try withZone(zone) { $0.gain = gain }
    }
}

@c @implementation
public func ss_reverb_zone_get_gain(_ zone: OpaquePointer?, _ out: UnsafeMutablePointer<Float>?) -> ss_result {
    reading(out) { try withZone(zone) { $0.gain } }
}

@c @implementation
public func ss_reverb_zone_set_region(_ zone: OpaquePointer?, _ region: UnsafePointer<ss_reverb_region>?) -> ss_result {
    capi {
        let region = try SoundstageC.region(region)
        try withZone(zone) { $0.region = region }
    }
}

@c @implementation
public func ss_reverb_zone_get_region(_ zone: OpaquePointer?, _ out: UnsafeMutablePointer<ss_reverb_region>?) -> ss_result {
    reading(out) {
        var r = ss_reverb_region()
        switch try withZone(zone, { $0.region }) {
        case .everywhere: r.kind = SS_REGION_EVERYWHERE
        case let .sphere(center, radius, fade): (r.kind, r.center, r.radius, r.fade) = (SS_REGION_SPHERE, center.c, radius, fade)
        case let .box(min, max, fade): (r.kind, r.min, r.max, r.fade) = (SS_REGION_BOX, min.c, max.c, fade)
        }
        return r
    }
}

@c @implementation
public func ss_reverb_zone_get_weight(_ zone: OpaquePointer?, _ out: UnsafeMutablePointer<Float>?) -> ss_result {
    capi {
        let out = try require(out)
        out.pointee = try withZone(zone) { $0.weight }
    }
}

/// A source and a zone of the same scene (another scene's zone: SS_ERROR_INVALID_ARGUMENT).
private func withSend<R>(_ source: OpaquePointer?, _ zone: OpaquePointer?, _ body: (Source, ReverbZone) throws -> R) throws -> R {
    try withZone(zone) { z in
        try withSource(source) { s in
            guard z.scene === s.scene else { throw CAPIError(SS_ERROR_INVALID_ARGUMENT, "the zone belongs to another scene") }
            return try body(s, z)
        }
    }
}

@c @implementation
public func ss_source_set_zone_send(_ source: OpaquePointer?, _ zone: OpaquePointer?, _ level: Float) -> ss_result {
    capi {
        try withSend(source, zone) { s, z in
            // A negative level removes the override, but -infinity is refused (NaN: refused and counted).
            try setting(finite: level.isFinite) { s.setReverbSend(!level.isFinite ? .nan : level < 0 ? nil : level, to: z) }
        }
    }
}

@c @implementation
public func ss_source_get_zone_send(_ source: OpaquePointer?, _ zone: OpaquePointer?, _ out: UnsafeMutablePointer<Float>?) -> ss_result {
    reading(out) { try withSend(source, zone) { s, z in s.reverbSend(to: z) } }
}
