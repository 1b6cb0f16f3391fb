import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import Soundstage
import NumberText

/// `soundstage inspect FILE`: the file's format, like `afinfo`.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show an audio file's container, encoding, rate, channels, frames and duration.",
        discussion: """
            Compressed files are decoded in full so the frame count is exact. For AAC and ALAC \
            (read through FFmpeg) it also shows the codec, its profile, the bit rate, the \
            encoder's priming and remainder frames, and whether the file is gapless.
            """)

    @Argument(help: "The audio file.")
    var file: String

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    struct Report: Codable {
        var file: String
        var container: Container
        var encoding: SampleEncoding
        var sampleRate: Int
        var channels: Int
        var frames: Int64
        var duration: Double
        var spatialized: Bool
        /// Codec, profile, bit rate, priming and remainder: for files FFmpeg decodes.
        var codec: CodecDetails?
    }

    func run() throws {
        try reportingErrors {
            let sound = try SoundFile(path: file)
            var format = sound.format
            // Only a PCM header's count is measured; any other is a claim: count what decodes.
            if !format.encoding.frameCountIsMeasured || format.frames == 0 {
                format.frames = Int64(try sound.readAll().frames)
            }
            let report = Report(file: file, container: format.container, encoding: format.encoding,
                                sampleRate: format.sampleRate, channels: format.channels, frames: format.frames,
                                duration: format.duration, spatialized: format.channels == 1, codec: sound.codecDetails)
            if json {
                try Terminal.printJSON(report)
            } else {
                print("File:        \(file)")
                print("Container:   \(format.container.rawValue)")
                print("Encoding:    \(format.encoding.rawValue)")
                print("Sample rate: \(format.sampleRate) Hz")
                print("Channels:    \(format.channels)")
                print("Frames:      \(format.frames)")
                print("Duration:    \(format.duration.fixed(3)) s")
                print("Spatialized: \(format.channels == 1 ? "yes (mono: positioned in 3D)" : "no (multi-channel plays unspatialized)")")
                if let codec = sound.codecDetails {
                    print("Codec:       \(codec.codec)\(codec.profile.map { " (\($0))" } ?? "")")
                    print("Bit rate:    \(codec.bitRate.map { "\(($0 + 500) / 1000) kb/s" } ?? "not stated")")
                    print("Priming:     \(codec.primingFrames.map { "\($0) frames (trimmed)" } ?? "not stated by the container")")
                    print("Remainder:   \(codec.remainderFrames.map { "\($0) frames (trimmed)" } ?? "not stated by the container")")
                    print("Gapless:     \(codec.gapless ? "yes (the container states the length)" : "no (ADTS states no length: priming and padding stay)")")
                    print("Decoder:     \(codec.decoder)")
                }
            }
        }
    }
}
