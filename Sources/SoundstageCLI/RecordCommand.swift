import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Soundstage
import SoundFile
#if canImport(Glibc)
import Glibc
#endif
import NumberText

/// `soundstage record`: records an input of the desktop audio server to a file.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record an input of the desktop audio server (PulseAudio or PipeWire) to a file.",
        discussion: """
            Records until --duration is reached or Ctrl-C (or SIGTERM) stops it; either way the file is complete
            and the exit status 0. If the input goes away or the disk fills up, the file keeps everything recorded
            until then, the reason is printed and the exit status is 1. A sink's monitor (NAME.monitor) records what
            that sink plays; --list-inputs shows the inputs.
            """)

    @Argument(help: "The file to write (the format follows the extension unless --format says).")
    var output: String?

    @Option(name: .long, help: "Stop after this many seconds.")
    var duration: Double?

    @Option(name: .long, help: "File format (see 'soundstage convert --help'); default from the extension, else wav-pcm16.")
    var format: OutputFormat?

    @Option(name: .long, help: "AAC bit rate for m4a-aac: 128k (the default), 96k, 256k, ...")
    var bitrate: BitRate?

    @Option(name: .long, help: "The input to record, by the server's name (e.g. a microphone, or A.monitor); default: the server's default input.")
    var input: String?

    @Option(name: .long, help: "Frames per second of the file (default: the input's own).")
    var rate: Int?

    @Option(name: .long, help: "Channels of the file (default: the input's own).")
    var channels: Int?

    @Flag(name: .long, help: "List the server's inputs (name, monitor or input, rate, channels, description) and exit.")
    var listInputs = false

    func validate() throws {
        if !listInputs && output == nil { throw ValidationError("missing the file to record to (or --list-inputs)") }
        if let duration, !(duration.isFinite && duration > 0) { throw ValidationError("--duration must be a positive number of seconds") }
        try SampleRateLimits.conversion.check(rate, option: "--rate")
        if let channels, !(1...32).contains(channels) { throw ValidationError("--channels must be between 1 and 32") }
    }

    func run() throws {
        // A file-size limit (ulimit -f) is a write error to report, not a signal that kills.
        signal(SIGXFSZ, SIG_IGN)
        try reportingErrors {
            if listInputs {
                for input in try AudioRecorder.availableInputs() {
                    print([input.name, input.isMonitor ? "monitor" : "input", "\(input.sampleRate)", "\(input.channels)",
                           input.description].joined(separator: "\t"))
                }
                return
            }
            let path = output!
            let settings = AudioRecorder.Settings(format: format ?? OutputFormat(pathExtensionOf: path) ?? .wavPCM16, input: input,
                                                  sampleRate: rate, channels: channels, applicationName: "soundstage",
                                                  bitRate: bitrate?.bitsPerSecond)
            let recorder = try AudioRecorder(path: path, settings: settings)
            recorder.isMeteringEnabled = Terminal.stderrIsTerminal
            let result = try Interrupt.catchingStops { () throws -> AudioRecorder.Result? in
                if let duration { try recorder.record(forDuration: duration) } else { try recorder.record() }
                while recorder.waitUntilFinished(timeout: 0.2) == nil {
                    if Interrupt.wasRequested { return recorder.stop() }
                    if Terminal.stderrIsTerminal { showProgress(recorder) }
                }
                return recorder.result
            }
            if Terminal.stderrIsTerminal { Terminal.writeLine("") }
            guard let result else { return }
            try report(result, input: input)
        }
    }

    private func showProgress(_ recorder: AudioRecorder) {
        let levels = recorder.meterLevels().map { meter in
            meter.peakPower.map { Double($0).fixed(1).padded(to: 6) }.joined(separator: " ") + " dBFS peak"
        } ?? ""
        Terminal.writeLine("\rrecording \(recorder.currentTime.fixed(1).padded(to: 7)) s  \(levels)" + "\u{1B}[K", newline: false)
    }

    private func report(_ result: AudioRecorder.Result, input: String?) throws {
        let what = "\(result.duration.fixed(2)) s (\(result.channels) ch, \(result.sampleRate) Hz)"
        if let fileError = result.fileError {
            Terminal.say("\(fileError)")
            throw ExitCode.failure
        }
        switch result.reason {
        case .stopped, .durationReached:
            Terminal.say("recorded \(what) from \(input ?? "the default input") to \(result.path)")
        case let .inputLost(why):
            Terminal.say("the input went away (\(why)); kept \(what) in \(result.path)")
            throw ExitCode.failure
        case let .writeFailed(error):
            Terminal.say("\(error); kept \(what) in \(result.path)")
            throw ExitCode.failure
        }
    }
}
