import ArgumentParser
import Foundation
import Soundstage

/// `soundstage inspect FILE`: the file's format, like `afinfo`.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show an audio file's container, encoding, rate, channels, frames and duration.",
        discussion: "Compressed files are decoded in full so the frame count is exact.")

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
                                duration: format.duration, spatialized: format.channels == 1)
            if json {
                try Terminal.printJSON(report)
            } else {
                print("File:        \(file)")
                print("Container:   \(format.container.rawValue)")
                print("Encoding:    \(format.encoding.rawValue)")
                print("Sample rate: \(format.sampleRate) Hz")
                print("Channels:    \(format.channels)")
                print("Frames:      \(format.frames)")
                print("Duration:    \(String(format: "%.3f", format.duration)) s")
                print("Spatialized: \(format.channels == 1 ? "yes (mono: positioned in 3D)" : "no (multi-channel plays unspatialized)")")
            }
        }
    }
}
