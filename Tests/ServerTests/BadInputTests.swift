import Foundation
import SoundstageClient
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

/// A value a scene file refuses is refused by the daemon's commands in the same words (the ranges
/// live once, in `SceneLimits`), and one at the edge is accepted by both.
@Suite struct SharedLimitsTests {
    @Test func sceneFilesAndCommandsRefuseTheSameValuesAlike() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        let file = JSONValue.string(try daemon.sineFile("shot", seconds: 0.1))
        func source(_ member: String, _ value: JSONValue) -> JSONValue {
            ["format": 1, "duration": 1, "sources": [["name": "s", "sound": ["tone": ["frequency": 330]], member: value]]]
        }
        var id = 0
        func answer(_ request: JSONValue) throws -> JSONValue {
            id += 1
            var request = request.objectValue!
            request["id"] = .number(Double(id))
            return try #require(client.request(.object(request)))
        }
        #expect(try answer(["command": "loadScene", "name": "room", "scene": source("gain", 1)]).isOK)
        let cases: [(member: String, value: JSONValue, words: String)] = [
            ("gain", 100.5, "100.5 is out of range; expected 0 to 100"),
            ("gain", -0.5, "-0.5 is out of range; expected 0 to 100"),
            ("pitch", 0, "0 is out of range; expected 0.01 to 100"),
            ("pitch", 101, "101 is out of range; expected 0.01 to 100"),
            ("position", [1, 2], "expected [x, y, z] (3 numbers), got an array"),
            ("position", [1, "2", 3], "position[1]: expected a number, got a string"),
        ]
        for item in cases {
            let scene = try answer(["command": "loadScene", "name": "bad", "scene": source(item.member, item.value)])
            #expect(scene.errorCode == "invalidScene")
            #expect(scene["error"]?["message"]?.stringValue?.contains("sources[0].\(item.member)") == true, "\(scene.encoded)")
            #expect(scene["error"]?["message"]?.stringValue?.contains(item.words) == true, "\(scene.encoded)")
            var request: [String: JSONValue] = ["command": "playAt", "scene": "room", "file": file, "position": [0, 0, 0]]
            request[item.member] = item.value
            let command = try answer(.object(request))
            #expect(command.errorCode == "badRequest")
            #expect(command["error"]?["message"]?.stringValue?.contains("playAt: \(item.member)") == true, "\(command.encoded)")
            #expect(command["error"]?["message"]?.stringValue?.contains(item.words) == true, "\(command.encoded)")
        }
        // The listener's gain and orientation: the same rules in a scene file and in setListener.
        for (member, value, words) in [("gain", JSONValue.number(101), "101 is out of range; expected 0 to 100"),
                                       ("at", [0, 0, 0], "must not be the zero vector")] {
            let scene = try answer(["command": "loadScene", "name": "bad",
                                    "scene": ["format": 1, "duration": 1, "listener": [member: value], "sources": []]])
            #expect(scene["error"]?["message"]?.stringValue?.contains("listener.\(member): \(words)") == true, "\(scene.encoded)")
            let command = try answer(["command": "setListener", "scene": "room", member: value])
            #expect(command["error"]?["message"]?.stringValue?.contains("setListener: \(member): \(words)") == true, "\(command.encoded)")
        }
        // The edges are accepted by both.
        let edge = try answer(["command": "playAt", "scene": "room", "file": file, "position": [0, 0, 0], "gain": 100, "pitch": 0.01])
        #expect(edge.isOK, "\(edge.encoded)")
        #expect(try answer(["command": "loadScene", "name": "edge", "scene": source("pitch", 0.01)]).isOK)
    }
}

/// The protocol's commands and topics are types (`Command`, `EventTopic`) shared by the server,
/// the client and the docs: each one is served, and protocol.md documents each one.
@Suite struct ProtocolVocabularyTests {
    static let protocolDoc: String = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/protocol.md")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    @Test func everyCommandIsServedAndDocumented() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        for (index, command) in Command.allCases.enumerated() {
            let answer = try #require(client.request(["id": .number(Double(index)), "command": .string(command.rawValue)]))
            #expect(answer.errorCode != "unknownCommand", "\(command) is not served")
            #expect(Self.protocolDoc.contains("| `\(command.rawValue)` |") || Self.protocolDoc.contains("`\(command.rawValue)` /")
                    || Self.protocolDoc.contains("/ `\(command.rawValue)`"), "\(command) is not in protocol.md's table")
        }
        client.send(#"{"id": 99, "command": "fly"}"# + "\n")
        let unknown = try #require(client.response())
        let message = unknown["error"]?["message"]?.stringValue ?? ""
        #expect(Command.allCases.allSatisfy { message.contains($0.rawValue) }, "the refusal lists every command: \(message)")
    }

    @Test func everyTopicCanBeSubscribedAndIsDocumented() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        let answer = try #require(client.request(["id": 1, "command": "subscribe",
                                                  "events": .array(EventTopic.allCases.map { .string($0.rawValue) })]))
        #expect(answer.isOK, "\(answer.encoded)")
        for topic in EventTopic.allCases {
            #expect(Self.protocolDoc.contains("| `\(topic.rawValue)` | `"), "\(topic) is not in protocol.md's events table")
        }
    }
}

/// One error vocabulary from the engine to the wire: every `SoundstageError.Code` is documented
/// in protocol.md, and a failure the client reads back carries the same typed code.
@Suite struct ErrorVocabularyTests {
    @Test func everyCodeIsDocumented() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let protocolDoc = try String(contentsOf: url.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
        let apiGuide = try String(contentsOf: url.appendingPathComponent("docs/api-guide.md"), encoding: .utf8)
        for code in SoundstageError.Code.engineCodes + SoundstageError.Code.protocolCodes {
            #expect(protocolDoc.contains("`\(code.rawValue)`"), "\(code) is not in protocol.md")
        }
        for code in SoundstageError.Code.engineCodes {
            #expect(apiGuide.contains("`.\(code.rawValue)`"), "\(code) is not in api-guide.md's error list")
        }
    }

    @Test func theClientReadsTheEngineCodeTheDaemonSent() throws {
        let line = ProtocolLine.error(id: 3, code: .unknownSoundID, message: "no sound 9", subject: "9")
        guard case let .response(id, .failure(error)) = try ServerMessage(line: Data(line.utf8)) else {
            Issue.record("not a failure: \(line)")
            return
        }
        #expect(id == 3 && error.code == .unknownSoundID && error.subject == "9")
        #expect(error.code == SoundstageError(.unknownSoundID, "x").code, "the engine's code, not a copy of it")
    }
}

/// The protocol's types, shared by the daemon and the client: each command's arguments come from
/// one table (`Command.accepts` / `requires`) that the daemon enforces, the client checks before
/// sending, and protocol.md documents; answers and events are read through the same types the
/// daemon writes them with.
@Suite struct TypedProtocolTests {
    /// Every command refuses an argument outside its table and asks for each one it requires,
    /// naming it — the daemon reads the same table the client is built from.
    @Test func theDaemonEnforcesEachCommandsArgumentTable() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        var id = 0.0
        for command in Command.allCases {
            for stranger in Argument.allCases where !command.accepts.contains(stranger) {
                id += 1
                let answer = try #require(client.request(["id": .number(id), "command": .string(command.rawValue),
                                                          stranger.rawValue: 1]))
                #expect(answer.errorCode == "badRequest", "\(command) took \(stranger): \(answer.encoded)")
                #expect(answer["error"]?["message"]?.stringValue?.contains(stranger.rawValue) == true, "\(answer.encoded)")
            }
            for needed in command.requires {
                id += 1
                var members: [String: JSONValue] = ["id": .number(id), "command": .string(command.rawValue)]
                for other in command.requires where other != needed { members[other.rawValue] = "x" }
                let answer = try #require(client.request(.object(members)))
                #expect(answer.errorCode == "badRequest", "\(command) without \(needed): \(answer.encoded)")
                #expect(answer["error"]?["message"]?.stringValue?.contains(needed.rawValue) == true, "\(answer.encoded)")
            }
        }
    }

    /// Each command's row in protocol.md names exactly the arguments of its table; every event is there.
    @Test func protocolMarkdownListsEachCommandsArguments() throws {
        let doc = ProtocolVocabularyTests.protocolDoc
        for command in Command.allCases {
            let row = try #require(doc.split(separator: "\n").first {
                $0.hasPrefix("| `\(command.rawValue)` |") || $0.hasPrefix("| `\(command.rawValue)` /") || $0.contains("/ `\(command.rawValue)` |")
            }, "\(command) has no row")
            let columns: [Substring] = row.split(separator: "|", omittingEmptySubsequences: true)
            let pieces: [Substring] = columns.count > 1 ? columns[1].split(separator: "`", omittingEmptySubsequences: false) : []
            var named: Set<Argument> = []
            for (index, piece) in pieces.enumerated() where index % 2 == 1 {
                if let argument = Argument(rawValue: String(piece)) { named.insert(argument) }
            }
            #expect(named == command.accepts, "\(command): protocol.md names \(named.sorted()), the table \(command.accepts.sorted())")
        }
        for event in EventName.allCases {
            #expect(doc.contains("`\(event.rawValue)`"), "\(event) is not in protocol.md")
        }
    }

    /// The client refuses a request its table does not allow before anything is sent (the daemon
    /// answers nothing more), and reads answers and events through the daemon's own types.
    @Test func theClientChecksTheTableAndReadsTypedAnswers() async throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try await SoundstageClient.connect(socketPath: daemon.socketPath)
        try await client.ping()
        let answered = daemon.server.statistics.answered
        let refused: [(Command, [Argument: JSONValue])] = [(.playAt, [.sound: 1]), (.disposeSound, [:]), (.ping, [.volume: 1])]
        for (command, arguments) in refused {
            do {
                try await client.request(command, arguments)
                Issue.record("\(command) \(arguments) was sent")
            } catch let error as ServerError {
                #expect(error.code == .badRequest, "\(error)")
                #expect(error.message.hasPrefix(command.rawValue), "\(error)")
            }
        }
        #expect(daemon.server.statistics.answered == answered, "nothing reached the daemon")

        try await client.subscribe([.completion])
        let play = try await client.playSound(file: try daemon.sineFile("tick", seconds: 0.05))
        #expect(play.outcome == .playing)
        _ = try daemon.render(seconds: 0.3)          // the 50 ms tick plays out
        let ended = await withTaskGroup(of: ServerEvent?.self) { group in
            group.addTask {
                for await event in client.events where event.kind == .completion && event.request == play.request { return event }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(30))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        #expect(ended?.outcome == .finished, "\(String(describing: ended))")
        await client.close()
    }

    /// What the daemon writes as a sound answer, the client reads back field for field; an
    /// outcome the protocol does not have is a `badJSON` error, not a guess.
    @Test func aSoundAnswerRoundTripsAndAnUnknownOutcomeIsRefused() throws {
        for outcome in PlayOutcome.allCases {
            let answer = SoundAnswer(sound: 7, outcome: outcome)
            #expect(try SoundAnswer(json: answer.json) == answer)
        }
        let registered = SoundAnswer(sound: 4_000_000_000, name: "/tmp/a.wav")
        #expect(try SoundAnswer(json: registered.json) == registered)
        #expect(try SoundAnswer(json: SoundAnswer(sound: 1, disposed: true).json).disposed == true)
        let error = #expect(throws: ServerError.self) { _ = try SoundAnswer(json: ["sound": 1, "outcome": "exploded"]) }
        #expect(error?.code == .badJSON)
        #expect(#expect(throws: ServerError.self) { _ = try SoundAnswer(json: ["sound": -1]) }?.code == .badJSON)
    }
}

/// Every answer and event a real daemon sends reads as the type the protocol declares for it
/// (`Command.answer`, `EventName.body`), and writes back what it read.
@Suite struct TypedAnswerTests {
    /// Reads `json` as a `T` and checks that `T` writes back the same thing.
    static func roundTrips<T: ProtocolBody>(_ type: T.Type, _ json: JSONValue) throws -> Bool {
        let value = try T(json: json)
        return try T(json: value.json) == value
    }

    @Test func everyAnswerAndEventReadsAsItsType() throws {
        let daemon = try TestDaemon()
        var stopped = false
        defer { if !stopped { daemon.stop() } }
        let client = try daemon.connect()
        var events: [JSONValue] = []
        var id = 0.0
        /// Sends a request and returns its result, keeping the events read on the way.
        func answer(_ command: Command, _ arguments: [String: JSONValue] = [:]) throws -> JSONValue {
            id += 1
            var members = arguments
            members["id"] = .number(id)
            members["command"] = .string(command.rawValue)
            client.send(.object(members))
            while let message = client.read() {
                if message["event"] != nil { events.append(message); continue }
                #expect(message["id"] == .number(id))
                let result = try #require(message["result"], "\(command): \(message.encoded)")
                #expect(try Self.roundTrips(command.answer, result), "\(command): \(result.encoded)")
                return result
            }
            Issue.record("\(command): no answer")
            return .null
        }
        func drainEvents() { while let message = client.read(timeout: 0.5) { if message["event"] != nil { events.append(message) } } }

        var answered: Set<Command> = []
        func ask(_ command: Command, _ arguments: [String: JSONValue] = [:]) throws -> JSONValue {
            answered.insert(command)
            return try answer(command, arguments)
        }
        _ = try ask(.ping)
        _ = try ask(.status)
        _ = try ask(.subscribe, ["events": ["completion", "session", "route"]])
        let file = try daemon.sineFile("tick", seconds: 0.05)
        let sound = try ask(.registerSound, ["file": .string(file)])["sound"] ?? .null
        _ = try ask(.playSound, ["sound": sound])
        _ = try ask(.listSounds)
        _ = try ask(.setSoundVolume, ["volume": 0.5])
        let scene: JSONValue = ["format": 1, "duration": 0.2, "sources": [["name": "tone", "sound": ["tone": ["frequency": 330]]]]]
        _ = try ask(.loadScene, ["scene": scene, "name": "room"])
        _ = try ask(.runScene, ["scene": "room"])
        _ = try ask(.listScenes)
        _ = try ask(.playAt, ["scene": "room", "file": .string(file), "position": [1, 0, 0]])
        _ = try ask(.setListener, ["scene": "room", "at": [0, 0, 1]])
        _ = try ask(.session, ["category": "playback", "active": true])
        _ = try daemon.render(seconds: 0.5)                 // the tick, the one-shot and the scene end
        drainEvents()
        _ = try ask(.stopScene, ["scene": "room"])
        _ = try ask(.unloadScene, ["scene": "room"])
        _ = try ask(.disposeSound, ["sound": sound])
        _ = try ask(.unsubscribe, ["events": ["route"]])
        #expect(answered == Set(Command.allCases), "asked every command")

        daemon.stop()
        stopped = true
        drainEvents()
        var seen: Set<EventName> = []
        for event in events {
            let name = try #require(event["event"]?.stringValue.flatMap(EventName.init(rawValue:)), "\(event.encoded)")
            seen.insert(name)
            guard let type = name.body else { continue }
            #expect(try Self.roundTrips(type, event), "\(name): \(event.encoded)")
        }
        #expect(seen.isSuperset(of: [.completion, .sceneEnded, .session, .shutdown]), "events seen: \(seen)")
        // A route change does not happen on a loopback device: its type, written and read.
        #expect(try Self.roundTrips(RouteEvent.self, RouteEvent(reason: "outputMoved", time: 1.5).json))
    }
}
