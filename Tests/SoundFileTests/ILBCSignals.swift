import Foundation
import SoundFile
import TestSupport

/// FFmpeg's own iLBC decoder for the iLBC tests (the signals and measurements are TestSupport's
/// ``SpeechSignals``).
enum ILBCSignals {
    static let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }
    
    /// Decodes `path` with FFmpeg's own iLBC decoder (the ffmpeg tool) to 16-bit samples.
    static func decodeWithFFmpeg(_ path: String, in dir: URL) throws -> [Float] {
        guard let ffmpeg else { throw Failure(description: "no ffmpeg tool") }
        let raw = dir.appendingPathComponent("decoded-\(UUID().uuidString).raw").path
        let run = try ChildProcess.run(ffmpeg, ["-loglevel", "error", "-y", "-i", path, "-f", "s16le", "-ac", "1", raw], environment: [:])
        guard run.status == 0 else { throw Failure(description: "ffmpeg could not decode \(path): \(run.output)") }
        return try readS16(raw)
    }

    /// The codec FFmpeg's ffprobe names for `path`'s first stream.
    static func probeCodec(_ path: String) throws -> String {
        let run = try ChildProcess.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name",
                                                            "-of", "default=nw=1:nk=1", path], environment: [:])
        return run.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func readS16(_ path: String) throws -> [Float] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return data.withUnsafeBytes { raw in
            (0..<(raw.count / 2)).map { Float(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self))) / 32768 }
        }
    }

    struct Failure: Error, CustomStringConvertible { let description: String }
}

extension Double {
    /// The number with `n` decimals, for the tests' reports.
    func places(_ n: Int) -> String { String(format: "%.\(n)f", self) }
}
