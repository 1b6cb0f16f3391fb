import Logging
import NIOCore

/// Sits on the listening socket's pipeline and logs what goes wrong while accepting clients
/// (out of descriptors, a connection aborted before it was accepted), at most five messages a
/// second. Without it such errors would pass unseen; the accepted clients themselves pass on.
final class ListenerErrorLog: ChannelInboundHandler {
    typealias InboundIn = Channel

    private let logger: Logger
    /// Touched on the listener's event loop only.
    private var limiter = LogRateLimiter()

    init(logger: Logger) {
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        let (log, heldBack) = limiter.admit()
        if log {
            logger.warning("accepting a client failed", metadata: ["error": "\(error)", "heldBack": "\(heldBack)"])
        }
        context.fireErrorCaught(error)
    }
}
