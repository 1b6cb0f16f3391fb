import Foundation
import SoundFile
import Testing

/// `soundstage afinfo` (and, with Extended Audio File Services, `afconvert`): Apple's asset
/// commands as a game's asset scripts call them, their output read as the scripts read it.
@Suite struct AppleAssetCommandTests {
    /// A 0.5 s stereo 44.1 kHz 16-bit WAVE file.
    private func wave(in dir: URL, name: String = "tone.wav") throws -> String {
        let samples = (0..<44_100).map { Float(0.5 * sin(2 * Double.pi * 440 * Double($0 / 2) / 44_100)) }
        let path = dir.appendingPathComponent(name).path
        try SoundFileWriter.write(SoundBuffer(samples: samples, channels: 2, sampleRate: 44_100), to: path, format: .wavPCM16)
        return path
    }

    @Test func afinfoDescribesAFileAsApplesDoes() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try wave(in: dir)
        let result = try CLIRunner.run(["afinfo", path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("File:           \(path)"))
        #expect(lines.contains("File type ID:   WAVE"))
        #expect(lines.contains("Data format:     2 ch,  44100 Hz, 'lpcm' (0x0000000C) 16-bit little-endian signed integer"))
        #expect(lines.contains("estimated duration: 0.500000 sec"))
        #expect(lines.contains("audio packets: 22050") && lines.contains("audio bytes: 88200"))
        #expect(lines.contains("bit rate: 1411200 bits per second"))
        #expect(lines.contains("audio data file offset: 44") && lines.contains("source bit depth: I16"))
        #expect(result.stderr.isEmpty)
    }

    @Test func afinfoBriefIsOneLineAFileAndGoesOnPastABadOne() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try wave(in: dir, name: "a.wav"), second = try wave(in: dir, name: "b.wav")
        let text = dir.appendingPathComponent("notes.txt").path
        try "not audio".write(toFile: text, atomically: true, encoding: .utf8)
        let result = try CLIRunner.run(["afinfo", "-b", first, text, dir.appendingPathComponent("missing.wav").path, second])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("\(first): 'WAVE',  2 ch,  44100 Hz,") && lines[1].hasPrefix("\(second): "))
        let errors = result.stderr.split(separator: "\n")
        #expect(errors.count == 2)
        #expect(errors.first?.hasSuffix("not an audio file type Audio File Services reads ('typ?')") == true)
        #expect(errors.last?.hasSuffix("no such file (-43)") == true)
    }

    @Test func afinfoUsageErrorsAreStatus64() throws {
        let none = try CLIRunner.run(["afinfo"])
        #expect(none.status == 64 && none.stderr.contains("no file given"))
        let unknown = try CLIRunner.run(["afinfo", "-q", "x.wav"])
        #expect(unknown.status == 64 && unknown.stderr.contains("unknown option '-q'"))
        let help = try CLIRunner.run(["afinfo", "-h"])
        #expect(help.status == 0 && help.stdout.contains("afinfo"))
    }
}
