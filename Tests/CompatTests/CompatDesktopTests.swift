import Foundation
import Soundstage
@testable import SoundstageCompat
import Testing
import TestSupport

extension CompatPrograms {
    /// The iOS-style programs on a real PulseAudio/PipeWire server the test starts: what they do is
    /// recorded at the sink's monitor and checked there. Run in the desktop pass of scripts/test.sh.
    @Suite(.serialized) struct CompatDesktopTests {
        static let servers = AudioServerFixture.Kind.allCases.filter { $0.isInstalled && !(runningUnderSanitizer && $0 == .pipewire) }

        static func device(on fixture: AudioServerFixture) throws -> Device {
            try Device.openDesktop(DesktopOutputOptions(applicationName: "soundstage-compat-tests", applicationID: "org.soundstage.tests",
                                                        role: .game, latency: 0.020, server: fixture.server))
        }

        static func file(_ audio: SoundBuffer, _ name: String) throws -> URL {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("compat-\(UUID())-\(name)")
            try SoundFileWriter.write(audio, to: url.path, format: .wavPCM16)
            return url
        }

        /// The ambient game's looping music and a UI click are heard on the sink; when the sink is
        /// pulled (the headphones go), the route-change handler pauses the music, as on iOS.
        @Test(arguments: servers)
        func theGameIsHeardAndPausesWhenItsOutputGoes(_ kind: AudioServerFixture.Kind) throws {
            let fixture = try AudioServerFixture(kind)
            let onA = try fixture.record(sink: "A"), onB = try fixture.record(sink: "B")
            let device = try Self.device(on: fixture)
            try CompatOutput.use(device: device)
            let music = try Self.file(Signals.sine(440, seconds: 0.5, amplitude: 0.5), "music.wav")
            let click = try Self.file(Signals.sine(1_000, seconds: 0.1, amplitude: 0.5), "click.wav")
            defer { [music, click].forEach { try? FileManager.default.removeItem(at: $0) } }

            let game = GameMusic()
            try game.start(musicURL: music)
            let watcher = HeadphoneWatcher(music: try #require(game.player))
            let clicks = ClickSounds()
            #expect(clicks.load(click) == kAudioServicesNoError)
            #expect(waitFor(20) { onA.secondsHeard() >= 1.2 }, "the music reaches the sink")
            clicks.click()
            #expect(waitFor(20) { onA.secondsHeard() >= 2.0 })
            try fixture.unloadSink("A")
            #expect(waitFor(10) { watcher.pausedForRoute == 1 }, "\(watcher.reasons)")
            #expect(game.player?.isPlaying == false)
            usleep(600_000)
            let a = onA.stop(), b = onB.stop()
            game.player?.stop()
            device.close()

            // On A: the looping music (440 Hz, past its 0.5 s file) and, over it, the click.
            let left = Self.left(a)
            let heardMusic = Double(Signals.soundingFrames(a)) / 48_000
            #expect(heardMusic > 1.5, "A heard \(heardMusic) s of the looping music")
            let first = try #require(left.firstIndex { abs($0) > 0.02 })
            // The median of eight windows: a loaded machine's dropout in one does not move it.
            #expect(abs(Signals.medianFrequency(Array(left[(first + 2_400)..<(first + 21_600)])) - 440) < 2)
            let peak = left.map(abs).max() ?? 0
            #expect(peak > 0.3, "the click adds to the music: peak \(peak)")
            // On B, after the move: the pause — less than the 0.6 s waited, whatever reached it first.
            let afterMove = Double(Signals.soundingFrames(b)) / 48_000
            #expect(afterMove < 0.3, "B heard \(afterMove) s: the music should have paused")
            // Told once, as iOS tells a pulled headset (the engine's following newDeviceAvailable is folded).
            #expect(watcher.reasons == [.oldDeviceUnavailable], "\(watcher.reasons)")
            print("compat on \(kind): A heard \(String(format: "%.2f", heardMusic)) s, B \(String(format: "%.3f", afterMove)) s after the pull")
        }

        /// `outputVolume` is the volume the user gives the app's stream on the desktop (here with
        /// pactl, as pavucontrol does), and 0 while the stream is muted.
        @Test(arguments: servers)
        func outputVolumeIsTheUsersVolume(_ kind: AudioServerFixture.Kind) throws {
            let fixture = try AudioServerFixture(kind)
            let device = try Self.device(on: fixture)
            try CompatOutput.use(device: device)
            defer { device.close() }
            let session = AVAudioSession.sharedInstance()
            #expect(session.outputVolume == 1)
            #expect(waitFor(5) { device.mixTime > 0.1 })
            let inputs = try fixture.pactl(["list", "short", "sink-inputs"])
            let index = try #require(inputs.split(separator: "\n").first?.split(separator: "\t").first.map(String.init), "\(inputs)")
            try fixture.pactl(["set-sink-input-volume", index, "50%"])
            #expect(waitFor(5) { abs(session.outputVolume - 0.125) < 0.01 }, "\(session.outputVolume)")
            try fixture.pactl(["set-sink-input-mute", index, "1"])
            #expect(waitFor(5) { session.outputVolume == 0 }, "\(session.outputVolume)")
        }

        /// The OpenAL game (OpenALGame/main.swift) on a real PulseAudio server: a `phone` stream
        /// starts, module-role-cork asks the app's stream to pause, and the app is interrupted. Its
        /// listener makes no context current, as on iOS, and SoundstageCompat silences the game's
        /// own OpenAL device meanwhile, as iOS does. When the call ends, the listener reactivates,
        /// makes its context current, and the tone goes on. PulseAudio only: PipeWire 0.3.65 has no
        /// module-role-cork.
        @Test(.enabled(if: AudioServerFixture.Kind.pulseaudio.isInstalled))
        func theOpenALGamesInterruptionListenerPausesAndResumesOpenAL() throws {
            let fixture = try AudioServerFixture(.pulseaudio)
            try fixture.pactl(["load-module", "module-role-cork", "trigger_roles=phone", "cork_roles=game"])
            let phone = "\(fixture.directory)/phone.wav"
            try SoundFileWriter.write(Signals.sine(1_500, seconds: 1, amplitude: 0.3), to: phone, format: .wavFloat32)
            let recording = try fixture.record(sink: "A")
            let output = ChildOutput(in: fixture.directory, name: "game"), stop = "\(fixture.directory)/game.stop"
            var environment = fixture.environment
            environment["ALSOFT_DRIVERS"] = "pulse"     // the server the test started, not a sound card
            let game = try ChildProcess(Self.binaries + "/compat-openal-game", [stop], environment: environment,
                                        stdout: output.outputDescriptor, stderr: output.errorDescriptor)
            defer { _ = FileManager.default.createFile(atPath: stop, contents: nil); game.wait() }
            let lines = output.lines

            #expect(waitFor(20) { recording.secondsHeard() >= 1 }, "the game's tone reaches the sink: \(lines())")
            let call = try fixture.spawn("paplay", ["--property=media.role=phone", phone])
            #expect(waitFor(10) { lines().contains("began") }, "\(lines())")
            call.wait()
            #expect(waitFor(10) { lines().contains("ended") }, "\(lines())")
            let endedAt = recording.frameCount
            #expect(waitFor(10) { recording.frameCount >= endedAt + 48_000 })
            _ = FileManager.default.createFile(atPath: stop, contents: nil)
            #expect(game.wait() == 0, "\(lines())")
            #expect(lines().filter { !$0.hasPrefix("stderr:") } == ["playing", "began", "ended", "done"], "\(lines())")
            let left = Self.left(recording.stop())

            // 25 ms windows: where the phone (1500 Hz) sounds, and how loud the game's 440 Hz is.
            let window = 1_200
            let windows = left.count / window
            let phoneLevel = (0..<windows).map { Signals.toneLevel(left[($0 * window)..<(($0 + 1) * window)], frequency: 1_500) }
            let gameLevel = (0..<windows).map { Signals.toneLevel(left[($0 * window)..<(($0 + 1) * window)], frequency: 440) }
            let phoneStart = try #require(phoneLevel.firstIndex { $0 > 0.05 }, "the phone is heard")
            let phoneEnd = try #require(phoneLevel.lastIndex { $0 > 0.05 })
            let before = gameLevel[max(0, phoneStart - 20)..<max(0, phoneStart - 2)]
            let during = gameLevel[(phoneStart + 4)..<(phoneEnd - 4)]
            let after = gameLevel[min(windows, phoneEnd + 12)..<min(windows, phoneEnd + 32)]
            #expect(before.count == 18 && before.allSatisfy { $0 > 0.1 }, "the game before the call: \(Array(before))")
            #expect(during.count > 20 && during.allSatisfy { $0 < 0.01 }, "the game during the call: \(Array(during))")
            #expect(after.count == 20 && after.allSatisfy { $0 > 0.1 }, "the game after the call: \(Array(after))")
            print("OpenAL game: \(String(format: "%.3f", before.reduce(0, +) / Double(before.count))) before the call, "
                  + "\(String(format: "%.4f", during.max() ?? 0)) at most during it, \(String(format: "%.3f", after.reduce(0, +) / Double(after.count))) after")
        }

        /// The directory of the built programs: `.build/<configuration>/`, above the test bundle.
        static let binaries: String = {
            var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("compat-openal-game").path) && dir.path != "/" {
                dir.deleteLastPathComponent()
            }
            return dir.path
        }()

        static func left(_ interleaved: [Float]) -> [Float] { stride(from: 0, to: interleaved.count, by: 2).map { interleaved[$0] } }

        /// Has the voice memo program record 1.5 s of `settings` to a `.ext` file from the default
        /// input (here the monitor of the sink the game plays on) while the game's music, a
        /// `frequency` Hz tone, plays; returns the file and its first channel from where the music starts.
        static func recordMemo(on kind: AudioServerFixture.Kind, settings: [String: Any], ext: String,
                               frequency: Double) throws -> (file: SoundFile, duration: Double, heard: [Float]) {
            let fixture = try AudioServerFixture(kind)
            _ = try fixture.pactl(["set-default-source", "A.monitor"])
            let device = try Self.device(on: fixture)
            try CompatOutput.use(device: device)
            let musicURL = try Self.file(Signals.sine(frequency, seconds: 3, amplitude: 0.5), "music.wav")
            let memoURL = FileManager.default.temporaryDirectory.appendingPathComponent("memo-\(UUID()).\(ext)")
            defer { [musicURL, memoURL].forEach { try? FileManager.default.removeItem(at: $0) } }

            let memo = VoiceMemo()
            #expect(try memo.record(to: memoURL, seconds: 1.5, settings: settings), "\(String(describing: memo.recorder?.lastError))")
            let music = try AVAudioPlayer(contentsOf: musicURL)
            #expect(music.play())
            #expect(memo.waitForEnd(15) == true)
            music.stop()
            device.close()

            let file = try SoundFile(path: memoURL.path)
            let audio = try file.readAll()
            let first = try #require(audio.channel(0).firstIndex { abs($0) > 0.05 }, "the music is in the memo")
            return (file, audio.duration, Array(audio.channel(0)[first...]))
        }

        /// The voice memo program records AAC while the game's music plays: the file holds the music.
        @Test(.enabled(if: FFmpeg.isAvailable), arguments: servers)
        func theVoiceMemoRecordsAAC(_ kind: AudioServerFixture.Kind) throws {
            let memo = try Self.recordMemo(on: kind, settings: VoiceMemo.aac, ext: "m4a", frequency: 660)
            #expect(memo.file.format.container == .mp4 && memo.file.format.encoding == .aac)
            #expect(memo.file.format.sampleRate == 44_100 && memo.file.format.channels == 2)
            #expect(abs((memo.file.codecDetails?.bitRate ?? 0) - 192_000) < 50_000)
            #expect(abs(memo.duration - 1.5) < 0.05, "\(memo.duration) s")
            let heard = Array(memo.heard[2_205..<min(memo.heard.count, 22_050)])
            // The median over 8 windows: one dropout of the recording on a loaded machine spoils
            // only its windows (over the whole span, PipeWire under `stress-ng --cpu 2` read
            // 612 Hz once); a wrong tone fails every window.
            let pitch = Signals.medianFrequency(heard, rate: 44_100)
            #expect(abs(pitch - 660) < 3, "\(pitch) Hz recorded")
        }

        /// The voice memo program records iLBC (`kAudioFormatiLBC`, as voice-chat apps do) while
        /// the game's music plays: a CAF file of 8 kHz mono iLBC that holds the music, read back
        /// through FFmpeg's iLBC decoder.
        @Test(.enabled(if: FFmpeg.hasDecoder(named: "ilbc"), "needs FFmpeg's iLBC decoder"), arguments: servers)
        func theVoiceMemoRecordsILBC(_ kind: AudioServerFixture.Kind) throws {
            let memo = try Self.recordMemo(on: kind, settings: VoiceMemo.iLBC, ext: "caf", frequency: 330)
            #expect(memo.file.format.container == .caf && memo.file.format.encoding == .ilbc)
            #expect(memo.file.format.sampleRate == 8_000 && memo.file.format.channels == 1)
            #expect(abs(memo.duration - 1.5) < 0.05, "\(memo.duration) s")
            let heard = Array(memo.heard[400..<min(memo.heard.count, 4_000)])
            let pitch = Signals.medianFrequency(heard, rate: 8_000)
            #expect(abs(pitch / 330 - 1) < 0.02, "\(pitch) Hz recorded")
        }
    }
}
