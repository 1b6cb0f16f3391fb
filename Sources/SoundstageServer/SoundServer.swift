import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Soundstage
import SoundstageProtocol

/// The Soundstage daemon: serves system sounds, scenes and audio sessions to other processes
/// over a Unix domain socket, one newline-delimited JSON request per line (docs/protocol.md).
///
/// Each connection is a client with its own ``AudioSession`` (category `ambient` and active
/// until it asks for another), its own system-sound registrations and its own scenes, all freed
/// when it disconnects. Requests from one client run in order; each gets exactly one answer.
///
/// ```swift
/// let server = SoundServer(device: try Device.openOutput(desktop: DesktopOutputOptions(role: .event, latency: 0.010)))
/// try server.start(socketPath: ServerProtocol.defaultSocketPath())
/// server.waitUntilStopped()
/// ```
public final class SoundServer: Sendable {
    /// Limits and defaults of a server.
    public struct Configuration: Sendable {
        /// The longest request line, in bytes (64 KiB).
        public var maxLineBytes = ServerProtocol.maxLineBytes
        /// Requests one client may have waiting; more get a `busy` error.
        public var maxPendingRequests = 1024
        /// Answer bytes one client may leave unread; beyond, the daemon stops reading its requests
        /// until it has read half of them (back pressure through the socket).
        public var maxOutputBytes = 4 << 20
        /// Output bytes above which a client's requests wait (are not run) until it reads.
        public var outputHighWatermark = 256 << 10
        /// How every client's system-sound registry plays (coalescing window, overlap, theme).
        public var registryOptions = SystemSoundRegistry.Options()
        /// The category a new client's session starts in (active).
        public var initialCategory: SessionCategory = .ambient
        /// How often a running scene moves its sources, in seconds.
        public var sceneUpdateInterval = 0.01
        /// Event-loop threads.
        public var threads = 1
        /// What one client may hold; a request past a quota gets `quotaExceeded`.
        public var quotas = Quotas()

        /// Per-client limits. The defaults are far above what a desktop's programs use.
        public struct Quotas: Sendable {
            /// Scenes loaded at once.
            public var scenes = 32
            /// OpenAL contexts over all its scenes (each costs OpenAL Soft a thread).
            public var contexts = 32
            /// Sources over all its scenes, one-shots of `playAt` included.
            public var sources = 1_024
            /// System sounds registered (by `registerSound`, or by file and event through `playSound`).
            public var registeredSounds = 256
            /// Decoded bytes one sound may take (longer files in scenes stream instead). The server
            /// sets its device's ``Device/maxDecodedBytes`` to it.
            public var bytesPerSound = 64 << 20
            /// Decoded bytes of all its sounds and scenes together.
            public var bytesPerClient = 256 << 20
            /// The longest scene, in seconds (and so the longest tone).
            public var sceneSeconds = 6 * 3600.0

            /// The defaults.
            public init() {}
        }

        /// The defaults.
        public init() {}
    }

    /// The device every client plays on.
    public let device: Device
    /// The one context every client's system sounds play in, and how many registries use it:
    /// made for the first, closed after the last (so an idle daemon holds no OpenAL source).
    private let systemSoundScene = NIOLockedValueBox<(scene: Scene?, users: Int)>((nil, 0))
    /// The audio sessions of the clients (one per connection).
    public let sessions: AudioSessionCenter
    /// The limits in force.
    public let configuration: Configuration
    /// Where the server logs: starts and stops, clients coming and going, refused requests
    /// (at most five a second per client, the rest counted), session interruptions, route
    /// changes, output underruns; every request at `debug`.
    public let logger: Logger
    /// Logs the device's route changes and output events while the server serves.
    private let outputLog: OutputLog

    let group: MultiThreadedEventLoopGroup
    /// Decoding files happens here, never on an event loop.
    let blockingPool: NIOThreadPool
    private let state = NIOLockedValueBox(ServerState())
    let stats = NIOLockedValueBox(ServerStatistics())
    /// The `meters` subscription's overview, pushed to its watchers.
    let meterFeed = MeterFeed()
    private let stopped = ConditionLock(value: false)

    /// The clients' sessions, for ``clientSessions`` and ``addSessionObserver(_:)``.
    private let watch = NIOLockedValueBox(SessionWatch())

    private struct ServerState {
        var listener: Channel?
        /// Why the server stopped by itself, if it did.
        var failure: String?
        var endpoint: SocketEndpoint?
        var clients: [ObjectIdentifier: ClientRecord] = [:]
        var shuttingDown = false
        var started = false
        /// Registries of gone clients whose sounds are still playing, with their sessions.
        var retiring: [ObjectIdentifier: (registry: SystemSoundRegistry, session: AudioSession)] = [:]
    }

    struct ClientRecord: Sendable {
        let channel: Channel
        let connection: NIOLoopBound<ClientConnection>
    }

    /// Creates a server for `device` (nothing listens until ``start(socketPath:isDefaultLocation:)``).
    /// - Parameters:
    ///   - sessions: the session center to put clients in; a new one by default.
    ///   - logger: where to log; nil logs nothing. The server never sets up the logging system:
    ///     the program does (`soundstage serve` logs to stderr, which journald collects).
    public init(device: Device, sessions: AudioSessionCenter? = nil, configuration: Configuration = Configuration(),
                logger: Logger? = nil) {
        self.logger = logger ?? Logger(label: "soundstage.server", factory: { _ in SwiftLogNoOpLogHandler() })
        outputLog = OutputLog(logger: self.logger)
        self.device = device
        self.sessions = sessions ?? AudioSessionCenter(device: device)
        self.configuration = configuration
        // A sound bigger than a client's per-sound quota is refused (or streams, in a scene).
        device.maxDecodedBytes = configuration.quotas.bytesPerSound
        group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, configuration.threads))
        blockingPool = NIOThreadPool(numberOfThreads: 2)
        blockingPool.start()
    }

    /// Listens on `socketPath`: creates its directory (0700), refuses if another daemon serves it,
    /// removes a stale socket a crashed daemon left, and listens. The socket appears at the path
    /// only once it accepts connections and is mode 0600.
    ///
    /// Should the listening socket fail later (the system closes it), the server logs why and
    /// listens again at once; its clients keep their connections. If it cannot, it stops, and
    /// ``failure`` says why.
    ///
    /// - Parameter isDefaultLocation: the path is the default one, whose directory the daemon
    ///   may tighten to 0700 if it already exists.
    /// - Throws: ``ServerStartError`` saying what is wrong and what to do.
    public func start(socketPath: String, isDefaultLocation: Bool = false) throws {
        let endpoint = try SocketEndpoint(path: socketPath, isDefaultLocation: isDefaultLocation)
        do {
            let listener = try listen(on: endpoint)
            state.withLockedValue { state in
                state.listener = listener
                state.endpoint = endpoint
                state.started = true
            }
            outputLog.watch(device)
            let output = device.outputStatus
            logger.info("serving", metadata: ["socket": "\(endpoint.path)", "output": "\(output.backend)",
                                              "server": "\(output.server)", "sink": "\(output.sink ?? "none")"])
        } catch let error as ServerStartError {
            endpoint.release()
            throw error
        } catch {
            endpoint.release()
            throw ServerStartError("cannot listen on \(endpoint.path): \(error)")
        }
    }

    /// Binds a listener at the endpoint's staging name, then publishes it at the path (see
    /// ``SocketEndpoint``), and watches it for an unexpected close.
    private func listen(on endpoint: SocketEndpoint) throws -> Channel {
        let logger = self.logger
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ListenerErrorLog(logger: logger))
                }
            }
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelOption(.writeBufferWaterMark,
                                value: .init(low: configuration.outputHighWatermark / 2, high: configuration.outputHighWatermark))
            .childChannelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    let connection = ClientConnection(server: self, channel: channel)
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(LineFrameDecoder(maxLength: configuration.maxLineBytes)))
                    try channel.pipeline.syncOperations.addHandler(connection)
                }
            }
        unlink(endpoint.stagingPath)
        let listener = try bootstrap.bind(unixDomainSocketPath: endpoint.stagingPath).wait()
        do {
            try endpoint.publish()
        } catch {
            try? listener.close().wait()
            throw error
        }
        listener.closeFuture.whenComplete { [weak self] _ in
            guard let self else { return }
            // Off the event loop: listening again and stopping both wait on it.
            DispatchQueue.global().async { self.listenerClosed(listener) }
        }
        return listener
    }

    /// The listening socket closed. Unless the server is stopping (or already listens on a newer
    /// one), it listens again; if that fails three times, it stops.
    private func listenerClosed(_ listener: Channel) {
        let endpoint: SocketEndpoint? = state.withLockedValue { state in
            guard !state.shuttingDown, let current = state.listener, current === listener else { return nil }
            return state.endpoint
        }
        guard let endpoint else { return }
        logger.error("the listening socket closed; listening again", metadata: ["socket": "\(endpoint.path)"])
        var lastError: Error?
        for attempt in 1...3 {
            // A shutdown that began meanwhile wins: it has released (or is releasing) the endpoint.
            guard !state.withLockedValue({ $0.shuttingDown }) else { return }
            do {
                let replacement = try listen(on: endpoint)
                let kept = state.withLockedValue { state in
                    guard !state.shuttingDown else { return false }
                    state.listener = replacement
                    return true
                }
                // Stopping after all: the file it published is a stale socket, which the next
                // daemon on this path removes.
                guard kept else { replacement.close(promise: nil); return }
                logger.notice("listening again", metadata: ["socket": "\(endpoint.path)", "attempt": "\(attempt)"])
                return
            } catch {
                lastError = error
                usleep(100_000)
            }
        }
        guard !state.withLockedValue({ $0.shuttingDown }) else { return }
        let reason = "the listening socket closed and the daemon could not listen again: \(lastError.map { "\($0)" } ?? "unknown")"
        logger.critical("\(reason)")
        state.withLockedValue { $0.failure = reason }
        shutdown(reason: reason)
    }

    /// The socket the server listens on now (tests close it to play a failing one).
    var currentListener: Channel? { state.withLockedValue { $0.listener } }

    /// Why the server stopped by itself (its listening socket failed and it could not listen
    /// again), or nil: it serves, or ``shutdown(reason:)`` stopped it. `soundstage serve` then
    /// exits with a failure, so that systemd restarts it.
    public var failure: String? { state.withLockedValue { $0.failure } }

    /// The socket path being served (nil before ``start(socketPath:isDefaultLocation:)``).
    public var socketPath: String? { state.withLockedValue { $0.endpoint?.path } }

    /// Counters: clients, answers, busy refusals, peak queue and output sizes.
    public var statistics: ServerStatistics { stats.withLockedValue { $0 } }

    /// The context every client's system-sound registry shares: a client costs its sounds, not a
    /// context and OpenAL Soft's thread. Its budget: every client's concurrent plays.
    /// Each call is one user, until ``releaseSharedSystemSoundScene()``.
    func sharedSystemSoundScene() throws -> Scene {
        try systemSoundScene.withLockedValue { shared in
            if let scene = shared.scene, !scene.isClosed {
                shared.users += 1
                return scene
            }
            let made = try device.makeScene(sourceBudget: Self.systemSoundSources)
            shared = (made, 1)
            return made
        }
    }

    /// A registry of the shared scene was closed; the last one closes the scene.
    func releaseSharedSystemSoundScene() {
        let idle: Scene? = systemSoundScene.withLockedValue { shared in
            shared.users -= 1
            guard shared.users <= 0, let scene = shared.scene else { return nil }
            shared = (nil, 0)
            return scene
        }
        idle?.close()
    }

    /// Sources the shared system-sound context may play at once (over all clients).
    static let systemSoundSources = 1_024

    /// Stops serving: every client is sent a `shutdown` event and disconnected, its sounds,
    /// scenes and session are freed, the socket and lock file are removed. The device stays open
    /// (close it afterwards). Idempotent; returns when everything is freed.
    public func shutdown(reason: String = "the daemon is stopping") {
        let (listener, endpoint, clients, first) = state.withLockedValue { state in
            defer { state.shuttingDown = true; state.listener = nil; state.endpoint = nil }
            return (state.listener, state.endpoint, Array(state.clients.values), !state.shuttingDown)
        }
        guard first else {
            waitUntilStopped()
            return
        }
        logger.info("stopping", metadata: ["reason": "\(reason)", "clients": "\(clients.count)"])
        try? listener?.close().wait()
        let closed = clients.map { client in
            client.channel.eventLoop.flatSubmit { client.connection.value.shutdown(reason: reason) }
        }
        for future in closed { try? future.wait() }
        endpoint?.release()
        for key in state.withLockedValue({ Array($0.retiring.keys) }) { finishRetiring(key) }
        // Every registry is closed by now; a scene left over (a registry that failed half-made) goes too.
        systemSoundScene.withLockedValue { shared in
            defer { shared = (nil, 0) }
            return shared.scene
        }?.close()
        for loop in group.makeIterator() { try? loop.submit { Soundstage.detachCurrentThread() }.wait() }
        try? group.syncShutdownGracefully()
        try? blockingPool.syncShutdownGracefully()
        outputLog.stop(watching: device)
        let statistics = self.statistics
        logger.info("stopped", metadata: ["connections": "\(statistics.connections)", "answered": "\(statistics.answered)",
                                          "errors": "\(statistics.errors)"])
        stopped.lock()
        stopped.unlock(withValue: true)
    }

    /// Blocks until ``shutdown(reason:)`` has finished.
    public func waitUntilStopped() {
        stopped.lock(whenValue: true)
        stopped.unlock()
    }

    // MARK: Clients

    /// Adds a client; returns its number (the count of connections so far), nil while stopping.
    func register(_ connection: ClientConnection, channel: Channel) -> Int? {
        let accepted = state.withLockedValue { state -> Bool in
            guard !state.shuttingDown else { return false }
            state.clients[ObjectIdentifier(connection)] = ClientRecord(
                channel: channel, connection: NIOLoopBound(connection, eventLoop: channel.eventLoop))
            return true
        }
        guard accepted else { return nil }
        return stats.withLockedValue { stats in
            stats.clients += 1
            stats.connections += 1
            return stats.connections
        }
    }

    /// The connected clients, for the meter feed.
    func clientRecords() -> [ClientRecord] { state.withLockedValue { Array($0.clients.values) } }

    /// Voices of the shared system-sound context now.
    func systemSoundVoices() -> (real: Int, virtual: Int) {
        guard let scene = systemSoundScene.withLockedValue({ $0.scene }) else { return (0, 0) }
        let voices = scene.voiceStatistics
        return (voices.realVoices, voices.virtualVoices)
    }

    /// Frees a gone client's registry and session: at once, or — when `letSoundsFinish` and its
    /// session disturbs no one (it mixes without ducking) — once its playing sounds have ended.
    func retire(registry: SystemSoundRegistry?, session: AudioSession, letSoundsFinish: Bool) {
        let harmless = !session.options.contains(.duckOthers)
            && (session.category == .ambient || session.options.contains(.mixWithOthers))
        guard let registry, letSoundsFinish, harmless, registry.playingCount > 0 else {
            if let registry { close(registry) }
            sessions.removeSession(session)
            return
        }
        let key = ObjectIdentifier(registry)
        let accepted = state.withLockedValue { state -> Bool in
            guard !state.shuttingDown else { return false }
            state.retiring[key] = (registry, session)
            return true
        }
        guard accepted else {
            close(registry)
            sessions.removeSession(session)
            return
        }
        group.next().scheduleRepeatedTask(initialDelay: .milliseconds(50), delay: .milliseconds(50)) { [self] task in
            if registry.playingCount == 0 {
                task.cancel()
                finishRetiring(key)
            }
        }
    }

    /// Closes a client's registry and lets go of its share of the system-sound scene.
    private func close(_ registry: SystemSoundRegistry) {
        registry.close()
        releaseSharedSystemSoundScene()
    }

    private func finishRetiring(_ key: ObjectIdentifier) {
        guard let entry = state.withLockedValue({ $0.retiring.removeValue(forKey: key) }) else { return }
        close(entry.registry)
        sessions.removeSession(entry.session)
    }

    /// Clients gone whose last system sounds are still playing.
    var retiringCount: Int { state.withLockedValue { $0.retiring.count } }

    func unregister(_ connection: ClientConnection) {
        let removed = state.withLockedValue { $0.clients.removeValue(forKey: ObjectIdentifier(connection)) != nil }
        if removed { stats.withLockedValue { $0.clients -= 1 } }
    }

    // MARK: Watching the clients' sessions (the live view)

    /// The connected clients' audio sessions now, by client number (the order they connected).
    public var clientSessions: [(client: Int, session: AudioSession)] {
        watch.withLockedValue { $0.sessions.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
    }

    /// Calls `handler` with every session event of every client (its number and the event), on
    /// the client's thread, outside the server's locks.
    public func addSessionObserver(_ handler: @escaping @Sendable (_ client: Int, _ event: SessionEvent) -> Void) {
        watch.withLockedValue { $0.observers.append(handler) }
    }

    func noteSession(_ session: AudioSession?, of client: Int) {
        watch.withLockedValue { $0.sessions[client] = session }
    }

    func sessionEvent(_ event: SessionEvent, of client: Int) {
        for observer in watch.withLockedValue({ $0.observers }) { observer(client, event) }
    }
}

/// The clients' sessions and who watches their events.
struct SessionWatch {
    var sessions: [Int: AudioSession] = [:]
    var observers: [@Sendable (Int, SessionEvent) -> Void] = []
}
