import Foundation
import Soundstage
@testable import SoundstageCompat
import Testing
import TestSupport

/// The iOS-style programs on a real PulseAudio/PipeWire server the test starts: what they do is
/// recorded at the sink's monitor and checked there. Run in the desktop pass of scripts/test.sh.
@Suite(.serialized) struct CompatDesktopTests {
    static let servers = AudioServerFixture.Kind.allCases.filter { $0.isInstalled && !(runningUnderSanitizer && $0 == .pipewire) }

    static func device(on fixture: AudioServerFixture) throws -> Device {
        try Device.openDesktop(DesktopOutputOptions(applicationName: "soundstage-compat-tests", applicationID: "org.soundstage.tests",
                                                    role: .game, latency: 0.020, server: fixture.server))
    }

    static func file(_ audio: AudioBuffer, _ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("compat-\(UUID())-\(name)")
        try SoundFileWriter.write(audio, to: url.path, format: .wavPCM16)
        return url
    }

    static func waitFor(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() >= deadline { return false }
            usleep(10_000)
        }
        return true
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
        #expect(Self.waitFor(20) { onA.secondsHeard() >= 1.2 }, "the music reaches the sink")
        clicks.click()
        #expect(Self.waitFor(20) { onA.secondsHeard() >= 2.0 })
        try fixture.unloadSink("A")
        #expect(Self.waitFor(10) { watcher.pausedForRoute == 1 }, "\(watcher.reasons)")
        #expect(game.player?.isPlaying == false)
        usleep(600_000)
        let a = onA.stop(), b = onB.stop()
        game.player?.stop()
        device.close()

        // On A: the looping music (440 Hz, past its 0.5 s file) and, over it, the click.
        let left = stride(from: 0, to: a.count, by: 2).map { a[$0] }
        let heardMusic = Double(Signals.soundingFrames(a)) / 48_000
        #expect(heardMusic > 1.5, "A heard \(heardMusic) s of the looping music")
        let first = try #require(left.firstIndex { abs($0) > 0.02 })
        #expect(abs(Signals.frequency(Array(left[(first + 2_400)..<(first + 21_600)])) - 440) < 2)
        let peak = left.map(abs).max() ?? 0
        #expect(peak > 0.3, "the click adds to the music: peak \(peak)")
        // On B, after the move: the pause — less than the 0.6 s waited, whatever reached it first.
        let afterMove = Double(Signals.soundingFrames(b)) / 48_000
        #expect(afterMove < 0.3, "B heard \(afterMove) s: the music should have paused")
        #expect(watcher.reasons.contains(.oldDeviceUnavailable))
        print("compat on \(kind): A heard \(String(format: "%.2f", heardMusic)) s, B \(String(format: "%.3f", afterMove)) s after the pull")
    }

    /// The voice memo program records AAC from the default input (here the monitor of the sink
    /// the game plays on) while the game's music plays: the file holds the music.
    @Test(.enabled(if: FFmpeg.isAvailable), arguments: servers)
    func theVoiceMemoRecordsAAC(_ kind: AudioServerFixture.Kind) throws {
        let fixture = try AudioServerFixture(kind)
        _ = try fixture.pactl(["set-default-source", "A.monitor"])
        let device = try Self.device(on: fixture)
        try CompatOutput.use(device: device)
        let musicURL = try Self.file(Signals.sine(660, seconds: 3, amplitude: 0.5), "music.wav")
        let memoURL = FileManager.default.temporaryDirectory.appendingPathComponent("memo-\(UUID()).m4a")
        defer { [musicURL, memoURL].forEach { try? FileManager.default.removeItem(at: $0) } }

        let memo = VoiceMemo()
        #expect(try memo.record(to: memoURL, seconds: 1.5), "\(String(describing: memo.recorder?.lastError))")
        let music = try AVAudioPlayer(contentsOf: musicURL)
        #expect(music.play())
        #expect(memo.waitForEnd(15) == true)
        music.stop()
        device.close()

        let file = try SoundFile(path: memoURL.path)
        #expect(file.format.container == .mp4 && file.format.encoding == .aac)
        #expect(file.format.sampleRate == 44_100 && file.format.channels == 2)
        #expect(abs((file.codecDetails?.bitRate ?? 0) - 192_000) < 50_000)
        let audio = try file.readAll()
        #expect(abs(audio.duration - 1.5) < 0.05, "\(audio.duration) s")
        let left = audio.channel(0)
        let first = try #require(left.firstIndex { abs($0) > 0.05 }, "the music is in the memo")
        let heard = Array(left[(first + 2_205)..<min(left.count, first + 22_050)])
        #expect(abs(Signals.frequency(heard, rate: 44_100) - 660) < 3)
    }
}
