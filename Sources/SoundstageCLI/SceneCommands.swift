import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import Soundstage
import SoundstageLiveView
import SoundstageScenes
import NumberText

/// `soundstage run SCENE`: plays a scene file in real time.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Play a scene file on the sound card, in real time.",
        discussion: """
            Without a sound card it renders the scene to a WAV file instead (see --output) and says where.
            The scene format is described in docs/scene-format.md.
            """)

    @Argument(help: "The scene file (JSON).")
    var scene: String

    @Option(name: .long, help: "Where to write the render when there is no sound card (default: NAME-render.wav here).")
    var output: String?

    @Option(name: .long, help: "Also write exactly what is sent to the output to this file (format from the extension, else 16-bit WAV).")
    var record: String?

    @Flag(name: .long, help: "Binaural mixing (HRTF) for headphones; says whether OpenAL granted it.")
    var hrtf = false

    @Option(name: .long, help: "Add a reverb everywhere in the world context, e.g. cave (see 'soundstage reverb-presets').")
    var reverb: ReverbPreset?

    @OptionGroup var outputOptions: OutputOptions

    @OptionGroup(title: "Live view") var liveViewOptions: LiveViewOptions

    func run() throws {
        // A file-size limit (ulimit -f) on --record is a write error to report, not a signal that kills.
        signal(SIGXFSZ, SIG_IGN)
        try reportingErrors {
            let description = try SceneDescription.load(path: scene).addingReverb(reverb)
            do {
                let device = try outputOptions.open(role: .game, hrtf: hrtf ? true : nil)
                if hrtf { try Self.reportHRTF(device) }
                defer { device.close() }
                let runner = try SceneRunner(description, device: device)
                defer { runner.close() }
                let liveView = try liveViewOptions.start(on: device, logger: outputOptions.logging.logger("soundstage.live-view", level: .info))
                defer { liveView?.stop() }
                // Recording starts with the scene, so the file is the scene's mix, not the setup's silence too.
                if let record { try device.recordOutput(to: record, format: OutputFormat(pathExtensionOf: record) ?? .wavPCM16) }
                try Interrupt.catching { try runner.playInRealTime(isCancelled: { Interrupt.wasRequested }) }
                device.drain()
                if let result = device.stopRecordingOutput() {
                    let kept = "\(result.duration.fixed(2)) s"
                    if let failure = result.failure {
                        Terminal.say("\(failure); kept \(kept) of the mix in \(result.path)")
                        throw ExitCode.failure
                    }
                    Terminal.say("recorded \(kept) of the mix to \(result.path)")
                }
                if Interrupt.wasRequested { throw ExitCode(130) }
                return
            } catch let error as SoundstageError where error.code == .noOutputDevice {
                let path = record ?? output ?? Playback.defaultOutput(for: scene)
                Terminal.renderingInstead(to: path)
                let device = try Device.loopback(hrtf: hrtf)
                defer { device.close() }
                if hrtf { try Self.reportHRTF(device) }
                let runner = try SceneRunner(description, device: device)
                defer { runner.close() }
                let rendered = try Interrupt.catching {
                    try runner.render(to: path, format: record.flatMap { OutputFormat(pathExtensionOf: $0) } ?? .wavPCM16,
                                      progress: ProgressBar.forTerminal(),
                                      isCancelled: { Interrupt.wasRequested })
                }
                try Interrupt.finishRender(wrote: rendered, of: description.duration, to: path)
                Terminal.say("rendered \(description.duration) s to \(path)")
                if let output, record != nil, output != path {
                    try? FileManager.default.removeItem(atPath: output)
                    try FileManager.default.copyItem(atPath: path, toPath: output)
                    Terminal.say("and copied it to \(output)")
                }
            }
        }
    }
}

extension RunCommand {
    /// One line saying whether HRTF is on and why (OpenAL may deny it, e.g. on a surround output).
    static func reportHRTF(_ device: Device) throws {
        let info = try device.info
        Terminal.say("HRTF \(info.hrtfEnabled ? "on" : "off") (\(info.hrtfStatus))")
    }
}

/// `soundstage render SCENE --output OUT`: renders a scene offline, faster than real time.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a scene file offline to an audio file, faster than real time.",
        discussion: "Renders are bit-identical between runs. The scene format is described in docs/scene-format.md.")

    @Argument(help: "The scene file (JSON).")
    var scene: String

    @Option(name: [.short, .long], help: "The audio file to write.")
    var output: String

    @Option(name: .long, help: "Output frames per second.")
    var sampleRate: Int = 48_000

    @Option(name: .long, help: "Output layout: mono, stereo, quad, 5.1, 6.1 or 7.1.")
    var channels: ChannelLayout = .stereo

    @Flag(name: .long, help: "Mix binaurally with HRTF (stereo only; for headphones).")
    var hrtf = false

    @Option(name: .long, help: "Output format (see 'soundstage convert --help'); default from the extension, else wav-f32.")
    var format: OutputFormat?

    @Option(name: .long, help: "Also draw per-channel levels over time as an SVG picture.")
    var plot: String?

    @Option(name: .long, help: "Also draw the scene's top-down map with the paths of its sources and listener as an SVG picture.")
    var map: String?

    @Option(name: .long, help: "Begin an audio-session interruption at this time (seconds): the scene goes silent.")
    var interruptAt: Double?

    @Option(name: .long, help: "Add a reverb everywhere in the world context, e.g. cave (see 'soundstage reverb-presets').")
    var reverb: ReverbPreset?

    @Option(name: .long, help: "End the interruption at this time (seconds): what was playing continues from where it was.")
    var resumeAt: Double?

    func validate() throws {
        try SampleRateLimits.mix.check(sampleRate, option: "--sample-rate")
        if hrtf && channels != .stereo { throw ValidationError("--hrtf needs --channels stereo") }
        if let interruptAt, !(interruptAt.isFinite && interruptAt >= 0) { throw ValidationError("--interrupt-at must be a time >= 0") }
        if let resumeAt {
            guard let interruptAt else { throw ValidationError("--resume-at needs --interrupt-at") }
            guard resumeAt.isFinite, resumeAt > interruptAt else { throw ValidationError("--resume-at must come after --interrupt-at") }
        }
    }

    func run() throws {
        try reportingErrors {
            let description = try SceneDescription.load(path: scene).addingReverb(reverb)
            let device = try Device.loopback(sampleRate: sampleRate, layout: channels, hrtf: hrtf)
            defer { device.close() }
            let runner = try SceneRunner(description, device: device)
            defer { runner.close() }
            let center = AudioSessionCenter(device: device)
            if let interruptAt {
                let session = center.makeSession(category: .soloAmbient)
                for scene in runner.scenes.values { session.attach(scene) }
                try session.setActive(true)
                runner.onAdvance = { [resumeAt] t in
                    if t >= interruptAt && (resumeAt.map { t < $0 } ?? true) && !session.isInterrupted {
                        session.beginInterruption(reason: .application)
                    } else if let resumeAt, t >= resumeAt, session.isInterrupted {
                        session.endInterruption(shouldResume: true)
                    }
                }
            }
            if let map {
                let name = URL(fileURLWithPath: scene).lastPathComponent
                try OutputDestination.write(Array(SceneMap(description).svg(title: "\(name): sources and listener over \(description.duration) s").utf8), to: map)
            }
            let target = format ?? (output.lowercased().hasSuffix(".wav") ? .wavFloat32 : OutputFormat(pathExtensionOf: output) ?? .wavFloat32)
            if let plot {
                // The plot needs the whole mix in memory: bounded like any decoded sound.
                let bytes = description.duration * Double(sampleRate) * Double(channels.channelCount) * 4
                guard bytes <= Double(SoundFile.defaultMaxDecodedBytes) else {
                    throw SoundstageError(.tooLarge, "--plot keeps the whole mix in memory (\((bytes / 1e9).fixed(1)) GB for \(description.duration.fixed(0)) s); "
                                                            + "render without --plot, or a shorter scene",
                                          subject: scene)
                }
                try target.checkCapacity(seconds: description.duration, sampleRate: sampleRate,
                                         channels: channels.channelCount, path: output)
                let audio = try runner.renderAll()
                try SoundFileWriter.write(audio, to: output, format: target)
                let name = URL(fileURLWithPath: scene).lastPathComponent
                // Not write(toFile:atomically:), which would replace a symlink or /dev/null with a file.
                try OutputDestination.write(Array(LevelPlot(audio).svg(title: "\(name): level per channel (dBFS)").utf8), to: plot)
            } else {
                let rendered = try Interrupt.catching {
                    try runner.render(to: output, format: target, progress: ProgressBar.forTerminal(),
                                      isCancelled: { Interrupt.wasRequested })
                }
                try Interrupt.finishRender(wrote: rendered, of: description.duration, to: output)
            }
        }
    }
}

extension ChannelLayout: ExpressibleByArgument {
    /// The layout names: mono, stereo, quad, 5.1, 6.1, 7.1.
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

/// A one-line progress bar on stderr, shown only on a terminal and only for renders that take
/// more than a second of work.
final class ProgressBar {
    private let start = Date()
    private var shown = false

    /// A progress callback, or nil when stderr is not a terminal.
    static func forTerminal() -> ((Double) -> Void)? {
        guard Terminal.stderrIsTerminal else { return nil }
        let bar = ProgressBar()
        return { bar.update($0) }
    }

    func update(_ fraction: Double) {
        guard shown || Date().timeIntervalSince(start) > 1 else { return }
        shown = true
        let width = 30, filled = Int(fraction * Double(width))
        Terminal.writeLine("\rrendering [\(String(repeating: "#", count: filled))\(String(repeating: " ", count: width - filled))] \(Int(fraction * 100))%",
                           newline: fraction >= 1)
    }
}

extension SceneDescription {
    /// The scene with an everywhere reverb zone named `--reverb` in its world context, if `preset` is given.
    func addingReverb(_ preset: ReverbPreset?) -> SceneDescription {
        guard let preset else { return self }
        var scene = self
        scene.reverbZones.append(ReverbZoneDescription(name: "--reverb \(preset.name)", preset: preset))
        return scene
    }
}
