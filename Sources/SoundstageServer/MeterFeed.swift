#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import NIOConcurrencyHelpers
import NIOCore
import Soundstage
import SoundstageProtocol

/// The `meters` subscription: while any client subscribes, every ``interval`` the daemon gathers
/// one overview — its clients and their sessions, scenes, voices and levels, the output's levels,
/// the render's CPU share, underruns — and pushes the same `meters` event to every subscriber
/// (what `soundstage top` shows). Metering is switched on while someone watches, off after.
final class MeterFeed: Sendable {
    /// How often the overview is pushed.
    static let interval = TimeAmount.milliseconds(250)

    private let state = NIOLockedValueBox(State())

    private struct State {
        var watchers: [ObjectIdentifier: NIOLoopBound<ClientConnection>] = [:]
        var task: RepeatedTask?
        var lastLoad: RenderLoad?
    }

    /// Starts pushing `server`'s overview to `connection` (on its loop).
    func add(_ connection: ClientConnection, of server: SoundServer) {
        let start = state.withLockedValue { state -> Bool in
            state.watchers[ObjectIdentifier(connection)] = NIOLoopBound(connection, eventLoop: connection.loop)
            return state.task == nil
        }
        guard start else { return }
        // Meters on now, so the first overview (one interval later) has a whole interval's levels.
        server.device.isOutputMeteringEnabled = true
        for client in server.clientRecords() {
            client.channel.eventLoop.execute { client.connection.value.setSceneMetering(true) }
        }
        let loop = server.group.next()
        let task = loop.scheduleRepeatedAsyncTask(initialDelay: Self.interval, delay: Self.interval) { [self] _ in tick(server, on: loop) }
        state.withLockedValue { $0.task = task }
    }

    /// Stops pushing to `connection` (unsubscribed or gone); the last one out switches metering off.
    func remove(_ connection: ClientConnection, of server: SoundServer) {
        let stopped = state.withLockedValue { state -> RepeatedTask? in
            guard state.watchers.removeValue(forKey: ObjectIdentifier(connection)) != nil, state.watchers.isEmpty else { return nil }
            defer { state.task = nil; state.lastLoad = nil }
            return state.task
        }
        guard let stopped else { return }
        stopped.cancel()
        server.device.isOutputMeteringEnabled = false
        for client in server.clientRecords() {
            client.channel.eventLoop.execute { client.connection.value.setSceneMetering(false) }
        }
    }

    /// Gathers every client's part on its own loop, then pushes one event to every watcher.
    private func tick(_ server: SoundServer, on loop: EventLoop) -> EventLoopFuture<Void> {
        let parts = server.clientRecords().map { client in
            client.channel.eventLoop.submit { client.connection.value.meterSnapshot() }
        }
        return EventLoopFuture.whenAllComplete(parts, on: loop).map { [self] results in
            let clients = results.compactMap { try? $0.get() }.filter { $0 != .null }
            let event = ProtocolLine.event(.meters, fields: overview(server, clients))
            let watchers = state.withLockedValue { Array($0.watchers.values) }
            for watcher in watchers {
                watcher.eventLoop.execute { watcher.value.pushMeters(event) }
            }
        }
    }

    private func overview(_ server: SoundServer, _ clients: [JSONValue]) -> [String: JSONValue] {
        let device = server.device
        let load = device.renderLoad
        let share = state.withLockedValue { state -> Double? in
            defer { state.lastLoad = load }
            return state.lastLoad.flatMap { load.share(since: $0) }
        }
        let status = device.outputStatus
        var output: JSONValue = .null
        if let levels = device.outputLevels() {
            output = ["peak": .array(levels.peakPower.map { .number(Double($0)) }),
                      "average": .array(levels.averagePower.map { .number(Double($0)) })]
        }
        var real = 0, virtual = 0, scenes = 0
        for client in clients {
            real += client["voices"]?["real"]?.numberValue.map { Int($0) } ?? 0
            virtual += client["voices"]?["virtual"]?.numberValue.map { Int($0) } ?? 0
            scenes += client["scenes"]?.numberValue.map { Int($0) } ?? 0
        }
        let system = server.systemSoundVoices()
        return [
            "time": .number(device.mixTime),
            "device": ["kind": .string(status.backend), "server": .string(status.server), "sink": status.sink.map(JSONValue.string) ?? .null,
                       "sampleRate": .number(Double(device.sampleRate)), "renderLoad": share.map(JSONValue.number) ?? .null,
                       "underruns": .number(Double(status.underruns)), "output": output],
            "clients": .array(clients),
            "scenes": .number(Double(scenes)),
            "voices": ["real": .number(Double(real + system.real)), "virtual": .number(Double(virtual + system.virtual))],
            "systemSounds": ["real": .number(Double(system.real)), "virtual": .number(Double(system.virtual))],
        ]
    }
}

extension ClientConnection {
    /// This client's part of the overview (on its loop): its session, scenes, voices and the
    /// level of everything its scenes play since the last tick (their meters are switched on).
    func meterSnapshot() -> JSONValue {
        guard let audio, !closing else { return .null }
        var real = 0, virtual = 0, running = 0
        var peak = LevelMeter.silence
        var power = 0.0
        for hosted in audio.scenes.values {
            if hosted.isRunning { running += 1 }
            for scene in hosted.runner.scenes.values {
                scene.isMeteringEnabled = true
                let voices = scene.voiceStatistics
                real += voices.realVoices
                virtual += voices.virtualVoices
                if let level = scene.meterLevels(), !level.averagePower.isEmpty {
                    // One figure per client: the loudest channel's peak, the channels' mean power.
                    peak = max(peak, level.peakPower.max() ?? LevelMeter.silence)
                    let powers = level.averagePower.map { $0 > LevelMeter.silence ? pow(10, Double($0) / 10) : 0 }
                    power += powers.reduce(0, +) / Double(powers.count)
                }
            }
        }
        let session = audio.session
        let average = power > 0 ? max(Double(LevelMeter.silence), 10 * log10(power)) : Double(LevelMeter.silence)
        return [
            "client": .number(Double(number)),
            "session": ["category": .string(session.category.rawValue), "active": .bool(session.isActive),
                        "interrupted": .bool(session.isInterrupted), "ducked": .bool(session.isDucked)],
            "scenes": .number(Double(audio.scenes.count)),
            "running": .number(Double(running)),
            "sounds": .number(Double(audio.registry?.registered.count ?? 0)),
            "voices": ["real": .number(Double(real)), "virtual": .number(Double(virtual))],
            "level": ["peak": .number(Double(peak)), "average": .number(average)],
        ]
    }

    /// Switches this client's scene meters on or off (on its loop).
    func setSceneMetering(_ on: Bool) {
        for hosted in audio?.scenes.values.map({ $0 }) ?? [] {
            for scene in hosted.runner.scenes.values { scene.isMeteringEnabled = on }
        }
    }

    /// Writes a `meters` event, unless the client leaves too much unread (a slow `top` misses a
    /// tick rather than making the daemon queue overviews without bound).
    func pushMeters(_ line: String) {
        guard subscriptions.contains(.meters), !closing, outputBytes < configuration.maxOutputBytes / 4 else { return }
        write(line)
        context?.flush()
    }
}
