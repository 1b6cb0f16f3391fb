import Foundation
import Testing

/// `soundstage serve` as a process: clients in other processes and languages, a second daemon,
/// and shutting down on signals.
@Suite struct ServeCommandTests {
    /// Starts the daemon without a sound card (it mixes on its silent real-time renderer).
    private func startDaemon(socket: String, in dir: URL) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = CLIRunner.binary
        process.arguments = ["serve", "--socket", socket]
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
