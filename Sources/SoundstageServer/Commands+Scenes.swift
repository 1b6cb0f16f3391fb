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

// The scene commands: loadScene, runScene, stopScene, unloadScene, listScenes, playAt, setListener.
extension ClientConnection {
    // MARK: Scenes

    func loadScene(_ request: ReceivedRequest) throws -> CommandResult {
        let args = try Arguments(request, for: .loadScene)
        let audio = try clientAudio()
        let file = try absolutePath(args, .file)
        let which = try args.exactlyOne(of: [.file, .scene])
        let inline = args[.scene]
        if which == .scene, inline?.objectValue == nil { throw args.fail("scene: expected a scene object (docs/scene-format.md)") }
        guard let name = try args.string(.name) ?? file.map({ URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent }) else {
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
            return SceneAnswer(scene: name, duration: runner.description.duration, sources: runner.description.sources.map(\.name),
                               contexts: runner.description.contextNames).json
        }.nonisolated())
    }

    func runScene(_ request: ReceivedRequest) throws -> CommandResult {
        let args = try Arguments(request, for: .runScene)
        let hosted = try scene(args)
        hosted.runRequest = request.id
        let interval = TimeAmount.nanoseconds(Int64(configuration.sceneUpdateInterval * 1e9))
        let bound = NIOLoopBound(self, eventLoop: loop)
        let name = hosted.name
        hosted.run(on: loop, interval: interval) {
            bound.value.push(.sceneEnded, SceneEndedEvent(scene: name, request: request.id))
        }
        return .now(SceneAnswer(scene: name, duration: hosted.runner.description.duration, running: true).json)
    }

    func stopScene(_ request: ReceivedRequest) throws -> CommandResult {
        let args = try Arguments(request, for: .stopScene)
        let hosted = try scene(args)
        hosted.stop()
        return .now(SceneAnswer(scene: hosted.name, running: false).json)
    }

    func unloadScene(_ request: ReceivedRequest) throws -> CommandResult {
        let args = try Arguments(request, for: .unloadScene)
        let hosted = try scene(args)
        let audio = try clientAudio()
        hosted.close()
        audio.scenes.removeValue(forKey: hosted.name)
        server.device.evictCachedBuffers()
        return .now(SceneAnswer(scene: hosted.name, unloaded: true).json)
    }

    func listScenes(_ request: ReceivedRequest) throws -> CommandResult {
        _ = try Arguments(request, for: .listScenes)
        let scenes = try clientAudio().scenes.values.sorted { $0.name < $1.name }
        return .now(SceneListAnswer(scenes: scenes.map { hosted in
            SceneAnswer(scene: hosted.name, duration: hosted.runner.description.duration, running: hosted.isRunning,
                        time: hosted.runner.time)
        }).json)
    }

    func playAt(_ request: ReceivedRequest) throws -> CommandResult {
        let args = try Arguments(request, for: .playAt)
        let hosted = try scene(args)
        let context = try args.string(.context)
        guard let target = hosted.scene(context: context) else {
            throw args.fail("context: the scene '\(hosted.name)' has no context '\(context ?? "")'")
        }
        let file = try absolutePath(args, .file)!
        let position = try args.vector(.position)!
        let gain = Float(try args.number(.gain, default: 1, in: SceneLimits.gain)!)
        let pitch = Float(try args.number(.pitch, default: 1, in: SceneLimits.pitch)!)
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
            return SceneAnswer(scene: hosted.name, outcome: .playing).json
        }.nonisolated())
    }

    func oneShotEnded(scene: HostedScene, key: ObjectIdentifier, request: JSONValue) {
        guard scene.oneShots.removeValue(forKey: key) != nil else { return }
        completion(request: request, sound: nil, outcome: .finished)
    }

    func setListener(_ request: ReceivedRequest) throws -> CommandResult {
        let args = try Arguments(request, for: .setListener)
        let hosted = try scene(args)
        let context = try args.string(.context)
        guard let listener = hosted.scene(context: context)?.listener else {
            throw args.fail("context: the scene '\(hosted.name)' has no context '\(context ?? "")'")
        }
        let position = try args.vector(.position)
        let at = try args.vector(.at, nonZero: true)
        let up = try args.vector(.up, nonZero: true)
        let velocity = try args.vector(.velocity)
        let gain = try args.number(.gain, in: SceneLimits.gain)
        if let position { listener.position = position }
        if at != nil || up != nil { listener.setOrientation(at: at ?? listener.at, up: up ?? listener.up) }
        if let velocity { listener.velocity = velocity }
        if let gain { listener.gain = Float(gain) }
        func vector(_ v: Vector3) -> [Double] { [Double(v.x), Double(v.y), Double(v.z)] }
        return .now(ListenerAnswer(scene: hosted.name, position: vector(listener.position), at: vector(listener.at),
                                   up: vector(listener.up), velocity: vector(listener.velocity), gain: Double(listener.gain)).json)
    }
}
