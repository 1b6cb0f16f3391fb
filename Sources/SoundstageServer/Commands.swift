import Foundation
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
    func run(_ request: Request) throws -> CommandResult {
        guard let command = Command(rawValue: request.command) else {
            throw RequestFailure(.unknownCommand, "'\(request.command)' is not a command; the commands are "
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

    private func ping(_ request: Request) throws -> CommandResult {
        _ = try Arguments(request, allowed: [])
        return .now(["pong": true, "server": "soundstage", "protocol": .number(Double(ServerProtocol.version))])
    }

    private func status(_ request: Request) throws -> CommandResult {
        _ = try Arguments(request, allowed: [])
        let device = server.device
        let live = device.liveObjects
        func n(_ value: Int) -> JSONValue { .number(Double(value)) }
        return .now([
            "clients": n(server.statistics.clients),
            "sessions": n(server.sessions.sessionCount),
            "retiringClients": n(server.retiringCount),
            "device": ["kind": device.kind == .output ? "output" : "loopback", "sampleRate": n(device.sampleRate),
                       "channels": n(device.layout.channelCount)],
            "liveObjects": ["devices": n(live.devices), "contexts": n(live.contexts), "buffers": n(live.buffers),
                            "sources": n(live.sources)],
            "statistics": server.statistics.json,
        ])
    }

    private func subscribe(_ request: Request, adding: Bool) throws -> CommandResult {
        let args = try Arguments(request, allowed: ["events"], required: ["events"])
        guard case let .array(items)? = args["events"] else {
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
        return .now(["subscribed": .array(subscriptions.map(\.rawValue).sorted().map(JSONValue.string))])
    }

    // MARK: System sounds

    private func registerSound(_ request: Request) throws -> CommandResult {
        let args = try Arguments(request, allowed: ["file", "event"])
        let audio = try clientAudio()
        let registry = try audio.systemSounds()
        let file = try absolutePath(args, "file")
        let event = try args.string("event")
        _ = try args.exactlyOne(of: ["file", "event"])
        return .later(register(registry, audio) { try file.map { try registry.register(file: $0) } ?? registry.register(event: event!) }
            .map { id in ["sound": .number(Double(id.rawValue)), "name": .string(file ?? event!)] })
    }

    /// Registers a sound on the blocking pool within the client's quotas: the count is checked
    /// before, the decoded bytes after (a sound that takes the client past them is disposed again).
    private func register(_ registry: SystemSoundRegistry, _ audio: ClientAudio,
                          _ work: @escaping @Sendable () throws -> SystemSoundID) -> EventLoopFuture<SystemSoundID> {
        let quotas = configuration.quotas
        let before = audio.usage
        do {
            try Self.within(before.sounds + 1, quotas.registeredSounds, "registered sounds", flag: "--max-sounds")
        } catch {
            return loop.makeFailedFuture(error)
        }
        return offload { Transfer(value: try work()) }.assumeIsolated().flatMapThrowing { made in
            let id = made.value
            let after = try self.clientAudio().usage
            if after.sounds > before.sounds && after.bytes > quotas.bytesPerClient {
                try? registry.dispose(id)
                try self.clientAudio().forget(id)
                try Self.within(after.bytes, quotas.bytesPerClient, "bytes of decoded audio", flag: "--max-client-mb")
            }
            return id
        }.nonisolated()
    }

    /// Throws `quotaExceeded` unless `value`, what the client would hold, is within `limit`.
    static func within(_ value: Int, _ limit: Int, _ what: String, flag: String) throws {
        guard value > limit else { return }
        throw RequestFailure(.quotaExceeded, "this would give the client \(value) \(what); a client may hold \(limit) (serve \(flag))")
    }

    private func playSound(_ request: Request) throws -> CommandResult {
        let args = try Arguments(request, allowed: ["sound", "file", "event", "alert"])
        let audio = try clientAudio()
        let registry = try audio.systemSounds()
        let alert = try args.bool("alert")
        let file = try absolutePath(args, "file")
        let event = try args.string("event")
        let number = try args.integer("sound", in: 1...Int(UInt32.max))
        switch try args.exactlyOne(of: ["sound", "file", "event"]) {
        case "sound":
            return .now(try play(SystemSoundID(rawValue: UInt32(number!)), alert: alert, request: request.id, registry: registry))
        case "file":
            if let id = audio.idsByFile[file!] { return .now(try play(id, alert: alert, request: request.id, registry: registry)) }
            return .later(register(registry, audio) { try registry.register(file: file!) }.assumeIsolated().flatMapThrowing { id in
                try self.clientAudio().idsByFile[file!] = id
                return try self.play(id, alert: alert, request: request.id, registry: registry)
            }.nonisolated())
        default:
            if let id = audio.idsByEvent[event!] { return .now(try play(id, alert: alert, request: request.id, registry: registry)) }
            return .later(register(registry, audio) { try registry.register(event: event!) }.assumeIsolated().flatMapThrowing { id in
                try self.clientAudio().idsByEvent[event!] = id
                return try self.play(id, alert: alert, request: request.id, registry: registry)
            }.nonisolated())
        }
    }

    /// Starts a play; the answer says `playing` or how it ended at once, and the `completion`
    /// event (if subscribed) follows the answer with how it ended.
    private func play(_ id: SystemSoundID, alert: Bool, request: JSONValue, registry: SystemSoundRegistry) throws -> JSONValue {
        let sound = JSONValue.number(Double(id.rawValue))
        let early = EarlyOutcome()
        let bound = NIOLoopBound(self, eventLoop: loop)
        let loop = self.loop
        let report: @Sendable (SystemSoundOutcome) -> Void = { outcome in
            guard !early.record(outcome) else { return }
            loop.execute { bound.value.completion(request: request, sound: sound, outcome: Self.name(outcome)) }
        }
        if alert { try registry.playAlert(id, completion: report) } else { try registry.play(id, completion: report) }
        let outcome = early.finish()
        if let outcome { completion(request: request, sound: sound, outcome: Self.name(outcome), later: true) }
        return ["sound": sound, "outcome": .string(outcome.map(Self.name) ?? "playing")]
    }

    private func disposeSound(_ request: Request) throws -> CommandResult {
        let args = try Arguments(request, allowed: ["sound"], required: ["sound"])
        let id = SystemSoundID(rawValue: UInt32(try args.integer("sound", in: 1...Int(UInt32.max))!))
        let audio = try clientAudio()
        try audio.systemSounds().dispose(id)
        audio.forget(id)
        return .now(["sound": .number(Double(id.rawValue)), "disposed": true])
    }

    private func listSounds(_ request: Request) throws -> CommandResult {
        _ = try Arguments(request, allowed: [])
        let sounds = try clientAudio().registry?.registered ?? []
        return .now(["sounds": .array(sounds.map { ["sound": .number(Double($0.id.rawValue)), "name": .string($0.name)] })])
    }

    private func setSoundVolume(_ request: Request) throws -> CommandResult {
        let args = try Arguments(request, allowed: ["volume"], required: ["volume"])
        let volume = try args.number("volume", in: 0...16)!
        try clientAudio().systemSounds().volume = Float(volume)
        return .now(["volume": .number(volume)])
    }

    static func name(_ outcome: SystemSoundOutcome) -> String {
        switch outcome {
        case .finished: "finished"
        case .replaced: "replaced"
        case .coalesced: "coalesced"
        case .silenced: "silenced"
        case .disposed: "disposed"
        case .failed: "failed"
        }
    }

    // MARK: Scenes

    private func loadScene(_ request: Request) throws -> CommandResult {
        let args = try Arguments(request, allowed: ["file", "scene", "name"])
        let audio = try clientAudio()
        let file = try absolutePath(args, "file")
        let which = try args.exactlyOne(of: ["file", "scene"])
        let inline = args["scene"]
        if which == "scene", inline?.objectValue == nil { throw args.fail("scene: expected a scene object (docs/scene-format.md)") }
        guard let name = try args.string("name") ?? file.map({ URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent }) else {
            throw args.fail("name: missing; an inline scene needs a name")
        }
        guard audio.scenes[name] == nil else {
            throw args.fail("name: a scene named '\(name)' is already loaded; unloadScene it first or choose another name")
        }
        let quotas = configuration.quotas
        let usage = audio.usage
        try Self.within(usage.scenes + 1, quotas.scenes, "scenes", flag: "--max-scenes")
        let device = server.device
        return .later(offload {
            let description = try file.map { try SceneDescription.load(path: $0) }
                ?? SceneDescription.parse(Data(inline!.encoded.utf8), name: "scene '\(name)'", baseDirectory: "/")
            if file == nil, let relative = description.sources.first(where: {
                if case let .file(path) = $0.sound { !path.hasPrefix("/") } else { false }
            }) {
                throw RequestFailure(.badRequest, "scene.sources: '\(relative.name)' has a relative sound path; "
                                     + "an inline scene takes absolute paths (the daemon does not share your working directory)")
            }
            guard description.duration <= quotas.sceneSeconds else {
                throw RequestFailure(.quotaExceeded, "the scene lasts \(description.duration) s; a scene may last \(quotas.sceneSeconds) s "
                                     + "(serve --max-scene-seconds)")
            }
            let contexts = Set(description.contextNames + description.reverbZones.map(\.context)).count
            try Self.within(usage.contexts + contexts, quotas.contexts, "OpenAL contexts", flag: "--max-contexts")
            try Self.within(usage.sources + description.sources.count, quotas.sources, "sources", flag: "--max-sources")
            do {
                return Transfer(value: try SceneRunner(description, device: device,
                                                       decodeBudget: max(0, quotas.bytesPerClient - usage.bytes)))
            } catch let error as SoundstageError where error.code == .tooLarge {
                throw RequestFailure(.quotaExceeded, "the scene's sounds would give the client more than \(quotas.bytesPerClient) "
                                     + "bytes of decoded audio (serve --max-client-mb): \(error.message)")
            }
        }.assumeIsolated().flatMapThrowing { made in
            let runner = made.value
            guard let audio = self.audio, audio.scenes[name] == nil else {
                runner.close()
                throw RequestFailure(.badRequest, "loadScene: the scene '\(name)' could not be kept (the client is leaving, or loaded it twice)")
            }
            for scene in runner.scenes.values { audio.session.attach(scene) }
            audio.scenes[name] = HostedScene(name: name, runner: runner)
            return ["scene": .string(name), "duration": .number(runner.description.duration),
                    "sources": .array(runner.description.sources.map { .string($0.name) }),
                    "contexts": .array(runner.description.contextNames.map(JSONValue.string))]
        }.nonisolated())
    }

    private func runScene(_ request: Request) throws -> CommandResult {
        let args = try Arguments(request, allowed: ["scene"], required: ["scene"])
        let hosted = try scene(args)
        hosted.runRequest = request.id
        let interval = TimeAmount.nanoseconds(Int64(configuration.sceneUpdateInterval * 1e9))
        let bound = NIOLoopBound(self, eventLoop: loop)
        let name = hosted.name
        hosted.run(on: loop, interval: interval) {
            bound.value.push(.completion, "sceneEnded", ["scene": .string(name), "request": request.id])
        }
        return .now(["scene": .string(name), "duration": .number(hosted.runner.description.duration), "running": true])
    }

    private func stopScene(_ request: Request) throws -> CommandResult {
        let args = try Arguments(request, allowed: ["scene"], required: ["scene"])
        let hosted = try scene(args)
        hosted.stop()
        return .now(["scene": .string(hosted.name), "running": false])
    }

    private func unloadScene(_ request: Request) throws -> CommandResult {
        let args = try Arguments(request, allowed: ["scene"], required: ["scene"])
        let hosted = try scene(args)
        let audio = try clientAudio()
        hosted.close()
        audio.scenes.removeValue(forKey: hosted.name)
        server.device.evictCachedBuffers()
        return .now(["scene": .string(hosted.name), "unloaded": true])
    }

    private func listScenes(_ request: Request) throws -> CommandResult {
        _ = try Arguments(request, allowed: [])
        let scenes = try clientAudio().scenes.values.sorted { $0.name < $1.name }
        return .now(["scenes": .array(scenes.map { hosted in
            ["scene": .string(hosted.name), "running": .bool(hosted.isRunning),
             "time": .number(hosted.runner.time), "duration": .number(hosted.runner.description.duration)]
        })])
    }

    private func playAt(_ request: Request) throws -> CommandResult {
        let args = try Arguments(request, allowed: ["scene", "context", "file", "position", "gain", "pitch"],
                                 required: ["scene", "file", "position"])
        let hosted = try scene(args)
        let context = try args.string("context")
        guard let target = hosted.scene(context: context) else {
            throw args.fail("context: the scene '\(hosted.name)' has no context '\(context ?? "")'")
        }
        let file = try absolutePath(args, "file")!
        let position = try args.vector("position")!
        let gain = Float(try args.number("gain", default: 1, in: SceneLimits.gain)!)
        let pitch = Float(try args.number("pitch", default: 1, in: SceneLimits.pitch)!)
        let quotas = configuration.quotas
        try Self.within(try clientAudio().usage.sources + 1, quotas.sources, "sources", flag: "--max-sources")
        let device = server.device
        return .later(offload { try device.buffer(file: file) }.assumeIsolated().flatMapThrowing { buffer in
            guard self.audio?.scenes[hosted.name] === hosted else {
                throw RequestFailure(.badRequest, "playAt: the scene '\(hosted.name)' was unloaded")
            }
            let usage = try self.clientAudio().usage
            let held = hosted.oneShots.values.contains { $0.buffer === buffer } || hosted.runner.sources.values.contains { $0.buffer === buffer }
            if !held {
                try Self.within(usage.bytes + buffer.frames * buffer.channels * MemoryLayout<Float>.size, quotas.bytesPerClient,
                                "bytes of decoded audio", flag: "--max-client-mb")
            }
            let source = target.makeSource(buffer: buffer)
            source.position = position
            source.gain = gain
            source.pitch = pitch
            let key = ObjectIdentifier(source)
            let bound = NIOLoopBound((connection: self, scene: hosted), eventLoop: self.loop)
            let loop = self.loop
            source.completionHandler = { _ in
                loop.execute { bound.value.connection.oneShotEnded(scene: bound.value.scene, key: key, request: request.id) }
            }
            try source.play()
            hosted.oneShots[key] = source
            return ["scene": .string(hosted.name), "outcome": "playing"]
        }.nonisolated())
    }

    private func oneShotEnded(scene: HostedScene, key: ObjectIdentifier, request: JSONValue) {
        guard scene.oneShots.removeValue(forKey: key) != nil else { return }
        completion(request: request, sound: nil, outcome: "finished")
    }

    private func setListener(_ request: Request) throws -> CommandResult {
        let args = try Arguments(request, allowed: ["scene", "context", "position", "at", "up", "velocity", "gain"],
                                 required: ["scene"])
        let hosted = try scene(args)
        let context = try args.string("context")
        guard let listener = hosted.scene(context: context)?.listener else {
            throw args.fail("context: the scene '\(hosted.name)' has no context '\(context ?? "")'")
        }
        let position = try args.vector("position")
        let at = try args.vector("at", nonZero: true)
        let up = try args.vector("up", nonZero: true)
        let velocity = try args.vector("velocity")
        let gain = try args.number("gain", in: SceneLimits.gain)
        if let position { listener.position = position }
        if at != nil || up != nil { listener.setOrientation(at: at ?? listener.at, up: up ?? listener.up) }
        if let velocity { listener.velocity = velocity }
        if let gain { listener.gain = Float(gain) }
        func vector(_ v: Vector3) -> JSONValue { [.number(Double(v.x)), .number(Double(v.y)), .number(Double(v.z))] }
        return .now(["scene": .string(hosted.name), "position": vector(listener.position), "at": vector(listener.at),
                     "up": vector(listener.up), "velocity": vector(listener.velocity), "gain": .number(Double(listener.gain))])
    }

    // MARK: Sessions

    private func session(_ request: Request) throws -> CommandResult {
        let args = try Arguments(request, allowed: ["category", "options", "active", "notifyOthers", "interruption", "resume"])
        let session = try clientAudio().session
        let category = try args.json.choice(args["category"], "category", default: session.category)
        var options = session.options
        if let list = args["options"] {
            guard case let .array(items) = list else { throw args.fail("options: expected an array such as [\"mixWithOthers\"]") }
            options = []
            for (index, item) in items.enumerated() {
                switch item.stringValue {
                case "mixWithOthers": options.insert(.mixWithOthers)
                case "duckOthers": options.insert(.duckOthers)
                default: throw args.fail("options[\(index)]: expected \"mixWithOthers\" or \"duckOthers\", got \(item.encoded)")
                }
            }
        }
        let active = args["active"] == nil ? nil : try args.bool("active")
        let notify = try args.bool("notifyOthers", default: true)
        let resume = try args.bool("resume", default: true)
        let interruption = try args.string("interruption")
        if let interruption, interruption != "begin", interruption != "end" {
            throw args.fail("interruption: expected \"begin\" or \"end\", got \"\(interruption)\"")
        }
        if category != session.category || options != session.options {
            // A category applies at activation: an active session re-activates under the new one
            // (deactivated first, so others never see the new category half-applied).
            let reactivate = session.isActive && active != false
            if reactivate { try session.setActive(false, notifyOthersOnDeactivation: notify) }
            session.setCategory(category, options: options)
            if reactivate { try session.setActive(true) }
        }
        if let active { try session.setActive(active, notifyOthersOnDeactivation: notify) }
        if interruption == "begin" { session.beginInterruption() }
        if interruption == "end" { session.endInterruption(shouldResume: resume) }
        var names: [JSONValue] = []
        if session.options.contains(.mixWithOthers) { names.append("mixWithOthers") }
        if session.options.contains(.duckOthers) { names.append("duckOthers") }
        return .now(["category": .string(session.category.rawValue), "options": .array(names),
                     "active": .bool(session.isActive), "interrupted": .bool(session.isInterrupted),
                     "ducked": .bool(session.isDucked)])
    }

    // MARK: Helpers

    private func clientAudio() throws -> ClientAudio {
        guard let audio else { throw RequestFailure(.shuttingDown, "the connection is closing") }
        return audio
    }

    private func scene(_ args: Arguments) throws -> HostedScene {
        let name = try args.string("scene")!
        guard let hosted = try clientAudio().scenes[name] else {
            throw RequestFailure(SoundstageError(.notFound, "no scene by this name is loaded by this client (loadScene it first)", subject: name))
        }
        return hosted
    }

    /// A file argument, which must be absolute: the daemon's working directory is not the client's.
    private func absolutePath(_ args: Arguments, _ key: String) throws -> String? {
        guard let path = try args.string(key) else { return nil }
        guard path.hasPrefix("/") else {
            throw args.fail("\(key): '\(path)' is relative; give an absolute path (the daemon does not share your working directory)")
        }
        return path
    }

    private func offload<T: Sendable>(_ work: @escaping @Sendable () throws -> T) -> EventLoopFuture<T> {
        server.blockingPool.runIfActive(eventLoop: loop) {
            defer { Soundstage.detachCurrentThread() }
            return try work()
        }
    }
}

/// The outcome of a play that ended before `play` returned (coalesced, silenced, failed), kept
/// so the answer can say so; outcomes after that go out as events.
private final class EarlyOutcome: Sendable {
    private let state = NIOLockedValueBox<(returned: Bool, outcome: SystemSoundOutcome?)>((false, nil))

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
