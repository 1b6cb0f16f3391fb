import Foundation
import Soundstage
@testable import CompatPrograms
@testable import SoundstageCompat
import Testing
import TestSupport

extension CompatPrograms {
    /// The programs of `Programs/` (iOS audio code in the commonest open-source styles, compiled
    /// unchanged but for the import) on real PulseAudio and PipeWire servers the test starts:
    /// what each does is recorded at the sink's monitor and checked there, tone by tone.
    ///
    /// As on iOS, where a program's own code and its delegates all run on the main thread, each
    /// test runs the program on one serial queue (`app`), which is also
    /// `CompatOutput.callbackQueue`: the programs' unsynchronised state stays on that queue, and
    /// the ThreadSanitizer pass proves it.
    @Suite(.serialized) struct ProgramsOnTheDesktopTests {
        static let servers = CompatDesktopTests.servers

        /// A server with the iOS names playing on it, sink A recorded, and a scratch directory.
        final class Stage {
            let fixture: AudioServerFixture
            let device: Device
            let onA: MonitorRecording
            let dir: URL
            /// The program's "main thread".
            let app = DispatchQueue(label: "org.soundstage.tests.app-main")

            init(_ kind: AudioServerFixture.Kind, before: (AudioServerFixture) throws -> Void = { _ in }) throws {
                CompatOutput.callbackQueue = app
                fixture = try AudioServerFixture(kind)
                try before(fixture)
                onA = try fixture.record(sink: "A")
                device = try CompatDesktopTests.device(on: fixture)
                try CompatOutput.use(device: device)
                dir = FileManager.default.temporaryDirectory.appendingPathComponent("programs-\(UUID())")
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            }

            deinit {
                app.sync {}
                CompatOutput.callbackQueue = nil
                device.close()
                try? FileManager.default.removeItem(at: dir)
            }

            /// Runs `body` on the program's queue and waits for it.
            func onMain<T>(_ body: () throws -> T) rethrows -> T { try app.sync(execute: body) }

            func file(_ audio: SoundBuffer, _ name: String) throws -> URL {
                let url = dir.appendingPathComponent(name)
                try SoundFileWriter.write(audio, to: url.path, format: .wavPCM16)
                return url
            }

            func tone(_ frequency: Double, _ seconds: Double, amplitude: Float = 0.5, _ name: String) throws -> URL {
                try file(Signals.sine(frequency, seconds: seconds, amplitude: amplitude), name)
            }

            /// Waits until A has heard `seconds` more than now (false after `timeout`).
            func hear(_ seconds: Double, timeout: Double = 10) -> Bool {
                let before = onA.secondsHeard()
                return waitFor(timeout) { onA.secondsHeard() >= before + seconds }
            }

            /// Stops recording A; returns its two channels.
            func finish() -> (left: [Float], right: [Float]) {
                let both = onA.stop()
                return (stride(from: 0, to: both.count, by: 2).map { both[$0] }, stride(from: 1, to: both.count, by: 2).map { both[$0] })
            }
        }

        /// The level of a tone of `frequency` in each 25 ms window.
        static func levels(_ samples: [Float], _ frequency: Double, from start: Int = 0, to end: Int? = nil) -> [Double] {
            let window = 1_200
            let stop = min(end ?? samples.count, samples.count)
            return stride(from: start, to: stop - window + 1, by: window).map {
                Signals.toneLevel(samples[$0..<($0 + window)], frequency: frequency)
            }
        }

        static func windowsWith(_ samples: [Float], _ frequency: Double, above: Double = 0.05, from: Int = 0, to: Int? = nil) -> Int {
            levels(samples, frequency, from: from, to: to).filter { $0 > above }.count
        }

        /// SoundManager: sounds found in the bundle and preloaded (one missing), played; muted,
        /// a sound plays silently; unmuted, it is heard; the mute is kept in UserDefaults.
        @Test(arguments: servers)
        func theSoundManagerPlaysMutesAndReplays(_ kind: AudioServerFixture.Kind) throws {
            let stage = try Stage(kind)
            _ = try stage.tone(880, 0.3, "coin.wav")
            _ = try stage.tone(660, 0.3, "jump.wav")
            let manager = SoundManager.shared
            defer { stage.onMain { manager.unloadAll() }; UserDefaults.standard.removeObject(forKey: SoundManager.mutedKey) }
            let bundle = try #require(Bundle(path: stage.dir.path))
            let loaded = stage.onMain {
                manager.bundle = bundle
                manager.isMuted = false
                manager.preloadSounds(["coin", "jump", "missing"])
                manager.playSound("coin")
                return manager.loadedSounds
            }
            #expect(loaded == ["coin", "jump"])
            #expect(stage.hear(0.25))
            stage.onMain { manager.isMuted = true }
            #expect(UserDefaults.standard.bool(forKey: SoundManager.mutedKey))
            let mutedFrom = stage.onA.frameNow
            stage.onMain { manager.playSound("jump") }
            usleep(500_000)
            let mutedTo = stage.onA.frameNow
            stage.onMain {
                manager.isMuted = false
                manager.playSound("jump")
            }
            #expect(stage.hear(0.25))
            stage.onMain { manager.playSound("coin") }
            usleep(100_000)
            stage.onMain { manager.playSound("coin") }     // rewound and replayed
            #expect(stage.hear(0.25))
            let (left, _) = stage.finish()
            #expect(Self.windowsWith(left, 660, from: mutedFrom, to: mutedTo) == 0, "the muted jump is silent")
            #expect(Self.windowsWith(left, 660, from: mutedTo) >= 8, "the jump after unmuting is heard")
            #expect(Self.windowsWith(left, 880) >= 18, "the coin, then the coin replayed: \(Self.windowsWith(left, 880))")
        }

        final class NoteListener: VoiceNoteRecorderDelegate, @unchecked Sendable {
            let lock = NSLock()
            var result: (URL?, Error?)?
            func voiceNoteRecorder(_ recorder: VoiceNoteRecorder, didFinishWith url: URL?, error: Error?) {
                lock.withLock { result = (url, error) }
            }
        }

        /// The voice-note recorder: permission granted (the server has an input), an AAC note
        /// started 0.4 s ahead on the device clock for 1 s of what sink A plays, its meters read
        /// while it records, its delegate told at the end.
        @Test(.enabled(if: FFmpeg.isAvailable), arguments: servers)
        func theVoiceNoteRecordsOnTheDeviceClock(_ kind: AudioServerFixture.Kind) throws {
            let stage = try Stage(kind) { try $0.pactl(["set-default-source", "A.monitor"]) }
            let notes = VoiceNoteRecorder()
            let listener = NoteListener()
            stage.onMain { notes.delegate = listener }
            let answered = NSLock()
            nonisolated(unsafe) var granted: Bool?
            stage.onMain { notes.requestPermission { ok in answered.withLock { granted = ok } } }
            #expect(waitFor(5) { answered.withLock { granted } != nil })
            #expect(answered.withLock { granted } == true)
            #expect(AVAudioApplication.shared.recordPermission == .granted)

            let music = try AVAudioPlayer(contentsOf: try stage.tone(523.25, 4, "music.wav"))
            #expect(music.play())
            #expect(stage.hear(0.2))
            let url = stage.dir.appendingPathComponent("note.m4a")
            let started = stage.onMain { notes.startRecording(to: url, after: 0.4, duration: 1.0) }
            #expect(started, "\(String(describing: stage.onMain { notes.audioRecorder?.lastError }))")
            usleep(200_000)
            #expect(stage.onMain { notes.audioRecorder?.isRecording } == false, "not before its time")
            #expect(waitFor(3) { stage.onMain { notes.audioRecorder?.isRecording } == true })
            let ended = waitFor(10) {
                stage.onMain { notes.updateMeter() }     // the UI's timer
                usleep(50_000)
                return listener.lock.withLock { listener.result } != nil
            }
            #expect(ended)
            music.stop()
            _ = stage.finish()
            let result = listener.lock.withLock { listener.result }
            #expect(result?.0 == url && result?.1 == nil)
            let peaks = stage.onMain { notes.peakLevels }
            #expect((peaks.max() ?? -160) > -20, "meters read while recording: \(peaks)")
            let audio = try SoundFile(path: url.path).readAll()
            #expect(abs(audio.duration - 1.0) < 0.05, "\(audio.duration) s")
            // The median over 8 windows of 100 ms: one dropout of the recorder under ThreadSanitizer
            // (374 Hz over the whole span, once in a full run here) does not decide it.
            let recorded = Signals.medianFrequency(Array(audio.channel(0)[4_410..<39_690]), rate: 44_100)
            #expect(abs(recorded - 523.25) < 3, "\(recorded) Hz recorded")
        }

        /// The call route manager: headphones (a sink the server calls so) are seen in the route;
        /// the built-in microphone is chosen among the inputs; when the headphones go, the route
        /// change says so with the headphones in the previous route, and the manager turns the
        /// speaker on (a route change `.override`); the ringback goes on where the server moved it.
        @Test(arguments: servers)
        func theCallRouteManagerFollowsTheHeadphones(_ kind: AudioServerFixture.Kind) throws {
            let stage = try Stage(kind) { fixture in
                try fixture.pactl(["load-module", "module-null-sink", "sink_name=H", "rate=48000", "channels=2",
                                   "sink_properties=device.form_factor=headphones"])
                try fixture.setDefaultSink("H")
            }
            let manager = CallAudioRouteManager()
            try stage.onMain { try manager.configureForCall() }
            defer { stage.onMain { manager.endCall() } }
            #expect(AVAudioSession.sharedInstance().mode == .voiceChat)
            #expect(AVAudioSession.sharedInstance().categoryOptions == [.defaultToSpeaker, .allowBluetooth])
            let route = AVAudioSession.sharedInstance().currentRoute
            #expect(route.outputs.map(\.uid) == ["H"] && stage.onMain { manager.isHeadphonesConnected },
                    "\(route.outputs.map { ($0.uid, $0.portType.rawValue) })")
            #expect(stage.onMain { manager.preferBuiltInMic() })
            #expect(AVAudioSession.sharedInstance().preferredInput?.uid == "Z")
            #expect(AVAudioSession.sharedInstance().currentRoute.inputs.map(\.uid) == ["Z"])
            #expect(AVAudioSession.sharedInstance().availableInputs?.map(\.portType) == [.builtInMic])

            let onB = try stage.fixture.record(sink: "B")
            let ringback = try AVAudioPlayer(contentsOf: try stage.tone(480, 1, "ringback.wav"))
            ringback.numberOfLoops = -1
            #expect(ringback.play())
            usleep(300_000)
            try stage.fixture.unloadSink("H")
            #expect(waitFor(10) { manager.headphonesUnplugged == 1 }, "\(manager.routeChangeReasons)")
            #expect(waitFor(5) { manager.routeChangeReasons.contains(.override) },
                    "\(manager.routeChangeReasons), override \(AVAudioSession.sharedInstance().currentOutputOverride), active \((try? CompatOutput.session())?.isActive ?? false)")
            #expect(AVAudioSession.sharedInstance().currentOutputOverride == .speaker)
            #expect(!stage.onMain { manager.isHeadphonesConnected })
            let movedTo = AVAudioSession.sharedInstance().currentRoute.outputs.first?.uid
            #expect(movedTo == "A" || movedTo == "B")
            #expect(waitFor(10) { stage.onA.secondsHeard() + onB.secondsHeard() >= 0.5 }, "the ringback plays on where it moved")
            ringback.stop()
            _ = onB.stop()
            _ = stage.finish()
        }

        /// The playlist: three tracks heard in order, the next started by the delegate; an
        /// interruption pauses the fourth and its end resumes it; the sink pulled pauses it.
        @Test(arguments: servers)
        func thePlaylistAdvancesPausesAndResumes(_ kind: AudioServerFixture.Kind) throws {
            let stage = try Stage(kind)
            let urls = try [440.0, 550, 660, 770].enumerated().map { try stage.tone($1, $0 == 3 ? 5 : 0.4, "track\($0).wav") }
            let playlist = stage.onMain { PlaylistPlayer() }
            try stage.onMain {
                try playlist.load(urls)
                playlist.play(trackAt: 0)
            }
            #expect(waitFor(10) { stage.onMain { playlist.playedTracks } == [0, 1, 2, 3] })
            #expect(stage.hear(0.3))
            let session = try CompatOutput.session()
            session.beginInterruption()
            #expect(waitFor(5) { stage.onMain { playlist.pausedByInterruption && !playlist.isPlaying } })
            usleep(200_000)
            let quietFrom = stage.onA.frameNow + 4_800
            usleep(500_000)
            // 100 ms inside each end: frames are counted from the recording's start, so a server
            // dropout before the resume (frames the monitor never delivered) brings what follows
            // that many frames earlier (one 25 ms window of the resumed track, in a CI run).
            let quietTo = stage.onA.frameNow - 4_800
            session.endInterruption(shouldResume: true)
            #expect(waitFor(5) { stage.onMain { playlist.isPlaying } })
            #expect(stage.hear(0.3))
            try stage.fixture.unloadSink("A")
            #expect(waitFor(10) { stage.onMain { playlist.pausedByRouteChange && !playlist.isPlaying } })
            let (left, _) = stage.finish()
            let first = [440.0, 550, 660].map { frequency in Self.levels(left, frequency).firstIndex { $0 > 0.1 } ?? -1 }
            #expect(first[0] >= 0 && first[0] < first[1] && first[1] < first[2], "the tracks in order: \(first)")
            #expect(Self.windowsWith(left, 770, above: 0.01, from: quietFrom, to: quietTo) == 0, "silent while interrupted")
            #expect(Self.windowsWith(left, 770, from: quietTo) >= 8, "resumed after the interruption")
        }

        /// The game: its music at the volume kept in UserDefaults (0.25: the level at the sink is a
        /// quarter), then set to 1 (faded to, and kept for the next launch); an effect over it.
        @Test(arguments: servers)
        func theGameKeepsItsMusicVolume(_ kind: AudioServerFixture.Kind) throws {
            let stage = try Stage(kind)
            defer { UserDefaults.standard.removeObject(forKey: GameAudio.musicVolumeKey) }
            UserDefaults.standard.set(Float(0.25), forKey: GameAudio.musicVolumeKey)
            let game = GameAudio()
            let music = try stage.tone(440, 1, amplitude: 0.8, "music.wav")
            stage.onMain { game.playBackgroundMusic(music) }
            #expect(stage.hear(0.8))
            let quarterFrom = stage.onA.frameNow
            usleep(600_000)
            let quarterTo = stage.onA.frameNow
            stage.onMain { game.musicVolume = 1 }
            usleep(500_000)
            let fullFrom = stage.onA.frameNow
            usleep(600_000)
            let fullTo = stage.onA.frameNow
            let door = try stage.tone(990, 0.3, "door.wav")
            stage.onMain { game.playEffect(door) }
            #expect(stage.hear(0.3))
            #expect(stage.onMain { GameAudio().musicVolume } == 1, "kept for the next launch")
            stage.onMain { game.stopBackgroundMusic() }
            let (left, _) = stage.finish()
            let quarter = Self.median(Self.levels(left, 440, from: quarterFrom, to: quarterTo))
            let full = Self.median(Self.levels(left, 440, from: fullFrom, to: fullTo))
            // toneLevel is the tone's amplitude; a centred mono player reaches each channel at full level.
            #expect(abs(quarter - 0.2) < 0.02, "at 0.25: \(quarter)")
            #expect(abs(full - 0.8) < 0.05, "at 1: \(full)")
            #expect(Self.windowsWith(left, 990) >= 8, "the effect")
        }

        static func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        }

        /// System Sound Services as Swift writes it: a completion closure literal with a nil run
        /// loop, an alert with a completion block; both sounds heard at the sink.
        @Test(arguments: servers)
        func systemSoundsCompleteAsSwiftWritesThem(_ kind: AudioServerFixture.Kind) throws {
            let stage = try Stage(kind)
            let effects = SystemSoundEffects()
            defer { stage.onMain { effects.dispose() } }
            let tapURL = try stage.tone(1_200, 0.15, "tap.wav"), alertURL = try stage.tone(1_500, 0.2, "alert.wav")
            let statuses = stage.onMain { [effects.register("tap", url: tapURL), effects.register("alert", url: alertURL)] }
            #expect(statuses == [kAudioServicesNoError, kAudioServicesNoError])
            let tap = try #require(stage.onMain { effects.soundIDs["tap"] })
            stage.onMain { effects.play("tap") }
            #expect(waitFor(5) { effects.completedSounds.contains(tap) })
            let lock = NSLock()
            nonisolated(unsafe) var alerted = 0, completed = 0
            stage.onMain { effects.playAlert("alert") { lock.withLock { alerted += 1 } } }
            #expect(waitFor(5) { lock.withLock { alerted } == 1 })
            stage.onMain { effects.playWithCompletion("tap") { lock.withLock { completed += 1 } } }
            #expect(waitFor(5) { lock.withLock { completed } == 1 })
            usleep(300_000)
            let (left, _) = stage.finish()
            #expect(Self.windowsWith(left, 1_200) >= 8, "two taps")
            #expect(Self.windowsWith(left, 1_500) >= 6, "the alert")
        }

        /// The metronome: four clicks scheduled on the device clock at 240 bpm reach the sink
        /// 0.25 s apart, to the millisecond.
        @Test(arguments: servers)
        func theMetronomeKeepsTime(_ kind: AudioServerFixture.Kind) throws {
            let stage = try Stage(kind)
            let accent = try stage.tone(1_000, 0.03, "accent.wav"), tick = try stage.tone(2_000, 0.03, "tick.wav")
            let metronome = try stage.onMain { try Metronome(accentURL: accent, tickURL: tick) }
            #expect(stage.onMain { metronome.scheduleMeasure(bpm: 240, leadIn: 0.3) })
            #expect(stage.hear(0.1))
            usleep(600_000)
            let (left, _) = stage.finish()
            var onsets: [Int] = []
            var from = 0
            while let onset = left[from...].firstIndex(where: { abs($0) > 0.1 }) {
                onsets.append(onset)
                from = onset + 4_800
                if from >= left.count { break }
            }
            #expect(onsets.count == 4, "\(onsets)")
            let gaps = zip(onsets.dropFirst(), onsets).map { $0 - $1 }
            // An underrun the game's output counted moves the beats after it by the silence the
            // server played, which nothing reports: then the four beats, each within 0.1 s.
            let underruns = stage.device.outputStatus.underruns
            let tolerance = underruns == 0 ? 48 : 4_800
            #expect(gaps.allSatisfy { abs($0 - 12_000) <= tolerance }, "the beats \(gaps) frames apart (12000 wanted; \(underruns) underruns)")
            #expect(Signals.toneLevel(left[onsets[0]..<(onsets[0] + 1_200)], frequency: 1_000) > 0.2, "the accent first")
            stage.onMain { metronome.stop() }
        }

        /// The podcast player at 1.5×: the pitch is kept at the sink (440 Hz) and the change of tone
        /// at 3 s of the file is heard 2 s after the start; skips move the position.
        @Test(.enabled(if: TimeStretch.isAvailable), arguments: servers)
        func thePodcastPlaysFasterAtItsPitch(_ kind: AudioServerFixture.Kind) throws {
            let stage = try Stage(kind)
            let episode = SoundBuffer(samples: Signals.sine(440, seconds: 3).samples + Signals.sine(660, seconds: 42).samples,
                                      channels: 1, sampleRate: 48_000)
            let podcast = PodcastPlayer()
            let url = try stage.file(episode, "episode.wav")
            let speed = try stage.onMain {
                try podcast.load(url: url)
                podcast.cycleSpeed()
                podcast.play()
                return podcast.currentSpeed
            }
            #expect(speed == 1.5)
            #expect(stage.hear(2.6))
            let afterSkip = stage.onMain {
                podcast.skipForward()
                return podcast.currentTime
            }
            #expect(abs(afterSkip - 34) < 0.5, "\(afterSkip)")
            let (back, shown) = stage.onMain {
                podcast.skipBackward()
                return (podcast.currentTime, podcast.formattedTime())
            }
            #expect(abs(back - 19) < 0.5, "\(back)")
            #expect(shown == "00:19")
            stage.onMain { podcast.pause() }
            let (left, _) = stage.finish()
            let start = try #require(left.firstIndex { abs($0) > 0.05 })
            let switchAt = try #require(Self.levels(left, 660, from: start).firstIndex { $0 > 0.2 })
            let heard = Double(switchAt * 1_200) / 48_000
            #expect(abs(heard - 2.0) < 0.06, "the file's 3 s heard after \(heard) s at 1.5x")
            let pitch = Signals.medianFrequency(Array(left[(start + 12_000)..<(start + 60_000)]))
            #expect(abs(pitch - 440) < 2, "\(pitch) Hz at 1.5x")
        }

        /// Record, then play back: what sink A played is recorded from its monitor and heard again
        /// when the recording plays; the recording is then deleted.
        @Test(arguments: servers)
        func aRecordingPlaysBack(_ kind: AudioServerFixture.Kind) throws {
            let stage = try Stage(kind) { try $0.pactl(["set-default-source", "A.monitor"]) }
            let app = RecordAndPlayback(directory: stage.dir)
            let tone = try AVAudioPlayer(contentsOf: try stage.tone(587.33, 1, "tone.wav"))
            #expect(tone.play())
            #expect(stage.hear(0.1))
            #expect(stage.onMain { app.startRecording() })
            usleep(700_000)
            stage.onMain { app.stopRecording() }
            #expect(waitFor(5) { stage.onMain { app.recordingFinished } }, "the delegate comes after stop(), as on iOS")
            #expect(waitFor(5) { !tone.isPlaying })
            usleep(400_000)
            let playbackFrom = stage.onA.frameNow
            #expect(stage.onMain { app.playRecording() })
            #expect(waitFor(10) { stage.onMain { app.playbackFinished } })
            usleep(200_000)
            let recorded = try SoundFile(path: app.getFileURL().path).readAll()
            #expect(recorded.duration > 0.5 && Signals.toneLevel(recorded.channel(0), frequency: 587.33) > 0.2,
                    "\(recorded.duration) s, \(Signals.toneLevel(recorded.channel(0), frequency: 587.33))")
            #expect(stage.onMain { app.deleteRecording() })
            #expect(!FileManager.default.fileExists(atPath: app.getFileURL().path))
            let (left, _) = stage.finish()
            #expect(Self.windowsWith(left, 587.33, above: 0.1, from: playbackFrom) >= 16, "the recording played back")
        }

        /// The level meter: a Timer on the run loop polls the player's meters every 50 ms; while
        /// a tone of amplitude 0.5 plays, its levels read near 0.35 (its RMS).
        @Test(arguments: servers)
        func theLevelMeterFollowsThePlayer(_ kind: AudioServerFixture.Kind) throws {
            let stage = try Stage(kind)
            let player = try AVAudioPlayer(contentsOf: try stage.tone(440, 2, "tone.wav"))
            // The timer runs on this thread's run loop, as a view's runs on the main one: the
            // program is confined to this thread (no callbacks reach it).
            let meter = LevelMeterModel(player: player)
            #expect(player.play())
            meter.start()
            RunLoop.current.run(until: Date().addingTimeInterval(1.2))
            meter.stop()
            player.stop()
            _ = stage.finish()
            #expect(meter.levels.count >= 15, "\(meter.levels.count) ticks")
            let settled = Array(meter.levels.suffix(10))
            #expect(settled.allSatisfy { abs($0 - 0.354) < 0.05 }, "\(settled)")
        }

        /// The effect pool: shots from Data overlap, each panned: hard left only in the left
        /// channel, hard right only in the right, a centred one at full level in both.
        @Test(arguments: servers)
        func theEffectPoolPansEachShot(_ kind: AudioServerFixture.Kind) throws {
            let stage = try Stage(kind)
            let left = try SoundEffectPool(fileURL: try stage.tone(700, 0.5, amplitude: 0.3, "left.wav"), size: 2)
            let right = try SoundEffectPool(fileURL: try stage.tone(900, 0.5, amplitude: 0.3, "right.wav"), size: 2)
            let centre = try SoundEffectPool(fileURL: try stage.tone(500, 0.5, amplitude: 0.3, "centre.wav"), size: 2)
            // The overlapping second shot is silent: two shots of one tone a fraction of a
            // millisecond apart would add with any phase and make the level a matter of chance.
            let shots = stage.onMain { [left.play(pan: -1) && right.play(pan: 1) && centre.play(pan: 0), left.play(pan: -1, volume: 0),
                                        left.play(pan: -1)] }
            #expect(shots[0])
            #expect(shots[1], "a second shot overlaps the first")
            #expect(!shots[2], "the pool of two is busy")
            #expect(stage.hear(0.3))
            usleep(300_000)
            let (l, r) = stage.finish()
            let start = try #require(l.firstIndex { abs($0) > 0.05 })
            // Each level is the median over the 8 windows of 25 ms in 0.2 s of the shots: a
            // dropout of the recording on a loaded machine lowers only its windows (over the
            // whole span, PipeWire under `stress-ng --cpu 2` read the centre at 0.274 once).
            func level(_ s: [Float], _ f: Double) -> Double {
                let levels = Self.levels(s, f, from: start + 2_400, to: start + 12_000).sorted()
                return (levels[(levels.count - 1) / 2] + levels[levels.count / 2]) / 2
            }
            #expect(level(l, 700) > 0.25 && level(r, 700) < 0.01, "left: \(level(l, 700)) / \(level(r, 700))")
            #expect(level(r, 900) > 0.25 && level(l, 900) < 0.01, "right: \(level(r, 900)) / \(level(l, 900))")
            #expect(abs(level(l, 500) - 0.3) < 0.02 && abs(level(r, 500) - 0.3) < 0.02, "centre: \(level(l, 500)) / \(level(r, 500))")
        }

        /// The crossfader: the first track fades in, the second takes over in 0.5 s and the first
        /// is gone.
        @Test(arguments: servers)
        func theCrossfaderHandsOver(_ kind: AudioServerFixture.Kind) throws {
            let stage = try Stage(kind)
            let fader = Crossfader()
            let a = try stage.tone(440, 1, "a.wav"), b = try stage.tone(660, 1, "b.wav")
            try stage.onMain { try fader.play(a, fadeDuration: 0.1) }
            #expect(stage.hear(0.5))
            let firstFrom = stage.onA.frameNow
            usleep(300_000)
            let firstTo = stage.onA.frameNow
            try stage.onMain { try fader.play(b, fadeDuration: 0.5) }
            usleep(900_000)
            let secondFrom = stage.onA.frameNow
            usleep(400_000)
            let secondTo = stage.onA.frameNow
            stage.onMain { fader.stopAll() }
            let (left, _) = stage.finish()
            #expect(Self.median(Self.levels(left, 440, from: firstFrom, to: firstTo)) > 0.4)
            // (25 ms windows of the 660 Hz track leak ~0.015 into 440 Hz: "gone" is below 0.05.)
            #expect(Self.windowsWith(left, 440, above: 0.05, from: secondFrom, to: secondTo) == 0, "the first track is gone")
            #expect(Self.median(Self.levels(left, 660, from: secondFrom, to: secondTo)) > 0.4)
        }

        /// The pre-iOS-8 player: its delegate hears the interruption begin and end (with
        /// `.shouldResume`), and the player is silent between and plays on after.
        @Test(arguments: servers)
        func theLegacyDelegateHearsInterruptions(_ kind: AudioServerFixture.Kind) throws {
            let stage = try Stage(kind)
            let app = LegacyInterruptionPlayer()
            let loop = try stage.tone(440, 1, "loop.wav")
            try stage.onMain { try app.start(url: loop) }
            #expect(stage.hear(0.3))
            let session = try CompatOutput.session()
            session.beginInterruption()
            #expect(waitFor(5) { stage.onMain { app.interruptions } == 1 })
            usleep(200_000)
            let quietFrom = stage.onA.frameNow + 4_800
            usleep(400_000)
            let quietTo = stage.onA.frameNow
            session.endInterruption(shouldResume: true)
            #expect(waitFor(5) { stage.onMain { app.resumes } == 1 })
            #expect(stage.hear(0.3))
            stage.onMain { app.player?.stop() }
            let (left, _) = stage.finish()
            #expect(Self.windowsWith(left, 440, above: 0.01, from: quietFrom, to: quietTo) == 0, "silent while interrupted")
            #expect(Self.windowsWith(left, 440, from: quietTo) >= 8, "on again after it")
        }
    }
}
