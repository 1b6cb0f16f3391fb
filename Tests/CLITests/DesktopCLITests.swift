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
        // Nothing cut: the whole 0.5 s. Its stop is issued by the runner's 10 ms real-time loop,
        // which a loaded machine (the suite's memory tests run beside this) can make late.
        let sounding = Signals.soundingSeconds(samples)
        #expect(sounding > 0.49 && sounding < 0.55, "the whole 0.5 s tone: \(sounding) s")
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
        #expect(abs(Signals.soundingSeconds(samples) - 0.2) < 0.010, "two whole 0.1 s clicks")
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
        var fds: [Int32] = [0, 0]
        #expect(ChildProcess.makePipe(&fds))
        let child = try ChildProcess(CLIRunner.binary.path, ["play", "--backend", "openal", file],
                                     environment: fixture.environment, stderr: fds[1])
        close(fds[1])
        // Pull sink A once the sound is well into its second step.
        while MonitorRecording.now() - started < 1.6 { usleep(10_000) }
        try fixture.unloadSink("A")
        let status = child.wait()
        var errors = [UInt8](repeating: 0, count: 4_096)
        let count = read(fds[0], &errors, errors.count)
        close(fds[0])
        let elapsed = MonitorRecording.now() - started
        usleep(200_000)
        let samples = onB.stop()
        #expect(status == 0, "\(String(decoding: errors.prefix(max(0, count)), as: UTF8.self))")
        #expect(elapsed > 3.5, "no early end: the 4 s sound ended after \(elapsed) s")
        let found = span(samples)
        let heard = try #require(found)
        let start = heard.first + 960
        let firstHeard = Array(stride(from: 2 * start, to: 2 * (start + 4_800), by: 2).map { samples[$0] })
        let frequency = Double(zip(firstHeard, firstHeard.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count) / 0.1
        let onsetAt = onB.time(ofFrame: heard.first).map { $0 - started } ?? -1
        #expect(abs(frequency - 400) < 15, "B first hears \(frequency) Hz, \(onsetAt) s after the start (pulled at 1.6 s)")
        #expect(Double(heard.last - heard.first) / 48_000 > 1.5, "the rest of the sound plays on B")
    }
}
