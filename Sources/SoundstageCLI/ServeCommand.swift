import ArgumentParser
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import Soundstage
import SoundstageProtocol
import SoundstageLiveView
import SoundstageServer
import NumberText

/// `soundstage serve`: the daemon, in the foreground.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the sound server: other programs play UI sounds and drive scenes through a Unix socket.",
        discussion: """
            Listens on --socket (default $SOUNDSTAGE_SOCKET, else $XDG_RUNTIME_DIR/soundstage/socket, else \
            /tmp/soundstage-UID/socket) in a directory of mode 0700, the socket 0600. The protocol is one JSON \
            request per line (docs/protocol.md). Stops cleanly on SIGTERM or SIGINT: clients are told, everything \
            is freed, the socket is removed. Without a sound card it mixes on a silent real-time renderer (see --record). \
            It logs to stderr (journald under systemd): starts and stops, clients coming and going, refused requests \
            (at most five a second per client), interruptions, route changes and underruns; --verbose adds every request.
            """)

    @Option(name: .long, help: "The socket path.")
    var socket: String?

    @Option(name: .long, help: "Without a sound card, also write what the daemon mixes to this file (the format follows the extension unless --record-format says).")
    var record: String?

    @Option(name: .long, help: "The --record file's format (see 'soundstage convert --help'); default from the extension, else wav-pcm16.")
    var recordFormat: OutputFormat?

    @Option(name: .long, help: "Seconds within which a retrigger of the same system sound coalesces.")
    var coalescingWindow: Double = 0.08

    @Option(name: .long, help: "System sounds one client may have sounding at once.")
    var maxConcurrent: Int = 1

    @OptionGroup var outputOptions: OutputOptions

    @OptionGroup(title: "Per-client quotas") var quotaOptions: QuotaOptions

    @OptionGroup(title: "Live view") var liveViewOptions: LiveViewOptions

    func validate() throws {
        guard coalescingWindow >= 0, coalescingWindow <= 10 else { throw ValidationError("--coalescing-window must be 0...10 s") }
        guard (1...64).contains(maxConcurrent) else { throw ValidationError("--max-concurrent must be 1...64") }
    }

    func run() throws {
        try reportingErrors {
            let path = socket ?? ServerProtocol.defaultSocketPath()
            let isDefault = socket == nil && ProcessInfo.processInfo.environment[ServerProtocol.socketEnvironmentVariable] == nil
            let device: Device
            do {
                device = try outputOptions.open(role: .event, defaultLatency: 0.010)
                let status = device.outputStatus
                Terminal.say("output: \(status.backend) (\(status.server))" + (status.sink.map { ", sink \($0)" } ?? "")
                             + ", latency \(status.latency.map { "\(($0 * 1_000).fixed(1)) ms" } ?? "unknown")")
            } catch let error as SoundstageError where error.code == .noOutputDevice {
                device = try Device.loopback()
            }
            // Contexts come and go with clients' scenes: let their memory go back to the system.
            Allocator.mapLargeBlocks()
            var configuration = SoundServer.Configuration()
            configuration.registryOptions.coalescingWindow = coalescingWindow
            configuration.registryOptions.maxConcurrent = maxConcurrent
            configuration.quotas = quotaOptions.quotas
            // Starts and stops, clients, refused requests, interruptions, route changes and underruns
            // at info and above (every request too with --verbose), on stderr for journald.
            let server = SoundServer(device: device, configuration: configuration,
                                     logger: outputOptions.logging.logger("soundstage.serve", level: .info))
            do {
                try server.start(socketPath: path, isDefaultLocation: isDefault)
            } catch let error as ServerStartError {
                server.shutdown()
                device.close()
                Terminal.say(error.message)
                throw ExitCode.failure
            }
            var renderer: RealTimeRenderer?
            if device.kind == .loopback {
                do {
                    renderer = try RealTimeRenderer(device: device, recordingTo: record,
                                                    format: recordFormat ?? record.flatMap { OutputFormat(pathExtensionOf: $0) } ?? .wavPCM16)
                } catch {
                    server.shutdown()
                    throw error
                }
                renderer?.start()
                Terminal.say("no audio output device could be opened; mixing on a silent real-time renderer"
                             + (record.map { ", recording to \($0)" } ?? ""))
            }
            let liveView: LiveView?
            do {
                liveView = try liveViewOptions.start(on: device, logger: outputOptions.logging.logger("soundstage.live-view", level: .info))
            } catch {
                server.shutdown()
                try renderer?.stop()
                device.close()
                throw error
            }
            if let liveView {
                // The clients' sessions on the page, and their interruptions in its log.
                liveView.sessionProvider = { [weak server] in
                    server?.clientSessions.map { LiveSession(name: "client \($0.client)", session: $0.session) } ?? []
                }
                server.addSessionObserver { [weak liveView] client, event in
                    switch event.kind {
                    case let .interruptionBegan(reason): liveView?.log("client \(client): interrupted (\(reason.rawValue))")
                    case let .interruptionEnded(resume): liveView?.log("client \(client): interruption ended\(resume ? ", resuming" : "")")
                    case .activated: liveView?.log("client \(client): session active")
                    case .deactivated: liveView?.log("client \(client): session inactive")
                    case .ducked, .unducked: break
                    }
                }
            }
            Terminal.say("serving on \(server.socketPath ?? path) (pid \(getpid())); stop with SIGTERM or Ctrl-C")
            let signals = [SIGTERM, SIGINT].map { number -> DispatchSourceSignal in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler {
                    server.shutdown(reason: number == SIGTERM ? "SIGTERM" : "SIGINT")
                }
                source.resume()
                return source
            }
            server.waitUntilStopped()
            liveView?.stop()
            for source in signals { source.cancel() }
            try renderer?.stop()
            device.close()
            let live = Soundstage.liveObjects
            Terminal.say("stopped; OpenAL objects still live: \(live.isZero ? "none" : "\(live)")")
            if let failure = server.failure {
                Terminal.say("soundstage serve: \(failure)")
                throw ExitCode.failure
            }
            if !live.isZero { throw ExitCode.failure }
        }
    }
}
