import Foundation
import Testing
@testable import Soundstage
import TestSupport

/// The desktop output rests when nothing plays (`DesktopOutputOptions.idleTimeout`): its stream
/// corked, its render thread asleep, the sink free to suspend; it wakes for the next sound, and
/// nothing is lost or moved across a rest. Serialized, as `DesktopOutputTests` is, and beside it:
/// each suite of the servers pass is one lane of real servers, one at a time.
@Suite(.serialized) struct OutputRestTests {}

extension OutputRestTests {
    /// After the timeout of silence the stream is corked on the server and the render thread
    /// sleeps (at most a few wake-ups a second, against its ~100 when it plays); a play wakes it,
    /// uncorked, and the sound is heard whole.
    @Test(arguments: installedServers)
    func theOutputRestsWhenSilentAndWakesForTheNextSound(_ kind: AudioServerFixture.Kind) throws {
        let fixture = try AudioServerFixture(kind)
        let recording = try fixture.record(sink: "A")
        let device = try desktopDevice(on: fixture, idleTimeout: 0.3)
        defer { device.close() }
        let scene = try device.makeScene()
        let source = try toneSource(scene, device, Signals.sine(440, seconds: 0.2))
        try source.play()
        #expect(!device.outputStatus.resting)
        #expect(waitFor(10) { device.outputStatus.resting }, "\(device.outputStatus)")
        #expect(device.outputStatus.rests == 1 && !device.outputStatus.paused)
        #expect(waitFor(5) { corked(try? fixture.sinkInputs()) == true }, "\((try? fixture.sinkInputs()) ?? "?")")
        // This device's render thread: suites beside this one run desktop outputs of their own.
        let thread = try #require(device.desktop?.renderThreadID.flatMap { ThreadActivity(thread: $0) })
        let before = thread.sample()
        usleep(1_000_000)
        let after = thread.sample()
        #expect(after.switches - before.switches <= 3, "the resting render thread woke \(after.switches - before.switches) times in 1 s")
        #expect(after.cpu - before.cpu < 0.001, "the resting render thread used \(after.cpu - before.cpu) s of CPU in 1 s")
        try source.play()
        // The play pokes the render thread, which ends the rest when it runs (beside stress-ng
        // the status read at once still said resting).
        #expect(waitFor(5) { !device.outputStatus.resting }, "\(device.outputStatus)")
        #expect(waitFor(5) { corked(try? fixture.sinkInputs()) == false })
        #expect(waitFor(10) { source.playbackState == .stopped })
        usleep(200_000)
        let samples = recording.stop()
        let heard = Double(Signals.soundingFrames(samples)) / 48_000
        #expect(abs(heard - 0.4) < 0.02, "two 0.2 s tones, heard \(heard) s")
    }

    /// The stream corks `idleTimeout` after the mix went silent, plus the queue, within 100 ms:
    /// a 0.3 s sound, then the server's own word (`pactl`'s "Corked") polled, at 0.5 s and 1 s
    /// timeouts. A click first: on PulseAudio a fresh stream's first sound waits ~1.9 s for the
    /// fixture's null sink (it renders 2 s blocks until a stream asks for less, and takes the
    /// lower latency at its next block; PipeWire and a sound card do not), which would date the
    /// sound wrong. (Before, a rest waited for the drain of a queue of silence, and a check
    /// missed at the timeout waited a whole second timeout.)
    @Test(arguments: installedServers, [0.5, 1.0])
    func theStreamCorksTheTimeoutAfterTheLastSound(_ kind: AudioServerFixture.Kind, _ idleTimeout: Double) throws {
        let fixture = try AudioServerFixture(kind)
        let device = try desktopDevice(on: fixture, idleTimeout: idleTimeout)
        defer { device.close() }
        let scene = try device.makeScene()
        let source = try toneSource(scene, device, Signals.sine(440, seconds: 0.3))
        #expect(waitFor(5) { corked(try? fixture.sinkInputs()) == false })
        let click = try toneSource(scene, device, Signals.sine(880, seconds: 0.02))
        try click.play()
        #expect(waitFor(5) { click.playbackState == .stopped })
        usleep(100_000)
        let played = Date()
        try source.play()
        var corkedAt: Date?
        while corkedAt == nil, Date().timeIntervalSince(played) < 3 * idleTimeout + 2 {
            if corked(try? fixture.sinkInputs()) == true { corkedAt = Date() } else { usleep(5_000) }
        }
        let after = try #require(corkedAt, "never corked").timeIntervalSince(played) - 0.3
        let queue = device.outputStatus.targetLatency ?? 0.02
        print("\(kind), idle timeout \(idleTimeout) s: corked \(String(format: "%.3f", after)) s after the sound ended "
              + "(\(String(format: "%.3f", after - idleTimeout)) s late; the queue is \(queue) s)")
        // The mix is rendered a queue ahead of the ear: its silence can start that much earlier.
        #expect(after >= idleTimeout - queue - 0.01 && after <= idleTimeout + queue + 0.1,
                "corked \(after) s after the sound, timeout \(idleTimeout) s")
    }

    /// `idleTimeout` 0 never rests: the stream plays on, uncorked, through seconds of silence.
    @Test(arguments: installedServers)
    func anIdleTimeoutOfZeroNeverRests(_ kind: AudioServerFixture.Kind) throws {
        let fixture = try AudioServerFixture(kind)
        let device = try desktopDevice(on: fixture, idleTimeout: 0)
        defer { device.close() }
        let scene = try device.makeScene()
        try toneSource(scene, device, Signals.sine(440, seconds: 0.1)).play()
        usleep(1_500_000)
        #expect(!device.outputStatus.resting && device.outputStatus.rests == 0)
        #expect(corked(try? fixture.sinkInputs()) == false, "\((try? fixture.sinkInputs()) ?? "?")")
    }

    /// The device's clock counts on through a rest, and a play scheduled on it across a rest
    /// starts on time: a click, then a tone scheduled 2.5 s after it, with a rest between, are
    /// heard 2.5 s apart on the sink.
    @Test(arguments: installedServers)
    func aPlayScheduledAcrossARestStartsOnTime(_ kind: AudioServerFixture.Kind) throws {
        let fixture = try AudioServerFixture(kind)
        let recording = try fixture.record(sink: "A")
        let device = try desktopDevice(on: fixture, idleTimeout: 0.3)
        defer { device.close() }
        let scene = try device.makeScene()
        let click = try toneSource(scene, device, Signals.sine(1_000, seconds: 0.05))
        let tone = try toneSource(scene, device, Signals.sine(440, seconds: 0.3))
        let start = device.mixTime + 0.1
        try scene.play([click], at: start)
        try scene.play([tone], at: start + 2.5)
        let wallStart = MonitorRecording.now(), clockStart = device.mixTime
        #expect(waitFor(10) { device.outputStatus.rests >= 1 }, "no rest: \(device.outputStatus)")
        #expect(waitFor(10) { tone.playbackState == .stopped })
        // The clock kept counting with the wall clock through the rest.
        let drift = (device.mixTime - clockStart) - (MonitorRecording.now() - wallStart)
        #expect(abs(drift) < 0.1, "the device's clock moved \(drift) s apart from the wall clock")
        usleep(200_000)
        let samples = recording.stop()
        let clickAt = try #require(onset(samples, from: 0))
        let toneAt = try #require(onset(samples, from: clickAt + 9_600), "the tone was not heard")
        let gap = Double(toneAt - clickAt) / 48_000
        #expect(abs(gap - 2.5) < 0.03, "the tone came \(gap) s after the click, not 2.5 s")
        print("\(kind): a play scheduled across a rest: \(gap) s after the click (2.5 s asked)")
    }
}

extension OutputRestTests {
    /// Sounds started around the moment the output decides to rest, drains and corks (a sweep of
    /// starts 0.05 s ± 15 ms after the last sound ended, against a 0.05 s timeout), and, on an
    /// output that never rests, sounds that skip a queue of silence (flushed and refilled from
    /// the read index), are each heard whole: nothing lost to the race or to the skip.
    @Test(arguments: installedServers, [0.05, 0])
    func aSoundStartedAsTheStreamCorksIsHeardWhole(_ kind: AudioServerFixture.Kind, _ idleTimeout: Double) throws {
        let fixture = try AudioServerFixture(kind)
        let recording = try fixture.record(sink: "A")
        let device = try desktopDevice(on: fixture, idleTimeout: idleTimeout)
        defer { device.close() }
        let scene = try device.makeScene()
        let source = try toneSource(scene, device, Signals.sine(440, seconds: 0.1))
        let plays = 12
        for step in 0..<plays {
            try source.play()
            #expect(waitFor(5) { source.playbackState == .stopped })
            usleep(useconds_t(35_000 + 2_500 * step))
        }
        usleep(300_000)
        let rests = device.outputStatus.rests
        let samples = recording.stop()
        // Each tone whole: 4,800 frames, of which the first (0) and last are below the threshold.
        // Beside stress-ng PipeWire split one tone as 1,951 + 2,848 frames (all there, the rest
        // of it late) and another as 1,695 + 2,848 (a 256-frame quantum lost in a cycle its graph
        // missed). So segments less than 10 ms apart are one tone, and a tone may lack a server
        // cycle (at most 1,024 frames, PipeWire's default quantum) for each dropout inside its
        // sine (``Signals/dropouts``); without one it must be whole. A rest's race or a skip that
        // lost frames cuts the tone's start or end with its sine unbroken, and still fails.
        let tones = toneLengths(samples, gapBelow: 480)
        let spans = Signals.separateSounds(samples, gap: 0.01)
        let dropouts = spans.map { Signals.dropouts(samples, frequency: 440, first: $0.0, last: $0.1) }
        let short = zip(tones, dropouts).filter { $0.0 < 4_797 - $0.1 * 1_024 }
        // An underrun of a loaded machine cuts a tone by itself: then only most of the sound.
        // (A rest's drain is not an underrun.)
        let underruns = device.outputStatus.underruns
        if underruns == 0 {
            #expect(tones.count == plays && spans.count == plays && short.isEmpty,
                    "\(plays) tones of 4,800 frames, heard \(tones), with \(dropouts) dropouts inside them")
        } else {
            #expect(tones.reduce(0, +) > plays * 4_560, "\(underruns) underruns; \(plays) tones of 4,800 frames, heard \(tones)")
        }
        if idleTimeout > 0 {
            #expect(rests >= 2, "the output rested \(rests) times between \(plays) sounds")
        } else {
            #expect(rests == 0)
        }
        print("\(kind), idle timeout \(idleTimeout) s: \(plays) sounds around \(rests) rests (\(underruns) underruns), heard as \(tones) frames; "
              + "dropouts inside them \(dropouts)")
    }

    /// A source paused before a rest plays on from its offset after it: the stepped tones go on
    /// in the step they were paused in.
    @Test(arguments: installedServers)
    func aPausedSourceResumesAtItsOffsetAfterARest(_ kind: AudioServerFixture.Kind) throws {
        let fixture = try AudioServerFixture(kind)
        let recording = try fixture.record(sink: "A")
        let device = try desktopDevice(on: fixture, idleTimeout: 0.2)
        defer { device.close() }
        let scene = try device.makeScene()
        let source = try toneSource(scene, device, steppedTones(steps: 3))
        try source.play()
        #expect(waitFor(10) { source.offset >= 1.5 })
        source.pause()
        let pausedAt = source.offset
        #expect(waitFor(10) { device.outputStatus.resting }, "no rest while paused: \(device.outputStatus)")
        usleep(500_000)
        #expect(abs(source.offset - pausedAt) < 0.001, "the offset moved from \(pausedAt) to \(source.offset) s while resting")
        try source.play()
        #expect(waitFor(10) { source.playbackState == .stopped })
        usleep(200_000)
        let samples = recording.stop()
        let heard = Double(Signals.soundingFrames(samples)) / 48_000
        // What the server dropped is allowed, a cycle per dropout (docs/testing.md, "Under load").
        // Each run holds one change of step (300 to 400 Hz before the pause, 400 to 500 after),
        // which breaks the sine's recurrence once: not a dropout.
        let runs = Signals.separateSounds(samples)
        let dropouts = runs.map { max(0, Signals.dropouts(samples, frequency: 400, first: $0.0, last: $0.1) - 1) }
        let allowed = 0.05 + Double(dropouts.reduce(0, +) * 1_024) / 48_000
        let before = runs.first.map { Double($0.1 - $0.0) / 48_000 } ?? 0
        let after = runs.count > 1 ? Double(runs[1].1 - runs[1].0) / 48_000 : 0
        #expect(abs(heard - 3) < allowed,
                "3 s of tones, heard \(heard) s: \(before) s before the pause (at \(pausedAt) s), \(after) s after it; runs \(runs), dropouts \(dropouts)")
        // After the pause, the rest of the 400 Hz step, then 500 Hz.
        let silence = try #require(lastSilenceStart(samples), "no pause heard")
        let resumedAt = try #require(onset(samples, from: silence))
        let resumed = try #require(firstFrequency(Array(samples[(2 * resumedAt)...]), skip: 0.01, seconds: 0.2))
        #expect(abs(resumed - 400) < 5, "resumed at \(resumed) Hz, paused in the 400 Hz step")
        print("\(kind): a source paused over a rest: heard \(heard) s of 3, dropouts inside \(dropouts)")
    }

    /// With `module-suspend-on-idle`, PulseAudio suspends the sink once the output rests (and a
    /// never-resting output, timeout 0, keeps it awake); on PipeWire the sink's node leaves
    /// RUNNING. A sound wakes it.
    @Test(arguments: installedServers)
    func theSinkSuspendsWhileTheOutputRests(_ kind: AudioServerFixture.Kind) throws {
        let fixture = try AudioServerFixture(kind)
        if kind == .pulseaudio { _ = try fixture.pactl(["load-module", "module-suspend-on-idle", "timeout=1"]) }
        for idleTimeout in [0, 0.3] {
            let device = try desktopDevice(on: fixture, idleTimeout: idleTimeout)
            let scene = try device.makeScene()
            let source = try toneSource(scene, device, Signals.sine(440, seconds: 0.2))
            try source.play()
            #expect(waitFor(5) { sinkState(fixture, "A") == "RUNNING" }, "\(sinkState(fixture, "A") ?? "?")")
            let rested = waitFor(8) { sinkState(fixture, "A") != "RUNNING" }
            let state = sinkState(fixture, "A") ?? "?"
            if idleTimeout == 0 {
                #expect(!rested, "a never-resting output let the sink go \(state)")
            } else {
                #expect(rested && device.outputStatus.resting, "sink A is \(state) while the output rests: \(device.outputStatus.resting)")
                if kind == .pulseaudio { #expect(waitFor(5) { sinkState(fixture, "A") == "SUSPENDED" }) }
                print("\(kind): output resting, sink A \(sinkState(fixture, "A") ?? "?")")
                try source.play()
                #expect(waitFor(5) { sinkState(fixture, "A") == "RUNNING" }, "\(sinkState(fixture, "A") ?? "?")")
            }
            device.close()
        }
    }
}

/// A sink's state as `pactl list short sinks` gives it (RUNNING, IDLE, SUSPENDED).
func sinkState(_ fixture: AudioServerFixture, _ name: String) -> String? {
    guard let sinks = try? fixture.pactl(["list", "short", "sinks"]) else { return nil }
    return sinks.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        .first { $0.count > 4 && $0[1] == name }?.last
}

/// The first frame of the last stretch of at least 0.1 s of silence inside the sound, if any.
func lastSilenceStart(_ samples: [Float]) -> Int? {
    guard let span = soundingSpan(samples) else { return nil }
    var start: Int?, quiet = 0, found: Int?
    for frame in span.first...span.last {
        if abs(samples[2 * frame]) <= 0.01 && abs(samples[2 * frame + 1]) <= 0.01 {
            if quiet == 0 { start = frame }
            quiet += 1
            if quiet == 4_800 { found = start }
        } else {
            quiet = 0
        }
    }
    return found
}

/// The sounding frames of each sound in interleaved stereo `samples`, where segments less than
/// `gapBelow` frames apart are one sound (a cycle the sink missed inside it).
func toneLengths(_ samples: [Float], gapBelow: Int) -> [Int] {
    var tones: [Int] = [], lastEnd: Int?, start: Int?, quiet = 0
    for frame in 0..<(samples.count / 2) {
        if abs(samples[2 * frame]) > 0.001 {
            if start == nil {
                start = frame
                if !(lastEnd.map { frame - $0 < gapBelow } ?? false) { tones.append(0) }
            }
            quiet = 0
        } else if let first = start {
            quiet += 1
            if quiet == 100 { tones[tones.count - 1] += frame - 99 - first; lastEnd = frame - 99; start = nil }
        }
    }
    if let first = start { tones[tones.count - 1] += samples.count / 2 - quiet - first }
    return tones
}

/// The first frame of interleaved stereo `samples` from `start` on where either channel passes 0.01.
func onset(_ samples: [Float], from start: Int) -> Int? {
    stride(from: 2 * start, to: samples.count, by: 1).first { abs(samples[$0]) > 0.01 }.map { $0 / 2 }
}

/// Whether the first sink input `pactl list sink-inputs` lists is corked (nil when none).
func corked(_ sinkInputs: String?) -> Bool? {
    guard let line = sinkInputs?.split(separator: "\n").first(where: { $0.contains("Corked:") }) else { return nil }
    return line.contains("yes")
}

