import Foundation
import InMemoryLogging
import Logging
@testable import Soundstage
import SoundstageProtocol
@testable import SoundstageServer
import Testing

/// The daemon logs through the `Logger` it is given: starts and stops, clients, refused requests
/// (at most five a second per client, the rest counted), interruptions, route changes and output
/// events; every request at `debug`. It never sets up the logging system itself.
@Suite struct LoggingTests {
    private func logger(_ handler: InMemoryLogHandler) -> Logger { Logger(label: "test", factory: { _ in handler }) }

    private func entries(_ handler: InMemoryLogHandler, _ message: String) -> [InMemoryLogHandler.Entry] {
        handler.entries.filter { "\($0.message)" == message }
    }

    @Test func clientsRefusalsAndTheServersLifeAreLogged() throws {
        let handler = InMemoryLogHandler()
        let daemon = try TestDaemon(logger: logger(handler))
        #expect(entries(handler, "serving").first?.metadata["socket"] == "\(daemon.socketPath)")
        let client = try daemon.connect()
        #expect(client.request(["id": 0, "command": "ping"])?.isOK == true)
        // A flood of bad requests: five are logged, with what was wrong; the others are counted.
        for id in 1...20 { client.send(#"{"id": \#(id), "command": "fly"}"# + "\n") }
        for _ in 1...20 { _ = client.response() }
        client.send("{not json\n")
        _ = client.response()
        client.finishSending()
        _ = client.readLine()
        try waitFor { !entries(handler, "client disconnected").isEmpty }
        let connected = try #require(entries(handler, "client connected").first)
        #expect(connected.level == .info && connected.metadata["client"] == "1")
        let refused = entries(handler, "request refused")
        #expect(refused.count == 5, "\(refused.count) refusals logged")
        #expect(refused.first?.level == .notice)
        #expect(refused.first?.metadata["code"] == "unknownCommand" && refused.first?.metadata["command"] == "fly")
        #expect(refused.first?.metadata["client"] == "1")
        let gone = try #require(entries(handler, "client disconnected").first)
        #expect(gone.metadata["answered"] == "22" && gone.metadata["refused"] == "21", "\(gone.metadata)")
        #expect(gone.metadata["refusalsNotLogged"] == "16", "\(gone.metadata)")
        #expect(entries(handler, "request").isEmpty, "requests are logged at debug only")
        daemon.stop()
        #expect(entries(handler, "stopping").first?.metadata["clients"] == "0")
        #expect(entries(handler, "stopped").first?.metadata["errors"] == "21")
    }

    @Test func everyRequestAtDebug() throws {
        var handler = InMemoryLogHandler()
        handler.logLevel = .debug
        let daemon = try TestDaemon(logger: logger(handler))
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(client.request(["id": 7, "command": "ping"])?.isOK == true)
        let request = try #require(entries(handler, "request").first)
        #expect(request.level == .debug && request.metadata["command"] == "ping" && request.metadata["id"] == "7")
    }

    @Test func interruptionsAndRouteChangesAreLogged() throws {
        let handler = InMemoryLogHandler()
        let daemon = try TestDaemon(logger: logger(handler))
        defer { daemon.stop() }
        let game = try daemon.connect()
        #expect(game.request(["id": 1, "command": "session", "category": "soloAmbient"])?.isOK == true)
        let chat = try daemon.connect()   // after the game's answer: the game is client 1
        #expect(chat.request(["id": 1, "command": "session", "category": "playAndRecord", "active": true])?.isOK == true)
        try waitFor { !entries(handler, "session interrupted").isEmpty }
        #expect(entries(handler, "session interrupted").first?.metadata["client"] == "1")
        #expect(entries(handler, "session interrupted").first?.metadata["reason"] == "otherSessionActivated")
        #expect(chat.request(["id": 2, "command": "session", "active": false])?.isOK == true)
        try waitFor { !entries(handler, "interruption ended").isEmpty }
        #expect(entries(handler, "interruption ended").first?.metadata["resume"] == "true")

        daemon.device.postRoute(RouteChange(reason: .outputMoved, time: 1, previousOutput: "A", output: "B"))
        try waitFor { !entries(handler, "route change").isEmpty }
        let route = try #require(entries(handler, "route change").first)
        #expect(route.level == .notice)
        #expect(route.metadata["reason"] == "outputMoved" && route.metadata["from"] == "A" && route.metadata["to"] == "B")
    }

    /// An output that underruns in a loop logs five lines a second, not one per underrun.
    @Test func outputEventsAreRateLimited() {
        let handler = InMemoryLogHandler()
        let log = OutputLog(logger: logger(handler))
        for count in 1...50 { log.log(.underrun(count: count)) }
        log.log(.serverLost(reason: "the connection was refused"))
        let underruns = entries(handler, "output underrun: the stream ran out of audio")
        #expect(underruns.count == 5)
        #expect(underruns.first?.level == .warning && underruns.first?.metadata["underruns"] == "1")
        #expect(entries(handler, "lost the audio server; waiting for it to come back").isEmpty, "over the limit too")
        let device = try? Device.loopback()
        if let device {
            log.watch(device)
            log.stop(watching: device)
            device.close()
        }
        #expect(entries(handler, "output events not logged (more than five a second)").first?.metadata["count"] == "46")
    }

    @Test func theLimiterLetsFiveThroughPerWindowAndCountsTheRest() {
        var limiter = LogRateLimiter(burst: 5, seconds: 1)
        let second: UInt64 = 1_000_000_000
        let first = (0..<8).map { _ in limiter.admit(now: 10 * second).log }
        #expect(first == [true, true, true, true, true, false, false, false])
        let next = limiter.admit(now: 11 * second + 1)
        #expect(next.log && next.heldBack == 3, "a new window: the three held back are reported")
        #expect(limiter.takeSuppressed() == 0)
    }

    private func waitFor(_ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(10)
        while !condition() {
            guard Date() < deadline else { throw CancellationError() }
            usleep(5_000)
        }
    }
}
