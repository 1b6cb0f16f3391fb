import Foundation
import SoundFile
import Testing
import TestSupport

/// `soundstage convert --format caf-ilbc` and `soundstage afconvert -d ilbc`: a 44.1 kHz stereo
/// file in, 8 kHz mono iLBC in CAF out (as iOS writes it), read back by FFmpeg's decoder.
@Suite struct ILBCCLITests {
    /// A 44.1 kHz stereo WAV of the sung vowel.
    static func input(in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("vowel.wav").path
        let mono = AudioBuffer(samples: SpeechSignals.vowel(f0: 200, seconds: 1), channels: 1, sampleRate: 8_000).resampled(to: 44_100)
        try SoundFileWriter.write(mono.remixed(toChannels: 2), to: path, format: .wavPCM16)
        return path
    }

    /// The CAF file's format ID, bytes and frames a packet.
    static func packetShape(_ path: String) throws -> (id: String, bytes: Int, frames: Int) {
        let b = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        try #require(b.count > 48 && b[8..<12].elementsEqual("desc".utf8))
        func u32(_ at: Int) -> Int { b[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (String(decoding: b[28..<32], as: UTF8.self), u32(36), u32(40))
    }

    static func check(_ path: String, bytes: Int, frames: Int) throws {
        let shape = try packetShape(path)
        #expect(shape.id == "ilbc" && shape.bytes == bytes && shape.frames == frames)
        let file = try SoundFile(path: path)
        #expect(file.format.encoding == .ilbc && file.format.sampleRate == 8_000 && file.format.channels == 1)
        let decoded = try file.readAll().samples
        #expect(abs(decoded.count - 8_000) < frames, "\(decoded.count) frames")
        let pitch = SpeechSignals.pitch(Array(decoded[2_400..<7_000]))
        #expect(abs(pitch / 200 - 1) < 0.02, "pitch \(pitch) Hz")
    }

    @Test func convertWritesCAFILBC() throws {
        try #require(FFmpeg.hasDecoder(named: "ilbc"), "needs FFmpeg's iLBC decoder (scripts/setup.sh --tests)")
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try Self.input(in: dir)
        let thirty = dir.appendingPathComponent("30.caf").path
        var result = try CLIRunner.run(["convert", input, thirty, "--format", "caf-ilbc"])
        #expect(result.status == 0, "\(result.stderr)")
        try Self.check(thirty, bytes: 50, frames: 240)
        let twenty = dir.appendingPathComponent("20.caf").path
        result = try CLIRunner.run(["convert", input, twenty, "--format", "caf-ilbc", "--bitrate", "15200"])
        #expect(result.status == 0, "\(result.stderr)")
        try Self.check(twenty, bytes: 38, frames: 160)
        // A rate iLBC does not code, asked for explicitly: refused, nothing written.
        let wrong = dir.appendingPathComponent("wrong.caf").path
        result = try CLIRunner.run(["convert", input, wrong, "--format", "caf-ilbc", "--sample-rate", "16000"])
        #expect(result.status != 0 && result.stderr.contains("8000"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: wrong))
    }

    @Test func afconvertWritesILBC() throws {
        try #require(FFmpeg.hasDecoder(named: "ilbc"), "needs FFmpeg's iLBC decoder (scripts/setup.sh --tests)")
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try Self.input(in: dir)
        let thirty = dir.appendingPathComponent("30.caf").path
        var result = try CLIRunner.run(["afconvert", "-f", "caff", "-d", "ilbc", input, thirty])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        try Self.check(thirty, bytes: 50, frames: 240)
        let twenty = dir.appendingPathComponent("20.caf").path
        result = try CLIRunner.run(["afconvert", "-d", "ilbc#160", input, twenty])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        try Self.check(twenty, bytes: 38, frames: 160)
    }
}
