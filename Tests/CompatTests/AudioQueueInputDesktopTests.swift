import AudioToolbox
import Foundation
import Soundstage
@testable import SoundstageCompat
import Testing
import TestSupport

extension CompatPrograms {
    /// Input queues on real PulseAudio and PipeWire servers the test starts, recording the
    /// server's default input, made sink A's monitor: what an output queue plays on the app's
    /// device comes back through the server, at its frequency and level, whole, and when it was
    /// played. Run in the `programs` pass of scripts/test.sh.
    @Suite(.serialized) struct AudioQueueInputDesktopTests {
        typealias Recorder = AudioQueueDeviceTests.Recorder
        typealias TonePlayer = AudioQueueDeviceTests.TonePlayer

        /// An input queue started, then 0.3 s later an output queue's 0.6 s tone: the recording
        /// begins within 0.1 s of the start and runs to the stop, in buffers that follow one
        /// another; it holds 0.6 s of the tone at 440 Hz and its level; and the buffers' host
        /// times date the tone where parec, recording the same monitor, heard it. CurrentDevice and
        /// NumberChannels name the server's sink, its default input and the monitor's channels.
        /// First a click, heard at the monitor: PulseAudio's null sink renders 2 s blocks until a
        /// stream asks for less and takes the lower latency only at its next block (a real sound
        /// card does not), so a monitor recorded at once gave nothing for its first ~0.3-1.9 s.
        @Test(arguments: CompatDesktopTests.servers)
        func anInputQueueRecordsTheDesktopsInput(_ kind: AudioServerFixture.Kind) throws {
            let fixture = try AudioServerFixture(kind)
            _ = try fixture.pactl(["set-default-source", "A.monitor"])
            let monitor = try fixture.record(sink: "A")
            let device = try CompatDesktopTests.device(on: fixture)
            defer { device.close() }
            try CompatOutput.use(device: device)
            let session = try CompatOutput.session()
            session.setCategory(.playAndRecord)
            defer { session.setCategory(.soloAmbient) }
            let click = TonePlayer(frequency: 1_000, seconds: 0.05)
            let clickQueue = try click.makeQueue()
            defer { AudioQueueDispose(clickQueue, true) }
            #expect(AudioQueueStart(clickQueue, nil) == noErr)
            #expect(waitFor(5) { monitor.secondsHeard() > 0.03 }, "the click reached the sink")
            usleep(200_000)
            let clickFrames = monitor.frameCount

            let recorder = Recorder()
            let input = try recorder.makeQueue(AudioQueueDeviceTests.pcm16Mono, bufferBytes: 4_410)   // 50 ms
            defer { AudioQueueDispose(input, true) }
            let player = TonePlayer(seconds: 0.6)
            let output = try player.makeQueue()
            defer { AudioQueueDispose(output, true) }
            let started = MonitorRecording.now()
            #expect(AudioQueueStart(input, nil) == noErr)
            usleep(300_000)
            let played = MonitorRecording.now()
            #expect(AudioQueueStart(output, nil) == noErr)
            #expect(waitFor(5) { player.lock.withLock { player.ended } })
            // On the desktop the device properties answer the server's: the sink the output plays
            // on, the default input, the monitor's two channels once the input captures.
            var uid: CFString? = nil
            var size = UInt32(MemoryLayout<CFString?>.size)
            #expect(AudioQueueGetProperty(output, kAudioQueueProperty_CurrentDevice, &uid, &size) == noErr && uid == "desktop:A", "\(uid ?? "nil")")
            #expect(AudioQueueGetProperty(input, kAudioQueueProperty_CurrentDevice, &uid, &size) == noErr && uid == "desktop-input:default")
            var channels: UInt32 = 0
            size = 4
            #expect(AudioQueueGetProperty(input, kAudioQueueDeviceProperty_NumberChannels, &channels, &size) == noErr && channels == 2)
            usleep(500_000)
            #expect(AudioQueueStop(input, true) == noErr)
            let stopped = MonitorRecording.now()
            let atSink = try #require(monitor.firstFrame(above: 0.05, from: clickFrames).flatMap { monitor.time(ofFrame: $0) },
                                      "the tone was not heard at the sink")
            monitor.stop()
            let (bytes, times, hostTimes, filled) = recorder.lock.withLock { (recorder.bytes, recorder.times, recorder.hostTimes, recorder.filled) }
            let samples = stride(from: 0, to: bytes.count - 1, by: 2).map {
                Float(Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)) / 32_768
            }
            let recorded = Double(samples.count) / 44_100
            let onset = try #require(AudioQueueDeviceTests.onset(samples, threshold: 0.05), "the tone was not recorded: \(recorded) s")
            let at = Double(onset) / 44_100
            // The host time of the buffer holding the onset, moved to the onset's frame.
            let buffer = try #require(hostTimes.last { $0.sample <= Double(onset) })
            let dated = Double(buffer.host) / 1e9 + (Double(onset) - buffer.sample) / 44_100
            print("\(kind): an input queue recorded \(recorded) s in \(filled) buffers over \(stopped - started) s; the tone at "
                  + "\(at) s (played \(played - started) s in); dated \((dated - atSink) * 1_000) ms from where the sink played it")
            #expect(abs(recorded - (stopped - started)) < 0.12, "recorded \(recorded) s of \(stopped - started) s")
            let full = times.dropLast(3)
            #expect(zip(full, full.dropFirst()).allSatisfy { $1 - $0 == 2_205 }, "\(times)")
            // The recording begins with the first frames the server gives after the start.
            let first = Double(try #require(hostTimes.first).host) / 1e9 - started
            #expect(first > -0.02 && first < 0.1, "the first buffer's first frame came \(first) s after the start")
            #expect(abs(dated - atSink) < 0.03, "the buffer's host time dates the tone \(dated - atSink) s from where the sink played it")
            // Frequency and level as medians over 50 ms windows: a cycle the server missed under
            // load (PipeWire beside builds) must not pass for a wrong pitch.
            let tone = Array(samples[(onset + 2_000)..<min(samples.count, onset + 22_000)])
            let windows = stride(from: 0, to: tone.count - 2_205 + 1, by: 2_205).map { Array(tone[$0..<($0 + 2_205)]) }
            func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
            try #require(!windows.isEmpty, "the tone is too short: \(tone.count) frames")
            let frequency = median(windows.map { Signals.frequency($0, rate: 44_100) })
            let level = median(windows.map { Signals.rms($0) })
            #expect(abs(frequency - 440) < 2, "\(frequency) Hz")
            #expect(abs(level - 0.5 / 2.squareRoot()) < 0.03, "\(level)")
            let heard = Double(Signals.soundingFrames(samples.flatMap { [$0, $0] })) / 44_100
            #expect(abs(heard - 0.6) < 0.02, "0.6 s of tone, recorded \(heard) s")
        }

        /// A paused input queue's capturing thread sleeps (its stream corked, no timer: at most a
        /// few wake-ups a second, against ~100 while it records) and no buffer comes back; a start
        /// after the pause records again.
        @Test(arguments: CompatDesktopTests.servers)
        func aPausedInputQueueSleeps(_ kind: AudioServerFixture.Kind) throws {
            let fixture = try AudioServerFixture(kind)
            let device = try CompatDesktopTests.device(on: fixture)
            defer { device.close() }
            try CompatOutput.use(device: device)
            let session = try CompatOutput.session()
            session.setCategory(.record)
            defer { session.setCategory(.soloAmbient) }
            let recorder = Recorder()
            let input = try recorder.makeQueue(AudioQueueDeviceTests.pcm16Mono, bufferBytes: 4_410)
            defer { AudioQueueDispose(input, true) }
            let before = ThreadActivity.threadIDs(named: "ss-input")
            #expect(AudioQueueStart(input, nil) == noErr)
            var id: Int32?
            // The new thread names itself as it starts.
            #expect(waitFor(5) { id = ThreadActivity.threadIDs(named: "ss-input").subtracting(before).first; return id != nil })
            let thread = try #require(id.flatMap { ThreadActivity(thread: $0) }, "no capturing thread")
            #expect(waitFor(5) { recorder.lock.withLock { recorder.filled } >= 3 }, "the queue records")
            #expect(AudioQueuePause(input) == noErr)
            usleep(200_000)
            let (filled, sample) = (recorder.lock.withLock { recorder.filled }, thread.sample())
            usleep(1_000_000)
            let after = thread.sample()
            #expect(after.switches - sample.switches <= 3, "the paused queue's thread woke \(after.switches - sample.switches) times in 1 s")
            #expect(recorder.lock.withLock { recorder.filled } == filled, "buffers came back while paused")
            #expect(AudioQueueStart(input, nil) == noErr)
            #expect(waitFor(5) { recorder.lock.withLock { recorder.filled } >= filled + 3 }, "the queue records again")
            print("\(kind): a paused input queue's thread woke \(after.switches - sample.switches) times in 1 s")
        }
    }
}
