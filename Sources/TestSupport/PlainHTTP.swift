import Foundation

/// One HTTP/1.1 GET on 127.0.0.1 over a plain socket: the status code and the body (for tests
/// of local servers; no redirects, no TLS).
public enum PlainHTTP {
    /// Sends `GET path` to 127.0.0.1:`port` and reads the answer until the server closes.
    public static func get(port: Int, path: String, headers: [String: String] = [:]) throws -> (status: Int, headers: String, body: String) {
        let fd = try connected(port: port)
        defer { close(fd) }
        // A switch of protocols (101) leaves the connection open: stop at the end of the head then,
        // and never wait more than 5 s for a byte.
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
        var data = [UInt8](), chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            data += chunk[0..<count]
            if data.starts(with: Array("HTTP/1.1 101".utf8)), String(decoding: data, as: UTF8.self).contains("\r\n\r\n") { break }
        }
        let text = String(decoding: data, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        let head = parts.first ?? ""
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        return (status, head, parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    /// Opens a WebSocket to 127.0.0.1:`port` at `path` and never reads from it (a stalled
    /// browser): the socket's receive buffer is made small, so the server's writes back up
    /// quickly. Returns the descriptor, to close when done.
    public static func stalledWebSocket(port: Int, path: String) throws -> Int32 {
        let fd = try connected(port: port, receiveBuffer: 4_096)
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
        return fd
    }

    /// A TCP socket connected to 127.0.0.1:`port` (with a receive buffer of `receiveBuffer` bytes, if given).
    private static func connected(port: Int, receiveBuffer: Int32? = nil) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw AudioServerFixture.Unavailable(description: "socket failed") }
        if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw AudioServerFixture.Unavailable(description: "cannot connect to port \(port)")
        }
        return fd
    }
}
