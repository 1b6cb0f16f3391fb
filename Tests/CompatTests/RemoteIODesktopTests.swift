import Foundation
import SoundFile
import Testing
import TestSupport

extension CProgramsOnTheDesktop {
    /// Tests/C/remote_io_sine.c, a sine generator on the RemoteIO unit's render callback (and on
    /// macOS's DefaultOutput, as the Core Audio books' command-line sine writes it), heard on real
    /// PulseAudio and PipeWire servers the test starts: compiled as C99 against the debug build's
    /// libSoundstageC.so, run as a child process whose `PULSE_SERVER` is the test's server. Sink
    /// A's monitor is recorded; the tone is checked at the sink: its onset after the first render
    /// callback, its length (the program's run, nothing lost), frequency, level and side (the
    /// client format is 16-bit stereo at 44.1 kHz: the unit converts it to the device's 48 kHz).
    /// Skipped under ThreadSanitizer, as the other C programs are (the child would load the
    /// sanitized library without the sanitizer's runtime).
    @Suite(.serialized) struct RemoteIODesktopTests {
        static let servers = CompatPrograms.CompatDesktopTests.servers

        /// The times the program printed (CLOCK_MONOTONIC, as the recorder's clock).
        static func times(in output: String) -> (started: Double, firstCallback: Double, stopped: Double)? {
            for line in output.split(separator: "\n") where line.hasPrefix("  tone: started at ") {
                let words = line.split(separator: " ").map { String($0.trimmingCharacters(in: CharacterSet(charactersIn: ","))) }
                let values = words.indices.filter { words[$0] == "at" && $0 + 1 < words.count }.compactMap { Double(words[$0 + 1]) }
                guard values.count == 3 else { return nil }
                return (values[0], values[1], values[2])
            }
            return nil
        }

        @Test(.enabled(if: !runningUnderSanitizer),
              arguments: servers.flatMap { kind in [(kind, ["--pan", "1"]), (kind, ["--default-output", "--pan", "-1"])] })
        func theRenderCallbackIsHeardAtTheSink(_ kind: AudioServerFixture.Kind, _ arguments: [String]) throws {
            let work = FileManager.default.temporaryDirectory.appendingPathComponent("remote-io-sine-\(UUID())")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: work) }
            let program = try AudioQueuePlayerDesktopTests.compile("remote_io_sine", in: work)

            let fixture = try AudioServerFixture(kind)
            let recording = try fixture.record(sink: "A")
            var environment = fixture.environment
            environment["ALSOFT_LOGLEVEL"] = "0"
            let (status, output) = try ChildProcess.run(program, ["--frequency", "440", "--seconds", "2"] + arguments,
                                                        environment: environment)
            usleep(200_000)
            let samples = recording.stop()
            #expect(status == 0, "\(output)")
            #expect(output.contains(" passed, 0 failed"), "\(output)")

            let right = arguments.contains("1")
            let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
            let rightSide = stride(from: 1, to: samples.count, by: 2).map { samples[$0] }
            let (heard, quiet) = right ? (rightSide, left) : (left, rightSide)
            let sounds = Signals.separateSounds(samples, gap: 0.2, threshold: 0.02)
            try #require(sounds.count == 1, "\(sounds.count) sounds at the sink: \(output)")
            let (first, last) = sounds[0]
            let times = try #require(Self.times(in: output), "no times printed: \(output)")
            // What the unit rendered from its first callback to its stop: nothing lost on the way.
            let length = Double(Signals.soundingFrames(Array(samples[(2 * first)..<(2 * last + 2)]))) / 48_000
            let ran = times.stopped - times.firstCallback
            #expect(abs(length - ran) < 0.06, "\(length) s heard, \(ran) s from the first callback to the stop: \(output)")
            let middle = Array(heard[(first + 4_800)..<(last - 4_800)])
            let pitch = Signals.medianFrequency(middle, windows: 24)
            #expect(abs(pitch - 440) < 2, "\(pitch) Hz")
            let level = Signals.toneLevel(middle, frequency: 440)
            #expect(abs(level - 0.5) < 0.02, "level \(level)")
            let other = Signals.toneLevel(Array(quiet[(first + 4_800)..<(last - 4_800)]), frequency: 440)
            #expect(other < 0.01, "the other side: \(other)")
            // Heard soon after the first callback made it: the output's 20 ms target and the
            // recorder's fragments.
            let onsetAt = try #require(recording.time(ofFrame: first), "the onset was not dated")
            let onset = onsetAt - times.firstCallback
            #expect(onset > -0.005 && onset < 0.1, "heard \(onset) s after the first callback")
            print(String(format: "remote_io_sine %@ on %@: onset %.1f ms after the first callback (first callback %.1f ms after the start), %.3f s of %.3f s, %.2f Hz, level %.3f",
                         arguments.joined(separator: " "), "\(kind)", onset * 1000, (times.firstCallback - times.started) * 1000,
                         length, ran, pitch, level))
        }

        /// The unit under aurioTouch's session through a phone call (PulseAudio: a `paplay` with
        /// the phone role on sink B, which module-role-cork makes the server's cork request to the
        /// game): iOS's rules, as the program sees them and as sink A hears them. The interruption
        /// stops the unit (IsRunning 0) before the program's listener hears it began; at its end
        /// the listener starts the unit again (IsRunning 1); A hears the tone, a silence for the
        /// call, then the tone again.
        @Test(.enabled(if: !runningUnderSanitizer))
        func aCallStopsTheUnitAndItsEndLetsTheProgramStartItAgain() throws {
            let work = FileManager.default.temporaryDirectory.appendingPathComponent("remote-io-session-\(UUID())")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: work) }
            let program = try AudioQueuePlayerDesktopTests.compile("remote_io_sine", in: work)
            let fixture = try AudioServerFixture(.pulseaudio)
            try fixture.pactl(["load-module", "module-role-cork", "trigger_roles=phone", "cork_roles=game", "global=true"])
            let phone = work.appendingPathComponent("phone.wav").path
            try SoundFileWriter.write(Signals.sine(1_500, seconds: 1, amplitude: 0.3), to: phone, format: .wavFloat32)
            let onA = try fixture.record(sink: "A")
            let output = ChildOutput(in: work.path)
            var environment = fixture.environment
            environment["ALSOFT_LOGLEVEL"] = "0"
            let game = try ChildProcess(program, ["--session", "--seconds", "4"], environment: environment,
                                        stdout: output.outputDescriptor, stderr: output.errorDescriptor)
            let lines = output.lines, saidAnything = output.said
            #expect(waitFor(10) { onA.secondsHeard() >= 0.5 }, "the tone reaches sink A: \(lines())")
            let call = try fixture.spawn("paplay", ["--property=media.role=phone", "--device=B", phone])
            #expect(waitFor(10) { saidAnything("interruption began") }, "\(lines())")
            call.wait()
            #expect(waitFor(10) { saidAnything("interruption ended (restarted 0)") }, "\(lines())")
            #expect(game.wait() == 0, "\(lines())")
            usleep(200_000)
            let a = onA.stop()
            let events = lines().compactMap { line -> String? in
                let event = line.components(separatedBy: " at ")[0]
                return event.hasPrefix("running") || event.hasPrefix("interruption") ? event : nil
            }
            // The listener's AudioOutputUnitStart tells IsRunning 1 before the listener says it ended.
            #expect(events == ["running 1", "running 0", "interruption began", "running 1", "interruption ended (restarted 0)", "running 0"],
                    "\(lines())")
            let sounds = Signals.separateSounds(a, gap: 0.2, threshold: 0.02)
            try #require(sounds.count == 2, "\(sounds.count) sounds on A: \(lines())")
            let silence = Double(sounds[1].0 - sounds[0].1) / 48_000
            // The server's uncork request comes once the call's stream has drained and gone: about
            // 2 s after the cork for a 1 s call (1.97 s measured).
            #expect(silence > 0.8 && silence < 2.5, "A was silent \(silence) s for the 1 s call")
            let after = Array(stride(from: 2 * sounds[1].0 + 4_800, to: 2 * sounds[1].1 - 4_800, by: 2).map { a[$0] })
            #expect(abs(Signals.medianFrequency(after, windows: 16) - 440) < 2)
            print(String(format: "remote_io_sine --session on pulseaudio: silent %.3f s for the call, then %.3f s of the tone",
                         silence, Double(sounds[1].1 - sounds[1].0) / 48_000))
        }
    }
}
