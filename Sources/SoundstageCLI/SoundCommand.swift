import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import Soundstage
import SoundstageClient
import SoundstageProtocol
import NumberText

/// `soundstage sound`: system sounds, in the spirit of `canberra-gtk-play`.
struct SoundCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sound",
        abstract: "Play system sounds by freedesktop event name or file, and list a theme's events.",
        subcommands: [SoundPlayCommand.self, SoundListCommand.self])
}

/// Options shared by the `sound` subcommands.
struct ThemeOptions: ParsableArguments {
    @Option(name: .long, help: "The sound theme (default: freedesktop, then Soundstage's fallback).")
    var theme: String = "freedesktop"

    var soundTheme: SoundTheme { SoundTheme(name: theme) }
}

/// `soundstage sound play (--id EVENT | --file FILE)`.
struct SoundPlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play one system sound and wait for it to end.",
        discussion: """
            When a daemon (`soundstage serve`) listens on the socket (--socket, $SOUNDSTAGE_SOCKET or the default), \
            the sound plays through it; otherwise it plays in this process. Without a sound card the in-process play \
            renders to a WAV file instead (see --output) and says where.
            """)

    @Option(name: .long, help: "A freedesktop event name, e.g. message-new-instant, dialog-error, button-pressed.")
    var id: String?

    @Option(name: .long, help: "A sound file (.wav, .caf or .aiff; PCM, IMA4/ADPCM, µ-law or A-law; at most 30 s).")
    var file: String?

    @Flag(name: .long, help: "Play it as an alert.")
    var alert = false

    @Option(name: .long, parsing: .unconditional, help: "Volume in dB relative to the sound (0 = as recorded, -6 = half).")
    var volume: Double = 0

    @OptionGroup var themeOptions: ThemeOptions

    @Option(name: .long, help: "Where to write the render when there is no sound card (default: NAME-render.wav here).")
    var output: String?

    @Option(name: .long, help: "The daemon's socket (default: $SOUNDSTAGE_SOCKET, else $XDG_RUNTIME_DIR/soundstage/socket).")
    var socket: String?

    @Flag(name: .long, help: "Play in this process even if a daemon runs.")
    var noDaemon = false

    @OptionGroup var outputOptions: OutputOptions

    func validate() throws {
        guard (id == nil) != (file == nil) else { throw ValidationError("give exactly one of --id EVENT or --file FILE") }
        guard volume.isFinite, volume <= 24 else { throw ValidationError("--volume must be at most 24 dB") }
    }

    func run() async throws {
        // A daemon plays with its own theme and never renders to a file: those options mean in-process.
        let path = socket ?? ServerProtocol.defaultSocketPath()
        if !noDaemon, output == nil, themeOptions.theme == "freedesktop", FileManager.default.fileExists(atPath: path),
           let daemon = try? await SoundstageClient.connect(socketPath: path) {
            try await reportingServerErrors {
                do {
                    try await playThrough(daemon)
                } catch {
                    await daemon.close()
                    throw error
                }
                await daemon.close()
            }
            return
        }
        if socket != nil && !noDaemon {
            Terminal.say("no daemon answers on \(path); playing in this process")
        }
        try playInProcess()
    }

    /// Plays through the daemon and waits for the sound's end.
    private func playThrough(_ daemon: SoundstageClient) async throws {
        try await daemon.subscribe([.completion])
        if volume != 0 { try await daemon.request(.setSoundVolume, [.volume: .number(pow(10, volume / 20))]) }
        let play = if let id {
            try await daemon.playSound(event: id, alert: alert)
        } else {
            try await daemon.playSound(file: file!, alert: alert)
        }
        guard play.outcome == .playing else {
            Terminal.say("the daemon did not play it: \(play.outcome.rawValue)")
            return
        }
        for await event in daemon.events where event.kind == .completion && event.request == play.request {
            if let outcome = event.outcome, outcome != .finished {
                Terminal.say("the sound ended early: \(outcome.rawValue)")
            }
            return
        }
        throw ServerError(code: .connection, message: "the daemon went away before the sound ended")
    }

    private func playInProcess() throws {
        try reportingErrors {
            var options = SystemSoundRegistry.Options()
            options.theme = themeOptions.soundTheme
            let name = id ?? URL(fileURLWithPath: file!).deletingPathExtension().lastPathComponent
            var rendering = false
            let device: Device
            do {
                device = try outputOptions.open(role: .event, defaultLatency: 0.010)
            } catch let error as SoundstageError where error.code == .noOutputDevice {
                device = try Device.loopback()
                rendering = true
            }
            defer { device.close() }
            let registry = try SystemSoundRegistry(device: device, options: options)
            defer { registry.close() }
            registry.volume = Float(pow(10, volume / 20))
            // Register first, so a bad name or file fails before anything is said or written.
            let sound = try id.map { try registry.register(event: $0) } ?? registry.register(file: file!)
            if alert { try registry.playAlert(sound) } else { try registry.play(sound) }
            guard rendering else {
                while registry.playingCount > 0 { usleep(5_000) }
                device.drain()    // return only once the last sample reached the output
                return
            }
            let path = output ?? "\(name)-render.wav"
            Terminal.renderingInstead(to: path)
            let writer = try SoundFileWriter(path: path, format: .wavPCM16, sampleRate: device.sampleRate, channels: 2)
            repeat { try writer.write(try device.render(frames: device.updateFrames)) } while registry.playingCount > 0
            try writer.finish()
            Terminal.say("rendered \((Double(writer.framesWritten) / Double(device.sampleRate)).fixed(2)) s to \(path)")
        }
    }
}
/// `soundstage sound list`.
struct SoundListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the event names the theme chain provides, one per line, with the file each resolves to.")

    @OptionGroup var themeOptions: ThemeOptions

    @Flag(name: .long, help: "Print only the event names.")
    var namesOnly = false

    func run() throws {
        let theme = themeOptions.soundTheme
        for event in theme.eventNames() {
            if namesOnly {
                print(event)
            } else if case .file(let path)? = theme.resolve(event) {
                print("\(event)\t\(path)")
            }
        }
    }
}
