import Foundation
import SoundFile
import Testing
import TestSupport

/// What a fuzzing campaign fed the command line: lying headers, FIFOs, hostile file names and
/// undecodable files. Each gets one clear `soundstage:` line, at once.
@Suite struct HostileInputCLITests {
    /// An 8-channel FLAC of a few frames whose STREAMINFO then claims 2^28 frames.
    static func lyingFLAC(in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("liar.flac").path
        try SoundFileWriter.write(AudioBuffer(samples: [Float](repeating: 0.1, count: 8 * 480), channels: 8, sampleRate: 48_000),
                                  to: path, format: .flac)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Array(bytes[0..<4]) == Array("fLaC".utf8))
        // STREAMINFO: 18 bytes in, 64 bits of rate (20), channels (3), bits (5) and total samples (36).
        var word = bytes[18..<26].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        word = (word & ~((UInt64(1) << 36) - 1)) | (UInt64(1) << 28)
        for index in 0..<8 { bytes[18 + index] = UInt8(truncatingIfNeeded: word >> (56 - 8 * UInt64(index))) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aFLACClaimingTwoToTheTwentyEightFramesIsNeverReserved() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let flac = try Self.lyingFLAC(in: dir)
        #expect(try SoundFile(path: flac).format.frames == 1 << 28, "the header claims it")
        for arguments in [["convert", flac, dir.appendingPathComponent("out.wav").path], ["inspect", flac]] {
            let result = try CLIRunner.run(arguments)
            // A clear refusal (the claim is over the decode limit), never an abort.
            #expect(result.status == 0 || result.status == 1, "\(arguments[0]): \(result.status) \(result.stderr)")
            #expect(result.status == 0 || result.stderr.hasPrefix("soundstage: "), "\(result.stderr)")
            #expect(!result.stdout.contains("5592"), "inspect does not report the claimed 5,592 s as fact: \(result.stdout)")
        }
    }

    @Test func fileNamesAndBytesCannotBreakTheErrorLine() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let hostile = dir.appendingPathComponent("evil\n\u{1B}[31mred.wav").path
        try Data("RIFF\u{1B}[2J\0\0WAVEjunk".utf8).write(to: URL(fileURLWithPath: hostile))
        let result = try CLIRunner.run(["inspect", hostile])
        #expect(result.status == 1)
        #expect(!result.stderr.contains("\u{1B}"), "no escape sequence reaches the terminal: \(result.stderr.debugDescription)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr.debugDescription)")
        #expect(result.stderr.contains("evil\\x0a\\x1b[31mred.wav"), "\(result.stderr.debugDescription)")
    }

    @Test func anUndecodableMP3SaysWhatWasFoundNotAPipe() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let broken = dir.appendingPathComponent("broken.mp3").path
        try Data([0x49, 0x44, 0x33, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x21] + [UInt8](repeating: 0xAB, count: 200))
            .write(to: URL(fileURLWithPath: broken))
        let result = try CLIRunner.run(["inspect", broken])
        #expect(result.status == 1)
        #expect(!result.stderr.contains("pipe"), "\(result.stderr)")
        #expect(result.stderr.contains("begins \"ID3\\x04"), "says what it found: \(result.stderr)")
    }

    @Test func aPlotThatCannotBeWrittenIsOneLine() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(#"{"format": 1, "duration": 0.2, "sources": [{"name": "t", "sound": {"tone": {}}}]}"#.utf8)
            .write(to: dir.appendingPathComponent("s.json"))
        let result = try CLIRunner.run(["render", "s.json", "-o", "s.wav", "--plot", "/nonexistent/x.svg"], in: dir)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("soundstage: /nonexistent/x.svg: no such file"), "\(result.stderr)")
        #expect(!result.stderr.contains("NSCocoaErrorDomain"))
    }

    @Test(arguments: [["inspect"], ["convert", "OUT"], ["sound", "play", "--no-daemon", "--file"], ["play"]])
    func commandsRefuseAFIFOAtOnce(_ command: [String]) throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("pipe.wav").path
        #expect(mkfifo(fifo, 0o600) == 0)
        var arguments = command.filter { $0 != "OUT" } + [fifo]
        if command.contains("OUT") { arguments.append(dir.appendingPathComponent("out.wav").path) }
        let result = try CLIRunner.run(arguments, environment: CLIRunner.noSoundCard)
        #expect(result.status == 1, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains("FIFO"), "\(result.stderr)")
    }
}
