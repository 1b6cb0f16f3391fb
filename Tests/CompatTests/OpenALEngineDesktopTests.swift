import Foundation
import SoundFile
import Testing
import TestSupport

extension CProgramsOnTheDesktop {
    /// Tests/C/openal_engine.c, and its Swift twin `compat-openal-engine` (`import OpenAL`), an
    /// OpenAL engine in the SoundEngine's style (the mixer rate set
    /// through `alcMacOSXMixerOutputRate`, an effect in a static buffer, music streamed through a
    /// buffer queue, an Audio Session interruption listener on the main run loop), on a real
    /// PulseAudio server the test starts: OpenAL Soft plays through its PulseAudio backend on that
    /// server, a `phone` stream starts, module-role-cork corks the app's stream and the app is
    /// interrupted. The listener makes no context current, SoundstageCompat pauses the program's
    /// own OpenAL device meanwhile (as iOS silences it), and when the call ends the listener makes
    /// its context current again: both sounds are heard before the call, neither during it, both
    /// after. PulseAudio only: PipeWire 0.3.65 has no module-role-cork. Run in the `programs` pass;
    /// skipped under ThreadSanitizer as ``AudioQueuePlayerDesktopTests`` is.
    @Suite(.serialized) struct OpenALEngineDesktopTests {
        @Test(.enabled(if: AudioServerFixture.Kind.pulseaudio.isInstalled && !runningUnderSanitizer), arguments: ["C", "Swift"])
        func theEnginesMusicAndEffectStopForACallAndGoOn(_ language: String) throws {
            let work = FileManager.default.temporaryDirectory.appendingPathComponent("openal-engine-\(UUID())")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: work) }
            let program = language == "C" ? try AudioQueuePlayerDesktopTests.compile("openal_engine", in: work)
                                          : CompatPrograms.CompatDesktopTests.binaries + "/compat-openal-engine"

            let fixture = try AudioServerFixture(.pulseaudio)
            try fixture.pactl(["load-module", "module-role-cork", "trigger_roles=phone", "cork_roles=game"])
            let phone = work.appendingPathComponent("phone.wav").path
            // 3 kHz at 0.15: far enough above the game's tones that its leakage into their 25 ms windows
            // is under 0.001 (1.5 kHz at 0.3 read as 0.007 at 880 Hz).
            try SoundFileWriter.write(Signals.sine(3_000, seconds: 1, amplitude: 0.15), to: phone, format: .wavFloat32)
            let recording = try fixture.record(sink: "A")
            let output = ChildOutput(in: work.path), stop = work.appendingPathComponent("stop").path
            var environment = fixture.environment
            environment["ALSOFT_DRIVERS"] = "pulse"     // the server the test started, not a sound card
            environment["ALSOFT_LOGLEVEL"] = "0"
            let engine = try ChildProcess(program, [stop], environment: environment,
                                      stdout: output.outputDescriptor, stderr: output.errorDescriptor)
            defer { _ = FileManager.default.createFile(atPath: stop, contents: nil); engine.wait() }
            let lines = output.lines

            #expect(waitFor(20) { recording.secondsHeard() >= 1 }, "the engine reaches the sink: \(lines())")
            let call = try fixture.spawn("paplay", ["--property=media.role=phone", phone])
            #expect(waitFor(10) { lines().contains("began") }, "\(lines())")
            call.wait()
            #expect(waitFor(10) { lines().contains("ended") }, "\(lines())")
            let endedAt = recording.frameCount
            #expect(waitFor(10) { recording.frameCount >= endedAt + 48_000 })
            _ = FileManager.default.createFile(atPath: stop, contents: nil)
            #expect(engine.wait() == 0, "\(lines())")
            #expect(lines() == ["mixer rate 44100", "playing", "began", "ended", "done"], "\(lines())")
            let left = CompatPrograms.CompatDesktopTests.left(recording.stop())

            // 25 ms windows: where the phone (3 kHz) sounds, and how loud the music (440 Hz,
            // streamed) and the effect (880 Hz, a static buffer) are.
            let window = 1_200, windows = left.count / window
            func levels(_ frequency: Double) -> [Double] {
                (0..<windows).map { Signals.toneLevel(left[($0 * window)..<(($0 + 1) * window)], frequency: frequency) }
            }
            let phoneLevel = levels(3_000), music = levels(440), effect = levels(880)
            let phoneStart = try #require(phoneLevel.firstIndex { $0 > 0.05 }, "the phone is heard")
            let phoneEnd = try #require(phoneLevel.lastIndex { $0 > 0.05 })
            try #require(phoneStart >= 20 && phoneEnd + 32 <= windows, "the phone at windows \(phoneStart)-\(phoneEnd) of \(windows)")
            let before = (phoneStart - 20)..<(phoneStart - 2), during = (phoneStart + 4)..<(phoneEnd - 4)
            let after = (phoneEnd + 12)..<(phoneEnd + 32)
            #expect(music[before].allSatisfy { $0 > 0.1 } && effect[before].allSatisfy { $0 > 0.04 },
                    "before the call: music \(Array(music[before])), effect \(Array(effect[before]))")
            #expect(during.count > 20 && music[during].allSatisfy { $0 < 0.01 } && effect[during].allSatisfy { $0 < 0.01 },
                    "during the call: music \(Array(music[during])), effect \(Array(effect[during]))")
            #expect(music[after].allSatisfy { $0 > 0.1 } && effect[after].allSatisfy { $0 > 0.04 },
                    "after the call: music \(Array(music[after])), effect \(Array(effect[after]))")
            let mean = { (levels: ArraySlice<Double>) in levels.reduce(0, +) / Double(levels.count) }
            print(String(format: "openal_engine (%@): music %.3f and effect %.3f before the call, at most %.4f during it, %.3f and %.3f after",
                         language, mean(music[before]), mean(effect[before]), max(music[during].max() ?? 0, effect[during].max() ?? 0),
                         mean(music[after]), mean(effect[after])))
        }
    }
}
