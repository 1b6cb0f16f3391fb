#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import Logging
import NIOCore
import Soundstage
import SoundstageProtocol

/// One connected client: reads its request lines, runs them in order, answers each exactly
/// once, and pushes the events it subscribed to. Lives on the client's event loop.
///
/// Bounded memory, whatever the client does:
/// - at most ``SoundServer/Configuration/maxPendingRequests`` requests wait; more are answered
///   `busy` at once (an identical `playSound` waiting at the queue's tail absorbs a new one
///   instead — coalescing — and both are answered);
/// - requests wait (are not run) while more than the high watermark of answers is unread, so
///   a client that does not read cannot make the daemon play without bound;
/// - while a client leaves more than ``SoundServer/Configuration/maxOutputBytes`` unread, its
///   input is not read at all (its writes block in the kernel) until it has read half of it.
final class ClientConnection: ChannelInboundHandler {
    typealias InboundIn = InputLine
    typealias OutboundOut = ByteBuffer

    /// The event kinds a client can subscribe to.
    typealias Topic = EventTopic

    struct Pending {
        let request: ReceivedRequest
        var coalesced: [JSONValue] = []
    }

    enum CommandResult {
        case now(JSONValue)
        case later(EventLoopFuture<JSONValue>)
    }

    let server: SoundServer
    let channel: Channel
    private(set) var context: ChannelHandlerContext?
    /// The client's audio; nil once the client is gone.
    private(set) var audio: ClientAudio?
    var subscriptions: Set<Topic> = []
    private var queue = CircularBuffer<Pending>()
    private var pendingAnswers = 0
    private var inFlight = false
    private var inputClosed = false
    private(set) var closing = false
    private(set) var outputBytes = 0
    /// The client's number: the daemon's count of connections when it came (1, 2, ...).
    private(set) var number = 0
    private var readingPaused = false
    private var routeObserver: Int?
    /// The server's logger, with this client's number.
    private var logger: Logger
    /// Refusals logged at most five a second; the rest are counted.
    private var refusalLog = LogRateLimiter()
    /// Requests answered and refused, for the line logged when the client goes.
    private var answeredCount = 0, refusedCount = 0

    init(server: SoundServer, channel: Channel) {
        self.server = server
        self.channel = channel
        logger = server.logger
    }

    var loop: EventLoop { channel.eventLoop }
    var configuration: SoundServer.Configuration { server.configuration }

    // MARK: Channel events

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    /// The context holds this handler: keeping it past removal would keep both alive forever
    /// (4.8 KB a connection, measured).
    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        guard let number = server.register(self, channel: context.channel) else {
            write(ProtocolLine.event(.shutdown, ShutdownEvent(reason: "the daemon is stopping")))
            context.flush()
            context.close(promise: nil)
            closing = true
            return
        }
        self.number = number
        logger[metadataKey: "client"] = "\(number)"
        logger.info("client connected", metadata: ["clients": "\(server.statistics.clients)"])
        let server = self.server
        let audio = ClientAudio(device: server.device, sessions: server.sessions,
                                category: configuration.initialCategory, registryOptions: configuration.registryOptions,
                                sharedScene: { try server.sharedSystemSoundScene() })
        self.audio = audio
        server.noteSession(audio.session, of: number)
        let bound = NIOLoopBound(self, eventLoop: loop)
        let loop = self.loop
        audio.session.addObserver { event in loop.execute { bound.value.sessionEvent(event) } }
        routeObserver = server.device.addRouteObserver { change in loop.execute { bound.value.routeEvent(change) } }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        switch unwrapInboundIn(data) {
        case let .tooLong(bytes):
            server.stats.withLockedValue { $0.linesTooLong += 1 }
            answerNow(.null, RequestFailure(.lineTooLong,
                                            "the line is \(bytes) bytes; the limit is \(configuration.maxLineBytes). It was skipped"))
        case let .line(buffer):
            if buffer.readableBytesView.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
            switch ReceivedRequest.parse(buffer) {
            case let .failure(rejected): answerNow(rejected.id, rejected.failure)
            case let .success(request): enqueue(request)
            }
        }
        drain()
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.flush()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        drain()
        context.flush()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event {
            inputClosed = true
            drain()
            context.flush()
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        release(letSoundsFinish: true)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }

    // MARK: Queue

    private func enqueue(_ request: ReceivedRequest) {
        guard pendingAnswers < configuration.maxPendingRequests else {
            server.stats.withLockedValue { $0.busy += 1 }
            answerNow(request.id, RequestFailure(.busy, "\(pendingAnswers) requests are waiting; the limit is "
                                                 + "\(configuration.maxPendingRequests). Read the answers, then try again"),
                      command: request.commandName)
            return
        }
        pendingAnswers += 1
        server.stats.withLockedValue { $0.peakPendingRequests = max($0.peakPendingRequests, pendingAnswers) }
        if request.command == .playSound, var last = queue.last, last.request.commandName == request.commandName,
           last.request.arguments == request.arguments {
            last.coalesced.append(request.id)
            queue[queue.index(before: queue.endIndex)] = last
            server.stats.withLockedValue { $0.coalesced += 1 }
            return
        }
        queue.append(Pending(request: request))
    }

    /// Runs waiting requests while nothing is in flight and the client keeps up with reading.
    private func drain() {
        while !inFlight, !closing, channel.isWritable, let next = queue.popFirst() {
            execute(next)
        }
        if inputClosed, queue.isEmpty, !inFlight, !closing {
            closing = true
            context?.flush()
            context?.close(promise: nil)
        }
    }

    private func execute(_ pending: Pending) {
        logger.debug("request", metadata: ["command": "\(pending.request.commandName)", "id": "\(pending.request.id.encoded)"])
        do {
            switch try run(pending.request) {
            case let .now(result):
                answer(pending, .success(result))
            case let .later(future):
                inFlight = true
                future.hop(to: loop).assumeIsolated().whenComplete { result in
                    self.inFlight = false
                    self.answer(pending, result.mapError(RequestFailure.from))
                    self.drain()
                    // After the drain: the answers of the requests that waited behind this one
                    // (and ran now) leave too, not at the client's next read.
                    self.context?.flush()
                }
            }
        } catch {
            answer(pending, .failure(RequestFailure.from(error)))
        }
    }

    private func answer(_ pending: Pending, _ result: Result<JSONValue, RequestFailure>) {
        pendingAnswers -= 1 + pending.coalesced.count
        let count = 1 + pending.coalesced.count
        server.stats.withLockedValue { stats in
            stats.answered += count
            if case .failure = result { stats.errors += count }
        }
        answeredCount += count
        if case let .failure(failure) = result { logRefusal(failure, command: pending.request.commandName, count: count) }
        respond(pending.request.id, result)
        guard !pending.coalesced.isEmpty else { return }
        // The merged requests did not play anything themselves.
        let merged = result.map { value -> JSONValue in
            var members = value.objectValue ?? [:]
            members["outcome"] = .string(PlayOutcome.coalesced.rawValue)
            return .object(members)
        }
        for id in pending.coalesced {
            respond(id, merged)
            if case let .success(value) = merged {
                completion(request: id, sound: (try? SoundAnswer(json: value))?.sound, outcome: .coalesced, later: true)
            }
        }
    }

    private func answerNow(_ id: JSONValue, _ failure: RequestFailure, command: String? = nil) {
        server.stats.withLockedValue { $0.answered += 1; $0.errors += 1 }
        answeredCount += 1
        logRefusal(failure, command: command, count: 1)
        respond(id, .failure(failure))
    }

    /// Logs a refused request — `busy` at `warning` (the daemon is overloaded), others at `notice`
    /// (the client's mistake) — at most five a second; the rest are counted and reported.
    private func logRefusal(_ failure: RequestFailure, command: String?, count: Int) {
        refusedCount += count
        let (log, heldBack) = refusalLog.admit()
        guard log else { return }
        var metadata: Logger.Metadata = ["code": "\(failure.code)", "error": "\(failure.message)"]
        if let command { metadata["command"] = "\(command)" }
        if let subject = failure.subject { metadata["subject"] = "\(subject)" }
        if heldBack > 0 { metadata["notLogged"] = "\(heldBack)" }
        logger.log(level: failure.code == .busy ? .warning : .notice, "request refused", metadata: metadata)
    }

    private func respond(_ id: JSONValue, _ result: Result<JSONValue, RequestFailure>) {
        switch result {
        case let .success(value): write(ProtocolLine.response(id: id, result: value))
        case let .failure(failure): write(ProtocolLine.error(id: id, code: failure.code, message: failure.message, subject: failure.subject))
        }
    }

    // MARK: Output

    /// Queues a line for the client, counting unread bytes; past the limit, stops reading from it.
    func write(_ line: String) {
        guard let context, context.channel.isActive else { return }
        let bytes = line.utf8.count
        outputBytes += bytes
        let peak = outputBytes
        server.stats.withLockedValue { $0.peakOutputBytes = max($0.peakOutputBytes, peak) }
        if outputBytes > configuration.maxOutputBytes && !readingPaused {
            readingPaused = true
            server.stats.withLockedValue { $0.readPauses += 1 }
            setReading(false)
        }
        let promise = loop.makePromise(of: Void.self)
        promise.futureResult.assumeIsolated().whenComplete { _ in
            self.outputBytes -= bytes
            if self.readingPaused && self.outputBytes <= self.configuration.maxOutputBytes / 2 {
                self.readingPaused = false
                self.setReading(true)
            }
        }
        context.write(wrapOutboundOut(context.channel.allocator.buffer(string: line)), promise: promise)
    }

    private func setReading(_ on: Bool) {
        guard let options = channel.syncOptions else { return }
        try? options.setOption(ChannelOptions.autoRead, value: on)
    }

    /// Writes an event if the client subscribed to its topic.
    func push(_ event: EventName, _ body: some ProtocolBody) {
        guard let topic = event.topic, subscriptions.contains(topic), !closing else { return }
        write(ProtocolLine.event(event, body))
        context?.flush()
    }

    /// The `completion` event of a play; `later` defers it until after the answer being written.
    func completion(request: JSONValue, sound: UInt32?, outcome: PlayOutcome, later: Bool = false) {
        let event = CompletionEvent(request: request, sound: sound, outcome: outcome)
        if later {
            let bound = NIOLoopBound(self, eventLoop: loop)
            loop.execute { bound.value.push(.completion, event) }
        } else {
            push(.completion, event)
        }
    }

    private func sessionEvent(_ event: SessionEvent) {
        let change: SessionChangeEvent
        switch event.kind {
        case .activated: change = SessionChangeEvent(kind: .activated, time: event.time)
        case .deactivated: change = SessionChangeEvent(kind: .deactivated, time: event.time)
        case let .interruptionBegan(reason): change = SessionChangeEvent(kind: .interruptionBegan, reason: reason.rawValue, time: event.time)
        case let .interruptionEnded(resume): change = SessionChangeEvent(kind: .interruptionEnded, shouldResume: resume, time: event.time)
        case let .ducked(gain): change = SessionChangeEvent(kind: .ducked, gain: Double(gain), time: event.time)
        case .unducked: change = SessionChangeEvent(kind: .unducked, time: event.time)
        }
        push(.session, change)
        server.sessionEvent(event, of: number)
        switch event.kind {
        case let .interruptionBegan(reason): logger.info("session interrupted", metadata: ["reason": "\(reason.rawValue)"])
        case let .interruptionEnded(resume): logger.info("interruption ended", metadata: ["resume": "\(resume)"])
        default: logger.debug("session event", metadata: ["kind": "\(change.kind.rawValue)"])
        }
    }

    private func routeEvent(_ change: RouteChange) {
        push(.route, RouteEvent(reason: change.reason.rawValue, time: change.time))
    }

    // MARK: Ending

    /// Tells the client the daemon stops, frees everything at once, and closes.
    func shutdown(reason: String) -> EventLoopFuture<Void> {
        if let context, context.channel.isActive {
            write(ProtocolLine.event(.shutdown, ShutdownEvent(reason: reason)))
            context.flush()
        }
        release(letSoundsFinish: false)
        closing = true
        return channel.close().recover { _ in }
    }

    /// Frees the client's scenes now; its registry and session when the system sounds playing now
    /// have ended (a script that plays a sound and disconnects is still heard), or at once.
    private func release(letSoundsFinish: Bool) {
        closing = true
        guard let audio else { return }
        self.audio = nil
        server.noteSession(nil, of: number)
        server.unregister(self)
        server.meterFeed.remove(self, of: server)
        if let routeObserver { server.device.removeRouteObserver(routeObserver) }
        routeObserver = nil
        let (registry, session) = audio.releaseScenes()
        server.retire(registry: registry, session: session, letSoundsFinish: letSoundsFinish)
        var metadata: Logger.Metadata = ["answered": "\(answeredCount)", "refused": "\(refusedCount)"]
        let heldBack = refusalLog.takeSuppressed()
        if heldBack > 0 { metadata["refusalsNotLogged"] = "\(heldBack)" }
        logger.info("client disconnected", metadata: metadata)
    }
}
