import Foundation
import SoundFile
import Testing
import TestSupport

/// `soundstage serve` as a process: clients in other processes and languages, a second daemon,
/// and shutting down on signals.
@Suite struct ServeCommandTests {
    /// Starts the daemon without a sound card (it mixes on its silent real-time renderer).
    private func startDaemon(socket: String, in dir: URL, _ extra: [String] = []) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = CLIRunner.binary
        process.arguments = ["serve", "--socket", socket] + extra
        process.currentDirectoryURL = dir
        process.environment = ProcessInfo.processInfo.environment.merging(CLIRunner.noSoundCard) { $1 }
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: socket) { usleep(10_000) }
        return (process, err)
    }

    private static func python3() -> String? {
        ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func theDaemonServesOtherProcessesAndStopsCleanlyOnASignal(_ signal: Int32) throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.path + "/run/socket"
        let (daemon, stderr) = try startDaemon(socket: socket, in: dir)
        #expect(FileManager.default.fileExists(atPath: socket))

        // The CLI goes through the daemon: nothing is rendered to a file here.
        let played = try CLIRunner.run(["sound", "play", "--id", "button-pressed", "--socket", socket], in: dir)
        #expect(played.status == 0, "\(played.stderr)")
        #expect(played.stderr.isEmpty, "\(played.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("button-pressed-render.wav").path))

        // A second daemon on the same socket refuses with a clear message.
        let second = try CLIRunner.run(["serve", "--socket", socket], in: dir, environment: CLIRunner.noSoundCard)
        #expect(second.status == 1)
        #expect(second.stderr.contains("already serving \(socket)"), "\(second.stderr)")

        // Any language: the Python one-liner of docs/protocol.md.
        if let python = Self.python3() {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = ["-c", """
                import json,socket; s=socket.socket(socket.AF_UNIX); s.connect("\(socket)"); \
                s.sendall(b'{"id":1,"command":"playSound","event":"bell"}\\n'); print(s.makefile().readline(), end="")
                """]
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let answer = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(answer.contains("\"ok\":true"), "\(answer)")
            #expect(answer.contains("\"id\":1"))
        }

        kill(daemon.processIdentifier, signal)
        daemon.waitUntilExit()
        let said = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(daemon.terminationStatus == 0, "\(said)")
        #expect(said.contains("serving on \(socket)"))
        // Its log, on stderr for journald: clients coming and going, the stop and its reason.
        for line in ["info soundstage.serve: client=1 clients=1 [SoundstageServer] client connected",
                     "[SoundstageServer] client disconnected", "reason=\(signal == SIGTERM ? "SIGTERM" : "SIGINT")",
                     "[SoundstageServer] stopped"] {
            #expect(said.contains(line), "\(line) is not in: \(said)")
        }
        #expect(!said.contains("debug"), "debug only with --verbose")
        #expect(said.contains("OpenAL objects still live: none"), "\(said)")
        #expect(!said.contains("AL lib"), "no OpenAL complaints at exit: \(said)")
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket is removed")
    }

    /// `serve --record` without a sound card writes the mix it renders, in any format: a voice
    /// memo's iLBC (`--record-format caf-ilbc`, 8 kHz mono from the 48 kHz stereo mix) holds the
    /// sound a client played through it, at its pitch.
    @Test func theDaemonRecordsItsMixInILBC() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.path + "/run/socket"
        let memo = dir.appendingPathComponent("mix.caf").path
        let (daemon, stderr) = try startDaemon(socket: socket, in: dir, ["--record", memo, "--record-format", "caf-ilbc"])
        let tone = dir.appendingPathComponent("tone.wav").path
        try SoundFileWriter.write(AudioBuffer(samples: (0..<24_000).map { Float(0.5 * sin(2 * Double.pi * 440 * Double($0) / 48_000)) },
                                              channels: 1, sampleRate: 48_000), to: tone, format: .wavPCM16)
        let played = try CLIRunner.run(["sound", "play", "--file", tone, "--socket", socket], in: dir)
        #expect(played.status == 0, "\(played.stderr)")
        usleep(800_000)
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        let said = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(daemon.terminationStatus == 0, "\(said)")
        #expect(said.contains("recording to \(memo)"), "\(said)")
        let file = try SoundFile(path: memo)
        #expect(file.format.encoding == .ilbc && file.format.sampleRate == 8_000 && file.format.channels == 1)
        let samples = try file.readAll().samples
        let start = try #require(samples.firstIndex { abs($0) > 0.1 }, "the sound is in the recording")
        let body = Array(samples[(start + 400)..<min(samples.count, start + 3_600)])
        #expect(abs(Signals.frequency(body, rate: 8_000) - 440) < 9, "\(Signals.frequency(body, rate: 8_000)) Hz")
    }

    /// `serve --live-view 0` prints the view's URL; the view answers with its token only, and
    /// shows each connected client's session.
    @Test func theDaemonServesALiveView() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.path + "/run/socket"
        let process = Process()
        process.executableURL = CLIRunner.binary
        process.arguments = ["serve", "--socket", socket, "--live-view", "0"]
        process.environment = ProcessInfo.processInfo.environment.merging(CLIRunner.noSoundCard) { $1 }
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }
        var said = ""
        while !said.contains("serving on"), process.isRunning {
            let chunk = err.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            said += String(decoding: chunk, as: UTF8.self)
        }
        let line = try #require(said.split(separator: "\n").first { $0.hasPrefix("soundstage: live view: http://127.0.0.1:") }, "\(said)")
        let url = try #require(URLComponents(string: String(line.dropFirst("soundstage: live view: ".count))))
        let port = try #require(url.port), token = try #require(url.queryItems?.first { $0.name == "token" }?.value)
        #expect(try PlainHTTP.get(port: port, path: "/state").status == 403)

        // A client connects: its session is on the page.
        let client = try UnixClient(path: socket)
        defer { client.close() }
        var sessions: [[String: Any]] = []
        for _ in 0..<100 {
            let state = try PlainHTTP.get(port: port, path: "/state?token=\(token)")
            #expect(state.status == 200)
            sessions = ((try JSONSerialization.jsonObject(with: Data(state.body.utf8)) as? [String: Any])?["sessions"] as? [[String: Any]]) ?? []
            if !sessions.isEmpty { break }
            usleep(20_000)
        }
        #expect(sessions.first?["name"] as? String == "client 1" && sessions.first?["category"] as? String == "ambient", "\(sessions)")
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test func withoutADaemonSoundPlayRunsInProcessAndSaysSo() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLIRunner.run(["sound", "play", "--id", "button-pressed", "--socket", dir.path + "/none"],
                                       in: dir, environment: CLIRunner.noSoundCard)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("no daemon answers on \(dir.path)/none; playing in this process"))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("button-pressed-render.wav").path))
    }
}

/// A connection to a Unix socket that stays open until closed (a daemon client that says nothing).
final class UnixClient {
    private let fd: Int32

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8.prefix(raw.count - 1))
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            Glibc.close(fd)
            throw CocoaError(.fileReadNoSuchFile)
        }
    }

    func close() { Glibc.close(fd) }
}
