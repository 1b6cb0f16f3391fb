import Foundation
import Testing
import TestSupport

/// `soundstage top` against a real daemon (without a sound card: it mixes on its silent
/// real-time renderer), in a real terminal: tmux runs it, and its screen is read back.
@Suite(.serialized) struct TopCommandTests {
    /// A daemon on `socket`, and a client in it playing a looping tone in a `playback` session.
    private func daemonWithAPlayingClient(_ dir: URL) throws -> (daemon: ChildProcess, client: LineSocket, socket: String) {
        let socket = dir.path + "/socket"
        let daemon = try ChildProcess(CLIRunner.binary.path, ["serve", "--socket", socket],
                                      environment: ProcessInfo.processInfo.environment.merging(CLIRunner.noSoundCard) { $1 })
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: socket) { usleep(10_000) }
        let scene = dir.path + "/tone.json"
        try #"{"format": 1, "duration": 60, "sources": [{"name": "t", "sound": {"tone": {"frequency": 440, "amplitude": 0.5}}, "position": [1, 0, -1], "loop": true}]}"#
            .write(toFile: scene, atomically: true, encoding: .utf8)
        let client = try LineSocket(path: socket)
        for request in [#"{"id": 1, "command": "session", "category": "playback"}"#,
                        #"{"id": 2, "command": "loadScene", "file": "\#(scene)", "name": "a"}"#,
                        #"{"id": 3, "command": "runScene", "scene": "a"}"#] {
            client.send(request + "\n")
            let answer = client.readLine() ?? ""
            #expect(answer.contains(#""ok":true"#), "\(answer)")
        }
        return (daemon, client, socket)
    }

    private func tmux(_ arguments: [String]) throws -> (Int32, String) {
        try ChildProcess.run("/usr/bin/tmux", arguments, environment: ProcessInfo.processInfo.environment)
    }

    /// In a terminal it draws the overview over itself four times a second: the client's row
    /// (category, state, voices, levels), the render's load and the output's levels; an
    /// interruption shows at the next refresh; q quits.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")))
    func topShowsTheDaemonLiveInATerminal() throws {
        let dir = try CLIRunner.directory()
        let (daemon, client, socket) = try daemonWithAPlayingClient(dir)
        defer { daemon.send(SIGTERM); daemon.wait() }
        let name = "soundstage-top-\(getpid())"
        _ = try tmux(["kill-session", "-t", name])
        let (started, said) = try tmux(["new-session", "-d", "-s", name, "-x", "120", "-y", "30",
                                        "\(CLIRunner.binary.path) top --socket \(socket)"])
        #expect(started == 0, "\(said)")
        defer { _ = try? tmux(["kill-session", "-t", name]) }
        func screen() throws -> String { try tmux(["capture-pane", "-p", "-t", name]).1 }
        var text = ""
        for _ in 0..<50 {
            usleep(100_000)
            text = try screen()
            if text.contains("playback") && !text.contains("render load n/a") { break }
        }
        #expect(text.contains("CLIENT  CATEGORY"), "\(text)")
        let row = text.split(separator: "\n").first { $0.contains("playback") }.map(String.init) ?? ""
        let fields = row.split(separator: " ")
        #expect(fields.count == 10 && fields[2] == "active", "\(row)")
        #expect(fields.count == 10 && fields[6] == "1", "one real voice: \(row)")
        if fields.count == 10, let average = Double(fields[8]), let peak = Double(fields[9]) {
            #expect(average > -30 && average < -3 && peak > average, "\(row)")
        } else {
            Issue.record("no levels in \(row)")
        }
        #expect(text.range(of: #"render load [0-9.]+ %"#, options: .regularExpression) != nil, "\(text)")
        #expect(text.range(of: #"levels \(dBFS\): L +-[0-9.]+ avg"#, options: .regularExpression) != nil, "\(text)")

        client.send(#"{"id": 4, "command": "session", "interruption": "begin"}"# + "\n")
        _ = client.readLine()
        var interrupted = false
        for _ in 0..<30 where !interrupted {
            usleep(100_000)
            interrupted = try screen().contains("interrupted")
        }
        #expect(interrupted, "the interruption shows")

        _ = try tmux(["send-keys", "-t", name, "q"])
        var gone = false
        for _ in 0..<30 where !gone {
            usleep(100_000)
            gone = try tmux(["has-session", "-t", name]).0 != 0
        }
        #expect(gone, "q quits top (and so ends its tmux session)")
    }

    /// Without a terminal: --once prints one plain overview, --json --count 2 two `meters`
    /// events; with no daemon it says so and fails.
    @Test func topWithoutATerminalPrintsPlainOverviews() throws {
        let dir = try CLIRunner.directory()
        let (daemon, client, socket) = try daemonWithAPlayingClient(dir)
        defer { daemon.send(SIGTERM); daemon.wait(); withExtendedLifetime(client) {} }
        let once = try CLIRunner.run(["top", "--socket", socket, "--once"])
        #expect(once.status == 0, "\(once.stderr)")
        #expect(once.stdout.contains("CLIENT  CATEGORY") && once.stdout.contains("playback"), "\(once.stdout)")
        #expect(!once.stdout.contains("\u{1B}["), "no terminal codes in a pipe")
        let json = try CLIRunner.run(["top", "--socket", socket, "--json", "--count", "2"])
        let lines = json.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines.allSatisfy { $0.contains(#""event":"meters""#) && $0.contains(#""renderLoad""#) }, "\(json.stdout)")
        let none = try CLIRunner.run(["top", "--socket", dir.path + "/nothing", "--once"])
        #expect(none.status == 1 && none.stderr.contains("no Soundstage daemon is listening"), "\(none.stderr)")
    }
}
