#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Soundstage
import NumberText

/// A live view of a device's mix in a browser: a local HTTP server (SwiftNIO) that serves one
/// self-contained page and pushes a ``MixSnapshot`` to it over a WebSocket 25 times a second —
/// the listener and every source on a top-down map, voices real and virtual, meters, render
/// load, underruns and sessions.
///
/// It binds 127.0.0.1 unless told otherwise, and every request must carry the random token of
/// ``url`` (`?token=`): others get 403. With no browser connected it takes no snapshot and
/// sets no timer. A browser that reads slower than the view sends loses frames (a frame is
/// never queued behind another), so a slow browser never holds up the game.
///
/// Start it with ``Device/startLiveView(port:host:allowRemote:logger:)``; stop it with ``stop()``
/// (closing the device does not stop it: it then shows an empty mix).
public final class LiveView: Sendable {
    /// The address to open, with its token: `http://127.0.0.1:PORT/?token=...`.
    public let url: String
    /// The port it listens on (the one asked for, or the one the system chose for port 0).
    public let port: Int
    /// The token requests must carry.
    public let token: String
    /// Snapshots pushed per second while a browser is connected.
    public static let framesPerSecond = 25

    let device: Device
    let logger: Logger
    private let group: MultiThreadedEventLoopGroup
    private let channel: Channel
    let feed: LiveFeed

    /// Sessions to show, asked for at each frame (the daemon's clients; a game's own sessions).
    public var sessionProvider: (@Sendable () -> [LiveSession])? {
        get { feed.sessionProvider }
        set { feed.sessionProvider = newValue }
    }

    /// Adds a line to the page's event log (interruptions, route changes; the device's route
    /// changes and output events are logged by the view itself).
    public func log(_ line: String) { feed.log(line) }

    /// How many browsers are connected now.
    public var connectedBrowsers: Int { feed.clientCount }

    /// Frames sent, and frames dropped because a browser had not taken the previous one.
    public var frameCounts: (sent: Int, dropped: Int) { feed.frameCounts }

    /// The CPU time spent taking, encoding and sending snapshots so far, in seconds (the view's
    /// own cost; the render's is ``Device/renderLoad``).
    public var busySeconds: Double { feed.busySeconds }

    init(device: Device, port: Int, host: String, allowRemote: Bool, logger: Logger) throws {
        guard (0...65_535).contains(port) else {
            throw SoundstageError(.invalidArgument, "live view port \(port) is not in 0...65535")
        }
        let loopback = ["127.0.0.1", "::1", "localhost"].contains(host)
        guard loopback || allowRemote else {
            throw SoundstageError(.invalidArgument, "the live view binds \(host) only with allowRemote: it shows the game's mix "
                                  + "to anyone who has the token, so it stays on 127.0.0.1 unless asked")
        }
        if !loopback {
            logger.warning("live view listening on \(host), reachable from other machines: anyone with its URL sees the mix")
        }
        self.device = device
        self.logger = logger
        token = Self.makeToken()
        let feed = LiveFeed(device: device, logger: logger)
        self.feed = feed
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let token = self.token
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 32)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.writeBufferWaterMark, value: .init(low: 64 * 1024, high: 256 * 1024))
            .childChannelInitializer { channel in
                let upgrader = NIOWebSocketServerUpgrader(
                    maxFrameSize: 1 << 16,
                    shouldUpgrade: { channel, head in
                        channel.eventLoop.makeSucceededFuture(
                            LiveRequest(head.uri).path == "/ws" ? HTTPHeaders() : nil)     // the gate checked the token
                    },
                    upgradePipelineHandler: { channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHandler(LiveSocketHandler(feed: feed))
                        }
                    })
                return channel.eventLoop.makeCompletedFuture {
                    // The gate answers requests without the token before the upgrade sees them;
                    // once a WebSocket is up, the gate and the page's handler leave the pipeline.
                    let http = LiveHTTPHandler(token: token, feed: feed), gate = LiveTokenGate(token: token)
                    let bound = NIOLoopBound((http, gate), eventLoop: channel.eventLoop)
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                        withServerUpgrade: (upgraders: [upgrader], completionHandler: { context in
                            context.pipeline.syncOperations.removeHandler(bound.value.0, promise: nil)
                            context.pipeline.syncOperations.removeHandler(bound.value.1, promise: nil)
                        }))
                    let upgradeHandler = try channel.pipeline.syncOperations.handler(type: HTTPServerUpgradeHandler.self)
                    try channel.pipeline.syncOperations.addHandler(gate, position: .before(upgradeHandler))
                    try channel.pipeline.syncOperations.addHandler(http)
                }
            }
        do {
            channel = try bootstrap.bind(host: host, port: port).wait()
        } catch {
            try? group.syncShutdownGracefully()
            throw SoundstageError(.io, "the live view cannot listen on \(host):\(port): \(error)")
        }
        self.port = channel.localAddress?.port ?? port
        let shown = host.contains(":") ? "[\(host)]" : host
        url = "http://\(shown):\(self.port)/?token=\(token)"
        feed.start(on: group.next())
    }

    /// The frame a browser would get now, as JSON (full: with everything; otherwise only what
    /// changes every frame), made on the view's thread as the frames are: for scripts and
    /// benchmarks. Call it from any thread but the view's own.
    public func frame(full: Bool) throws -> [UInt8] {
        try group.next().submit { [feed] in feed.encodedFrame(full: full, fast: !full) }.wait()
    }

    /// Stops the server: browsers are disconnected, the port is freed.
    public func stop() {
        feed.stop()
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }

    deinit {
        // `stop()` is the way; a view dropped without it still frees its port and thread.
        if channel.isActive { stop() }
    }

    private static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in (generator.next() as UInt64).hex(digits: 16) }.joined()
    }
}

/// A session as the live view shows it.
public struct LiveSession: Sendable, Codable, Equatable {
    /// Who it is: a daemon client's name, or the game's name for its session.
    public var name: String
    /// Its category.
    public var category: String
    /// Whether it is active.
    public var active: Bool
    /// Whether it is interrupted.
    public var interrupted: Bool
    /// Whether another session ducks it.
    public var ducked: Bool

    /// A session to show.
    public init(name: String, category: String, active: Bool, interrupted: Bool, ducked: Bool) {
        self.name = name
        self.category = category
        self.active = active
        self.interrupted = interrupted
        self.ducked = ducked
    }

    /// How `session` stands now, under `name`.
    public init(name: String, session: AudioSession) {
        self.init(name: name, category: session.category.rawValue, active: session.isActive,
                  interrupted: session.isInterrupted, ducked: session.isDucked)
    }
}

extension Device {
    /// Starts a live view of this device's mix (see ``LiveView``) and returns it; open its
    /// ``LiveView/url`` in a browser.
    /// - Parameters:
    ///   - port: the TCP port (0: any free one).
    ///   - host: the address to bind; anything but 127.0.0.1, ::1 or localhost needs `allowRemote`.
    ///   - allowRemote: lets `host` be an address other machines reach (it warns when it does).
    ///   - logger: where it says what happens (swift-log; nothing by default).
    /// - Throws: `.invalidArgument` for a bad port or a remote host without `allowRemote`,
    ///   `.io` when the port cannot be bound.
    public func startLiveView(port: Int = 0, host: String = "127.0.0.1", allowRemote: Bool = false,
                              logger: Logger = Logger(label: "org.soundstage.live-view", factory: { _ in SwiftLogNoOpLogHandler() }))
        throws -> LiveView {
        try LiveView(device: self, port: port, host: host, allowRemote: allowRemote, logger: logger)
    }
}
