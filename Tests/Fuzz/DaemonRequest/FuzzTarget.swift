import Foundation
import FuzzSupport
import Soundstage
import SoundstageJSON
import SoundstageServer
#if canImport(Glibc)
import Glibc
#endif

// The daemon's requests: the input is sent as it is to a real server (a loopback device, a
// private socket) on a fresh connection, followed by a ping. Whatever came before, every line
// the server sends back is one JSON object, the ping is answered within 10 s (no hang, no
// wedged connection), and the server keeps serving and mixing finite audio.

@main struct FuzzDaemonRequest {
    static func main() { Fuzzing.main(testOneInput) }
}

/// The server of the whole run.
private final class Daemon: @unchecked Sendable {
    // @unchecked: created once on the fuzzer's thread and only read afterwards.
    let device: Device
    let server: SoundServer
    let socketPath: String

    init() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("soundstage-fuzz-\(getpid())").path
        socketPath = directory + "/socket"
        device = try Device.loopback(sampleRate: 22_050)
        var configuration = SoundServer.Configuration()
        configuration.quotas.sceneSeconds = 60
        server = SoundServer(device: device, configuration: configuration)
        try server.start(socketPath: socketPath)
    }
}

nonisolated(unsafe) private var daemon: Daemon? = nil

/// Starts the daemon once, before libFuzzer runs any input (so its long-lived state is not taken
/// for a leak of the first input); a replay starts it at its first input.
private func startDaemon() {
    guard daemon == nil else { return }
    do { daemon = try Daemon() } catch {
        Fuzzing.require(false, "the daemon did not start: \(error)")
    }
}

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>?,
                       _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    startDaemon()
    return 0
}

/// A connection to the daemon's socket, with a deadline on every read.
private struct Connection {
    let fd: Int32

    init?(path: String) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { Glibc.close(fd); return nil }
    }

    /// Writes all of `bytes` (false when the server closed the connection first).
    func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Reads lines until one contains `marker`; nil on EOF or after `timeout` seconds.
    func readLines(until marker: String, timeout: Double) -> (lines: [String], found: Bool, timedOut: Bool) {
        var lines: [String] = []
        var pending: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return (lines, false, true) }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(left * 1000) + 1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return (lines, false, false) }
            pending += chunk[0..<count]
            while let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                lines.append(line)
                if line.contains(marker) { return (lines, true, false) }
            }
        }
    }

    func close() { Glibc.close(fd) }
}

private let ping = Array("\n{\"id\":\"fuzz-end\",\"command\":\"ping\"}\n".utf8)

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    // "@ROOT@" stands for the working directory (the repository's root), so the seeds can name
    // the repository's sounds and scenes by absolute path, as the protocol wants.
    let bytes = Array(String(decoding: Fuzzing.bytes(data, size), as: UTF8.self)
        .replacingOccurrences(of: "@ROOT@", with: FileManager.default.currentDirectoryPath).utf8)
    startDaemon()
    guard let daemon, let connection = Connection(path: daemon.socketPath) else {
        Fuzzing.require(false, "the daemon does not accept connections")
        return 0
    }
    defer { connection.close() }
    let sent = connection.write(bytes) && connection.write(ping)
    let (lines, answered, timedOut) = connection.readLines(until: "\"fuzz-end\"", timeout: 10)
    Fuzzing.require(!timedOut, "the daemon did not answer a ping within 10 s (\(lines.count) lines before)")
    for line in lines {
        let value = try? JSONValue(parsing: Array(line.utf8))
        Fuzzing.require({ if case .object = value { return true } else { return false } }(), "an answer is not a JSON object: \(line.prefix(200))")
    }
    if !(sent && answered) {
        // It closed this connection (a line too long, say): it must still serve a new one.
        guard let fresh = Connection(path: daemon.socketPath) else {
            Fuzzing.require(false, "the daemon stopped accepting connections")
            return 0
        }
        defer { fresh.close() }
        Fuzzing.require(fresh.write(ping) && fresh.readLines(until: "\"fuzz-end\"", timeout: 10).found,
                        "the daemon does not answer a new connection")
    }
    if let mix = try? daemon.device.render(frames: 441) {
        Fuzzing.require(mix.samples.allSatisfy { $0.isFinite }, "the daemon's mix is not finite")
    }
    return 0
}
