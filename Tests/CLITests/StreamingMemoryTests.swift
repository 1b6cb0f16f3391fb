import Foundation
import SoundFile
import Testing

/// Streaming memory does not grow with the file: the peak resident memory of a process that
/// streams a 60-minute file is within 5 % of one that streams a 10-minute file. Measured in child
/// processes (`soundstage-bench stream-memory FILE`), so other tests do not disturb it.
@Suite struct StreamingMemoryTests {
    /// `minutes` of 8 kHz mono audio (one second of noise, repeated), written quickly.
    private func file(minutes: Int, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("\(minutes)min.wav").path
        let writer = try SoundFileWriter(path: path, format: .wavPCM16, sampleRate: 8_000, channels: 1)
        let second = AudioBuffer(samples: (0..<8_000).map { Float(sin(Double($0) * 0.37)) * 0.3 }, channels: 1, sampleRate: 8_000)
        for _ in 0..<(minutes * 60) { try writer.write(second) }
        try writer.finish()
        return path
    }

    private func peakKilobytes(streaming path: String) throws -> Int {
        let process = Process()
        process.executableURL = CLIRunner.binary.deletingLastPathComponent().appendingPathComponent("soundstage-bench")
        process.arguments = ["stream-memory", path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try #require(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), "printed: \(text)")
    }

    @Test func peakMemoryOfStreamingDoesNotDependOnTheFilesLength() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let short = try peakKilobytes(streaming: file(minutes: 10, in: dir))
        let long = try peakKilobytes(streaming: file(minutes: 60, in: dir))
        #expect(abs(Double(long) / Double(short) - 1) < 0.05, "10 min: \(short) kB, 60 min: \(long) kB")
        // Decoding the 60-minute file whole would take 115 MB of floats; streaming stays far below.
        #expect(long < 100_000, "\(long) kB")
    }
}
