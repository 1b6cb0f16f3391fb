import Foundation
import SoundstageProtocol
import Testing

/// Every kind of bad input gets an error answer (or a clean close), and the daemon serves on.
@Suite struct BadInputTests {
    @Test func everyMalformedRequestGetsItsErrorAndTheConnectionServesOn() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        let cases: [(line: String, code: String, id: JSONValue)] = [
            ("{not json", "badJSON", .null),
            ("[1, 2]", "badRequest", .null),
            ("{\"command\":\"ping\"}", "badRequest", .null),                                   // no id
            ("{\"id\":[1],\"command\":\"ping\"}", "badRequest", .null),                         // id of the wrong type
            ("{\"id\":3,\"command\":\"fly\"}", "unknownCommand", 3),
            ("{\"id\":4,\"command\":\"ping\",\"version\":2}", "unsupportedVersion", 4),
            ("{\"id\":5}", "badRequest", 5),                                                     // no command
            ("{\"id\":6,\"command\":7}", "badRequest", 6),
            ("{\"id\":7,\"command\":\"playSound\",\"sound\":\"one\"}", "badRequest", 7),          // wrong type
            ("{\"id\":8,\"command\":\"playSound\",\"sound\":1,\"volume\":2}", "badRequest", 8),   // unknown field
            ("{\"id\":9,\"command\":\"playSound\"}", "badRequest", 9),                           // none of sound/file/event
            ("{\"id\":10,\"command\":\"playSound\",\"file\":\"relative.wav\"}", "badRequest", 10),
            ("{\"id\":11,\"command\":\"playSound\",\"sound\":99}", "unknownSoundID", 11),
            ("{\"id\":12,\"command\":\"playSound\",\"file\":\"/no/such.wav\"}", "notFound", 12),
            ("{\"id\":13,\"command\":\"runScene\",\"scene\":\"nothing\"}", "notFound", 13),
            ("{\"id\":14,\"command\":\"loadScene\",\"scene\":{\"format\":1,\"duration\":-1,\"sources\":[]},\"name\":\"x\"}",
             "invalidScene", 14),
            ("{\"id\":15,\"command\":\"session\",\"category\":\"karaoke\"}", "badRequest", 15),
            ("{\"id\":16,\"command\":\"subscribe\",\"events\":[\"everything\"]}", "badRequest", 16),
        ]
        for item in cases {
            client.send(item.line + "\n")
            let answer = try #require(client.response(), "no answer to \(item.line)")
            #expect(answer.errorCode == item.code, "\(item.line) → \(answer.encoded)")
            #expect(answer["id"] == item.id, "\(item.line)")
            #expect(answer["error"]?["message"]?.stringValue?.isEmpty == false)
        }
        #expect(client.request(["id": "after", "command": "ping"])?.isOK == true)
        #expect(daemon.server.statistics.errors == cases.count)
    }

    @Test func aLineOver64KiBIsRefusedAndTheNextLineIsServed() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        let huge = "{\"id\":1,\"command\":\"ping\",\"pad\":\"" + String(repeating: "x", count: 200_000) + "\"}\n"
        client.send(huge + "{\"id\":2,\"command\":\"ping\"}\n")
        let refused = try #require(client.response())
        #expect(refused.errorCode == "lineTooLong")
        #expect(refused["error"]?["message"]?.stringValue?.contains("65536") == true)
        #expect(client.response()?["id"] == 2)
        #expect(daemon.server.statistics.linesTooLong == 1)
        // Exactly at the limit is fine: a 65,536-byte request is read.
        let prefix = "{\"id\":3,\"command\":\"ping\",\"version\":1"
        let exact = prefix + String(repeating: " ", count: 65_536 - prefix.utf8.count - 1) + "}"
        #expect(exact.utf8.count == 65_536)
        client.send(exact + "\n")
        #expect(client.response()?["id"] == 3)
    }

    @Test func halfALineThenADisconnectLeavesOthersServedAndNothingBehind() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let before = daemon.device.liveObjects
        let other = try daemon.connect()
        #expect(other.request(["id": 1, "command": "ping"])?.isOK == true)
        do {
            let rude = try daemon.connect()
            #expect(rude.request(["id": 1, "command": "registerSound", "file": .string(try daemon.sineFile("a"))])?.isOK == true)
            rude.send("{\"id\":2,\"command\":\"play")
        }   // closed here, mid-line
        try daemon.render(until: { daemon.server.statistics.clients == 1 })
        #expect(daemon.server.statistics.clients == 1)
        #expect(other.request(["id": 2, "command": "ping"])?.isOK == true)
        #expect(daemon.device.liveObjects == before, "the gone client's registration is freed")
    }

    @Test func aRequestWithoutNewlineIsAnsweredWhenTheClientHalfCloses() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        client.send("{\"id\":1,\"command\":\"ping\"}")
        client.finishSending()
        #expect(client.response()?["id"] == 1)
        #expect(client.isClosedByPeer(), "the daemon closes once everything is answered")
    }
}
