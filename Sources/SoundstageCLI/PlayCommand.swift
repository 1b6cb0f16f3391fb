import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import NIOConcurrencyHelpers
import Soundstage
import SoundstageScenes
import NumberText

/// `soundstage play FILE`: plays a file on the default device and waits for the end.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play an audio file, positioned around the listener, and wait for it to end.",
        discussion: """
            Without a sound card it renders to a WAV file instead (see --output) and says where on stderr.
            The listener is at the origin facing -z: --position 2,0,0 is to the right, 0,0,-2 ahead.
            Only mono files are positioned; others play unspatialized.
            """)

    @Argument(help: "The audio file, or - for standard input (WAV, AU, AIFF, W64, FLAC, Ogg or MP3, played as it arrives).")
    var file: String

    // `.unconditional`: a value may start with "-" (`--position -2,0,0`).
    @Option(name: .long, parsing: .unconditional, help: "Where the sound is, as X,Y,Z in metres (e.g. -2,0,0: to the left).")
    var position: Vector3 = Vector3(0, 0, 0)

    @Option(name: .long, parsing: .unconditional, help: "How the sound moves, as X,Y,Z in metres per second (a Doppler shift).")
    var velocity: Vector3 = Vector3(0, 0, 0)

    @Option(name: .long, help: "Linear gain (1 = as recorded).")
    var gain: Float = 1

    @Option(name: .long, help: "Pitch multiplier (2 = an octave up, twice as fast).")
    var pitch: Float = 1

    @Option(name: .long, help: "Play the sound N times back to back.")
    var loop: Int = 1

    @Option(name: .long, help: "Where to write the render when there is no sound card (default: NAME-render.wav here).")
    var output: String?

    @Flag(name: .long, help: "Render to --output even if a sound card is present.")
    var render = false

    @OptionGroup var effects: EffectOptions

    @OptionGroup var outputOptions: OutputOptions

    func validate() throws {
        // The ranges scene files and the daemon use (SceneLimits), so a value works everywhere or nowhere.
        guard SceneLimits.gain.contains(Double(gain)) else { throw ValidationError("--gain must be between 0 and 100") }
        guard SceneLimits.pitch.contains(Double(pitch)) else { throw ValidationError("--pitch must be between 0.01 and 100") }
        guard (1...10_000).contains(loop) else { throw ValidationError("--loop must be between 1 and 10000") }
        if file == "-" && loop != 1 { throw ValidationError("--loop needs a file: standard input plays once") }
    }

    func run() throws {
        try reportingErrors {
            // Standard input streams as it arrives; a long file streams (memory stays a few chunks
            // whatever its length); a short one is decoded.
            let sound: Playback.Sound
            let format: AudioFormat
            if file == "-" {
                sound = .standardInput
                format = AudioFormat(container: .other, encoding: .float32, sampleRate: 48_000, channels: 1, frames: 0)
            } else {
                format = try SoundFile(path: file).format
                sound = format.duration > SceneDescription.streamingThreshold
                    ? .stream(file, plays: loop) : .audio(try SoundFile.decode(path: file))
            }
            let playback = Playback(sound: sound, name: file, prepare: effects.prepare, tail: effects.tail) { source in
                source.position = position
                source.velocity = velocity
                source.gain = gain
                source.pitch = pitch
                source.repeatCount = loop - 1
                effects.configure(source)
            }
            let seconds = sound.duration(of: format) * Double(loop) / Double(pitch)
            try playback.run(seconds: seconds, forceRender: render,
                             output: output ?? Playback.defaultOutput(for: file == "-" ? "stdin" : file),
                             outputOptions: outputOptions)
        }
    }
}

/// Plays one sound on the default device, or renders it to a file when there is none.
struct Playback {
    /// What it plays.
    enum Sound {
        /// Decoded audio in a buffer.
        case audio(AudioBuffer)
        /// A file streamed from disk, played `plays` times (restarted at each end).
        case stream(String, plays: Int)
        /// Standard input, played once as it arrives (its length is unknown until it ends).
        case standardInput

        func duration(of format: AudioFormat) -> Double {
            if case let .audio(audio) = self { return audio.duration }
            return format.duration
        }
    }

    let sound: Sound
    let name: String
    /// Plays of a streamed sound still to come (restarted by its completion handler).
    private let replays = Countdown()
    /// Sets up the scene before the source is made (e.g. a reverb zone).
    var prepare: (Scene) throws -> Void = { _ in }
    /// Seconds to keep going after the sound ends (a reverb's tail).
    var tail: Double = 0
    let configure: (Source) -> Void

    /// `NAME-render.wav` in the current directory.
    static func defaultOutput(for input: String) -> String {
        let base = URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent
        return "\(base)-render.wav"
    }

    func run(seconds: Double, forceRender: Bool, output: String, outputOptions: OutputOptions) throws {
        if !forceRender {
            do {
                let device = try outputOptions.open(role: .game)
                defer { device.close() }
                let source = try start(on: device)
                // The source keeps its scene (and the reverb) alive through the tail.
                withExtendedLifetime(source) {
                    while source.playbackState == .playing || replays.value > 0 { usleep(5_000) }
                    if tail > 0 { usleep(useconds_t(tail * 1e6)) }
                }
                // Return only once the last sample has reached the output.
                device.drain()
                if let error = source.streamError { throw error }
                return
            } catch let error as SoundstageError where error.code == .noOutputDevice {
                Terminal.renderingInstead(to: output)
            }
        }
        let device = try Device.loopback()
        defer { device.close() }
        let source = try start(on: device)
        if case .standardInput = sound {
            try renderUntilTheEnd(of: source, on: device, to: output)
            return
        }
        let total = seconds + tail + 0.05
        let rendered = try withExtendedLifetime(source) {
            try Interrupt.catching {
                try device.render(seconds: total, to: output, format: .wavPCM16, progress: ProgressBar.forTerminal(),
                                  isCancelled: { Interrupt.wasRequested })
            }
        }
        try Interrupt.finishRender(wrote: rendered, of: total, to: output)
        Terminal.say("rendered \((seconds + tail).fixed(2)) s to \(output)")
    }

    /// Renders a sound of unknown length (standard input) until it ends, then its tail; Ctrl-C
    /// completes the file with what was rendered.
    private func renderUntilTheEnd(of source: Source, on device: Device, to output: String) throws {
        let writer = try SoundFileWriter(path: output, format: .wavPCM16, sampleRate: device.sampleRate,
                                         channels: device.layout.channelCount)
        let chunk = device.sampleRate / 10
        var afterEnd = 0
        let tailFrames = Int((tail + 0.05) * Double(device.sampleRate))
        try withExtendedLifetime(source) {
            try Interrupt.catching {
                while afterEnd < tailFrames && !Interrupt.wasRequested {
                    try writer.write(try device.render(frames: chunk))
                    if source.playbackState != .playing { afterEnd += chunk }
                }
            }
        }
        try writer.finish()
        if let error = source.streamError { throw error }
        let seconds = Double(writer.framesWritten) / Double(device.sampleRate)
        try Interrupt.finishRender(wrote: seconds, of: seconds, to: output)
        Terminal.say("rendered \(seconds.fixed(2)) s to \(output)")
    }

    private func start(on device: Device) throws -> Source {
        let scene = try device.makeScene()
        try prepare(scene)
        let source: Source
        switch sound {
        case let .audio(audio):
            source = scene.makeSource(buffer: try device.makeBuffer(audio, name: name))
        case let .stream(path, plays):
            source = try scene.makeStreamingSource(file: path)
            replays.set(plays - 1)
            source.completionHandler = { [replays] source in
                guard replays.take() else { return }
                do { try source.play() } catch { replays.set(0) }
            }
        case .standardInput:
            source = try scene.makeStreamingSource(reading: STDIN_FILENO, name: "standard input")
        }
        configure(source)
        try source.play()
        return source
    }
}

/// A count shared with a completion handler (which runs on the engine's thread).
final class Countdown: @unchecked Sendable {
    // @unchecked: `count` is only touched with `lock` held.
    private let lock = NIOLock()
    private var count = 0

    func set(_ value: Int) { lock.withLock { count = value } }

    /// Takes one if any is left.
    func take() -> Bool {
        lock.withLock {
            guard count > 0 else { return false }
            count -= 1
            return true
        }
    }

    var value: Int { lock.withLock { count } }
}
