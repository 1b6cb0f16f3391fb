#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SoundstageProtocol

/// A connection to the Soundstage daemon (`soundstage serve`): send requests, await their
/// answers, and read the events you subscribed to. Safe to use from any task.
///
/// ```swift
/// let daemon = try await SoundstageClient.connect()
/// try await daemon.subscribe([.completion])
/// let play = try await daemon.playSound(event: "message-new-instant")
/// for await event in daemon.events where event.request == play.request { break }  // it ended
/// await daemon.close()
/// ```
public final class SoundstageClient: Sendable {
    /// The event kinds a client may subscribe to (the protocol's ``EventTopic``).
    public typealias Topic = EventTopic

    /// A `playSound` that was accepted.
    public struct Play: Sendable, Equatable {
        /// The id of the request, which the `completion` event names.
        public let request: JSONValue
        /// The sound's ID in the daemon.
        public let sound: UInt32
        /// `playing`, or how it already ended (`coalesced`, `silenced`).
        public let outcome: PlayOutcome
    }

    /// The socket this client is connected to.
    public let socketPath: String
    /// Events the daemon pushed (completions, session changes, route changes, `shutdown`), in
    /// order. It finishes when the connection ends. Read it from one task.
    public let events: AsyncStream<ServerEvent>
    private let channel: Channel
    private let handler: NIOLoopBound<ResponseHandler>
    private let nextID = NIOLockedValueBox(1)

    private init(socketPath: String, channel: Channel, handler: NIOLoopBound<ResponseHandler>, events: AsyncStream<ServerEvent>) {
        self.socketPath = socketPath
        self.channel = channel
        self.handler = handler
        self.events = events
    }

    /// Connects to the daemon.
    /// - Throws: ``ServerError`` with code `connection` when no daemon listens at `socketPath`.
    public static func connect(socketPath: String = ServerProtocol.defaultSocketPath()) async throws -> SoundstageClient {
        let (events, continuation) = AsyncStream<ServerEvent>.makeStream()
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(LineFrameDecoder(maxLength: 16 << 20)))
                    try channel.pipeline.syncOperations.addHandler(ResponseHandler(events: continuation))
                }
            }
        let channel: Channel
        do {
            channel = try await bootstrap.connect(unixDomainSocketPath: socketPath).get()
        } catch {
            continuation.finish()
            throw ServerError(code: .connection, message: "no Soundstage daemon is listening (\(error))", subject: socketPath)
        }
        let handler = try await channel.eventLoop.submit {
            NIOLoopBound(try channel.pipeline.syncOperations.handler(type: ResponseHandler.self), eventLoop: channel.eventLoop)
        }.get()
        return SoundstageClient(socketPath: socketPath, channel: channel, handler: handler, events: events)
    }

    /// Whether something accepts connections at `socketPath` (a quick check before falling back
    /// to playing in-process).
    public static func isDaemonListening(at socketPath: String = ServerProtocol.defaultSocketPath()) async -> Bool {
        guard let client = try? await connect(socketPath: socketPath) else { return false }
        await client.close()
        return true
    }

    /// Sends a request and returns its `result`.
    /// - Throws: ``ServerError`` with the daemon's error code and message; `badRequest` without
    ///   sending when an argument is not the command's (``Command/accepts``) or one it requires
    ///   is missing; `connection` if the connection ends first.
    @discardableResult
    public func request(_ command: Command, _ arguments: [Argument: JSONValue] = [:]) async throws -> JSONValue {
        try await send(Request(command, arguments)).result
    }

    /// Sends a request and reads its `result` as the command's answer type (``Command/answer``).
    /// - Throws: as ``request(_:_:)``; `badJSON` when the answer is not a `T`.
    public func request<T: ProtocolBody>(_ command: Command, _ arguments: [Argument: JSONValue] = [:], as type: T.Type) async throws -> T {
        try T(json: try await request(command, arguments))
    }

    /// Sends a request; returns its id too (the id that its events name).
    /// - Throws: as ``request(_:_:)``.
    public func send(_ request: Request) async throws -> (id: JSONValue, result: JSONValue) {
        if let problem = request.problems.first { throw ServerError(code: .badRequest, message: problem) }
        let number = nextID.withLockedValue { next in
            defer { next += 1 }
            return next
        }
        let id = JSONValue.number(Double(number))
        let line = request.line(id: id)
        let promise = channel.eventLoop.makePromise(of: JSONValue.self)
        let handler = self.handler
        let channel = self.channel
        channel.eventLoop.execute {
            guard handler.value.expect(id, promise) else { return }
            channel.writeAndFlush(channel.allocator.buffer(string: line), promise: nil)
        }
        return (id, try await promise.futureResult.get())
    }

    /// Closes the connection; the daemon frees this client's sounds and scenes.
    public func close() async {
        try? await channel.close()
    }

    // MARK: Commands

    /// Checks the daemon answers; returns the protocol version it speaks.
    @discardableResult
    public func ping() async throws -> PingAnswer {
        try await request(.ping, as: PingAnswer.self)
    }

    /// The daemon's state: clients, sessions, its device, live OpenAL objects, counters.
    public func status() async throws -> StatusAnswer {
        try await request(.status, as: StatusAnswer.self)
    }

    /// Asks for events of these kinds.
    public func subscribe(_ topics: [Topic]) async throws {
        try await request(.subscribe, [.events: .array(topics.map { .string($0.rawValue) })])
    }

    /// Registers a sound file (made absolute here: the daemon has its own working directory).
    public func registerSound(file: String) async throws -> UInt32 {
        try await request(.registerSound, [.file: .string(Self.absolute(file))], as: SoundAnswer.self).sound
    }

    /// Registers the sound theme's sound for a freedesktop event name.
    public func registerSound(event: String) async throws -> UInt32 {
        try await request(.registerSound, [.event: .string(event)], as: SoundAnswer.self).sound
    }

    /// Plays a registered sound.
    public func playSound(id: UInt32, alert: Bool = false) async throws -> Play {
        try await play([.sound: .number(Double(id)), .alert: .bool(alert)])
    }

    /// Plays a sound file (registered once per client by the daemon).
    public func playSound(file: String, alert: Bool = false) async throws -> Play {
        try await play([.file: .string(Self.absolute(file)), .alert: .bool(alert)])
    }

    /// Plays the sound theme's sound for an event name.
    public func playSound(event: String, alert: Bool = false) async throws -> Play {
        try await play([.event: .string(event), .alert: .bool(alert)])
    }

    /// Forgets a registered sound.
    public func disposeSound(id: UInt32) async throws {
        try await request(.disposeSound, [.sound: .number(Double(id))])
    }

    /// Loads a scene file under `name` (default: the file's name without extension).
    @discardableResult
    public func loadScene(file: String, name: String? = nil) async throws -> SceneAnswer {
        var arguments: [Argument: JSONValue] = [.file: .string(Self.absolute(file))]
        if let name { arguments[.name] = .string(name) }
        return try await request(.loadScene, arguments, as: SceneAnswer.self)
    }

    /// Plays a loaded scene from its start; with the `completion` topic, `sceneEnded` follows.
    @discardableResult
    public func runScene(_ name: String) async throws -> SceneAnswer {
        try await request(.runScene, [.scene: .string(name)], as: SceneAnswer.self)
    }

    /// Stops a scene and rewinds it.
    public func stopScene(_ name: String) async throws {
        try await request(.stopScene, [.scene: .string(name)])
    }

    private func play(_ arguments: [Argument: JSONValue]) async throws -> Play {
        let (id, result) = try await send(Request(.playSound, arguments))
        let answer = try SoundAnswer(json: result)
        return Play(request: id, sound: answer.sound, outcome: answer.outcome ?? .playing)
    }

    private static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : URL(fileURLWithPath: path).standardizedFileURL.path
    }
}

/// An event the daemon pushed.
public struct ServerEvent: Sendable, Equatable {
    /// `completion`, `sceneEnded`, `session`, `route`, `meters` or `shutdown`.
    public let name: String
    /// The whole message (`outcome`, `request`, `kind`, `reason`...).
    public let body: JSONValue

    /// The event, when this build knows it (a newer daemon may send others).
    public var kind: EventName? { EventName(rawValue: name) }

    /// How the play ended, for a `completion` event.
    public var outcome: PlayOutcome? { kind == .completion ? (try? CompletionEvent(json: body))?.outcome : nil }

    /// The event's members as their type (``EventName/body``): `CompletionEvent`,
    /// `SceneEndedEvent`, `SessionChangeEvent`, `RouteEvent`, `ShutdownEvent`.
    /// - Throws: ``ServerError`` `badJSON` when the members are not a `T`.
    public func decode<T: ProtocolBody>(_ type: T.Type) throws -> T { try T(json: body) }

    /// The request a `completion` or `sceneEnded` event is about.
    public var request: JSONValue? { body["request"] }
}

/// Matches answers to waiting requests by id and forwards events. On the channel's loop.
final class ResponseHandler: ChannelInboundHandler {
    typealias InboundIn = InputLine

    private var waiting: [JSONValue: EventLoopPromise<JSONValue>] = [:]
    private var closed = false
    private let events: AsyncStream<ServerEvent>.Continuation

    init(events: AsyncStream<ServerEvent>.Continuation) {
        self.events = events
    }

    /// Records a request about to be sent; false (and the promise failed) if the connection is gone.
    func expect(_ id: JSONValue, _ promise: EventLoopPromise<JSONValue>) -> Bool {
        guard !closed else {
            promise.fail(ServerError(code: .connection, message: "the connection to the daemon is closed"))
            return false
        }
        waiting[id] = promise
        return true
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case let .line(buffer) = unwrapInboundIn(data) else { return }
        guard let message = try? ServerMessage(line: Data(buffer.readableBytesView)) else { return }
        switch message {
        case let .response(id, outcome):
            guard let promise = waiting.removeValue(forKey: id) else { return }
            switch outcome {
            case let .success(result): promise.succeed(result)
            case let .failure(error): promise.fail(error)
            }
        case let .event(name, body):
            events.yield(ServerEvent(name: name, body: body))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        closed = true
        let error = ServerError(code: .connection, message: "the daemon closed the connection")
        for promise in waiting.values { promise.fail(error) }
        waiting.removeAll()
        events.finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}
