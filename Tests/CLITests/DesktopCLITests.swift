import Foundation
import Testing
import SoundFile
import TestSupport

/// The CLI on a real desktop server the test starts: it finds the server (PULSE_SERVER), plays
/// on Soundstage's own stream, and returns only after the last sample reached the sink.
@Suite(.serialized) struct DesktopCLITests: DesktopCLISuite {   // one real server at a time (see DesktopOutputTests)
    static let servers = AudioServerFixture.Kind.allCases.filter(\.isInstalled)

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

/// What the CLI's real-server suites share: one lane each of the servers pass, side by side.
protocol DesktopCLISuite {}

extension DesktopCLISuite {
    func write(_ samples: [Float], to path: String) throws {
        try SoundFileWriter.write(AudioBuffer(samples: samples, channels: 1, sampleRate: 48_000), to: path, format: .wavFloat32)
    }

    func tone(_ frequency: Double, seconds: Double) -> [Float] {
        (0..<Int(seconds * 48_000)).map { Float(0.5 * sin(2 * Double.pi * frequency * Double($0) / 48_000)) }
    }

    /// Frames in which the recording sounds: (first, last).
    func span(_ samples: [Float]) -> (first: Int, last: Int)? {
        var first: Int?, last: Int?
        for frame in 0..<(samples.count / 2) where abs(samples[2 * frame]) > 0.01 || abs(samples[2 * frame + 1]) > 0.01 {
            if first == nil { first = frame }
            last = frame
        }
        guard let first, let last else { return nil }
        return (first, last)
    }

    func run(_ fixture: AudioServerFixture, _ arguments: [String]) throws -> (status: Int32, output: String, exitedAt: Double) {
        let (status, output) = try ChildProcess.run(CLIRunner.binary.path, arguments, environment: fixture.environment)
        return (status, output, MonitorRecording.now())
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
