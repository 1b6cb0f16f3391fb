import Foundation
import Soundstage
@testable import CompatPrograms
@testable import SoundstageCompat
import Testing
import TestSupport

/// Every suite of this target: they share the one `AVAudioSession` and engine of the program
/// (as an iOS app has one), so they run one test at a time, the desktop ones included.
@Suite(.serialized) struct CompatPrograms {}

/// The C programs of Tests/C heard on the real servers. Each runs as a child process, an app of
/// its own, so these suites share nothing of this process's session and run one test at a time
/// beside `CompatPrograms`: a second lane of real servers in the programs pass.
@Suite(.serialized) struct CProgramsOnTheDesktop {}

extension CompatPrograms {
    /// The iOS-style programs of this folder, run on a loopback device and heard in its mix; and
    /// the iOS spellings checked one by one (raw values, userInfo types, settings keys).
    @Suite(.serialized) struct CompatTests {
        /// A loopback device the iOS names play on, and a scratch directory.
        final class Rig {
            let device: Device
            let dir: URL
            init() throws {
                device = try Device.loopback()
                try CompatOutput.use(device: device)
                dir = FileManager.default.temporaryDirectory.appendingPathComponent("compat-\(UUID())")
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            }
            deinit { try? FileManager.default.removeItem(at: dir) }

            func file(_ audio: SoundBuffer, _ name: String, format: OutputFormat = .wavPCM16) throws -> URL {
                let url = dir.appendingPathComponent(name)
                try SoundFileWriter.write(audio, to: url.path, format: format)
                return url
            }

            func render(_ seconds: Double) throws -> SoundBuffer { try device.render(frames: Int((seconds * 48_000).rounded())) }
        }

        @Test func theAmbientGameLoopsItsMusicAndHearsItsEffectsEnd() throws {
            let rig = try Rig()
            let game = GameMusic()
            try game.start(musicURL: try rig.file(Signals.sine(440, seconds: 0.5, amplitude: 0.5), "music.wav"))
            #expect(AVAudioSession.sharedInstance().category == .ambient)
            #expect(AVAudioSession.sharedInstance().categoryOptions == [.mixWithOthers])
            #expect(try CompatOutput.session().category == .ambient)
            let mix = try rig.render(1.6)
            // Looping: three plays of 0.5 s and more, at 80 % of the file's level, centred (iOS's
            // balance law: a centred mono player at full level in each channel).
            let level = Signals.rms(mix.slice(frames: 2_400..<76_000), channel: 0)
            #expect(abs(level - 0.8 * 0.5 / 2.squareRoot()) < 0.005, "\(level)")
            #expect(Signals.rms(mix.slice(frames: 23_000..<26_000), channel: 0) > 0.15, "no gap at the loop")
            #expect(game.player?.isPlaying == true)
            let effect = try game.playOnce(effectURL: try rig.file(Signals.sine(880, seconds: 0.2), "door.wav"))
            _ = try rig.render(0.4)
            #expect(game.finished == 1, "the delegate heard the effect end")
            #expect(!effect.isPlaying)
            game.player?.stop()
        }

        /// `rate` is heard only with `enableRate` on, as on iOS: off, the file plays at its speed
        /// (and the rate set is kept); on, twice as fast, still at 440 Hz (the pitch kept).
        @Test func rateNeedsEnableRate() throws {
            let rig = try Rig()
            let player = try AVAudioPlayer(contentsOf: try rig.file(Signals.sine(440, seconds: 2), "tone.wav"))
            player.rate = 2
            #expect(player.rate == 2)
            #expect(player.play())
            #expect(abs(Signals.frequency(try rig.render(0.3).slice(frames: 2_400..<12_000)) - 440) < 2)
            #expect(abs(player.currentTime - 0.3) < 0.01, "\(player.currentTime)")
            player.enableRate = true
            _ = try rig.render(0.05)
            #expect(abs(Signals.frequency(try rig.render(0.2).slice(frames: 0..<9_600)) - 440) < 2)
            #expect(abs(player.currentTime - 0.8) < 0.02, "0.3 s at 1, then 0.25 s at 2: \(player.currentTime)")
            player.rate = .nan
            #expect(player.rate == 2)
            player.stop()
        }

        /// A voice message recorded as iOS records iLBC (CAF, 8 kHz mono) plays through
        /// `AVAudioPlayer`, decoded by FFmpeg's iLBC decoder and resampled to the device's rate.
        @Test(.enabled(if: FFmpeg.hasDecoder(named: "ilbc"), "needs FFmpeg's iLBC decoder (scripts/setup.sh --tests)"))
        func anILBCVoiceMessagePlays() throws {
            let rig = try Rig()
            let url = try rig.file(Signals.sine(300, seconds: 1, amplitude: 0.5, rate: 8_000), "message.caf", format: .cafILBC)
            let player = try AVAudioPlayer(contentsOf: url)
            #expect(player.settings[AVFormatIDKey] as? Int == Int(kAudioFormatiLBC))
            #expect(abs(player.duration - 1) < 0.01, "\(player.duration) s")
            #expect(player.play())
            let mix = try rig.render(0.5)
            #expect(Signals.rms(mix.slice(frames: 4_800..<19_200), channel: 0) > 0.1)
            #expect(abs(Signals.frequency(mix.slice(frames: 4_800..<19_200)) - 300) < 6)
            player.stop()
        }

        @Test func uiClicksThroughSystemSoundServices() throws {
            let rig = try Rig()
            let clicks = ClickSounds()
            #expect(clicks.load(try rig.file(Signals.sine(1_000, seconds: 0.1), "click.caf", format: .cafPCM16)) == kAudioServicesNoError)
            #expect(clicks.clickID != 0)
            #expect(clicks.listen() == kAudioServicesNoError)
            clicks.click()
            let mix = try rig.render(0.3)
            #expect(Signals.rms(mix.slice(frames: 0..<4_000), channel: 0) > 0.1)
            #expect(abs(Signals.frequency(mix.slice(frames: 200..<4_400)) - 1_000) < 2)
            #expect(clicks.completions == 1)
            // Vibrate reaches the registry's attention handler.
            let attention = Counter()
            try CompatOutput.systemSounds().attentionHandler = { _ in attention.add() }
            clicks.buzz()
            #expect(attention.value == 1)
            #expect(clicks.unload() == kAudioServicesNoError)
            var missing: SoundstageCompat.SystemSoundID = 0
            #expect(AudioServicesCreateSystemSoundID(rig.dir.appendingPathComponent("none.caf") as CFURL, &missing)
                    == kAudioServicesSystemSoundUnspecifiedError)
            var long: SoundstageCompat.SystemSoundID = 0
            #expect(AudioServicesCreateSystemSoundID(try rig.file(Signals.sine(100, seconds: 31), "long.wav") as CFURL, &long)
                    == kAudioServicesSystemSoundExceededMaximumDurationError)
        }

        @Test func interruptionsPauseAndResumeTheMusicInBothSpellings() throws {
            let rig = try Rig()
            let legacy = LegacySession.shared
            legacy.forget()
            #expect(legacy.start() == noErr)
            let music = try AVAudioPlayer(contentsOf: try rig.file(Signals.sine(440, seconds: 3), "music.wav"))
            let observer = InterruptionObserver(music: music)
            #expect(music.play())
            #expect(Signals.rms(try rig.render(0.2), channel: 0) > 0.1)
            let session = try CompatOutput.session()
            session.beginInterruption()
            _ = try rig.render(0.05)
            #expect(Signals.peak(try rig.render(0.2)) == 0, "silent while interrupted")
            #expect(!music.isPlaying)
            session.endInterruption(shouldResume: true)
            _ = try rig.render(0.05)
            #expect(Signals.rms(try rig.render(0.2), channel: 0) > 0.1, "resumed")
            #expect(observer.began == 1 && observer.resumed == 1)
            #expect(legacy.states == [UInt32(kAudioSessionBeginInterruption), UInt32(kAudioSessionEndInterruption)])
            #expect(!legacy.otherAudioIsPlaying())
            music.stop()
        }

        @Test func theNotificationsCarryWhatIOSCodeReads() throws {
            let rig = try Rig()
            try AVAudioSession.sharedInstance().setCategory(.playback)
            try AVAudioSession.sharedInstance().setActive(true)
            let notes = Notes()
            let tokens = [AVAudioSession.interruptionNotification, AVAudioSession.routeChangeNotification].map {
                NotificationCenter.default.addObserver(forName: $0, object: nil, queue: nil) { notes.add($0) }
            }
            defer { tokens.forEach(NotificationCenter.default.removeObserver) }
            try CompatOutput.session().beginInterruption()
            try CompatOutput.session().endInterruption(shouldResume: false)
            try AVAudioSession.sharedInstance().setCategory(.soloAmbient)
            let all = notes.all
            #expect(all.count == 3, "\(all.map(\.name))")
            #expect(all[0].userInfo?[AVAudioSessionInterruptionTypeKey] as? UInt == 1)
            #expect(all[1].userInfo?[AVAudioSessionInterruptionTypeKey] as? UInt == 0)
            #expect(all[1].userInfo?[AVAudioSessionInterruptionOptionKey] as? UInt == 0)
            #expect(all[2].name == AVAudioSession.routeChangeNotification)
            #expect(all[2].userInfo?[AVAudioSessionRouteChangeReasonKey] as? UInt == AVAudioSession.RouteChangeReason.categoryChange.rawValue)
            #expect(all[2].userInfo?[AVAudioSessionRouteChangePreviousRouteKey] is AVAudioSessionRouteDescription)
            _ = rig
        }

        @Test func theSessionsSpellingsAndRefusals() throws {
            let rig = try Rig()
            let session = AVAudioSession.sharedInstance()
            #expect(AVAudioSession.CategoryOptions.mixWithOthers.rawValue == 1 && AVAudioSession.CategoryOptions.duckOthers.rawValue == 2)
            #expect(AVAudioSession.InterruptionType.began.rawValue == 1 && AVAudioSession.InterruptionOptions.shouldResume.rawValue == 1)
            #expect(AVAudioSession.RouteChangeReason.oldDeviceUnavailable.rawValue == 2)
            #expect(throws: NSError.self) { try session.setCategory(.multiRoute) }
            try session.setCategory(.playAndRecord, mode: .voiceChat, options: [.duckOthers, .allowBluetooth])
            #expect(session.mode == .voiceChat)
            #expect(try CompatOutput.session().category == .playAndRecord)
            #expect(try CompatOutput.session().options == [.duckOthers])
            #expect(session.sampleRate == 48_000)
            #expect(session.ioBufferDuration > 0)
            #expect(session.currentRoute.outputs.count == 1)
            try session.setPreferredSampleRate(44_100)
            #expect(session.preferredSampleRate == 44_100)
            #expect(throws: NSError.self) { try session.setPreferredIOBufferDuration(.nan) }
            try session.setCategory(.soloAmbient)
            _ = rig
        }

        /// iOS code catches with `catch let error as NSError` alone; on Linux that clause traps on a
        /// Swift error (swiftlang/swift#65106). Every error the iOS names throw is an `NSError`
        /// with iOS's domain and code, a message naming what failed, and the `SoundstageError`
        /// underneath: the program below logs each and goes on.
        @Test func everyErrorIsAnNSErrorWithIOSsCode() throws {
            let rig = try Rig()
            let missing = rig.dir.appendingPathComponent("missing.wav")
            let notes = rig.dir.appendingPathComponent("notes.wav")
            try Data("these are not sounds\n".utf8).write(to: notes)
            let log = AudioErrorLog()
            log.preload(["click": try rig.file(Signals.sine(880, seconds: 0.1), "click.wav"), "missing": missing, "notes": notes])
            #expect(log.players.keys.sorted() == ["click"], "the good sound loaded, the others were logged and skipped")
            log.load(data: Data(repeating: 0, count: 64), hint: "wav")
            _ = log.record(to: rig.dir.appendingPathComponent("take.wav"), settings: [AVFormatIDKey: 0x6D70_3320])
            log.configure(.multiRoute, preferredRate: .nan, bufferDuration: -1)
            try AVAudioSession.sharedInstance().setCategory(.ambient)
            log.routeToSpeaker()
            // A voice chat elsewhere in the program holds the output: activating fails, as during a call on iOS.
            let call = try CompatOutput.session().center.makeSession(category: .playAndRecord)
            try call.setActive(true)
            #expect(!log.activate())
            try call.setActive(false)
            #expect(log.activate())

            let status = NSOSStatusErrorDomain
            let expected: [(String, String, Int, String)] = [
                ("AVAudioPlayer(contentsOf: missing)", status, 2_003_334_207, "missing.wav"),     // 'wht?', as iOS says
                ("AVAudioPlayer(contentsOf: notes)", status, 1_954_115_647, "notes.wav"),         // 'typ?'
                ("AVAudioPlayer(data:)", status, 1_954_115_647, "not an audio format"),
                ("AVAudioRecorder(url:settings:)", status, -50, "AVFormatIDKey"),
                ("setCategory", status, -50, "multiRoute"),
                ("setPreferredSampleRate", status, -50, "nan"),
                ("setPreferredIOBufferDuration", status, -50, "-1"),
                ("overrideOutputAudioPort", status, -50, "playAndRecord"),
                ("setActive", status, 561_017_449, "playAndRecord"),                             // '!pri', as during a call
            ]
            #expect(log.entries.map(\.call) == expected.map(\.0))
            for (entry, (call, domain, code, words)) in zip(log.entries, expected) {
                #expect(entry.domain == domain && entry.code == code, "\(call): \(entry.domain) \(entry.code)")
                #expect(entry.message.contains(words) && !entry.message.hasPrefix("The operation"), "\(call): \(entry.message)")
            }
            #expect(Int(kAudioFileUnspecifiedError) == 2_003_334_207 && Int(kAudioFileUnsupportedFileTypeError) == 1_954_115_647)
            #expect(AVAudioSession.ErrorCode.insufficientPriority.rawValue == 561_017_449)

            // The Soundstage error is underneath, for code that wants Soundstage's words.
            do {
                _ = try AVAudioPlayer(contentsOf: missing)
                Issue.record("a missing file opened")
            } catch let error as NSError {
                let underlying = error.userInfo[NSUnderlyingErrorKey] as? SoundstageError
                #expect(underlying?.code == .notFound && underlying?.subject == missing.path)
                #expect(error.localizedDescription == underlying?.description)
            }
            // A port the server does not offer (none answers a loopback device, or it lacks this one).
            let nowhere = AVAudioSessionPortDescription(portType: .builtInMic, portName: "Nowhere", uid: "no-such-input")
            do {
                try AVAudioSession.sharedInstance().setPreferredInput(nowhere)
                Issue.record("a port that does not exist was preferred")
            } catch let error as NSError {
                #expect(error.domain == status && error.userInfo[NSUnderlyingErrorKey] is SoundstageError)
            }
            #expect(AVAudioSession.sharedInstance().preferredInput == nil)
            try AVAudioSession.sharedInstance().setCategory(.soloAmbient)
        }

        @Test func recorderSettingsMapTheIOSKeys() throws {
            func format(_ settings: [String: Any], _ name: String) throws -> (OutputFormat, Int?) {
                let recorder = try AVAudioRecorder(url: URL(fileURLWithPath: "/tmp/" + name), settings: settings)
                let mapped = try AVAudioRecorder.recorderSettings(recorder.settings, url: recorder.url)
                return (mapped.format, mapped.bitRate)
            }
            #expect(try format([AVFormatIDKey: Int(kAudioFormatMPEG4AAC), AVSampleRateKey: 44_100.0, AVNumberOfChannelsKey: 1,
                                AVEncoderAudioQualityKey: AVAudioQuality.high.rawValue], "take.m4a") == (.m4aAAC, 192_000))
            #expect(try format([AVFormatIDKey: kAudioFormatAppleLossless], "take.m4a").0 == .m4aALAC)
            #expect(try format([AVFormatIDKey: kAudioFormatAppleLossless], "take.caf").0 == .cafALAC)
            #expect(try format([AVFormatIDKey: kAudioFormatAppleIMA4], "take.caf").0 == .cafIMA4)
            #expect(try format([AVFormatIDKey: kAudioFormatULaw], "take.caf").0 == .cafULaw)
            #expect(try format([AVFormatIDKey: kAudioFormatALaw], "take.wav").0 == .wavALaw)
            #expect(try format([AVFormatIDKey: kAudioFormatiLBC, AVSampleRateKey: 8_000.0, AVNumberOfChannelsKey: 1], "memo.caf") == (.cafILBC, nil))
            // A quality does not choose iLBC's frames; a bit rate of 15 200 chooses 20 ms ones.
            #expect(try format([AVFormatIDKey: kAudioFormatiLBC, AVEncoderAudioQualityKey: AVAudioQuality.max.rawValue], "memo.caf") == (.cafILBC, nil))
            #expect(try format([AVFormatIDKey: kAudioFormatiLBC, AVEncoderBitRateKey: 15_200], "memo.caf") == (.cafILBC, 15_200))
            #expect(try format([AVFormatIDKey: kAudioFormatLinearPCM, AVLinearPCMBitDepthKey: 24], "take.wav").0 == .wavPCM24)
            #expect(try format([AVFormatIDKey: kAudioFormatLinearPCM, AVLinearPCMBitDepthKey: 16], "take.caf").0 == .cafPCM16)
            #expect(throws: NSError.self) { _ = try AVAudioRecorder(url: URL(fileURLWithPath: "/tmp/x.wav"), settings: [AVFormatIDKey: 0x6D703320]) }
            #expect(throws: NSError.self) { _ = try AVAudioRecorder(url: URL(fileURLWithPath: "/tmp/x.wav"), settings: [AVLinearPCMBitDepthKey: 12]) }
        }
    }
}

/// Counts calls from any thread.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// Notifications collected from any thread.
final class Notes: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [Notification] = []
    func add(_ note: Notification) { lock.withLock { list.append(note) } }
    var all: [Notification] { lock.withLock { list } }
}
