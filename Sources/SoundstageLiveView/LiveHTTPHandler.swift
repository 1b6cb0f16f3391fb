#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import NIOCore
import NIOHTTP1
import NIOWebSocket

/// A request's path and token (`/ws?token=...`).
struct LiveRequest {
    let path: String
    let token: String?

    init(_ uri: String) {
        let parts = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        path = parts.first.map(String.init) ?? "/"
        token = parts.count > 1
            ? parts[1].split(separator: "&").compactMap { pair -> String? in
                let kv = pair.split(separator: "=", maxSplits: 1)
                return kv.count == 2 && kv[0] == "token" ? String(kv[1]) : nil
            }.first
            : nil
    }

    /// Compares tokens in a time that does not depend on where they differ.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// The HTTP side of a live view: `GET /` is the page, `GET /state` one frame as JSON (for
/// scripts and tests), `/ws` the WebSocket (upgraded before this handler sees it). Every request
/// needs the token: 403 without it (or with a wrong one), 404 for other paths, 405 for other
/// methods.
final class LiveHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let token: String
    private let feed: LiveFeed
    private var head: HTTPRequestHead?

    init(token: String, feed: LiveFeed) {
        self.token = token
        self.feed = feed
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body: break
        case .end:
            guard let head else { return }
            self.head = nil
            respond(to: head, context: context)
        }
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let request = LiveRequest(head.uri)
        guard request.token.map({ LiveRequest.constantTimeEqual($0, token) }) == true else {
            return send(.forbidden, "text/plain; charset=utf-8", Array("403: the live view needs its token (?token=... from the URL it printed)\n".utf8),
                        head: head, context: context)
        }
        guard head.method == .GET || head.method == .HEAD else {
            return send(.methodNotAllowed, "text/plain; charset=utf-8", Array("405: GET only\n".utf8), head: head, context: context)
        }
        switch request.path {
        case "/", "/index.html":
            send(.ok, "text/html; charset=utf-8", LivePage.html, head: head, context: context)
        case "/state":
            send(.ok, "application/json", feed.encodedFrame(full: true), head: head, context: context)
        case "/ws":
            send(.badRequest, "text/plain; charset=utf-8", Array("400: /ws is a WebSocket\n".utf8), head: head, context: context)
        default:
            send(.notFound, "text/plain; charset=utf-8", Array("404\n".utf8), head: head, context: context)
        }
    }

    private func send(_ status: HTTPResponseStatus, _ type: String, _ body: [UInt8], head request: HTTPRequestHead,
                      context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: type)
        headers.add(name: "Content-Length", value: "\(body.count)")
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        headers.add(name: "Referrer-Policy", value: "no-referrer")
        let keepAlive = request.isKeepAlive
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: status, headers: headers))), promise: nil)
        if request.method != .HEAD {
            var buffer = context.channel.allocator.buffer(capacity: body.count)
            buffer.writeBytes(body)
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        }
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive { done.whenComplete { [channel = context.channel] _ in channel.close(promise: nil) } }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }

}

/// Stands before the WebSocket upgrade: a request without the token (the upgrade to `/ws`
/// included) is answered 403 here and goes no further.
final class LiveTokenGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let token: String
    private var refused: HTTPRequestHead?

    init(token: String) { self.token = token }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch part {
        case .head(let head):
            guard let given = LiveRequest(head.uri).token, LiveRequest.constantTimeEqual(given, token) else {
                refused = head
                return
            }
            context.fireChannelRead(data)
        case .body:
            if refused == nil { context.fireChannelRead(data) }
        case .end:
            guard let head = refused else { return context.fireChannelRead(data) }
            refused = nil
            let body = "403: the live view needs its token (?token=... from the URL it printed)\n"
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
            headers.add(name: "Content-Length", value: "\(body.utf8.count)")
            headers.add(name: "Connection", value: "close")
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .forbidden, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))), promise: nil)
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
        }
    }
}

/// A browser's WebSocket: joins the feed, answers pings, leaves on close.
final class LiveSocketHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let feed: LiveFeed

    init(feed: LiveFeed) { self.feed = feed }

    func handlerAdded(context: ChannelHandlerContext) {
        feed.add(context.channel)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        feed.remove(context.channel)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .connectionClose:
            var data = frame.unmaskedData
            let code = data.readWebSocketErrorCode() ?? .normalClosure
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose,
                                                                 data: channel.allocator.buffer(capacity: 2).writeWebSocketCode(code))))
                .whenComplete { _ in channel.close(promise: nil) }
        case .ping:
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        default:
            break     // the page sends nothing else
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        feed.remove(context.channel)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}

extension ByteBuffer {
    /// Writes a close code and returns the buffer.
    fileprivate func writeWebSocketCode(_ code: WebSocketErrorCode) -> ByteBuffer {
        var copy = self
        copy.write(webSocketErrorCode: code)
        return copy
    }
}
