import Foundation
import Testing
import SoundFile
import TestSupport

/// The CLI on a real desktop server the test starts: it finds the server (PULSE_SERVER), plays
/// on Soundstage's own stream, and returns only after the last sample reached the sink.
@Suite(.serialized) struct DesktopCLITests {   // one real server at a time (see DesktopOutputTests)
    static let servers = AudioServerFixture.Kind.allCases.filter(\.isInstalled)

    private func write(_ samples: [Float], to path: String) throws {
        try SoundFileWriter.write(AudioBuffer(samples: samples, channels: 1, sampleRate: 48_000), to: path, format: .wavFloat32)
    }

    private func tone(_ frequency: Double, seconds: Double) -> [Float] {
        (0..<Int(seconds * 48_000)).map { Float(0.5 * sin(2 * Double.pi * frequency * Double($0) / 48_000)) }
    }

    /// Frames in which the recording sounds: (first, last).
    private func span(_ samples: [Float]) -> (first: Int, last: Int)? {
        var first: Int?, last: Int?
        for frame in 0..<(samples.count / 2) where abs(samples[2 * frame]) > 0.01 || abs(samples[2 * frame + 1]) > 0.01 {
            if first == nil { first = frame }
            last = frame
        }
        guard let first, let last else { return nil }
        return (first, last)
    }

    private func run(_ fixture: AudioServerFixture, _ arguments: [String]) throws -> (status: Int32, output: String, exitedAt: Double) {
        let (status, output) = try ChildProcess.run(CLIRunner.binary.path, arguments, environment: fixture.environment)
        return (status, output, MonitorRecording.now())
    }

    @Test(arguments: servers)
    func playReturnsAfterTheLastSampleReachedTheSink(_ kind: AudioServerFixture.Kind) throws {
        let fixture = try AudioServerFixture(kind)
        let file = "\(fixture.directory)/tone.wav"
        try write(tone(1_000, seconds: 0.4), to: file)
        let recording = try fixture.record(sink: "A")
        let result = try run(fixture, ["play", "--latency", "100", file])
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("rendering"))
        usleep(200_000)
        let samples = recording.stop()
        let found = span(samples)
        let heard = try #require(found)
        #expect(abs(Signals.soundingSeconds(samples) - 0.4) < 0.010, "the whole tone, tail included")
        // The last sample reached the sink before the command returned (the recorder dates it a
        // little late, by its pipe and fragment).
        let lastAt = try #require(recording.time(ofFrame: heard.last))
        #expect(lastAt <= result.exitedAt + 0.03, "last sample at \(lastAt), exit at \(result.exitedAt)")
    }

    @Test(arguments: servers)
    func runReturnsAfterTheScenesLastSample(_ kind: AudioServerFixture.Kind) throws {
        let fixture = try AudioServerFixture(kind)
        let scene = "\(fixture.directory)/tone.json"
        try """
            {"format": 1, "duration": 0.55, "sources": [
              {"name": "tone", "sound": {"tone": {"frequency": 700, "amplitude": 0.5}}, "position": [0, 0, -1], "start": 0.05, "stop": 0.55}]}
            """.write(toFile: scene, atomically: true, encoding: .utf8)
        let recording = try fixture.record(sink: "A")
        let result = try run(fixture, ["run", "--latency", "100", scene])
        #expect(result.status == 0, "\(result.output)")
        usleep(200_000)
        let samples = recording.stop()
        let found = span(samples)
        let heard = try #require(found)
        // Nothing cut: the whole 0.5 s, to the sample (less the detector's 18 frames of edge).
        // The start is scheduled on its frame, so neither the runner's 10 ms loop nor the
        // output's first fill (its whole latency mixed at once) makes it late: before, it came
        // 4-6 ms late here and 15 ms late under ThreadSanitizer on CI. Less a server cycle (at
        // most 1,024 frames) for each dropout inside the sine (``Signals/dropouts``): beside
        // stress-ng PipeWire's graph once lost a 256-frame quantum of it. A late start or an
        // early end leaves the sine unbroken and still fails.
        let sounding = Signals.soundingSeconds(samples)
        let dropouts = Signals.dropouts(samples, frequency: 700, first: heard.first, last: heard.last)
        #expect(sounding > 0.498 - Double(dropouts * 1_024) / 48_000 && sounding < 0.502,
                "the whole 0.5 s tone: \(sounding) s, with \(dropouts) dropouts inside it")
        let lastAt = try #require(recording.time(ofFrame: heard.last))
        #expect(lastAt <= result.exitedAt + 0.03)
    }

    @Test(arguments: servers)
    func soundPlayPlaysTheWholeClick(_ kind: AudioServerFixture.Kind) throws {
        let fixture = try AudioServerFixture(kind)
        let file = "\(fixture.directory)/click.wav"
        try write(tone(2_000, seconds: 0.1395), to: file)
        let recording = try fixture.record(sink: "A")
        let result = try run(fixture, ["sound", "play", "--no-daemon", "--latency", "100", "--file", file])
        #expect(result.status == 0, "\(result.output)")
        usleep(200_000)
        #expect(abs(Signals.soundingSeconds(recording.stop()) - 0.1395) < 0.010)
    }

    /// The daemon plays on the desktop server: two clients' clicks arrive whole at the sink, it
    /// says which output it uses, and it stops cleanly on SIGTERM with nothing left alive.
    @Test(arguments: servers)
    func theDaemonPlaysOnTheDesktopServer(_ kind: AudioServerFixture.Kind) throws {
        let fixture = try AudioServerFixture(kind)
        let file = "\(fixture.directory)/click.wav"
        try write(tone(2_000, seconds: 0.1), to: file)
        let socket = "\(fixture.directory)/soundstage/socket"
        let recording = try fixture.record(sink: "A")
        var fds: [Int32] = [0, 0]
        #expect(ChildProcess.makePipe(&fds))
        let daemon = try ChildProcess(CLIRunner.binary.path, ["serve", "--socket", socket],
                                      environment: fixture.environment, stderr: fds[1])
        close(fds[1])
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: socket) { usleep(10_000) }
        for _ in 0..<2 {
            let result = try run(fixture, ["sound", "play", "--file", file, "--socket", socket])
            #expect(result.status == 0, "\(result.output)")
            usleep(300_000)
        }
        daemon.send(SIGTERM)
        #expect(daemon.wait() == 0)
        var bytes = [UInt8](repeating: 0, count: 8_192)
        let count = read(fds[0], &bytes, bytes.count)
        close(fds[0])
        let said = String(decoding: bytes.prefix(max(0, count)), as: UTF8.self)
        #expect(said.contains("output: desktop"), "\(said)")
        #expect(said.contains("OpenAL objects still live: none"), "\(said)")
        usleep(100_000)
        let samples = recording.stop()
        let runs = Signals.separateSounds(samples)
        #expect(runs.count == 2, "\(runs)")
        let heard = Signals.soundingSeconds(samples)
        #expect(abs(heard - 0.2) < 0.010, "two whole 0.1 s clicks, heard \(heard) s")
    }

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

    @Test(arguments: servers)
    func infoNamesTheDesktopOutputAndItsLatency(_ kind: AudioServerFixture.Kind) throws {
        let fixture = try AudioServerFixture(kind)
        let recording = try fixture.record(sink: "A")    // keeps the null sink running
        defer { recording.stop() }
        let result = try run(fixture, ["info"])
        #expect(result.status == 0)
        #expect(result.output.contains("Output:         Soundstage's own stream on the desktop server"), "\(result.output)")
        #expect(result.output.contains(": A"))
        #expect(result.output.contains("reported by the output (target 20.0 ms)"))
        #expect(!result.output.contains("Latency:        unknown"))
    }

    /// On OpenAL Soft's own backend (the fallback), a pulled sink disconnects the device and
    /// zeroes every offset; the engine migrates and resumes from its own clock: B hears the
    /// sound go on at the second step (400 Hz), not restart (300 Hz) or fall silent.
    @Test func theOpenALFallbackResumesAtItsOffsetAfterAPulledSink() throws {
        guard AudioServerFixture.Kind.pulseaudio.isInstalled else { return }
        let fixture = try AudioServerFixture(.pulseaudio)
        let file = "\(fixture.directory)/steps.wav"
        try write(tone(300, seconds: 1) + tone(400, seconds: 1) + tone(500, seconds: 1) + tone(600, seconds: 1), to: file)
        // Recorders on both sinks keep them running (an idle null sink pulls nothing for up to 2 s).
        let onA = try fixture.record(sink: "A"), onB = try fixture.record(sink: "B")
        defer { onA.stop() }
        let started = MonitorRecording.now()
        // --verbose: what the player logs of its output (opened, lost, migrated) is in a failure's message.
        let player = try LoggedChild(["play", "--backend", "openal", "--verbose", file], fixture)
        // Pull sink A once the sound is well into its second step.
        while MonitorRecording.now() - started < 1.6 { usleep(10_000) }
        let pulledAt = MonitorRecording.now() - started
        try fixture.unloadSink("A")
        let (status, log) = player.waitForExit()
        let elapsed = MonitorRecording.now() - started
        usleep(200_000)
        let samples = onB.stop()
        let aHeard = onA.secondsHeard()
        #expect(status == 0, "\(log)")
        #expect(elapsed > 3.5, "no early end: the 4 s sound ended after \(elapsed) s (A pulled at \(pulledAt) s, A heard \(aHeard) s, B \(Signals.soundingSeconds(samples)) s); the player's log:\n\(log)")
        let found = span(samples)
        let heard = try #require(found, "B heard nothing (A heard \(aHeard) s); the player's log:\n\(log)")
        let start = heard.first + 960
        let firstHeard = Array(stride(from: 2 * start, to: 2 * (start + 4_800), by: 2).map { samples[$0] })
        let frequency = Double(zip(firstHeard, firstHeard.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count) / 0.1
        let onsetAt = onB.time(ofFrame: heard.first).map { $0 - started } ?? -1
        #expect(abs(frequency - 400) < 15, "B first hears \(frequency) Hz, \(onsetAt) s after the start (pulled at 1.6 s)")
        let endAt = onB.time(ofFrame: heard.last).map { $0 - started } ?? -1
        let recorded = Double(samples.count / 2) / 48_000
        #expect(Double(heard.last - heard.first) / 48_000 > 1.5,
                "the rest of the sound plays on B: heard from \(onsetAt) s to \(endAt) s after the start; the player ended at \(elapsed) s; B's recording holds \(recorded) s; the player's log:\n\(log)")
    }
}

/// `soundstage record` on a real server: what it writes, how it stops, and what it keeps when
/// the disk fills up.
extension DesktopCLITests {
    /// `--duration` records exactly that long from a sink's monitor while `play` plays a tone
    /// there: the file holds the tone at its frequency.
    @Test(arguments: servers)
    func recordWritesWhatTheSinkPlays(_ kind: AudioServerFixture.Kind) throws {
        let fixture = try AudioServerFixture(kind)
        let tonePath = "\(fixture.directory)/tone.wav"
        try write(tone(660, seconds: 1.5), to: tonePath)
        let output = "\(fixture.directory)/take.flac"
        let recorder = try LoggedChild(["record", output, "--duration", "1", "--input", "A.monitor"], fixture)
        usleep(100_000)
        let played = try run(fixture, ["play", tonePath])
        #expect(played.status == 0, "\(played.output)")
        let (status, text) = recorder.waitForExit()
        #expect(status == 0, "\(text)")
        #expect(text.contains("recorded 1.00 s (2 ch, 48000 Hz) from A.monitor"), "\(text)")
        let file = try SoundFile.decode(path: output)
        #expect(file.frames == 48_000 && file.channels == 2)
        let sounding = file.channel(0).filter { abs($0) > 0.05 }.count
        #expect(sounding > 10_000, "the tone is in the recording (\(sounding) loud samples)")
        // The median of eight windows' frequencies: a dropout of a loaded machine in one window
        // does not move it (across one, the first 0.2 s once read 644.9 Hz beside stress-ng).
        let start = try #require(file.channel(0).firstIndex { abs($0) > 0.05 })
        let heard = Array(file.channel(0)[start..<min(file.frames, start + 38_400)])
        #expect(abs(Signals.medianFrequency(heard) - 660) < 3, "\(Signals.medianFrequency(heard)) Hz")
    }

    /// Ctrl-C ends a recording with a complete file and status 0; an unknown input, or no
    /// server, is one clear line and status 1, with nothing written.
    @Test func recordStopsOnCtrlCAndRefusesWhatDoesNotExist() throws {
        let fixture = try AudioServerFixture(.pulseaudio)
        let output = "\(fixture.directory)/open-ended.wav"
        let recorder = try LoggedChild(["record", output], fixture)
        usleep(800_000)
        recorder.child.send(SIGINT)
        let (status, text) = recorder.waitForExit()
        #expect(status == 0, "\(text)")
        let file = try SoundFile.decode(path: output)
        #expect(file.frames > 4_410 && file.sampleRate == 44_100, "the default input Z, at its own rate: \(file.frames) frames")

        let missing = try run(fixture, ["record", "\(fixture.directory)/x.wav", "--input", "no-such-mic"])
        #expect(missing.status == 1)
        #expect(missing.output.contains("no input named 'no-such-mic'") && missing.output.contains("A.monitor"), "\(missing.output)")
        #expect(!FileManager.default.fileExists(atPath: "\(fixture.directory)/x.wav"))
        var elsewhere = fixture.environment
        elsewhere["PULSE_SERVER"] = "unix:\(fixture.directory)/nothing-here"
        let (noServer, said) = try ChildProcess.run(CLIRunner.binary.path, ["record", "\(fixture.directory)/y.wav"], environment: elsewhere)
        #expect(noServer == 1)
        #expect(said.contains("no desktop audio server"), "\(said)")
        let info = try run(fixture, ["info"])
        #expect(info.output.contains("Inputs:         a real input exists"), "the null source Z is a real input: \(info.output)")
        let listed = try run(fixture, ["record", "--list-inputs"])
        #expect(listed.status == 0 && listed.output.contains("A.monitor\tmonitor\t48000\t2"), "\(listed.output)")
    }

    /// A disk that fills up (here: a file-size limit) ends the recording with a clear error and
    /// status 1, and the file keeps everything written until then, readable. Not under
    /// ThreadSanitizer: its runtime dies of SIGBUS under any file-size limit (`--version` too).
    @Test(.enabled(if: !runningUnderSanitizer)) func aFullDiskKeepsWhatWasRecorded() throws {
        let fixture = try AudioServerFixture(.pulseaudio)
        let output = "\(fixture.directory)/full.wav"
        // 64 KiB at most: `ulimit -f` counts 1024-byte blocks in bash, 512 in dash; either way it fills in under a second.
        let (status, text) = try ChildProcess.run("/bin/sh", ["-c", "ulimit -f 128; exec \"$0\" record \"$1\" --duration 10",
                                                              CLIRunner.binary.path, output], environment: fixture.environment)
        #expect(status == 1, "\(text)")
        #expect(text.contains("File too large") && text.contains("kept"), "\(text)")
        let file = try SoundFile.decode(path: output)
        #expect(file.frames > 10_000, "\(file.frames) frames kept")
        let size = try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int ?? 0
        #expect(size == 44 + file.frames * 4, "the header counts every frame in the file (\(size) bytes)")
    }
}

extension DesktopCLITests {
    /// `run --record` writes the mix it sent: the scene's tone, as long as the sink heard it.
    /// With the disk full (a file-size limit) it says so, keeps what it wrote, and exits 1.
    @Test func runRecordWritesTheMixItSent() throws {
        let fixture = try AudioServerFixture(.pulseaudio)
        let scene = "\(fixture.directory)/tone.json"
        try """
            {"format": 1, "duration": 1.0, "sources": [
              {"name": "tone", "sound": {"tone": {"frequency": 700, "amplitude": 0.5}}, "position": [0, 0, -1], "start": 0.1, "stop": 0.6}]}
            """.write(toFile: scene, atomically: true, encoding: .utf8)
        let mix = "\(fixture.directory)/mix.flac"
        let monitor = try fixture.record(sink: "A")
        let result = try run(fixture, ["run", scene, "--record", mix])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("of the mix to \(mix)"), "\(result.output)")
        usleep(100_000)
        let heard = Signals.soundingSeconds(monitor.stop())
        let file = try SoundFile.decode(path: mix)
        #expect(file.channels == 2 && file.sampleRate == 48_000)
        // The scene's second, plus what the mix clock ran on while the scene's last poll and the
        // sink's drain came round (a loaded machine adds tens of milliseconds of silence at the end).
        let seconds = Double(file.frames) / 48_000
        #expect(seconds > 0.98 && seconds < 1.2, "\(file.frames) frames for a 1 s scene")
        let recorded = Signals.soundingSeconds(file.samples)
        #expect(abs(recorded - heard) < 0.01 && recorded > 0.45, "mix \(recorded) s, sink \(heard) s")
        #expect(abs(Signals.frequency(Array(file.channel(0)[9_600..<24_000])) - 700) < 3)

        // ThreadSanitizer's runtime dies of SIGBUS under any file-size limit (`--version` too).
        guard !runningUnderSanitizer else { return }
        let full = "\(fixture.directory)/full.wav"
        let (status, text) = try ChildProcess.run("/bin/sh", ["-c", "ulimit -f 64; exec \"$0\" run \"$1\" --record \"$2\"",
                                                              CLIRunner.binary.path, scene, full], environment: fixture.environment)
        #expect(status == 1, "\(text)")
        #expect(text.contains("File too large") && text.contains("kept"), "\(text)")
        let kept = try SoundFile.decode(path: full)
        #expect(kept.frames > 4_800 && kept.frames < 48_000, "\(kept.frames) frames kept")
    }
}

/// The CLI started in the background, its stdout and stderr going to a file read at its end.
private struct LoggedChild {
    let child: ChildProcess
    let log: String

    init(_ arguments: [String], _ fixture: AudioServerFixture) throws {
        log = "\(fixture.directory)/cli-\(UUID().uuidString.prefix(6)).log"
        let fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        defer { close(fd) }
        child = try ChildProcess(CLIRunner.binary.path, arguments, environment: fixture.environment, stdout: fd, stderr: fd)
    }

    /// Waits for the end: the exit status and what it printed.
    func waitForExit() -> (Int32, String) {
        let status = child.wait()
        return (status, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
    }
}
