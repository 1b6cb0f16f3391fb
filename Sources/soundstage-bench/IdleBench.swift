import Foundation
import Soundstage
import SoundFile
import TestSupport

/// What silence costs and how fast the first sound after it is heard (issue 37), on each
/// installed throw-away server (or the one named):
///
/// - the process's own CPU (all its threads, `getrusage`) over `--seconds` of silence after a
///   0.3 s sound: with an output that never rests (`idleTimeout` 0, as before resting existed)
///   and with the default one, which rests after 2 s (goal: at most 0.1 % of a core);
/// - time to the ear (request → first sample at the sink's monitor): a game's `source.play()`
///   and a UI sound (`SystemSoundRegistry.play`, event role, 10 ms), warm (150 ms apart) and
///   after a rest; libcanberra's `ca_context_play` warm and after 3 s of silence.
///
///   swift run -c release soundstage-bench idle [--pulseaudio | --pipewire] [--seconds N] [--plays N]
func idleBench(arguments: [String]) throws {
    let seconds = arguments.firstIndex(of: "--seconds").flatMap { Double(arguments[$0 + 1]) } ?? 10
    let plays = arguments.firstIndex(of: "--plays").flatMap { Int(arguments[$0 + 1]) } ?? 20
    let named = AudioServerFixture.Kind.allCases.filter { arguments.contains("--\($0.rawValue)") }
    let kinds = (named.isEmpty ? AudioServerFixture.Kind.allCases : named).filter(\.isInstalled)
    for kind in kinds {
        let fixture = try AudioServerFixture(kind)
        defer { fixture.stop() }
        let click = "\(fixture.directory)/click.wav"
        try SoundFileWriter.write(Signals.sine(1_000, seconds: 0.03, amplitude: 0.5), to: click, format: .wavPCM16)
        print("\(kind):")
        // CPU first, with nothing else of this benchmark running (no recorder thread).
        let never = try idleCPU(fixture, click: click, idleTimeout: 0, seconds: seconds)
        let resting = try idleCPU(fixture, click: click, idleTimeout: DesktopOutputOptions().idleTimeout, seconds: seconds)
        print("  idle CPU over \(seconds) s of silence, the whole process: never resting \(percent(never)), "
              + "resting \(percent(resting)) (goal ≤ 0.100 %: \(resting <= 0.001 ? "met" : "MISSED")); ratio \(String(format: "%.0f", never / max(resting, 1e-9)))×")

        let recording = try fixture.record(sink: "A")
        defer { recording.stop() }
        let meter = EarMeter(recording: recording)
        var table: [(String, [Double])] = []
        for (name, role, latency) in [("game sound, source.play()", MediaRole.game, 0.020), ("UI sound, SystemSoundRegistry.play", .event, 0.010)] {
            let device = try Device.openDesktop(DesktopOutputOptions(applicationName: "bench", role: role, latency: latency,
                                                                     server: fixture.server, idleTimeout: 0.3))
            var options = SystemSoundRegistry.Options()
            options.coalescingWindow = 0
            let registry = try SystemSoundRegistry(device: device, options: options)
            let id = try registry.register(file: click)
            let scene = try device.makeScene()
            let source = scene.makeSource(buffer: try device.buffer(file: click))
            let play: () throws -> Void = role == .game ? { try source.play() } : { try registry.play(id) }
            table.append(("\(name), warm", try meter.measure(plays, play)))
            table.append(("\(name), after a rest", try meter.measure(plays, quiet: {
                _ = waitFor(5) { device.outputStatus.resting }
                usleep(100_000)
            }, play)))
            registry.close()
            device.close()
        }
        // The daemon (`soundstage serve`, beside this binary), a UI sound over its socket.
        if let binary = BenchDaemon.binary {
            let daemon = try BenchDaemon(binary, on: fixture, playing: click)
            defer { daemon.stop() }
            if daemon.answers {
                table.append(("UI sound through the daemon, warm", try meter.measure(plays) { daemon.play() }))
                table.append(("UI sound through the daemon, after 3 s of silence",
                              try meter.measure(max(3, plays / 4), quiet: { usleep(3_000_000) }) { daemon.play() }))
            } else {
                print("  (the daemon did not start)")
            }
        } else {
            print("  (no soundstage binary beside this one: `swift build -c release` for the daemon)")
        }
        if let peer = try CanberraPeer.build(in: fixture.directory) {
            var environment = fixture.environment
            environment["SOUNDSTAGE_CLICK"] = click
            let warm = try peer.start(environment: environment)
            table.append(("libcanberra ca_context_play, warm", try meter.measure(plays) { warm.play() }))
            table.append(("libcanberra, after 3 s of silence", try meter.measure(max(3, plays / 4), quiet: { usleep(3_000_000) }) { warm.play() }))
            warm.stop()
        } else {
            print("  (libcanberra-dev not installed: no libcanberra baseline)")
        }
        print("  time to the ear (request → first sample at the sink), p50 / p90:")
        for (name, samples) in table { report(name, samples, goal: nil) }
        let p50 = Dictionary(uniqueKeysWithValues: table.map { ($0.0, median($0.1)) })
        for what in ["game sound, source.play()", "UI sound, SystemSoundRegistry.play"] {
            if let warm = p50["\(what), warm"] ?? nil, let rested = p50["\(what), after a rest"] ?? nil {
                print("  \(what): after a rest − warm = \(milliseconds(rested - warm)) (goal ≤ 5 ms: \(rested - warm <= 0.005 ? "met" : "MISSED"))")
            }
        }
    }
}

/// The process's CPU (user + system, all threads) as a fraction of one core over `seconds` of
/// silence, after a 0.3 s sound on a new desktop output with `idleTimeout`; for a resting
/// output, measured from when it rests.
private func idleCPU(_ fixture: AudioServerFixture, click: String, idleTimeout: Double, seconds: Double) throws -> Double {
    let device = try Device.openDesktop(DesktopOutputOptions(applicationName: "bench", server: fixture.server, idleTimeout: idleTimeout))
    defer { device.close() }
    let scene = try device.makeScene()
    let source = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(440, seconds: 0.3)))
    try source.play()
    _ = waitFor(5) { source.playbackState == .stopped }
    if idleTimeout > 0 { _ = waitFor(idleTimeout + 5) { device.outputStatus.resting } }
    usleep(500_000)
    let (cpu0, wall0) = (processCPU(), MonitorRecording.now())
    usleep(useconds_t(seconds * 1e6))
    let fraction = (processCPU() - cpu0) / (MonitorRecording.now() - wall0)
    if idleTimeout > 0 && !device.outputStatus.resting { print("  (the output did not stay resting: \(device.outputStatus))") }
    return fraction
}

/// User plus system CPU seconds of the whole process so far.
private func processCPU() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

private func percent(_ fraction: Double) -> String { String(format: "%.3f %% of a core", fraction * 100) }

private func median(_ values: [Double]) -> Double? { values.isEmpty ? nil : values.sorted()[values.count / 2] }
