import NIOCore

/// One unit of input from a client: a line (without its newline), or the news that a line was
/// longer than the limit and has been skipped.
public enum InputLine: Sendable {
    /// A complete line, without its newline (or `\r\n`).
    case line(ByteBuffer)
    /// A line longer than the limit was skipped; it had this many bytes.
    case tooLong(bytes: Int)
}

/// Splits a client's byte stream into newline-terminated lines of at most `maxLength` bytes.
///
/// A longer line is not buffered: its bytes are dropped as they arrive and, once its newline
/// comes, one `.tooLong` is produced, so memory per connection stays bounded whatever a client
/// sends. A final line without a newline is still delivered when the client half-closes its
/// side (`echo -n '...' | socat`), and dropped when the connection is simply gone.
public struct LineFrameDecoder: ByteToMessageDecoder {
    /// What the decoder produces.
    public typealias InboundOut = InputLine

    /// The longest line passed on, in bytes.
    public let maxLength: Int
    /// Bytes of an over-long line dropped so far; nil when not inside one.
    private var discarding: Int?

    /// A decoder for lines of at most `maxLength` bytes.
    public init(maxLength: Int) {
        self.maxLength = maxLength
    }

    /// Produces every complete line in `buffer`.
    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n"))
        if let dropped = discarding {
            guard let newline else {
                discarding = dropped + buffer.readableBytes
                buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
                return .needMoreData
            }
            let skipped = newline - buffer.readerIndex
            buffer.moveReaderIndex(to: newline + 1)
            discarding = nil
            context.fireChannelRead(wrapInboundOut(.tooLong(bytes: dropped + skipped)))
            return .continue
        }
        guard let newline else {
            if buffer.readableBytes > maxLength {
                discarding = buffer.readableBytes
                buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
            }
            return .needMoreData
        }
        let length = newline - buffer.readerIndex
        if length > maxLength {
            buffer.moveReaderIndex(to: newline + 1)
            context.fireChannelRead(wrapInboundOut(.tooLong(bytes: length)))
            return .continue
        }
        var line = buffer.readSlice(length: length)!
        buffer.moveReaderIndex(forwardBy: 1)
        if line.readableBytesView.last == UInt8(ascii: "\r") { line = line.getSlice(at: line.readerIndex, length: length - 1)! }
        context.fireChannelRead(wrapInboundOut(.line(line)))
        return .continue
    }

    /// At the end of input: the remaining lines, and an unterminated last one if the input half-closed.
    public mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        // The input side closed with an unterminated line: deliver it (the client may still read).
        if seenEOF, discarding == nil, buffer.readableBytes > 0 {
            let rest = buffer.readSlice(length: buffer.readableBytes)!
            context.fireChannelRead(wrapInboundOut(.line(rest)))
        } else if let dropped = discarding, seenEOF {
            discarding = nil
            context.fireChannelRead(wrapInboundOut(.tooLong(bytes: dropped + buffer.readableBytes)))
            buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
        }
        return .needMoreData
    }
}
