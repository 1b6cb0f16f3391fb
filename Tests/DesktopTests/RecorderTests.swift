import Foundation
import Testing
import Soundstage
import SoundFile
import TestSupport

/// ``AudioRecorder`` on a real server: it records a sink's monitor while the game plays a known
/// signal, and what it wrote is compared with what was played. Serialized, as `DesktopOutputTests`
/// is, and beside it: each suite of the servers pass is one lane of real servers, one at a time.
@Suite(.serialized) struct RecorderTests {}

/// A metered desktop device on `fixture` whose scene plays under an active `playAndRecord` session.
func playAndRecordRig(on fixture: AudioServerFixture) throws -> (Device, AudioSession, Scene) {
    let device = try desktopDevice(on: fixture)
    device.isOutputMeteringEnabled = true
    let chat = AudioSessionCenter(device: device).makeSession(category: .playAndRecord)
    try chat.setActive(true)
    let scene = try device.makeScene()
    chat.attach(scene)
    return (device, chat, scene)
}

extension RecorderTests {
    /// Two 1 kHz bursts exactly 0.5 s apart, played by the game: the recording has them at the
    /// level the output meter measured, at 1 kHz, 24,000 frames apart, and dated by the recorder
    /// after the play request and within a real server's latency of it.
    @Test(arguments: installedServers)
    func theRecorderHearsWhatTheGamePlays(_ kind: AudioServerFixture.Kind) throws {
        let fixture = try AudioServerFixture(kind)
        let (device, chat, scene) = try playAndRecordRig(on: fixture)
        let burst = Signals.sine(1_000, seconds: 0.3).samples
        let signal = AudioBuffer(samples: burst + [Float](repeating: 0, count: 9_600) + burst, channels: 1, sampleRate: Signals.rate)
        let source = try toneSource(scene, device, signal)
        let path = temporaryPath("recorded.wav")
        defer { unlink(path) }
        let recorder = try AudioRecorder(path: path, settings: .init(format: .wavFloat32, input: "A.monitor", server: fixture.server),
                                         session: chat)
        recorder.isMeteringEnabled = true
        try recorder.record()
        #expect(recorder.isRecording)
        #expect(recorder.format?.sampleRate == 48_000 && recorder.format?.channels == 2)
        #expect(waitFor(5) { recorder.firstFrameTime != nil })
        _ = device.outputLevels()
        let underrunsBefore = device.outputStatus.underruns
        let requested = MonitorRecording.now()
        try source.play()
        #expect(waitFor(10) { source.playbackState != .playing })
        usleep(300_000)
        let output = try #require(device.outputLevels())
        // An underrun of the game's output (its render thread late under load) makes the server
        // play silence in the middle of the sound: the sink then holds more than was played, and
        // neither alignment nor frequency measure the recorder. Such a run says so and checks gain.
        let underran = device.outputStatus.underruns > underrunsBefore
        let result = try #require(recorder.stop())
        #expect(result.reason == .stopped && result.isSuccess)
        #expect(recorder.state == .finished)
        let meter = try #require(recorder.meterLevels())
        let file = try SoundFile.decode(path: path)
        #expect(file.channels == 2 && file.sampleRate == 48_000 && file.frames == result.frames)
        let left = file.channel(0)
        let first = try #require(left.firstIndex { abs($0) > 0.1 })
        let second = try #require(left[(first + 19_200)...].firstIndex { abs($0) > 0.1 })
        // Alignment: no frame lost or added between the bursts.
        #expect(abs(second - first - 24_000) <= 2 || underran, "bursts \(second - first) frames apart in the recording")
        // Gain: the recorded peak is the mix's peak; the burst's RMS is a sine's (peak − 3.01 dB).
        let heard = Array(left[(first + 2_400)..<(first + 12_000)])
        let recordedPeak = 20 * log10(Double(heard.map(abs).max() ?? 0))
        let recordedRMS = 20 * log10(Signals.rms(heard))
        #expect(abs(recordedPeak - Double(output.peakPower[0])) < 0.2, "recorded peak \(recordedPeak) dBFS, mixed \(output.peakPower[0])")
        #expect(abs(recordedRMS - (Double(output.peakPower[0]) - 3.0103)) < 0.2, "recorded RMS \(recordedRMS) dBFS")
        #expect(abs(Double(meter.peakPower[0]) - recordedPeak) < 0.2, "recorder's meter \(meter.peakPower[0]) dBFS")
        // Frequency.
        #expect(abs(Signals.frequency(heard) - 1_000) < 2 || underran, "recorded \(Signals.frequency(heard)) Hz")
        if underran { print("recorder on \(kind): the output underran during the play; alignment and frequency not measured") }
        // Time: the recorder dates the first burst after the request (within its dating's
        // precision), within a server's latency.
        let heardAt = try #require(recorder.firstFrameTime) + Double(first) / 48_000
        let toEar = heardAt - requested
        print("recorder on \(kind): bursts \(second - first) frames apart; peak \(recordedPeak) vs mixed \(output.peakPower[0]) dBFS; "
              + "first burst dated \(String(format: "%.1f", toEar * 1_000)) ms after play()")
        // A sound on a quiet output reaches the sink within a millisecond of the request (it skips
        // the queued silence, on PulseAudio with no silence ahead of it), closer than the recorder
        // dates frames (from its 10 ms capture fragments' arrival): CI dated one 0.6 ms before the
        // request, and beside stress-ng one was dated 5.3 ms before it. So "after" within a fragment.
        #expect(toEar > -0.010 && toEar < 0.5, "dated \(toEar) s after the request")
        device.close()
        #expect(device.liveObjects.isZero)
    }

    /// An interruption pauses the recording (nothing is written while it lasts); its end with
    /// `shouldResume` records on in the same file.
    @Test(arguments: installedServers)
    func anInterruptionPausesTheRecorderAndItsEndResumesIt(_ kind: AudioServerFixture.Kind) throws {
        let fixture = try AudioServerFixture(kind)
        let device = try desktopDevice(on: fixture)
        let center = AudioSessionCenter(device: device)
        let session = center.makeSession(category: .record)
        try session.setActive(true)
        let path = temporaryPath("interrupted.wav")
        defer { unlink(path) }
        let recorder = try AudioRecorder(path: path, settings: .init(server: fixture.server), session: session)
        try recorder.record()
        #expect(waitFor(5) { recorder.framesRecorded > 4_800 })
        session.beginInterruption()
        #expect(recorder.state == .paused)
        usleep(100_000)
        let during = recorder.framesRecorded
        usleep(400_000)
        #expect(recorder.framesRecorded == during, "recorded \(recorder.framesRecorded - during) frames while interrupted")
        session.endInterruption(shouldResume: true)
        #expect(recorder.state == .recording)
        #expect(waitFor(5) { recorder.framesRecorded > during + 9_600 })
        // Ended without resuming: it stays paused until the app records again.
        session.beginInterruption()
        session.endInterruption(shouldResume: false)
        #expect(recorder.state == .paused)
        try recorder.record()
        #expect(recorder.state == .recording)
        let result = try #require(recorder.stop())
        #expect(result.isSuccess)
        #expect(try SoundFile.decode(path: path).frames == result.frames)
        device.close()
    }

    /// A named input that vanishes ends the recording with its reason; the file holds what was
    /// recorded before, complete and readable.
    @Test(arguments: installedServers)
    func aVanishedInputKeepsWhatWasRecorded(_ kind: AudioServerFixture.Kind) throws {
        let fixture = try AudioServerFixture(kind)
        let path = temporaryPath("vanished.flac")
        defer { unlink(path) }
        let ended = NIOLockedBox<AudioRecorder.Result?>(nil)
        let recorder = try AudioRecorder(path: path, settings: .init(format: .flac, input: "B.monitor", server: fixture.server)) { result in
            ended.set(result)
        }
        try recorder.record(forDuration: 30)
        #expect(waitFor(5) { recorder.framesRecorded > 9_600 })
        try fixture.unloadSink("B")
        let result = try #require(recorder.waitUntilFinished(timeout: 10))
        guard case let .inputLost(why) = result.reason else {
            Issue.record("ended with \(result.reason)")
            return
        }
        #expect(!why.isEmpty)
        #expect(!result.isSuccess && result.fileError == nil)
        #expect(ended.get() == result)
        let file = try SoundFile.decode(path: path)
        #expect(file.frames == result.frames && file.frames >= 9_600)
    }

    /// `captureAvailable` is true only while a real input (not a monitor) exists; a named input
    /// that does not exist is a clear error listing the ones that do.
    @Test func captureIsAvailableOnlyWithARealInput() throws {
        let fixture = try AudioServerFixture(.pulseaudio)
        let inputs = try AudioRecorder.availableInputs(server: fixture.server)
        #expect(inputs.contains { $0.name == "Z" && !$0.isMonitor })
        #expect(inputs.contains { $0.name == "A.monitor" && $0.isMonitor })
        #expect(AudioRecorder.captureAvailable(server: fixture.server))
        let device = try desktopDevice(on: fixture)
        #expect(try device.info.captureAvailable)
        let modules = try fixture.pactl(["list", "short", "modules"])
        let line = try #require(modules.split(separator: "\n").first { $0.contains("module-null-source") })
        _ = try fixture.pactl(["unload-module", String(line.split(separator: "\t")[0])])
        #expect(!AudioRecorder.captureAvailable(server: fixture.server))
        #expect(try !device.info.captureAvailable)
        #expect(!AudioRecorder.captureAvailable(server: "unix:/nonexistent/soundstage"))
        let recorder = try AudioRecorder(path: temporaryPath("never.wav"), settings: .init(input: "Z", server: fixture.server))
        let error = try #require(throws: SoundstageError.self) { try recorder.record() }
        #expect(error.code == .noInputDevice)
        #expect(error.message.contains("A.monitor"), "\(error.message)")
        device.close()
    }
}

/// A path in the temporary directory, unique to this process.
func temporaryPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("soundstage-\(getpid())-\(UUID().uuidString.prefix(6))-\(name)").path
}

/// A value set on one thread and read on another.
final class NIOLockedBox<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func set(_ new: Value) { lock.withLock { value = new } }
    func get() -> Value { lock.withLock { value } }
}

/// The stereo samples of frames `span`, without runs of 16 or more frames of exact silence, how
/// many such runs there were, and how many samples were kept before the first.
func withoutSilentRuns(_ samples: [Float], _ span: (first: Int, last: Int)) -> (samples: [Float], runs: Int, beforeFirstRun: Int) {
    var kept: [Float] = [], pending: [Float] = [], runs = 0, beforeFirstRun = Int.max
    func flush() {
        if pending.count >= 2 * 16 {
            if runs == 0 { beforeFirstRun = kept.count }
            runs += 1
        } else {
            kept += pending
        }
        pending.removeAll()
    }
    for frame in span.first...span.last {
        let left = samples[2 * frame], right = samples[2 * frame + 1]
        if left == 0 && right == 0 {
            pending += [left, right]
        } else {
            flush()
            kept += [left, right]
        }
    }
    flush()
    return (kept, runs, min(beforeFirstRun, kept.count))
}

extension RecorderTests {
    /// On the desktop output the mix recording holds what the sink received: the same sound,
    /// as long, sample for sample (within the sink's 16-bit rounding) once aligned.
    @Test(arguments: installedServers)
    func theMixRecordingIsWhatTheSinkGot(_ kind: AudioServerFixture.Kind) throws {
        let fixture = try AudioServerFixture(kind)
        let monitor = try fixture.record(sink: "A")
        let device = try desktopDevice(on: fixture)
        let path = temporaryPath("mix.wav")
        defer { unlink(path) }
        try device.recordOutput(to: path, format: .wavFloat32)
        let scene = try device.makeScene()
        let source = try toneSource(scene, device, steppedTones(steps: 2, amplitude: 0.4))
        source.position = Vector3(1, 0, -1)
        try source.play()
        #expect(waitFor(10) { source.playbackState != .playing })
        device.drain()
        let result = try #require(device.stopRecordingOutput())
        device.close()
        usleep(100_000)
        let heard = monitor.stop()
        #expect(result.failure == nil)
        let mix = try SoundFile.decode(path: path).samples
        let mixSpan = try #require(soundingSpan(mix))
        let heardSpan = try #require(soundingSpan(heard))
        // A render late under load makes the server play silence in between (an underrun): such
        // runs of exact zeros are dropped from both before comparing, and counted. Around an
        // underrun PulseAudio may also drop what it had half played (seen under ThreadSanitizer:
        // 56 frames at one gap), so with gaps the sink may miss up to a 10 ms period per gap, and
        // the sample-exact comparison covers what came before the first gap.
        let (mixFrames, _, _) = withoutSilentRuns(mix, mixSpan)
        let (heardFrames, gaps, beforeGap) = withoutSilentRuns(heard, heardSpan)
        #expect(abs(mixFrames.count - heardFrames.count) <= 2 * (48 + gaps * 480),
                "mix \(mixFrames.count / 2) frames, sink \(heardFrames.count / 2) (\(gaps) silent runs dropped)")
        // PipeWire's pulse server changes the last few milliseconds at the sink when the drained
        // stream closes (seen: 0.02–0.28 within the last 210 frames, one run in three or so);
        // whole tails are checked by everyTailReachesTheSink, so the last 10 ms are left out here.
        let tail = kind == .pipewire ? 2 * 480 : 0
        var largest: Float = 0, at = 0
        for index in 0..<max(0, min(mixFrames.count, heardFrames.count, beforeGap) - tail) where abs(mixFrames[index] - heardFrames[index]) > largest {
            largest = abs(mixFrames[index] - heardFrames[index])
            at = index / 2
        }
        let detail = "at frame \(at) of \(mixFrames.count / 2) (\(gaps) gaps, the first after frame \(beforeGap / 2); "
            + "spans \(mixSpan) and \(heardSpan))"
        #expect(largest < 0.002, "largest difference \(largest) after alignment, \(detail)")
    }
}

extension RecorderTests {
    /// A recorder the app lets go of stops: its file is completed, its completion runs, and the
    /// server's record stream is gone. A completion may stop its own recorder.
    @Test func aRecorderLetGoOfStopsAndCompletesItsFile() throws {
        let fixture = try AudioServerFixture(.pulseaudio)
        let path = temporaryPath("dropped.wav")
        defer { unlink(path) }
        let ended = NIOLockedBox<AudioRecorder.Result?>(nil)
        do {
            let recorder = try AudioRecorder(path: path, settings: .init(server: fixture.server)) { ended.set($0) }
            // A completion may call stop() on its own recorder (it does not wait for itself).
            let box = NIOLockedBox<AudioRecorder?>(nil)
            let selfStopping = try AudioRecorder(path: path + ".2.wav", settings: .init(server: fixture.server)) { _ in
                _ = box.get()?.stop()
            }
            defer { unlink(path + ".2.wav") }
            box.set(selfStopping)
            try selfStopping.record(forDuration: 0.05)
            #expect(selfStopping.waitUntilFinished(timeout: 5)?.reason == .durationReached)
            box.set(nil)
            try recorder.record()
            #expect(waitFor(5) { recorder.framesRecorded > 4_410 })
            #expect(try fixture.pactl(["list", "short", "source-outputs"]).contains("protocol-native"))
        }
        #expect(waitFor(5) { ended.get() != nil }, "the completion ran")
        #expect(ended.get()?.reason == .stopped)
        #expect(waitFor(5) { ((try? fixture.pactl(["list", "short", "source-outputs"])) ?? "x").isEmpty }, "the record stream is closed")
        let file = try SoundFile.decode(path: path)
        #expect(file.frames == ended.get()?.frames && file.frames > 4_410)
    }
}

extension RecorderTests {
    /// The recorder writes AAC in M4A (what the iOS guidance recommends for recording) from a
    /// real server: a 1 kHz tone the game plays is in the file, at 1 kHz and at the level the
    /// output meter measured, the file is gapless (its length is the frames recorded), and the
    /// codec is AAC-LC at the bit rate asked for.
    @Test(.enabled(if: FFmpeg.isAvailable), arguments: installedServers)
    func theRecorderRecordsAAC(_ kind: AudioServerFixture.Kind) throws {
        let fixture = try AudioServerFixture(kind)
        let (device, chat, scene) = try playAndRecordRig(on: fixture)
        let source = try toneSource(scene, device, Signals.sine(1_000, seconds: 1))
        let path = temporaryPath("recorded.m4a")
        defer { unlink(path) }
        let recorder = try AudioRecorder(path: path, settings: .init(format: .m4aAAC, input: "A.monitor", server: fixture.server,
                                                                     bitRate: 160_000), session: chat)
        try recorder.record()
        #expect(waitFor(5) { recorder.firstFrameTime != nil })
        _ = device.outputLevels()
        try source.play()
        #expect(waitFor(10) { source.playbackState != .playing })
        usleep(300_000)
        let output = try #require(device.outputLevels())
        let result = try #require(recorder.stop())
        #expect(result.isSuccess)
        let file = try SoundFile(path: path)
        #expect(file.format.container == .mp4 && file.format.encoding == .aac)
        #expect(file.codecDetails?.profile == "LC")
        #expect(file.codecDetails?.gapless == true)
        #expect(abs((file.codecDetails?.bitRate ?? 0) - 160_000) < 40_000)
        let audio = try file.readAll()
        #expect(Int64(audio.frames) == result.frames, "gapless: \(audio.frames) frames decoded, \(result.frames) recorded")
        let left = audio.channel(0)
        let first = try #require(left.firstIndex { abs($0) > 0.1 })
        // Measured over the unbroken 50 ms windows of 0.1-0.8 s: an underrun of a loaded machine
        // leaves a gap whose edges the codec rings at (CI once measured 773 Hz and +0.8 dB over
        // the whole span); the median window is the tone.
        let stereo = left.flatMap { [$0, $0] }
        let windows = unbrokenWindows(stereo, frames: (first + 4_800)..<min(left.count, first + 38_400))
        #expect(windows.count >= 10, "only \(windows.count) of 14 windows without a gap")
        let recordedPeak = 20 * log10(median(windows.map { Double(left[$0].map(abs).max() ?? 0) }) ?? 0)
        let recordedFrequency = median(windows.map { Signals.frequency(Array(left[$0])) }) ?? 0
        #expect(abs(recordedFrequency - 1_000) < 2, "recorded \(recordedFrequency) Hz")
        #expect(abs(recordedPeak - Double(output.peakPower[0])) < 0.5, "recorded peak \(recordedPeak) dBFS, mixed \(output.peakPower[0])")
        print("AAC recorder on \(kind): \(audio.frames) frames, peak \(recordedPeak) vs mixed \(output.peakPower[0]) dBFS")
        device.close()
        #expect(device.liveObjects.isZero)
    }
}
