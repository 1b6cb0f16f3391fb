@testable import Soundstage
import Foundation
import NIOConcurrencyHelpers
import SoundstageProtocol
import Testing
import TestSupport

/// Each connection is an audio session; categories decide between clients, as in docs/sessions.md.
@Suite struct SessionsAcrossClientsTests {
    /// A client running a looping tone in the centre, in a soloAmbient session.
    private func game(_ daemon: TestDaemon) throws -> LineSocket {
        let game = try daemon.connect()
        #expect(game.request(["id": 0, "command": "subscribe", "events": ["session"]])?.isOK == true)
        let session = try #require(game.request(["id": 1, "command": "session", "category": "soloAmbient"]))
        #expect(session["result"]?["active"] == true, "\(session.encoded)")
        #expect(game.event("session")?["kind"] == "deactivated")
        #expect(game.event("session")?["kind"] == "activated")
        let scene: JSONValue = ["format": 1, "duration": 60, "sources": [["name": "music", "sound": ["tone": ["frequency": 220]], "loop": true,
                                                                          "position": [0, 0, -1]]]]
        #expect(game.request(["id": 2, "command": "loadScene", "scene": scene, "name": "level"])?.isOK == true)
        #expect(game.request(["id": 3, "command": "runScene", "scene": "level"])?.isOK == true)
        try daemon.render(until: { (try? Signals.peak(daemon.render(seconds: 0.01))) ?? 0 > 0 })
        _ = try daemon.render(seconds: 0.05)          // past the start's gain ramp
        return game
    }

    @Test func voiceChatInterruptsTheGameAndItResumesWhenTheChatEnds() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let game = try game(daemon)
        let level = Signals.rms(try daemon.render(seconds: 0.1), channel: 0)
        #expect(level > 0.05)

        let chat = try daemon.connect()
        #expect(chat.request(["id": 1, "command": "session", "category": "playAndRecord", "active": true])?["result"]?["active"] == true)
        let began = try #require(game.event("session"))
        #expect(began["kind"] == "interruptionBegan")
        #expect(began["reason"] == "otherSessionActivated")
        #expect(try Signals.peak(daemon.render(seconds: 0.1)) == 0, "the game is silent during the call")
        #expect(game.request(["id": 9, "command": "session"])?["result"]?["interrupted"] == true)

        #expect(chat.request(["id": 2, "command": "session", "active": false])?.isOK == true)
        let ended = try #require(game.event("session"))
        #expect(ended["kind"] == "interruptionEnded")
        #expect(ended["shouldResume"] == true)
        _ = try daemon.render(seconds: 0.02)
        #expect(abs(Signals.rms(try daemon.render(seconds: 0.1), channel: 0) - level) < 0.01 * level, "back at its level")
    }

    @Test func aDuckingChatLowersTheGameToTheDuckGain() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let game = try game(daemon)
        let level = Signals.rms(try daemon.render(seconds: 0.1), channel: 0)
        let chat = try daemon.connect()
        #expect(chat.request(["id": 1, "command": "session", "category": "playAndRecord", "options": ["duckOthers"],
                              "active": true])?.isOK == true)
        let ducked = try #require(game.event("session"))
        #expect(ducked["kind"] == "ducked")
        _ = try daemon.render(seconds: 0.02)
        let lowered = Signals.rms(try daemon.render(seconds: 0.1), channel: 0)
        #expect(abs(lowered / level - Double(daemon.server.sessions.duckGain)) < 0.01)
        chat.finishSending()                       // the chat client leaves: its session goes with it
        #expect(game.event("session")?["kind"] == "unducked")
        _ = try daemon.render(seconds: 0.02)
        let restored = Signals.rms(try daemon.render(seconds: 0.1), channel: 0)
        #expect(abs(restored / level - 1) < 0.01, "restored \(restored) of \(level)")
    }

    @Test func anApplicationInterruptionPausesExactlyThatClient() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let game = try game(daemon)
        let ui = try daemon.connect()                               // ambient: mixes with the game
        let file = try daemon.sineFile("click", frequency: 1000, seconds: 2)
        #expect(ui.request(["id": 1, "command": "playSound", "file": .string(file)])?["result"]?["outcome"] == "playing")
        #expect(game.request(["id": 5, "command": "session", "interruption": "begin"])?["result"]?["interrupted"] == true)
        let mix = try daemon.render(seconds: 0.2)
        #expect(abs(Signals.frequency(mix) - 1000) < 2, "only the UI client's sound is left")
        #expect(game.request(["id": 6, "command": "session", "interruption": "end"])?["result"]?["interrupted"] == false)
    }

    @Test func routeChangesReachSubscribers() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(client.request(["id": 1, "command": "subscribe", "events": ["route"]])?.isOK == true)
        let connected = NIOLockedValueBox(true)
        daemon.device.route.withLockedValue { route in
            route.hooks.isConnected = { _ in connected.withLockedValue { $0 } }
            route.hooks.openReplacement = { _ throws(SoundstageError) in try Device.openLoopbackHandle() }
        }
        _ = try daemon.render(seconds: 0.02)
        connected.withLockedValue { $0 = false }     // the output goes away...
        _ = try daemon.render(seconds: 0.02)          // ...and a new one is opened
        #expect(client.event("route")?["reason"] == "oldDeviceUnavailable")
        #expect(client.event("route")?["reason"] == "newDeviceAvailable")
    }
}
