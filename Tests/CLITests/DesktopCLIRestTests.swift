import Foundation
import Testing
import SoundFile
import TestSupport

/// The CLI's outputs rest on a real desktop server the test starts: the daemon's and a game's
/// stream cork after `--idle-timeout` of silence, use no CPU, and wake for the next sound. A lane
/// of its own beside `DesktopCLITests` (one real server at a time in each).
@Suite(.serialized) struct DesktopCLIRestTests: DesktopCLISuite {
    static let servers = DesktopCLITests.servers

    /// The daemon's output rests when silent, on the desktop server and on the OpenAL fallback
    /// (OpenAL Soft's PulseAudio backend on the test's server): once nothing has played for
    /// `--idle-timeout` its stream corks (on OpenAL: `alcDevicePauseSOFT`, whose mixer thread
    /// stops), the daemon uses no CPU, and the next sound wakes it and is heard.
    @Test(arguments: servers, ["desktop", "openal"])
    func theDaemonRestsWhenSilent(_ kind: AudioServerFixture.Kind, _ backend: String) throws {
        let fixture = try AudioServerFixture(kind)
        let file = "\(fixture.directory)/click.wav"
        try write(tone(2_000, seconds: 0.1), to: file)
        let socket = "\(fixture.directory)/soundstage/socket"
        var environment = fixture.environment
        environment["ALSOFT_DRIVERS"] = "pulse"
        let daemon = try ChildProcess(CLIRunner.binary.path, ["serve", "--socket", socket, "--backend", backend, "--idle-timeout", "0.3"],
                                      environment: environment)
        defer { daemon.send(SIGTERM); _ = daemon.wait() }
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: socket) { usleep(10_000) }
        // Corked: every sink input (OpenAL Soft's PulseAudio backend may list its stream twice).
        let corked = { () -> Bool? in
            let lines = ((try? fixture.sinkInputs()) ?? "").split(separator: "\n").filter { $0.contains("Corked:") }
            return lines.isEmpty ? nil : lines.allSatisfy { $0.contains("yes") }
        }
        let recording = try fixture.record(sink: "A")
        #expect(try run(fixture, ["sound", "play", "--file", file, "--socket", socket]).status == 0)
        #expect(waitFor(10) { corked() == true }, "the \(backend) stream never corked: \((try? fixture.sinkInputs()) ?? "?")")
        // The stream corks as the session pauses; OpenAL's update thread polls on until its rest
        // begins, `--idle-timeout` after the sound: measure from a quarter second it sleeps through.
        let outputThread = backend == "desktop" ? "ss-desktop-out" : "ss-update"
        let thread = try #require(ThreadActivity(named: outputThread, in: daemon.pid), "no thread \(outputThread) in the daemon")
        #expect(waitFor(5) {
            let first = thread.sample().switches
            usleep(250_000)
            return thread.sample().switches == first
        }, "the \(backend) output's thread (\(outputThread)) never slept a quarter second")
        let before = cpuTicks(daemon.pid), wakesBefore = thread.sample().switches
        usleep(2_000_000)
        let resting = cpuTicks(daemon.pid) - before
        #expect(resting <= 1, "the resting daemon used \(resting) ticks of CPU in 2 s")
        // The output's own thread sleeps until asked (the desktop output's polled ten times a
        // second while the session paused it): at most the rest's 10 s safety wake.
        let wakes = thread.sample().switches - wakesBefore
        #expect(wakes <= 1, "the resting output's thread woke \(wakes) times in 2 s")
        #expect(try run(fixture, ["sound", "play", "--file", file, "--socket", socket]).status == 0)
        // The stream corks again at most the timeout after the click, plus the queue and 0.1 s,
        // measured from the command's end, which waits for the click to end. (The client's
        // session ends with its connection: the output pauses then, sooner than the timeout;
        // OpenAL's is corked before the command ends.)
        let ended = Date()
        var corkedAt: Date?
        while corkedAt == nil, Date().timeIntervalSince(ended) < 5 {
            if corked() == true { corkedAt = Date() } else { usleep(5_000) }
        }
        let after = try #require(corkedAt, "never corked again").timeIntervalSince(ended)
        #expect(after <= 0.3 + 0.15, "the \(backend) stream corked \(after) s after the click, timeout 0.3 s")
        usleep(100_000)
        let runs = Signals.separateSounds(recording.stop())
        #expect(runs.count == 2, "two clicks, one before and one after the rest: \(runs)")
        print("\(kind): \(backend) output resting, the daemon used \(resting) CPU ticks in 2 s; its output thread woke \(wakes) times; "
              + "the stream corked \(String(format: "%.3f", after)) s after the click ended (timeout 0.3 s)")
    }

    /// A game's own output rests `--idle-timeout` after its last sound, timed at the server: the
    /// scene runner (`soundstage run`, a process of its own as a game is) plays a click at 0 s and
    /// a 0.3 s tone at 1 s, then nothing for 2 s; `pactl`'s "Corked" is polled, and the tone's
    /// end is dated where the ear is, on sink A's monitor. On the OpenAL fallback the update
    /// thread's idle timer pauses OpenAL Soft (`alcDevicePauseSOFT`, which corks its stream);
    /// on the desktop output, the output's own rest (timed in process by `OutputRestTests`).
    /// The mix runs a queue ahead of the ear (the stream's buffer latency, as the server
    /// reports it), so the cork may come that much before the timeout, and at most 0.1 s after
    /// it. (The daemon's test above cannot time this: its client's session ends first.)
    @Test(arguments: servers, ["openal", "desktop"])
    func aGamesOutputCorksTheTimeoutAfterItsLastSound(_ kind: AudioServerFixture.Kind, _ backend: String) throws {
        let fixture = try AudioServerFixture(kind)
        let idleTimeout = 0.5
        let scene = "\(fixture.directory)/rest.json"
        try """
            {"format": 1, "duration": 3.3, "sources": [
              {"name": "click", "sound": {"tone": {"waveform": "sine", "frequency": 880, "amplitude": 0.5}}, "headRelative": true, "start": 0, "stop": 0.02},
              {"name": "tone", "sound": {"tone": {"waveform": "sine", "frequency": 440, "amplitude": 0.5}}, "headRelative": true, "start": 1, "stop": 1.3}]}
            """.write(toFile: scene, atomically: true, encoding: .utf8)
        let recording = try fixture.record(sink: "A")
        var environment = fixture.environment
        environment["ALSOFT_DRIVERS"] = "pulse"
        let log = "\(fixture.directory)/run.log"
        let fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        let runner = try ChildProcess(CLIRunner.binary.path, ["run", scene, "--backend", backend, "--idle-timeout", "\(idleTimeout)", "--verbose"],
                                      environment: environment, stdout: fd, stderr: fd)
        close(fd)
        // Poll the server until the runner ends: when its stream was last seen uncorked and then
        // corked (after the tone), and the largest buffer latency it reported.
        var polls: [(time: Double, corked: Bool)] = []
        var bufferLatency = 0.0
        while runner.isRunning {
            let inputs = (try? fixture.sinkInputs()) ?? ""
            let at = MonitorRecording.now()
            let lines = inputs.split(separator: "\n")
            let corkLines = lines.filter { $0.contains("Corked:") }
            if !corkLines.isEmpty { polls.append((at, corkLines.allSatisfy { $0.contains("yes") })) }
            for line in lines where line.contains("Buffer Latency:") {
                if let usec = Double(line.split(separator: ":")[1].split(separator: " ")[0]) { bufferLatency = max(bufferLatency, usec / 1e6) }
            }
            usleep(5_000)
        }
        let status = runner.wait()
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(status == 0, "\(output)")
        let samples = recording.stop()
        // The tone is the last sound (the click only wakes the sink: beside `stress-ng` OpenAL
        // Soft's fresh stream on PipeWire once lost it whole).
        let sounds = Signals.separateSounds(samples)
        let tone = try #require(sounds.last, "nothing heard; \(output)")
        try #require(Double(tone.1 - tone.0) / 48_000 > 0.2, "the last sound is not the 0.3 s tone: \(sounds); \(output)")
        let toneEnd = try #require(recording.time(ofFrame: tone.1), "the tone's end is not dated")
        // The queue: what the server reports of the stream (PulseAudio), else what the output
        // reported when it opened (`--verbose` logs it; OpenAL's `ALC_DEVICE_LATENCY_SOFT`;
        // PipeWire's pulse server reports no buffer latency).
        if bufferLatency == 0, let opened = output.split(separator: "\n").first(where: { $0.contains("output opened") }),
           let field = opened.split(separator: " ").first(where: { $0.hasPrefix("latency=") }) {
            bufferLatency = Double(field.dropFirst("latency=".count)) ?? 0
        }
        if bufferLatency == 0 { bufferLatency = 0.02 }     // nobody said: the CLI's target
        // The first poll after the tone ended that found the stream corked, after one that did not.
        let uncorked = try #require(polls.last { !$0.corked && $0.time < toneEnd + idleTimeout - 0.2 },
                                    "the stream was never seen playing before its rest: \(polls.count) polls")
        let corkedAt = try #require(polls.first { $0.corked && $0.time > uncorked.time }, "never corked after the tone").time
        let after = corkedAt - toneEnd
        print("\(kind), \(backend): corked \(String(format: "%.3f", after)) s after the tone ended at the sink "
              + "(timeout \(idleTimeout) s, buffer latency \(String(format: "%.3f", bufferLatency)) s)")
        #expect(after >= idleTimeout - bufferLatency - 0.03 && after <= idleTimeout + 0.1,
                "corked \(after) s after the tone, timeout \(idleTimeout) s, buffer latency \(bufferLatency) s; \(output)")
    }

    /// User plus system CPU of process `pid` so far, in clock ticks (/proc/PID/stat).
    private func cpuTicks(_ pid: pid_t) -> Int {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }
}
