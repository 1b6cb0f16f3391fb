import ArgumentParser
import SoundstageServer

/// `serve`'s per-client quotas (docs/protocol.md, "Quotas"). The defaults are far above what a
/// desktop's programs use; a request past one gets `quotaExceeded`.
struct QuotaOptions: ParsableArguments {
    private static let defaults = SoundServer.Configuration.Quotas()

    @Option(name: .long, help: "Scenes one client may have loaded.")
    var maxScenes = defaults.scenes

    @Option(name: .long, help: "OpenAL contexts one client's scenes may use together (each costs a thread).")
    var maxContexts = defaults.contexts

    @Option(name: .long, help: "Sources one client's scenes and playAt one-shots may hold.")
    var maxSources = defaults.sources

    @Option(name: .long, help: "System sounds one client may register.")
    var maxSounds = defaults.registeredSounds

    @Option(name: .long, help: "MiB of decoded audio one sound may take (longer files in scenes stream).")
    var maxSoundMb = defaults.bytesPerSound >> 20

    @Option(name: .long, help: "MiB of decoded audio one client's sounds and scenes may take together.")
    var maxClientMb = defaults.bytesPerClient >> 20

    @Option(name: .long, help: "The longest scene a client may load, in seconds.")
    var maxSceneSeconds = defaults.sceneSeconds

    func validate() throws {
        for (value, flag) in [(maxScenes, "--max-scenes"), (maxContexts, "--max-contexts"), (maxSources, "--max-sources"),
                              (maxSounds, "--max-sounds")] where !(1...1_000_000).contains(value) {
            throw ValidationError("\(flag) must be 1...1000000")
        }
        guard (1...65_536).contains(maxSoundMb), (1...1_048_576).contains(maxClientMb) else {
            throw ValidationError("--max-sound-mb must be 1...65536 and --max-client-mb 1...1048576")
        }
        guard maxSceneSeconds.isFinite, maxSceneSeconds > 0 else { throw ValidationError("--max-scene-seconds must be > 0") }
    }

    /// The quotas for the server.
    var quotas: SoundServer.Configuration.Quotas {
        var quotas = SoundServer.Configuration.Quotas()
        quotas.scenes = maxScenes
        quotas.contexts = maxContexts
        quotas.sources = maxSources
        quotas.registeredSounds = maxSounds
        quotas.bytesPerSound = maxSoundMb << 20
        quotas.bytesPerClient = maxClientMb << 20
        quotas.sceneSeconds = maxSceneSeconds
        return quotas
    }
}
