#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import NIOConcurrencyHelpers
import NIOCore
import Soundstage
import SoundstageScenes
import SoundstageProtocol

/// Hands a value made on the thread pool (a ``SceneRunner``) to the client's event loop; it is
/// never used on two threads at once.
struct Transfer<Value>: @unchecked Sendable {
    let value: Value
}

/// The commands of the protocol (docs/protocol.md). Each validates its arguments, then either
/// answers at once (on the event loop: a play is microseconds) or decodes files on the thread
/// pool first (`.later`); the client's later requests wait for it.
extension ClientConnection {
    func run(_ request: ReceivedRequest) throws -> CommandResult {
        guard let command = request.command else {
            throw RequestFailure(.unknownCommand, "'\(request.commandName)' is not a command; the commands are "
                                 + Command.allCases.map(\.rawValue).joined(separator: ", "))
        }
        switch command {
        case .ping: return try ping(request)
        case .status: return try status(request)
        case .registerSound: return try registerSound(request)
        case .playSound: return try playSound(request)
        case .disposeSound: return try disposeSound(request)
        case .listSounds: return try listSounds(request)
        case .setSoundVolume: return try setSoundVolume(request)
        case .loadScene: return try loadScene(request)
        case .runScene: return try runScene(request)
        case .stopScene: return try stopScene(request)
        case .unloadScene: return try unloadScene(request)
        case .listScenes: return try listScenes(request)
        case .playAt: return try playAt(request)
        case .setListener: return try setListener(request)
        case .session: return try session(request)
        case .subscribe: return try subscribe(request, adding: true)
        case .unsubscribe: return try subscribe(request, adding: false)
        }
    }

    // MARK: General

    func ping(_ request: ReceivedRequest) throws -> CommandResult {
        _ = try Arguments(request, for: .ping)
        return .now(PingAnswer().json)
    }

    func status(_ request: ReceivedRequest) throws -> CommandResult {
        _ = try Arguments(request, for: .status)
        let device = server.device
        let live = device.liveObjects
        let statistics = server.statistics
        return .now(StatusAnswer(
            clients: statistics.clients, sessions: server.sessions.sessionCount, retiringClients: server.retiringCount,
            device: .init(kind: device.kind == .output ? "output" : "loopback", sampleRate: device.sampleRate,
                          channels: device.layout.channelCount),
            liveObjects: ["devices": live.devices, "contexts": live.contexts, "buffers": live.buffers, "sources": live.sources],
            statistics: statistics.counters.mapValues(Double.init)).json)
    }

    func subscribe(_ request: ReceivedRequest, adding: Bool) throws -> CommandResult {
        let args = try Arguments(request, for: adding ? .subscribe : .unsubscribe)
        guard case let .array(items)? = args[.events] else {
            throw args.fail("events: expected an array such as [\"completion\", \"session\", \"route\"]")
        }
        var topics: Set<Topic> = []
        for (index, item) in items.enumerated() {
            guard let name = item.stringValue, let topic = Topic(rawValue: name) else {
                throw args.fail("events[\(index)]: expected one of \(Topic.allCases.map(\.rawValue).joined(separator: ", ")), got \(item.encoded)")
            }
            topics.insert(topic)
        }
        if adding { subscriptions.formUnion(topics) } else { subscriptions.subtract(topics) }
        if topics.contains(.meters) {
            if adding { server.meterFeed.add(self, of: server) } else { server.meterFeed.remove(self, of: server) }
        }
        return .now(SubscriptionAnswer(subscribed: Array(subscriptions)).json)
    }

    // MARK: Helpers

    func clientAudio() throws -> ClientAudio {
        guard let audio else { throw RequestFailure(.shuttingDown, "the connection is closing") }
        return audio
    }

    func scene(_ args: Arguments) throws -> HostedScene {
        let name = try args.string(.scene)!
        guard let hosted = try clientAudio().scenes[name] else {
            throw RequestFailure(SoundstageError(.notFound, "no scene by this name is loaded by this client (loadScene it first)", subject: name))
        }
        return hosted
    }

    /// A file argument, which must be absolute: the daemon's working directory is not the client's.
    func absolutePath(_ args: Arguments, _ key: Argument) throws -> String? {
        guard let path = try args.string(key) else { return nil }
        guard path.hasPrefix("/") else {
            throw args.fail("\(key.rawValue): '\(path)' is relative; give an absolute path (the daemon does not share your working directory)")
        }
        return path
    }

    func offload<T: Sendable>(_ work: @escaping @Sendable () throws -> T) -> EventLoopFuture<T> {
        server.blockingPool.runIfActive(eventLoop: loop) {
            defer { Soundstage.detachCurrentThread() }
            return try work()
        }
    }
}

/// The outcome of a play that ended before `play` returned (coalesced, silenced, failed), kept
/// so the answer can say so; outcomes after that go out as events.
final class EarlyOutcome: Sendable {
    let state = NIOLockedValueBox<(returned: Bool, outcome: SystemSoundOutcome?)>((false, nil))

    /// Records an outcome that arrives before ``finish()``; false if it came later.
    func record(_ outcome: SystemSoundOutcome) -> Bool {
        state.withLockedValue { state in
            guard !state.returned else { return false }
            state.outcome = outcome
            return true
        }
    }

    func finish() -> SystemSoundOutcome? {
        state.withLockedValue { state in
            state.returned = true
            return state.outcome
        }
    }
}
