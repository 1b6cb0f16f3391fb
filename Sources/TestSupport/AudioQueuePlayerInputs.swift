import Foundation

/// The files Tests/C/audio_queue_player.c plays in the tests, made by the `ffmpeg` tool as
/// scripts/test-c.sh's `apple_inputs` makes them: 0.3 s of a 1 kHz sine (the program plays in real
/// time, so they are short), amplitude 0.5, and in the stereo files 0.25 on the right, so the sides
/// can be told apart at a sink. In the order the program plays them, which alternates its two
/// variants (the main run loop, a NULL run loop): AAC in M4A (stereo), MP3 (mono), Apple Lossless
/// in M4A (stereo), IMA4 in CAF (mono), 16-bit WAVE (stereo).
public enum AudioQueuePlayerInputs {
    /// One input: its path, channels and the tone's length in seconds.
    public struct File: Sendable {
        public let path: String
        public let channels: Int
        public let seconds: Double
    }

    /// The tone's frequency (Hz), length (s) and amplitudes (left, and right in stereo files).
    public static let frequency = 1_000.0, seconds = 0.3, left = 0.5, right = 0.25

    /// The ffmpeg tool, if installed.
    public static let ffmpeg: String? = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Makes the five files in `directory`.
    public static func make(in directory: URL) throws -> [File] {
        guard let ffmpeg else { throw Failed(description: "the ffmpeg tool is not installed") }
        let mono = "aevalsrc=\(left)*sin(2*PI*\(Int(frequency))*t):s=44100:d=\(seconds)"
        let stereo = "aevalsrc=\(left)*sin(2*PI*\(Int(frequency))*t)|\(right)*sin(2*PI*\(Int(frequency))*t):s=44100:d=\(seconds)"
        let files: [(name: String, source: String, channels: Int, codec: String)] = [
            ("player-aac.m4a", stereo, 2, "aac"), ("player.mp3", mono, 1, "libmp3lame"), ("player-alac.m4a", stereo, 2, "alac"),
            ("player-ima4.caf", mono, 1, "adpcm_ima_qt"), ("player.wav", stereo, 2, "pcm_s16le"),
        ]
        return try files.map { file in
            let path = directory.appendingPathComponent(file.name).path
            let (status, output) = try ChildProcess.run(ffmpeg, ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", file.source,
                                                                 "-c:a", file.codec, path], environment: ProcessInfo.processInfo.environment)
            guard status == 0 else { throw Failed(description: "ffmpeg could not write \(file.name): \(output)") }
            return File(path: path, channels: file.channels, seconds: seconds)
        }
    }

    /// ffmpeg failed, or is missing.
    public struct Failed: Error, CustomStringConvertible {
        public let description: String
    }
}
