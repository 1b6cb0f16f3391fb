import Foundation
import SoundstageProtocol
import Testing
import TestSupport

/// One client cannot take the daemon down or swell it for everyone: each of the campaign's
/// crashes is a `quotaExceeded` (or a clear error) now, and the daemon serves on — the same
/// client, and the others.
@Suite struct QuotaTests {
    static func tone(seconds: Double, contexts: Int = 1) -> JSONValue {
        .object(["format": 1, "duration": .number(seconds),
                 "sources": .array((0..<contexts).map { index in
                     ["name": .string("t\(index)"), "sound": ["tone": [:]], "context": .string("c\(index)")]
                 })])
    }

    /// The client and another one still work, and the failed request changed nothing.
    static func servesOn(_ daemon: TestDaemon, _ client: LineSocket, scenes: Int) throws {
        #expect(client.request(["id": "ping", "command": "ping"])?.isOK == true)
        let listed = try #require(client.request(["id": "list", "command": "listScenes"]))
        #expect(listed["result"]?["scenes"]?.arrayValue?.count == scenes, "\(listed.encoded)")
        let other = try daemon.connect()
        #expect(other.request(["id": 1, "command": "loadScene", "name": "x", "scene": tone(seconds: 1)])?.isOK == true)
    }

    @Test func aSceneWithHundredsOfContextsIsAQuotaNotACrash() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(client.request(["id": 1, "command": "loadScene", "name": "ok", "scene": Self.tone(seconds: 1, contexts: 4)])?.isOK == true)
        let answer = try #require(client.request(["id": 2, "command": "loadScene", "name": "many", "scene": Self.tone(seconds: 1, contexts: 300)]))
        #expect(answer.errorCode == "quotaExceeded", "\(answer.encoded)")
        #expect(answer["error"]?["message"]?.stringValue?.contains("--max-contexts") == true)
        try Self.servesOn(daemon, client, scenes: 1)
    }

    @Test func scenesPastTheQuotaAreRefusedAndNothingIsLost() throws {
        let daemon = try TestDaemon { $0.quotas.scenes = 3 }
        defer { daemon.stop() }
        let client = try daemon.connect()
        for index in 0..<3 {
            #expect(client.request(["id": .number(Double(index)), "command": "loadScene", "name": .string("s\(index)"),
                                    "scene": Self.tone(seconds: 1)])?.isOK == true)
        }
        let answer = try #require(client.request(["id": 9, "command": "loadScene", "name": "s9", "scene": Self.tone(seconds: 1)]))
        #expect(answer.errorCode == "quotaExceeded")
        #expect(answer["error"]?["message"]?.stringValue?.contains("may hold 3") == true, "\(answer.encoded)")
        try Self.servesOn(daemon, client, scenes: 3)
    }

    @Test func aDayLongSceneIsAQuotaNotAnAbort() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        let answer = try #require(client.request(["id": 1, "command": "loadScene", "name": "day", "scene": Self.tone(seconds: 86_400)]))
        #expect(answer.errorCode == "quotaExceeded", "\(answer.encoded)")
        #expect(answer["error"]?["message"]?.stringValue?.contains("--max-scene-seconds") == true)
        try Self.servesOn(daemon, client, scenes: 0)
    }

    @Test func aMultiGigabyteWAVInPlayAtIsAClearErrorNotAnAbort() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let huge = daemon.directory + "/huge.wav"
        try LargeFiles.sparseWAV(at: huge, frames: 1_000_000_000, channels: 2)     // 4 GB as 16-bit, 8 GB as floats
        let client = try daemon.connect()
        #expect(client.request(["id": 1, "command": "loadScene", "name": "s", "scene": Self.tone(seconds: 5)])?.isOK == true)
        let answer = try #require(client.request(["id": 2, "command": "playAt", "scene": "s", "context": "c0", "file": .string(huge),
                                                  "position": [0, 0, 0]]))
        #expect(answer.errorCode == "tooLarge", "\(answer.encoded)")
        try Self.servesOn(daemon, client, scenes: 1)
    }

    @Test func decodedBytesPerClientAreCounted() throws {
        let daemon = try TestDaemon { $0.quotas.bytesPerClient = 1 << 20 }     // 1 MiB
        defer { daemon.stop() }
        let small = try daemon.sineFile("small", seconds: 0.5)              // 96 kB as floats
        let big = try daemon.sineFile("big", seconds: 10)                   // 1.9 MB as floats
        let client = try daemon.connect()
        #expect(client.request(["id": 1, "command": "registerSound", "file": .string(small)])?.isOK == true)
        let refused = try #require(client.request(["id": 2, "command": "registerSound", "file": .string(big)]))
        #expect(refused.errorCode == "quotaExceeded", "\(refused.encoded)")
        #expect(refused["error"]?["message"]?.stringValue?.contains("--max-client-mb") == true)
        let listed = try #require(client.request(["id": 3, "command": "listSounds"]))
        #expect(listed["result"]?["sounds"]?.arrayValue?.count == 1, "the refused sound is not kept: \(listed.encoded)")
        #expect(client.request(["id": 4, "command": "playSound", "sound": 1])?.isOK == true, "the first one still plays")
    }

    @Test func registeredSoundsAreCounted() throws {
        let daemon = try TestDaemon { $0.quotas.registeredSounds = 2 }
        defer { daemon.stop() }
        let client = try daemon.connect()
        for index in 0..<2 {
            let file = try daemon.sineFile("s\(index)", frequency: 300 + Double(index) * 100, seconds: 0.1)
            #expect(client.request(["id": .number(Double(index)), "command": "registerSound", "file": .string(file)])?.isOK == true)
        }
        let third = try daemon.sineFile("s2", seconds: 0.1)
        let answer = try #require(client.request(["id": 9, "command": "playSound", "file": .string(third)]))
        #expect(answer.errorCode == "quotaExceeded", "\(answer.encoded)")
        #expect(client.request(["id": 10, "command": "playSound", "sound": 2])?.isOK == true)
    }

    @Test func aFIFORegisteredTwiceBlocksNothing() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let fifo = daemon.directory + "/pipe.wav"
        #expect(mkfifo(fifo, 0o600) == 0)
        let client = try daemon.connect()
        for id in 1...2 {
            let answer = try #require(client.request(["id": .number(Double(id)), "command": "registerSound", "file": .string(fifo)]))
            #expect(answer["error"]?["message"]?.stringValue?.contains("FIFO") == true, "\(answer.encoded)")
        }
        for (id, path) in [(3, "/dev/zero"), (4, daemon.directory), (5, "/proc/self/mem"), (6, "/etc/shadow")] {
            let answer = try #require(client.request(["id": .number(Double(id)), "command": "playSound", "file": .string(path)]))
            #expect(answer.errorCode != nil, "\(path): \(answer.encoded)")
        }
        // The decoding pool is free: another client registers and loads at once.
        let other = try daemon.connect()
        let file = try daemon.sineFile("fine")
        #expect(other.request(["id": 1, "command": "registerSound", "file": .string(file)])?.isOK == true)
        #expect(other.request(["id": 2, "command": "loadScene", "name": "x", "scene": Self.tone(seconds: 1)])?.isOK == true)
    }

    @Test func inlineScenesRefuseRelativeSoundPaths() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        for path in ["../../etc/passwd", "work/x.wav"] {
            let scene: JSONValue = ["format": 1, "duration": 1, "sources": [["name": "a", "sound": .string(path)]]]
            let answer = try #require(client.request(["id": 1, "command": "loadScene", "name": "rel", "scene": scene]))
            #expect(answer.errorCode == "badRequest", "\(answer.encoded)")
            #expect(answer["error"]?["message"]?.stringValue?.contains("absolute") == true)
        }
    }

    /// A request queued behind one that runs on the decoding pool is answered as soon as it is
    /// ready, without the client sending anything more.
    @Test func pipelinedAnswersLeaveWithoutMoreInput() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        for batch in 0..<50 {
            let client = try daemon.connect()
            let file = try daemon.sineFile("p\(batch)", seconds: 0.05)
            client.send(#"{"id":1,"command":"registerSound","file":"\#(file)"}"# + "\n" + #"{"id":2,"command":"playSound","sound":1}"# + "\n"
                        + #"{"id":3,"command":"ping"}"# + "\n")
            for id in 1...3 {
                let answer = client.response(timeout: 10)
                #expect(answer?["id"] == .number(Double(id)), "batch \(batch): answer \(id) stalled")
                if answer == nil { return }
            }
        }
    }
}
