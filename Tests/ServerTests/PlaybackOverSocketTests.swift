import Foundation
import SoundFile
import SoundstageProtocol
import Testing
import TestSupport

/// What clients ask for is heard in the daemon's mix.
@Suite struct PlaybackOverSocketTests {
    @Test func playSoundIsHeardAndItsCompletionFollows() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        let file = try daemon.sineFile("beep", seconds: 0.3)
        #expect(client.request(["id": 1, "command": "subscribe", "events": ["completion"]])?.isOK == true)
        #expect(try Signals.rms(daemon.render(seconds: 0.1), channel: 0) == 0, "silent before")
        let answer = try #require(client.request(["id": 2, "command": "playSound", "file": .string(file)]))
        #expect(answer["result"]?["outcome"] == "playing")
        let sound = try #require(answer["result"]?["sound"])
        let heard = try daemon.render(seconds: 0.2)
        #expect(Signals.rms(heard, channel: 0) > 0.1)
        #expect(abs(Signals.frequency(heard) - 440) < 1)
        _ = try daemon.render(seconds: 0.2)
        let done = try #require(client.event("completion"))
        #expect(done["request"] == 2)
        #expect(done["sound"] == sound)
        #expect(done["outcome"] == "finished")
        #expect(try Signals.rms(daemon.render(seconds: 0.1), channel: 0) == 0, "silent after")
        // The second play of the file reuses its registration.
        #expect(client.request(["id": 3, "command": "playSound", "file": .string(file)])?["result"]?["sound"] == sound)
        #expect(client.request(["id": 4, "command": "listSounds"])?["result"]?["sounds"]?.arrayValue?.count == 1)
    }

    @Test func registerPlayByIDAlertAndDispose() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        let registered = try #require(client.request(["id": 1, "command": "registerSound", "file": .string(try daemon.sineFile("a"))]))
        let sound = try #require(registered["result"]?["sound"])
        #expect(client.request(["id": 2, "command": "playSound", "sound": sound, "alert": true])?["result"]?["outcome"] == "playing")
        #expect(try Signals.rms(daemon.render(seconds: 0.1), channel: 1) > 0.1)
        #expect(client.request(["id": 3, "command": "disposeSound", "sound": sound])?.isOK == true)
        #expect(try Signals.rms(daemon.render(seconds: 0.05), channel: 1) == 0, "disposing stops it")
        #expect(client.request(["id": 4, "command": "playSound", "sound": sound])?.errorCode == "unknownSoundID")
        #expect(client.request(["id": 5, "command": "listSounds"])?["result"]?["sounds"] == [])
    }

    @Test func playSoundByEventNameUsesTheSoundTheme() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        let answer = try #require(client.request(["id": 1, "command": "playSound", "event": "button-pressed"]))
        #expect(answer["result"]?["outcome"] == "playing", "\(answer.encoded)")
        #expect(try Signals.peak(daemon.render(seconds: 0.2)) > 0.01)
        #expect(client.request(["id": 2, "command": "playSound", "event": "no-such-event-anywhere"])?.errorCode == "notFound")
    }

    @Test func scenesRunStopAndTakeOneShotsAndListenerMoves() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(client.request(["id": 0, "command": "subscribe", "events": ["completion"]])?.isOK == true)
        // A tone 5 m to the right of the listener.
        let scene: JSONValue = ["format": 1, "duration": 30, "sources": [
            ["name": "tone", "sound": ["tone": ["frequency": 330]], "loop": true, "position": [5, 0, 0]]]]
        let loaded = try #require(client.request(["id": 1, "command": "loadScene", "scene": scene, "name": "room"]))
        #expect(loaded["result"]?["sources"] == ["tone"], "\(loaded.encoded)")
        #expect(try Signals.peak(daemon.render(seconds: 0.05)) == 0, "loaded, not running")
        #expect(client.request(["id": 2, "command": "runScene", "scene": "room"])?.isOK == true)
        try daemon.render(until: { (try? Signals.peak(daemon.render(seconds: 0.01))) ?? 0 > 0 })
        var mix = try daemon.render(seconds: 0.1)
        #expect(Signals.rms(mix, channel: 1) > 0.05)
        #expect(Signals.rms(mix, channel: 0) < 1e-3, "at x = +5 the left channel is silent")
        // Turn the listener around: the tone is now on the left.
        #expect(client.request(["id": 3, "command": "setListener", "scene": "room", "at": [0, 0, 1]])?.isOK == true)
        _ = try daemon.render(seconds: 0.02)                       // the mixer's gain ramp
        mix = try daemon.render(seconds: 0.1)
        #expect(Signals.rms(mix, channel: 0) > 0.05)
        #expect(Signals.rms(mix, channel: 1) < 1e-3)
        #expect(client.request(["id": 4, "command": "stopScene", "scene": "room"])?.isOK == true)
        #expect(try Signals.peak(daemon.render(seconds: 0.05)) == 0, "stopped")
        // A one-shot at x = -5 in the same scene; the listener still faces +z, so it is on the right.
        let shot = try #require(client.request(["id": 5, "command": "playAt", "scene": "room", "file": .string(try daemon.sineFile("shot", seconds: 0.2)),
                                                "position": [-5, 0, 0]]))
        #expect(shot["result"]?["outcome"] == "playing", "\(shot.encoded)")
        mix = try daemon.render(seconds: 0.1)
        #expect(Signals.rms(mix, channel: 1) > 0.05)
        #expect(Signals.rms(mix, channel: 0) < 1e-3)
        _ = try daemon.render(seconds: 0.2)
        #expect(client.event("completion")?["request"] == 5)
        #expect(client.request(["id": 6, "command": "unloadScene", "scene": "room"])?.isOK == true)
        #expect(client.request(["id": 7, "command": "listScenes"])?["result"]?["scenes"] == [])
    }

    @Test func aSceneFileRunsToItsEndAndSaysSo() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        let path = daemon.directory + "/short.json"
        try Data(#"{"format": 1, "duration": 0.2, "sources": [{"name": "a", "sound": {"tone": {}}}]}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        #expect(client.request(["id": 0, "command": "subscribe", "events": ["completion"]])?.isOK == true)
        #expect(client.request(["id": 1, "command": "loadScene", "file": .string(path)])?["result"]?["scene"] == "short")
        #expect(client.request(["id": 2, "command": "runScene", "scene": "short"])?.isOK == true)
        let ended = try #require(client.event("sceneEnded"))
        #expect(ended["scene"] == "short")
        #expect(ended["request"] == 2)
    }
}

/// An iOS game's AAC assets through the daemon: registered, played by ID, played in a scene
/// at a position, and named by a scene file.
@Suite(.enabled(if: FFmpeg.isAvailable, "FFmpeg's libraries are not installed")) struct AACOverSocketTests {
    private func aacFile(_ daemon: TestDaemon, _ name: String, frequency: Double, seconds: Double) throws -> String {
        let path = daemon.directory + "/\(name).m4a"
        try SoundFileWriter.write(Signals.sine(frequency, seconds: seconds), to: path, format: .m4aAAC)
        return path
    }

    @Test func registerSoundAndPlayAtTakeM4A() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        let registered = try #require(client.request(["id": 1, "command": "registerSound", "file": .string(try aacFile(daemon, "ui", frequency: 880, seconds: 0.3))]))
        let sound = try #require(registered["result"]?["sound"], "\(registered.encoded)")
        #expect(client.request(["id": 2, "command": "playSound", "sound": sound])?["result"]?["outcome"] == "playing")
        let heard = try daemon.render(seconds: 0.2)
        #expect(Signals.rms(heard, channel: 0) > 0.1)
        #expect(abs(Signals.frequency(heard) - 880) < 2)
        _ = try daemon.render(seconds: 0.3)

        // A scene whose source is an M4A, looping at x = +5 (on the right) ...
        let loop = try aacFile(daemon, "loop", frequency: 440, seconds: 1)
        let scene: JSONValue = ["format": 1, "duration": 30, "sources": [
            ["name": "hum", "sound": .string(loop), "loop": true, "position": [5, 0, 0]]]]
        let loaded = try #require(client.request(["id": 3, "command": "loadScene", "scene": scene, "name": "room"]))
        #expect(loaded.isOK, "\(loaded.encoded)")
        #expect(client.request(["id": 4, "command": "runScene", "scene": "room"])?.isOK == true)
        try daemon.render(until: { (try? Signals.peak(daemon.render(seconds: 0.01))) ?? 0 > 0 })
        var mix = try daemon.render(seconds: 0.15)
        #expect(Signals.rms(mix, channel: 1) > 0.05)
        #expect(Signals.rms(mix, channel: 0) < 1e-3, "at x = +5 the left channel is silent")
        #expect(abs(Signals.frequency(mix, channel: 1) - 440) < 2)
        // ... and an M4A one-shot at x = -5 (on the left) played into it.
        let shot = try #require(client.request(["id": 5, "command": "playAt", "scene": "room",
                                                "file": .string(try aacFile(daemon, "shot", frequency: 880, seconds: 0.5)), "position": [-5, 0, 0]]))
        #expect(shot["result"]?["outcome"] == "playing", "\(shot.encoded)")
        _ = try daemon.render(seconds: 0.05)
        mix = try daemon.render(seconds: 0.2)
        #expect(Signals.rms(mix, channel: 0) > 0.05)
        #expect(abs(Signals.frequency(mix, channel: 0) - 880) < 2)
    }

    @Test func aCorruptM4AIsATypedErrorOnTheWire() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        let path = daemon.directory + "/broken.m4a"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try aacFile(daemon, "whole", frequency: 440, seconds: 0.3))))
        bytes = Array(bytes.prefix(bytes.count / 2))
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let answer = try #require(client.request(["id": 1, "command": "registerSound", "file": .string(path)]))
        #expect(answer.errorCode == "corruptData", "\(answer.encoded)")
        #expect(client.request(["id": 2, "command": "ping"])?.isOK == true)
    }
}
