import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import Logging
import Soundstage
import SoundstageServer

/// `--backend` and `--latency`: where a command plays, shared by play, run, sound play and serve.
struct OutputOptions: ParsableArguments {
    @Option(name: .long, help: "Where to play: automatic (the desktop server — PulseAudio or PipeWire — else OpenAL's own ALSA output), desktop or openal.")
    var backend: OutputBackend = .automatic

    @Option(name: .long, help: "Target latency on the desktop server, in milliseconds (5...500; default 20, serve 10).")
    var latency: Double?

    @Option(name: .long, help: "Seconds of silence after which the desktop output rests — its stream corked, the sink free to suspend, no CPU — until the next sound (0...3600; 0 never rests; default 2).")
    var idleTimeout: Double?

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        if let latency, !(latency.isFinite && (5...500).contains(latency)) {
            throw ValidationError("--latency must be between 5 and 500 ms")
        }
        if let idleTimeout, !(idleTimeout.isFinite && (0...3_600).contains(idleTimeout)) {
            throw ValidationError("--idle-timeout must be between 0 and 3600 s (0: never rest)")
        }
    }

    /// Opens the output; says on stderr when the desktop server goes away and comes back. With
    /// `--verbose` it also logs what it opened and every route change, underrun and server request.
    /// - Throws: `.noOutputDevice` when nothing opens (the caller renders to a file).
    func open(role: MediaRole, hrtf: Bool? = nil, defaultLatency: Double = 0.020) throws -> Device {
        var options = DesktopOutputOptions(applicationName: "soundstage", applicationID: "org.soundstage.cli",
                                           role: role, latency: latency.map { $0 / 1_000 } ?? defaultLatency, hrtf: hrtf)
        if let idleTimeout { options.idleTimeout = idleTimeout }
        let logger = logging.logger("soundstage", level: .error)
        logger.debug("opening the output", metadata: ["backend": "\(backend.rawValue)", "role": "\(role.rawValue)",
                                                      "latency": "\(options.latency)"])
        let device: Device
        do {
            device = try Soundstage.silencingStandardError { try Device.openOutput(backend: backend, desktop: options) }
        } catch {
            logger.debug("no output opened", metadata: ["error": "\(error)"])
            throw error
        }
        let status = device.outputStatus
        logger.debug("output opened", metadata: ["backend": "\(status.backend)", "server": "\(status.server)",
                                                 "sink": "\(status.sink ?? "none")", "rate": "\(device.sampleRate)",
                                                 "latency": "\(status.latency.map { "\($0)" } ?? "unknown")"])
        if logging.verbose { OutputLog(logger: logger).watch(device) }
        device.addOutputObserver { event in
            switch event {
            case let .serverLost(reason): Terminal.say("\(reason); waiting for an audio server to answer again")
            case .serverReconnected: Terminal.say("the audio server answers again; playing on")
            default: break
            }
        }
        return device
    }
}

extension OutputBackend: ExpressibleByArgument {
    /// Accepts `automatic`, `desktop` and `openal` (any case).
    public init?(argument: String) {
        guard let backend = Self.allCases.first(where: { $0.rawValue.lowercased() == argument.lowercased() }) else { return nil }
        self = backend
    }

    /// The names `--help` lists.
    public static var allValueStrings: [String] { allCases.map { $0.rawValue.lowercased() } }
}

extension ClosedRange<Int> {
    /// Refuses a rate option outside these limits (``SampleRateLimits``), naming the option and the range.
    func check(_ rate: Int?, option: String) throws {
        if let rate, !contains(rate) {
            throw ValidationError("\(option) must be between \(lowerBound) and \(upperBound)")
        }
    }
}
