import Foundation
import Soundstage
import SoundstageJSON
import TestSupport

/// Time to the ear: from a request to the first sample of the sound at the sink, on a throw-away
/// desktop server this benchmark starts (PulseAudio by default, `--pipewire` for PipeWire),
/// measured by recording the sink's monitor. Every path in one run, beside libcanberra's
/// `ca_context_play` (a small C peer compiled here when libcanberra-dev is installed).
///
///   swift run -c release soundstage-bench ear [--pipewire] [--plays N]
func earLatency(arguments: [String]) throws {
    let kind: AudioServerFixture.Kind = arguments.contains("--pipewire") ? .pipewire : .pulseaudio
    let plays = arguments.firstIndex(of: "--plays").flatMap { Int(arguments[$0 + 1]) } ?? 40
    let fixture = try AudioServerFixture(kind)
    defer { fixture.stop() }
    let directory = fixture.directory
    let click = "\(directory)/click.wav"
    // 30 ms of 1 kHz at -6 dBFS: loud at once, so its first sample is easy to find.
    try SoundFileWriter.write(AudioBuffer(samples: (0..<1_440).map { Float(0.5 * sin(2 * Double.pi * 1_000 * Double($0) / 48_000)) },
                                          channels: 1, sampleRate: 48_000), to: click, format: .wavPCM16)
    let recording = try fixture.record(sink: "A")
    defer { recording.stop() }
    let meter = EarMeter(recording: recording)
    print("time to the ear on \(kind) (request → first sample at sink A's monitor), \(plays) plays each")
    print("recorder: parec, 2 ms fragments; samples dated by their arrival (the same for every path)")

    // 1. source.play() in a game, on Soundstage's own stream (default options: 20 ms target).
    do {
        let device = try Device.openDesktop(DesktopOutputOptions(applicationName: "bench", server: fixture.server))
        let scene = try device.makeScene()
        let buffer = try device.buffer(file: click)
        let source = scene.makeSource(buffer: buffer)
        let samples = try meter.measure(plays) { try source.play() }
        report("source.play() → sink (desktop, target 20 ms)", samples, goal: 0.015)
        print("    stream latency reported by the server: \(milliseconds(device.outputStatus.latency))")
        device.close()
    }
    // 2. SystemSoundRegistry.play in-process, on a stream with the event role.
    do {
        let device = try Device.openDesktop(DesktopOutputOptions(applicationName: "bench", role: .event, latency: 0.010,
                                                                 server: fixture.server))
        var options = SystemSoundRegistry.Options()
        options.coalescingWindow = 0
        let registry = try SystemSoundRegistry(device: device, options: options)
        let id = try registry.register(file: click)
        let samples = try meter.measure(plays) { try registry.play(id) }
        report("SystemSoundRegistry.play → sink (desktop, event role, 10 ms)", samples, goal: 0.010)
        registry.close()
        device.close()
    }
    // 3. A warm daemon: `soundstage serve` on the server, playSound over its socket.
    if let binary = BenchDaemon.binary {
        let daemon = try BenchDaemon(binary, on: fixture, playing: click)
        defer { daemon.stop() }
        let environment = daemon.environment
        if daemon.answers {
            let samples = try meter.measure(plays) { daemon.play() }
            report("warm daemon playSound → sink (soundstage serve)", samples, goal: 0.010)
            // 4. A cold CLI: a new `soundstage sound play` process each time (through the daemon).
            let cold = try meter.measure(max(5, plays / 4)) {
                _ = try ChildProcess(binary, ["sound", "play", "--file", click], environment: environment)
            }
            report("cold `soundstage sound play --file` → sink (new process, via the daemon)", cold, goal: 0.050)
        } else {
            print("  (the daemon did not start; skipped the daemon and CLI paths)")
        }
        daemon.stop()
        let direct = try meter.measure(max(5, plays / 4)) {
            _ = try ChildProcess(binary, ["sound", "play", "--no-daemon", "--file", click], environment: environment)
        }
        report("cold `soundstage sound play --no-daemon --file` → sink (new process, own stream)", direct, goal: 0.050)
    } else {
        print("  (no soundstage binary beside this one: build it with `swift build -c release` for the daemon and CLI paths)")
    }
    // 5. libcanberra, the desktop's own event-sound library, measured the same way.
    if let peer = try CanberraPeer.build(in: directory) {
        var environment = fixture.environment
        environment["SOUNDSTAGE_CLICK"] = click
        let warm = try peer.start(environment: environment)
        let samples = try meter.measure(plays) { warm.play() }
        report("libcanberra ca_context_play → sink (warm context)", samples, goal: nil)
        warm.stop()
        let cold = try meter.measure(max(5, plays / 4)) {
            _ = try ChildProcess(peer.path, ["--once", click], environment: environment)
        }
        report("libcanberra, cold process (ca_context_create + play)", cold, goal: nil)
    } else {
        print("  (libcanberra-dev not installed: no libcanberra baseline)")
    }
}

/// `soundstage serve` (the command built beside this benchmark) on a fixture's server, with a
/// click registered: ``play()`` asks for it over the socket and waits for the answer.
final class BenchDaemon {
    /// The `soundstage` command beside this benchmark, if it was built (`swift build -c release`).
    static let binary: String? = {
        let path = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("soundstage").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }()

    /// The fixture's environment with the daemon's socket: for `soundstage` commands that use it.
    let environment: [String: String]
    private let process: ChildProcess
    private let socket: LineSocket?
    private let request: String

    init(_ binary: String, on fixture: AudioServerFixture, playing click: String) throws {
        let path = "\(fixture.directory)/soundstage.sock"
        var environment = fixture.environment
        environment["SOUNDSTAGE_SOCKET"] = path
        self.environment = environment
        process = try ChildProcess(binary, ["serve"], environment: environment)
        var socket: LineSocket?
        for _ in 0..<500 where socket == nil {
            socket = try? LineSocket(path: path)
            if socket == nil { usleep(10_000) }
        }
        self.socket = socket
        let id = socket?.request(["id": 0, "command": "registerSound", "file": .string(click)])?["result"]?["sound"] ?? .null
        request = "{\"id\":1,\"command\":\"playSound\",\"sound\":\(id.encoded)}\n"
    }

    /// Whether it answered on its socket.
    var answers: Bool { socket != nil }

    /// Plays the click and waits for the daemon's answer.
    func play() {
        socket?.send(request)
        _ = socket?.response()
    }

    /// Stops it (again: nothing).
    func stop() {
        process.send(SIGTERM)
        process.wait()
    }
}

/// Finds each play's first sample in the recording and dates it.
struct EarMeter {
    let recording: MonitorRecording

    /// Triggers `plays` times and returns each request → first-sample time (s). Before each,
    /// `quiet` runs (by default 120 ms pass: the previous sound has ended at the sink).
    func measure(_ plays: Int, quiet: () -> Void = { usleep(120_000) }, _ trigger: () throws -> Void) throws -> [Double] {
        var latencies: [Double] = []
        for _ in 0..<plays {
            quiet()
            let from = recording.frameCount
            let start = MonitorRecording.now()
            try trigger()
            let deadline = Date().addingTimeInterval(2)
            var onset: Int?
            while onset == nil && Date() < deadline {
                usleep(1_000)
                onset = recording.firstFrame(above: 0.05, from: from)
            }
            guard let onset, let time = recording.time(ofFrame: onset) else { continue }
            latencies.append(time - start)
        }
        return latencies
    }
}

func milliseconds(_ seconds: Double?) -> String {
    seconds.map { String(format: "%.1f ms", $0 * 1_000) } ?? "n/a"
}

func report(_ name: String, _ samples: [Double], goal: Double?) {
    guard !samples.isEmpty else { return print("  \(name): no onsets found") }
    let sorted = samples.sorted()
    func quantile(_ q: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * q))] }
    let p50 = quantile(0.5)
    var line = "  \(name): p50 \(milliseconds(p50)), p90 \(milliseconds(quantile(0.9))), min \(milliseconds(sorted.first)), max \(milliseconds(sorted.last)) (n=\(sorted.count))"
    if let goal { line += p50 <= goal ? " — goal ≤ \(milliseconds(goal)) met" : " — goal ≤ \(milliseconds(goal)) MISSED" }
    print(line)
}
