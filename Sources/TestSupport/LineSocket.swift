import Foundation
import SoundstageJSON
#if canImport(Glibc)
import Glibc
#endif

/// A plain blocking Unix-socket client that sends bytes and reads lines: it can send what no
/// well-behaved client would (bad JSON, half lines, floods).
///
/// `@unchecked Sendable`: `send` touches only the descriptor, so one thread may send while
/// another reads; reading is for one thread at a time.
public final class LineSocket: @unchecked Sendable {
    private let descriptor: Int32
    private var pending: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 65_536)

    /// Connects to the Unix socket at `path`.
    public init(path: String) throws {
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

    /// Sends raw text.
    public func send(_ text: String) {
        let bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + done, bytes.count - done, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            done += n
        }
    }

    /// Sends a request line built from JSON.
    public func send(_ request: JSONValue) { send(request.encoded + "\n") }

    /// The next line, or nil after `timeout` seconds or at the end of the stream.
    public func readLine(timeout: Double = 5) -> String? {
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
            let n = recv(descriptor, &chunk, chunk.count, 0)
            if n <= 0 { return nil }
            pending += chunk[..<n]
        }
    }

    /// The next message as JSON.
    public func read(timeout: Double = 5) -> JSONValue? {
        readLine(timeout: timeout).flatMap { try? JSONValue(parsing: Data($0.utf8)) }
    }

    /// The next message that is not an event (events are skipped).
    public func response(timeout: Double = 5) -> JSONValue? {
        while let message = read(timeout: timeout) {
            if message["event"] == nil { return message }
        }
        return nil
    }

    /// Sends a request and returns its response.
    public func request(_ request: JSONValue) -> JSONValue? {
        send(request)
        return response()
    }

    /// The next event called `name`, skipping others.
    public func event(_ name: String, timeout: Double = 5) -> JSONValue? {
        while let message = read(timeout: timeout) {
            if message["event"]?.stringValue == name { return message }
        }
        return nil
    }

    /// Whether the daemon closed the connection (reads until the end, up to `timeout`).
    public func isClosedByPeer(timeout: Double = 5) -> Bool {
        while readLine(timeout: timeout) != nil {}
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 0) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, 0) == 0
    }

    /// Closes the sending side (the daemon sees the end of the input).
    public func finishSending() { shutdown(descriptor, Int32(SHUT_WR)) }
}

