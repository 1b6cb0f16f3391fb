import Foundation
import InMemoryLogging
import Logging
import NIOConcurrencyHelpers
@testable import Soundstage
import SoundstageClient
import SoundstageProtocol
@testable import SoundstageServer
import Testing
import TestSupport

/// The socket's permissions, stale sockets, a second daemon, and shutting down.
@Suite struct EndpointTests {
    private func mode(_ path: String) -> mode_t {
        var info = stat()
        stat(path, &info)
        return info.st_mode & 0o777
    }

    @Test func theSocketIsPrivateToItsUser() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        #expect(mode(daemon.socketPath) == 0o600)
        #expect(mode(daemon.directory + "/run") == 0o700)
    }

    /// A client that sees the socket file can connect at once, and never finds it open to
    /// others: the daemon binds under a staging name, makes it 0600, and listens before the
    /// socket takes its real name. A watcher thread spins on the path while the daemon starts,
    /// many times over, and connects the instant the file appears.
    @Test func theSocketAppearsOnlyOnceItAcceptsAndIsPrivate() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("appear-\(UUID().uuidString.prefix(6))").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/socket"
        var refused: [String] = []
        for round in 0..<200 {
            let seen = NIOLockedValueBox<(connected: Bool?, mode: mode_t, stop: Bool)>((nil, 0, false))
            let watcher = Thread {
                var info = stat()
                while lstat(path, &info) != 0 { if seen.withLockedValue({ $0.stop }) { return } }
                let connected = (try? LineSocket(path: path)) != nil
                seen.withLockedValue { $0.connected = connected; $0.mode = info.st_mode & 0o777 }
            }
            watcher.start()
            let server = SoundServer(device: device)
            defer { server.shutdown() }
            defer { seen.withLockedValue { $0.stop = true } }
            try server.start(socketPath: path)
            let deadline = Date().addingTimeInterval(30)
            while seen.withLockedValue({ $0.connected }) == nil && Date() < deadline { usleep(100) }
            let (connected, mode, _) = seen.withLockedValue { $0 }
            if connected != true || mode != 0o600 { refused.append("round \(round): connected \(connected == true), mode \(String(mode, radix: 8))") }
        }
        #expect(refused.isEmpty, "\(refused.count) of 200 starts: \(refused.prefix(5))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty, "no staging socket or lock left")
    }

    /// If the system closes the listening socket, the daemon says so and listens again at once:
    /// its clients keep their connections, and new ones are served at the same path.
    @Test func aListenerThatFailsIsReplacedAndClientsKeepTheirConnections() throws {
        let log = InMemoryLogHandler()
        let daemon = try TestDaemon(logger: Logger(label: "test", factory: { _ in log }))
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(client.request(["id": 1, "command": "ping"])?.isOK == true)
        let first = try #require(daemon.server.currentListener)
        try first.close().wait()
        var newcomer: LineSocket?
        for _ in 0..<1_000 where newcomer == nil {
            if let current = daemon.server.currentListener, current !== first { newcomer = try? daemon.connect() }
            if newcomer == nil { usleep(10_000) }
        }
        #expect(try #require(newcomer).request(["id": 2, "command": "ping"])?.isOK == true, "a new client is served")
        #expect(client.request(["id": 3, "command": "ping"])?.isOK == true, "the first client kept its connection")
        #expect(daemon.server.failure == nil)
        #expect(mode(daemon.socketPath) == 0o600)
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath + "~"), "nothing left at the staging name")
        let messages = log.entries.map { "\($0.level) \($0.message)" }
        #expect(messages.contains("error the listening socket closed; listening again"), "\(messages)")
        #expect(messages.contains("notice listening again"), "\(messages)")
    }

    /// A listener that closes where no new one can be made (its directory is gone): after three
    /// tries the daemon stops as for SIGTERM — its clients are told — and `failure` says why.
    @Test func aListenerThatCannotBeReplacedStopsTheServerAndSaysWhy() throws {
        let log = InMemoryLogHandler()
        let daemon = try TestDaemon(logger: Logger(label: "test", factory: { _ in log }))
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(client.request(["id": 1, "command": "ping"])?.isOK == true)
        try FileManager.default.removeItem(atPath: daemon.directory + "/run")
        try #require(daemon.server.currentListener).close().wait()
        let told = try #require(client.read(timeout: 30), "the client hears the daemon stop")
        #expect(told["event"] == "shutdown")
        #expect(told["reason"]?.stringValue?.contains("could not listen again") == true, "\(told)")
        #expect(daemon.server.failure?.contains("could not listen again") == true, "\(String(describing: daemon.server.failure))")
        #expect(log.entries.contains { $0.level == .critical && "\($0.message)".contains("could not listen again") })
    }

    /// The longest path SwiftNIO binds (103 bytes), less the one byte of the staging name: 102
    /// bytes serve; 103 are refused with a clear error that gives the limit.
    @Test func theLongestSocketPathServesAndOneByteMoreIsRefused() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let directory = "/tmp/len-\(UUID().uuidString.prefix(6))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func path(_ bytes: Int) -> String { directory + "/" + String(repeating: "s", count: bytes - directory.utf8.count - 1) }
        let longest = SoundServer(device: device)
        try longest.start(socketPath: path(102))
        #expect(try LineSocket(path: path(102)).request(["id": 1, "command": "ping"])?.isOK == true)
        longest.shutdown()
        let tooLong = SoundServer(device: device)
        let error = #expect(throws: ServerStartError.self) { try tooLong.start(socketPath: path(103)) }
        tooLong.shutdown()
        #expect(error?.message.contains("103 bytes; it may be at most 102") == true, "\(String(describing: error))")
    }

    @Test func theDefaultDirectoryIsTightenedTo0700() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("xdg-\(UUID().uuidString.prefix(6))").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        let path = ServerProtocol.defaultSocketPath(environment: ["XDG_RUNTIME_DIR": base])
        #expect(path == base + "/soundstage/socket")
        try FileManager.default.createDirectory(atPath: base + "/soundstage", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        let device = try Device.loopback()
        defer { device.close() }
        let server = SoundServer(device: device)
        try server.start(socketPath: path, isDefaultLocation: true)
        #expect(mode(base + "/soundstage") == 0o700)
        server.shutdown()
    }

    @Test func aStaleSocketIsReplacedAndAnythingElseIsLeftAlone() throws {
        let daemon = try TestDaemon()
        let path = daemon.socketPath
        // A crashed daemon leaves its socket file: simulate one by binding and never accepting.
        daemon.server.shutdown()
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        close(stale)
        #expect(FileManager.default.fileExists(atPath: path))
        let server = SoundServer(device: daemon.device)
        try server.start(socketPath: path)
        let client = try LineSocket(path: path)
        #expect(client.request(["id": 1, "command": "ping"])?.isOK == true)
        server.shutdown()
        // A regular file at the path is not ours to delete.
        #expect(FileManager.default.createFile(atPath: path, contents: Data("notes".utf8)))
        let refused = SoundServer(device: daemon.device)
        let error = #expect(throws: ServerStartError.self) { try refused.start(socketPath: path) }
        refused.shutdown()
        #expect(error?.message.contains("not a socket") == true)
        #expect(FileManager.default.contents(atPath: path) == Data("notes".utf8))
        daemon.stop()
    }

    @Test func aSecondDaemonOnTheSameSocketRefusesToStart() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let second = SoundServer(device: daemon.device)
        let error = #expect(throws: ServerStartError.self) { try second.start(socketPath: daemon.socketPath) }
        #expect(error?.alreadyRunning == true)
        #expect(error?.message.contains("already serving") == true)
        second.shutdown()
        #expect(try daemon.connect().request(["id": 1, "command": "ping"])?.isOK == true, "the first one serves on")
    }

    @Test func shutdownTellsClientsAndFreesEveryOpenALObject() throws {
        let daemon = try TestDaemon()
        let before = daemon.device.liveObjects
        let client = try daemon.connect()
        #expect(client.request(["id": 1, "command": "playSound", "file": .string(try daemon.sineFile("long", seconds: 5))])?.isOK == true)
        let scene: JSONValue = ["format": 1, "duration": 10, "sources": [["name": "t", "sound": ["tone": [:]], "loop": true]]]
        #expect(client.request(["id": 2, "command": "loadScene", "scene": scene, "name": "s"])?.isOK == true)
        #expect(client.request(["id": 3, "command": "runScene", "scene": "s"])?.isOK == true)
        #expect(daemon.device.liveObjects != before)
        daemon.server.shutdown(reason: "SIGTERM")
        let told = try #require(client.read())
        #expect(told["event"] == "shutdown")
        #expect(told["reason"] == "SIGTERM")
        #expect(client.isClosedByPeer())
        #expect(daemon.device.liveObjects == before, "the clients' contexts, buffers and sources are freed")
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath), "the socket is removed")
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath + ".lock"))
        daemon.stop()
        #expect(daemon.device.liveObjects.isZero)
    }

    @Test func aClientThatLeavesWhileItsSoundPlaysIsStillHeardThenFreed() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let before = daemon.device.liveObjects
        do {
            let client = try daemon.connect()
            #expect(client.request(["id": 1, "command": "playSound", "file": .string(try daemon.sineFile("bye", seconds: 0.3))])?.isOK == true)
        }
        try daemon.render(until: { daemon.server.statistics.clients == 0 })
        #expect(daemon.server.statistics.clients == 0)
        #expect(try Signals.rms(daemon.render(seconds: 0.1), channel: 0) > 0.1, "the sound plays to its end")
        try daemon.render(until: { daemon.device.liveObjects == before })
        #expect(daemon.device.liveObjects == before)
    }
}
