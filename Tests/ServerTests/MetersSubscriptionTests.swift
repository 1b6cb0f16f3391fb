@testable import Soundstage
import Foundation
import SoundstageProtocol
import Testing
import TestSupport

/// The `meters` subscription (what `soundstage top` reads): the daemon's overview, pushed to
/// every watcher while it watches.
@Suite struct MetersSubscriptionTests {
    @Test func aWatcherGetsTheOverviewUntilItUnsubscribes() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let game = try daemon.connect()
        #expect(game.request(["id": 1, "command": "session", "category": "playback"])?.isOK == true)
        let scene: JSONValue = ["format": 1, "duration": 60, "sources": [["name": "music", "sound": ["tone": ["frequency": 220, "amplitude": 0.5]],
                                                                          "loop": true, "position": [0, 0, -1]]]]
        #expect(game.request(["id": 2, "command": "loadScene", "scene": scene, "name": "level"])?.isOK == true)
        #expect(game.request(["id": 3, "command": "runScene", "scene": "level"])?.isOK == true)

        let watcher = try daemon.connect()
        let subscribed = try #require(watcher.request(["id": 1, "command": "subscribe", "events": ["meters"]]))
        #expect(subscribed["result"]?["subscribed"] == ["meters"], "\(subscribed.encoded)")
        // Mix between ticks, so each overview has levels and a render load.
        var overview: JSONValue?
        for _ in 0..<40 where overview == nil {
            _ = try daemon.render(seconds: 0.05)
            if let event = watcher.event("meters", timeout: 0.1),
               let clients = event["clients"]?.arrayValue,
               clients.contains(where: { $0["level"]?["average"]?.numberValue ?? -160 > -160 }) {
                overview = event
            }
        }
        let event = try #require(overview)
        let clients = try #require(event["clients"]?.arrayValue)
        #expect(clients.count == 2, "the game and the watcher")
        let player = try #require(clients.first { $0["session"]?["category"] == "playback" })
        #expect(player["scenes"] == 1 && player["running"] == 1)
        #expect(player["voices"]?["real"] == 1)
        let average = player["level"]?["average"]?.numberValue ?? -160
        #expect(average > -20 && average < -3, "a centred 0.5 sine: \(average) dBFS")
        #expect(event["device"]?["kind"] == "loopback")
        #expect(event["device"]?["output"]?["peak"]?.arrayValue?.count == 2)
        #expect(event["voices"]?["real"] == 1)

        #expect(watcher.request(["id": 2, "command": "unsubscribe", "events": ["meters"]])?.isOK == true)
        var after = 0
        let deadline = Date().addingTimeInterval(0.8)
        while Date() < deadline {
            if let line = watcher.readLine(timeout: 0.1), line.contains(#""event":"meters""#) { after += 1 }
        }
        #expect(after == 0, "no overview after unsubscribing")
        #expect(game.request(["id": 4, "command": "subscribe", "events": ["meters", "nonsense"]])?["error"]?["code"] == "badRequest")
    }
}
