import NIOConcurrencyHelpers
import CSoundstage
import Soundstage
import SoundstageErrors
import Synchronization

/// What a registry handle holds: the registry, and the ids of the files played by path, so
/// that playing the same file again plays the same registered sound.
final class CRegistry: HandleObject {
    let registry: SystemSoundRegistry
    private let files = NIOLockedValueBox<[String: SystemSoundID]>([:])

    init(_ registry: SystemSoundRegistry) { self.registry = registry }

    /// The id of the file at `path`, registered on first use.
    func id(file path: String) throws -> SystemSoundID {
        if let id = files.withLockedValue({ $0[path] }), registry.registered.contains(where: { $0.id == id }) { return id }
        let id = try registry.register(file: path)
        files.withLockedValue { $0[path] = id }
        return id
    }

    func handleDestroyed() { registry.close() }
}

@inline(__always)
private func withCRegistry<R>(_ handle: OpaquePointer?, _ body: (CRegistry) throws -> R) throws -> R {
    try HandleTable.shared.with(handle, .soundRegistry, as: CRegistry.self, body)
}

@inline(__always)
func withRegistry<R>(_ handle: OpaquePointer?, _ body: (SystemSoundRegistry) throws -> R) throws -> R {
    try withCRegistry(handle) { try body($0.registry) }
}

@c @implementation
public func ss_sound_registry_options_init(_ options: UnsafeMutablePointer<ss_sound_registry_options>?) -> ss_result {
    capi {
        let options = try require(options, "options")
        let defaults = SystemSoundRegistry.Options()
        options.pointee = ss_sound_registry_options(struct_size: MemoryLayout<ss_sound_registry_options>.size,
                                                    max_concurrent: Int32(defaults.maxConcurrent),
                                                    coalescing_window: defaults.coalescingWindow,
                                                    maximum_duration: defaults.maximumDuration, theme: nil)
    }
}

@c @implementation
public func ss_sound_registry_create(_ device: OpaquePointer?, _ options: UnsafePointer<ss_sound_registry_options>?,
                                     _ out: UnsafeMutablePointer<OpaquePointer?>?) -> ss_result {
    capi {
        let out = try require(out, "out_registry")
        var settings = SystemSoundRegistry.Options()
        if let c = options?.pointee {
            try checkInitialized(c.struct_size, MemoryLayout<ss_sound_registry_options>.size, "ss_sound_registry_options")
            settings.maxConcurrent = try checked(c.max_concurrent, 1...64, "max_concurrent")
            settings.coalescingWindow = try checked(c.coalescing_window, 0...60, "coalescing_window")
            settings.maximumDuration = try checked(c.maximum_duration, 0.001...3600, "maximum_duration")
            if let theme = optionalString(c.theme) { settings.theme = SoundTheme(name: theme) }
        }
        let registry = try withDevice(device) { try SystemSoundRegistry(device: $0.device, options: settings) }
        registry.scene.installCRefusalHandler()
        try publish(CRegistry(registry), .soundRegistry, parent: device, to: out)
    }
}

@c @implementation
public func ss_sound_registry_destroy(_ registry: OpaquePointer?) -> ss_result {
    capi { try HandleTable.shared.destroy(registry, kind: .soundRegistry) }
}

/// Registers through `body` and writes the id.
private func register(_ registry: OpaquePointer?, _ out: UnsafeMutablePointer<UInt32>?,
                      _ body: (SystemSoundRegistry) throws -> SystemSoundID) throws {
    let out = try require(out, "out_id")
    out.pointee = try withRegistry(registry, body).rawValue
}

@c @implementation
public func ss_sound_register_file(_ registry: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<UInt32>?) -> ss_result {
    capi {
        let path = try string(path, "path")
        try register(registry, out) { try $0.register(file: path) }
    }
}

@c @implementation
public func ss_sound_register_memory(_ registry: OpaquePointer?, _ data: UnsafeRawPointer?, _ size: Int, _ name: UnsafePointer<CChar>?,
                                     _ out: UnsafeMutablePointer<UInt32>?) -> ss_result {
    capi {
        guard let data else { throw CAPIError.null("data") }
        let size = try checked(size, 1...(256 << 20), "size")
        let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
        let name = optionalString(name) ?? "<memory>"
        try register(registry, out) { try $0.register(data: bytes, name: name) }
    }
}

@c @implementation
public func ss_sound_register_event(_ registry: OpaquePointer?, _ event: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<UInt32>?) -> ss_result {
    capi {
        let event = try string(event, "event")
        try register(registry, out) { try $0.register(event: event) }
    }
}

@c @implementation
public func ss_sound_dispose(_ registry: OpaquePointer?, _ id: UInt32) -> ss_result {
    capi { try withRegistry(registry) { try $0.dispose(SystemSoundID(rawValue: id)) } }
}

/// The C outcome of a play.
private func outcome(_ outcome: SystemSoundOutcome) -> ss_sound_outcome {
    switch outcome {
    case .finished: SS_SOUND_FINISHED
    case .replaced: SS_SOUND_REPLACED
    case .coalesced: SS_SOUND_COALESCED
    case .silenced: SS_SOUND_SILENCED
    case .disposed: SS_SOUND_DISPOSED
    case .failed: SS_SOUND_FAILED
    }
}

/// A completion that calls `callback` with the registry's handle and the sound's id (the id is
/// known only after registering, so it is read through `id`).
private func completion(_ registry: OpaquePointer?, _ callback: ss_sound_callback?, _ userData: UnsafeMutableRawPointer?,
                        id: @escaping @Sendable () -> UInt32) -> (@Sendable (SystemSoundOutcome) -> Void)? {
    guard let callback else { return nil }
    let target = CCallback(function: callback, userData: userData)
    let handle = CCallback(function: registry, userData: nil)
    return { result in target.function(handle.function, id(), outcome(result), target.userData) }
}

/// Plays registered sound `id`, as an alert or not, with the C callback.
private func play(_ registry: OpaquePointer?, _ id: UInt32, alert: Bool, _ callback: ss_sound_callback?,
                  _ userData: UnsafeMutableRawPointer?) throws {
    let done = completion(registry, callback, userData) { id }
    do {
        try withRegistry(registry) { r in
            if alert { try r.playAlert(SystemSoundID(rawValue: id), completion: done) } else { try r.play(SystemSoundID(rawValue: id), completion: done) }
        }
    } catch let error as CAPIError {
        // The handle did not resolve, so the registry never saw the play: its callback still runs
        // exactly once, as the header promises. (The registry's own failures call it themselves.)
        done?(.failed(SoundstageError(.invalidArgument, error.message)))
        throw error
    }
}

@c @implementation
public func ss_sound_play(_ registry: OpaquePointer?, _ id: UInt32, _ callback: ss_sound_callback?,
                          _ userData: UnsafeMutableRawPointer?) -> ss_result {
    capi { try play(registry, id, alert: false, callback, userData) }
}

@c @implementation
public func ss_sound_play_alert(_ registry: OpaquePointer?, _ id: UInt32, _ callback: ss_sound_callback?,
                                _ userData: UnsafeMutableRawPointer?) -> ss_result {
    capi { try play(registry, id, alert: true, callback, userData) }
}

/// Registers a sound by name and plays it; a failed registration is the play's outcome too
/// (the callback hears SS_SOUND_FAILED with id 0, and the call returns the error).
private func registerAndPlay(_ registry: OpaquePointer?, _ alert: Int32, _ callback: ss_sound_callback?,
                             _ userData: UnsafeMutableRawPointer?,
                             _ register: (CRegistry) throws -> SystemSoundID) throws {
    let id: SystemSoundID
    do {
        id = try withCRegistry(registry, register)
    } catch {
        completion(registry, callback, userData) { 0 }?(.failed(SoundstageError(.invalidArgument, "\(error)")))
        throw error
    }
    try play(registry, id.rawValue, alert: flag(alert), callback, userData)
}

@c @implementation
public func ss_sound_play_event(_ registry: OpaquePointer?, _ event: UnsafePointer<CChar>?, _ alert: Int32,
                                _ callback: ss_sound_callback?, _ userData: UnsafeMutableRawPointer?) -> ss_result {
    capi {
        let event = try string(event, "event")
        try registerAndPlay(registry, alert, callback, userData) { try $0.registry.register(event: event) }
    }
}

@c @implementation
public func ss_sound_play_file(_ registry: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ alert: Int32,
                               _ callback: ss_sound_callback?, _ userData: UnsafeMutableRawPointer?) -> ss_result {
    capi {
        let path = try string(path, "path")
        try registerAndPlay(registry, alert, callback, userData) { try $0.id(file: path) }
    }
}

@c @implementation
public func ss_sound_registry_set_volume(_ registry: OpaquePointer?, _ volume: Float) -> ss_result {
    capi {
        let volume = try checked(volume, 0...1, "volume")
        try withRegistry(registry) { $0.volume = volume }
    }
}

@c @implementation
public func ss_sound_registry_get_volume(_ registry: OpaquePointer?, _ out: UnsafeMutablePointer<Float>?) -> ss_result {
    reading(out) { try withRegistry(registry) { $0.volume } }
}

@c @implementation
public func ss_sound_registry_set_enabled(_ registry: OpaquePointer?, _ enabled: Int32) -> ss_result {
    capi { try withRegistry(registry) { $0.isEnabled = flag(enabled) } }
}

@c @implementation
public func ss_sound_registry_is_enabled(_ registry: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> ss_result {
    readingFlag(out) { try withRegistry(registry) { $0.isEnabled } }
}

@c @implementation
public func ss_sound_registry_set_attention_callback(_ registry: OpaquePointer?, _ callback: ss_attention_callback?,
                                                     _ userData: UnsafeMutableRawPointer?) -> ss_result {
    capi {
        try withRegistry(registry) { r in
            guard let callback else { r.attentionHandler = nil; return }
            let target = CCallback(function: callback, userData: userData)
            let handle = CCallback(function: registry, userData: nil)
            r.attentionHandler = { id in target.function(handle.function, id.rawValue, target.userData) }
        }
    }
}
