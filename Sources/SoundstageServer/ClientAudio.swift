#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import NIOCore
import Soundstage

/// What one client owns on the device: its audio session, its system-sound registry (made on
/// first use), the IDs of the files and events it played, and its scenes. Confined to the
/// client's event loop.
final class ClientAudio {
    let device: Device
    let session: AudioSession
    private let registryOptions: SystemSoundRegistry.Options
    /// The context the registry shares with every other client's.
    private let sharedScene: () throws -> Scene
    private(set) var registry: SystemSoundRegistry?
    /// IDs of sounds registered by path or event through `playSound`, so a repeat play does not
    /// register (and decode) again.
    var idsByFile: [String: SystemSoundID] = [:]
    var idsByEvent: [String: SystemSoundID] = [:]
    var scenes: [String: HostedScene] = [:]

    init(device: Device, sessions: AudioSessionCenter, category: SessionCategory,
         registryOptions: SystemSoundRegistry.Options, sharedScene: @escaping () throws -> Scene) {
        self.device = device
        self.registryOptions = registryOptions
        self.sharedScene = sharedScene
        session = sessions.makeSession(category: category)
        try? session.setActive(true)
    }

    /// The client's registry, created (and put under its session) on first use.
    func systemSounds() throws -> SystemSoundRegistry {
        if let registry { return registry }
        let registry = try SystemSoundRegistry(sharing: sharedScene(), options: registryOptions)
        session.attach(registry)
        if !session.isActive { registry.beginInterruption() }
        self.registry = registry
        return registry
    }

    /// What the client holds now, for its quotas.
    struct Usage {
        var scenes = 0, contexts = 0, sources = 0, sounds = 0, bytes = 0
    }

    var usage: Usage {
        var usage = Usage(scenes: scenes.count, sounds: registry?.registered.count ?? 0, bytes: registry?.decodedBytes ?? 0)
        var buffers = Set<ObjectIdentifier>()
        for hosted in scenes.values {
            usage.contexts += hosted.runner.scenes.count
            usage.sources += hosted.runner.sources.count + hosted.oneShots.count
            for buffer in hosted.runner.sources.values.compactMap(\.buffer) + hosted.oneShots.values.compactMap(\.buffer)
            where buffers.insert(ObjectIdentifier(buffer)).inserted {
                usage.bytes += buffer.frames * buffer.channels * MemoryLayout<Float>.size
            }
        }
        return usage
    }

    /// Forgets a registered sound everywhere it is remembered.
    func forget(_ id: SystemSoundID) {
        idsByFile = idsByFile.filter { $0.value != id }
        idsByEvent = idsByEvent.filter { $0.value != id }
    }

    /// Frees the scenes at once. Returns what must still be released: the registry and session,
    /// which the caller frees when the system sounds playing now have ended (`drain`), or at once.
    func releaseScenes() -> (registry: SystemSoundRegistry?, session: AudioSession) {
        let hadScenes = !scenes.isEmpty
        for scene in scenes.values { scene.close() }
        scenes.removeAll()
        if hadScenes {
            device.evictCachedBuffers()
            // OpenAL Soft frees a context's voices (some 6 MB) into the allocator, which keeps
            // them; give them back so the daemon's memory returns to where it was.
            Allocator.returnFreeMemory()
        }
        idsByFile.removeAll()
        idsByEvent.removeAll()
        defer { registry = nil }
        return (registry, session)
    }
}
