import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Soundstage
import SoundstageClient
import SoundstageJSON
import SoundstageProtocol
#if canImport(Glibc)
import Glibc
#endif
import NumberText

/// `soundstage top`: a live view of a running daemon, like `top`.
struct TopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "top",
        abstract: "Watch a running daemon: clients and their sessions, scenes, voices, levels, render load, underruns.",
        discussion: """
            Refreshes four times a second until q or Ctrl-C. When standard output is not a terminal it prints one \
            plain-text overview per refresh (like 'top -b'); --once prints one and exits; --json prints the daemon's \
            'meters' events as they come (see docs/protocol.md).
            """)

    @Option(name: .long, help: "The daemon's socket (default: $SOUNDSTAGE_SOCKET, else $XDG_RUNTIME_DIR/soundstage/socket).")
    var socket: String?

    @Flag(name: .long, help: "Print one overview and exit.")
    var once = false

    @Flag(name: .long, help: "Print the raw 'meters' events (one JSON object a line).")
    var json = false

    @Option(name: .long, help: "Stop after this many refreshes (default: until q or Ctrl-C).")
    var count: Int?

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be 1 or more") }
    }

    func run() async throws {
        let path = socket ?? ServerProtocol.defaultSocketPath()
        try await reportingServerErrors {
            let daemon = try await SoundstageClient.connect(socketPath: path)
            try await daemon.subscribe([.meters])
            let screen = TopScreen(interactive: !once && !json && isatty(STDOUT_FILENO) != 0 && isatty(STDIN_FILENO) != 0)
            screen.begin()
            defer { screen.end() }
            var shown = 0
            let limit = once ? 1 : count
            for await event in daemon.events where event.kind == .meters {
                if json {
                    print(event.body.encoded)
                } else {
                    screen.show(TopView.lines(event.body, socket: path))
                }
                fflush(nil)
                shown += 1
                if let limit, shown >= limit { break }
                if screen.quitRequested { break }
            }
            let ended = screen.quitRequested || (limit.map { shown >= $0 } ?? false)
            await daemon.close()
            if !ended {
                screen.end()
                throw ServerError(code: .connection, message: "the daemon closed the connection", subject: path)
            }
        }
    }
}

/// The terminal while `top` runs: the alternate screen, no echo, q to quit; or plain lines.
final class TopScreen: @unchecked Sendable {
    // @unchecked: used from the command's task alone (keys are read there, between events).
    let interactive: Bool
    private var saved = termios()
    private var active = false
    private(set) var quitRequested = false

    init(interactive: Bool) { self.interactive = interactive }

    func begin() {
        guard interactive else { return }
        tcgetattr(STDIN_FILENO, &saved)
        var raw = saved
        // No echo, no line editing, and Ctrl-C as a key (read below), so the terminal is always restored.
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        // The alternate screen, cursor hidden: the shell's screen comes back as it was.
        print("\u{1B}[?1049h\u{1B}[?25l", terminator: "")
        active = true
    }

    func end() {
        guard active else { return }
        active = false
        print("\u{1B}[?25h\u{1B}[?1049l", terminator: "")
        fflush(nil)
        tcsetattr(STDIN_FILENO, TCSANOW, &saved)
    }

    /// Draws `lines`: over the previous screen when interactive, else as a block and a blank line.
    func show(_ lines: [String]) {
        if interactive {
            var size = winsize()
            let rows = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_row > 0 ? Int(size.ws_row) : 24
            let columns = size.ws_col > 0 ? Int(size.ws_col) : 80
            let visible = lines.prefix(rows - 1).map { String($0.prefix(columns)) + "\u{1B}[K" }
            print("\u{1B}[H" + visible.joined(separator: "\n") + "\u{1B}[J", terminator: "")
            pollKeys()
        } else {
            print(lines.joined(separator: "\n") + "\n")
        }
    }

    private func pollKeys() {
        var request = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        while poll(&request, 1, 0) > 0 {
            var key: UInt8 = 0
            guard read(STDIN_FILENO, &key, 1) == 1 else { return }
            if key == UInt8(ascii: "q") || key == UInt8(ascii: "Q") || key == 3 { quitRequested = true }   // 3: Ctrl-C
        }
    }
}

/// The text of one overview.
enum TopView {
    static func lines(_ body: JSONValue, socket: String) -> [String] {
        func number(_ value: JSONValue?) -> Double? { value?.numberValue }
        func count(_ value: JSONValue?) -> Int { Int(number(value) ?? 0) }
        func decibels(_ value: JSONValue?) -> String {
            guard let db = number(value), db > Double(LevelMeter.silence) else { return "   -inf" }
            return db.fixed(1).padded(to: 7)
        }
        let device = body["device"] ?? .null
        var lines: [String] = []
        let load = number(device["renderLoad"]).map { "\(($0 * 100).fixed(1)) %" } ?? "n/a"
        let sink = device["sink"]?.stringValue.map { " → \($0)" } ?? ""
        lines.append("soundstage top — \(socket)   time \((number(body["time"]) ?? 0).fixed(1)) s")
        lines.append("output: \(device["kind"]?.stringValue ?? "?") \(device["server"]?.stringValue ?? "")\(sink), "
                     + "\(count(device["sampleRate"])) Hz   render load \(load)   underruns \(count(device["underruns"]))")
        if let output = device["output"], let peaks = output["peak"]?.arrayValue, let averages = output["average"]?.arrayValue {
            let channels = zip(peaks, averages).enumerated().map { index, pair in
                "\(index == 0 ? "L" : index == 1 ? "R" : "\(index + 1)") \(decibels(pair.1)) avg \(decibels(pair.0)) peak"
            }
            lines.append("levels (dBFS): " + channels.joined(separator: "   "))
        } else {
            lines.append("levels (dBFS): silent")
        }
        let clients = body["clients"]?.arrayValue ?? []
        lines.append("clients \(clients.count)   scenes \(count(body["scenes"]))   voices \(count(body["voices"]?["real"])) real, "
                     + "\(count(body["voices"]?["virtual"])) virtual   system sounds \(count(body["systemSounds"]?["real"])) real, "
                     + "\(count(body["systemSounds"]?["virtual"])) virtual")
        lines.append("")
        lines.append("CLIENT  CATEGORY        STATE         SCENES  RUNNING  SOUNDS  REAL  VIRTUAL     AVG    PEAK")
        for client in clients.sorted(by: { count($0["client"]) < count($1["client"]) }) {
            let session = client["session"] ?? .null
            let state = session["interrupted"]?.boolValue == true ? "interrupted"
                : session["active"]?.boolValue == true ? (session["ducked"]?.boolValue == true ? "active,ducked" : "active") : "inactive"
            lines.append(String(count(client["client"])).padded(to: 6) + "  " + (session["category"]?.stringValue ?? "?").padded(after: 14) + "  "
                         + state.padded(after: 12)
                         + "  " + String(count(client["scenes"])).padded(to: 6) + "  " + String(count(client["running"])).padded(to: 7)
                         + "  " + String(count(client["sounds"])).padded(to: 6) + "  " + String(count(client["voices"]?["real"])).padded(to: 4)
                         + "  " + String(count(client["voices"]?["virtual"])).padded(to: 7) + " "
                         + decibels(client["level"]?["average"]) + " " + decibels(client["level"]?["peak"]))
        }
        return lines
    }
}
