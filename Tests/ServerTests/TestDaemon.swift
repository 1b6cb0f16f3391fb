import Foundation
@testable import Soundstage
import SoundFile
import SoundstageProtocol
import SoundstageServer
import TestSupport

/// A daemon on a loopback device and a private socket, for one test. The test renders the
/// device to hear what the clients made it play.
final class TestDaemon {
    let directory: String
    let socketPath: String
    let device: Device
    let server: SoundServer

    init(configure: (inout SoundServer.Configuration) -> Void = { _ in }) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("soundstage-\(UUID().uuidString.prefix(8))").path
        socketPath = directory + "/run/socket"
        device = try Device.loopback()
        var configuration = SoundServer.Configuration()
        configure(&configuration)
        server = SoundServer(device: device, configuration: configuration)
        try server.start(socketPath: socketPath)
    }

    /// Stops the server, closes the device, removes the files.
    func stop() {
        server.shutdown()
        device.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    func render(seconds: Double) throws -> AudioBuffer {
        try device.render(frames: Int(seconds * Double(device.sampleRate)))
    }

    /// A mono sine written as a WAV file in the test's directory.
    func sineFile(_ name: String, frequency: Double = 440, seconds: Double = 0.5) throws -> String {
        let path = directory + "/\(name).wav"
        try SoundFileWriter.write(Signals.sine(frequency, seconds: seconds), to: path, format: .wavPCM16)
        return path
    }

    /// Connects a raw line client.
    func connect() throws -> LineSocket { try LineSocket(path: socketPath) }

    /// Renders in steps until `condition` holds (the daemon works on its own threads).
    func render(until condition: () -> Bool, seconds limit: Double = 5) throws {
        var rendered = 0.0
        while !condition() && rendered < limit {
            _ = try render(seconds: 0.01)
            rendered += 0.01
            usleep(1_000)
        }
    }
}

/// A plain blocking Unix-socket client that sends bytes and reads lines: it can send what no
/// well-behaved client would (bad JSON, half lines, floods).
final class LineSocket {
    private let descriptor: Int32
    private var pending: [UInt8] = []

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let error = errno
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: error)!)
        }
    }

    deinit { close(descriptor) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + done, bytes.count - done, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            done += n
        }
    }

    /// Sends a request line built from JSON.
    func send(_ request: JSONValue) { send(request.encoded + "\n") }

    /// The next line, or nil after `timeout` seconds or at the end of the stream.
    func readLine(timeout: Double = 5) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(left * 1000) + 1) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let n = recv(descriptor, &chunk, chunk.count, 0)
            if n <= 0 { return nil }
            pending += chunk[..<n]
        }
    }

    /// The next message as JSON.
    func read(timeout: Double = 5) -> JSONValue? {
        readLine(timeout: timeout).flatMap { try? JSONValue(parsing: Data($0.utf8)) }
    }

    /// The next message that is not an event (events are skipped).
    func response(timeout: Double = 5) -> JSONValue? {
        while let message = read(timeout: timeout) {
            if message["event"] == nil { return message }
        }
        return nil
    }

    /// Sends a request and returns its response.
    func request(_ request: JSONValue) -> JSONValue? {
        send(request)
        return response()
    }

    /// The next event called `name`, skipping others.
    func event(_ name: String, timeout: Double = 5) -> JSONValue? {
        while let message = read(timeout: timeout) {
            if message["event"]?.stringValue == name { return message }
        }
        return nil
    }

    /// Whether the daemon closed the connection (reads until the end, up to `timeout`).
    func isClosedByPeer(timeout: Double = 5) -> Bool {
        while readLine(timeout: timeout) != nil {}
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 0) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, 0) == 0
    }

    /// Closes the sending side (the daemon sees the end of the input).
    func finishSending() { shutdown(descriptor, Int32(SHUT_WR)) }
}

extension JSONValue {
    /// The error code of an error response.
    var errorCode: String? { self["error"]?["code"]?.stringValue }
    var isOK: Bool { self["ok"]?.boolValue == true }
}
