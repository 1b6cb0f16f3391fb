import ArgumentParser
import Soundstage

/// `soundstage convert IN OUT`: like `afconvert`.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert an audio file to another format, sample rate or channel count.",
        discussion: """
            Formats: \(OutputFormat.named.map(\.name).joined(separator: ", ")).
            caf-pcm16 is recommended for uncompressed game sounds; caf-ima4 and wav-ima4 are 4:1 and cheap to decode.
            m4a-aac and m4a-alac (what iOS uses) are written through FFmpeg, when its libraries are installed; \
            caf-aac is refused: FFmpeg's CAF writer does not take AAC.
            caf-ilbc is iLBC speech as iOS records it (8 kHz mono, converted to that unless --sample-rate or \
            --channels say otherwise): 30 ms frames, or 20 ms with --bitrate 15200.
            Without --format the format follows OUT's extension (.wav → wav-pcm16, .caf → caf-pcm16, .m4a → m4a-aac, ...).
            IN may be any file Soundstage reads, AAC and ALAC in M4A, MP4, CAF and ADTS included.
            OUT is written under a temporary name and renamed into place, so a failure never leaves half a file.
            """)

    @Argument(help: "The file to read.")
    var input: String

    @Argument(help: "The file to write.")
    var output: String

    @Option(name: .long, help: "Output format (see below).")
    var format: OutputFormat?

    @Option(name: .long, help: "AAC bit rate: 128k (the default), 96000, 256k, ... (8k to 512k); for iLBC above 14k picks 20 ms frames.")
    var bitrate: BitRate?

    @Option(name: .long, help: "Resample to this many frames per second.")
    var sampleRate: Int?

    @Option(name: .long, help: "Mix to this many channels (1 averages; mono copies to all).")
    var channels: Int?

    func validate() throws {
        try SampleRateLimits.conversion.check(sampleRate, option: "--sample-rate")
        if let channels, !(1...8).contains(channels) {
            throw ValidationError("--channels must be between 1 and 8")
        }
        if format == nil && OutputFormat(pathExtensionOf: output) == nil {
            throw ValidationError("cannot tell the format from '\(output)'; pass --format")
        }
        // iLBC is 8 kHz mono: anything else asked for explicitly is refused, not quietly replaced.
        if (format ?? OutputFormat(pathExtensionOf: output))?.encoding == .ilbc,
           sampleRate.map({ $0 != ILBCMode.sampleRate }) ?? false || channels.map({ $0 != 1 }) ?? false {
            throw ValidationError("caf-ilbc is 8000 Hz mono speech: leave out --sample-rate and --channels, or ask for 8000 and 1")
        }
    }

    func run() throws {
        try reportingErrors {
            let target = format ?? OutputFormat(pathExtensionOf: output)!
            var audio = try SoundFile.decode(path: input)
            let ilbc = target.encoding == .ilbc
            if let channels = channels ?? (ilbc ? 1 : nil) { audio = audio.remixed(toChannels: channels) }
            if let sampleRate = sampleRate ?? (ilbc ? ILBCMode.sampleRate : nil) { audio = audio.resampled(to: sampleRate) }
            let writer = try SoundFileWriter(path: output, format: target, sampleRate: audio.sampleRate, channels: audio.channels,
                                             bitRate: bitrate?.bitsPerSecond)
            try writer.write(audio)
            try writer.finish()
        }
    }
}

/// A bit rate on the command line: `128k`, `96000`, `0.32M`.
struct BitRate: ExpressibleByArgument {
    /// Bits per second.
    let bitsPerSecond: Int

    init?(argument: String) {
        let text = argument.lowercased()
        let (digits, scale): (Substring, Double) = text.hasSuffix("k") ? (text.dropLast(), 1_000)
            : text.hasSuffix("m") ? (text.dropLast(), 1_000_000) : (text[...], 1)
        guard let value = Double(digits), value.isFinite, value > 0 else { return nil }
        let bits = value * scale
        guard (8_000...512_000).contains(bits) else { return nil }
        bitsPerSecond = Int(bits.rounded())
    }
}
