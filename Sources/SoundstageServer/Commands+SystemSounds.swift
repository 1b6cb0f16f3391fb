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

// The system-sound commands: registerSound, playSound, disposeSound, listSounds, setSoundVolume.
extension ClientConnection {
    // MARK: System sounds

    func registerSound(_ request: ReceivedRequest) throws -> CommandResult {
        let args = try Arguments(request, for: .registerSound)
        let audio = try clientAudio()
        let registry = try audio.systemSounds()
        let file = try absolutePath(args, .file)
        let event = try args.string(.event)
        _ = try args.exactlyOne(of: [.file, .event])
        return .later(register(registry, audio) { try file.map { try registry.register(file: $0) } ?? registry.register(event: event!) }
            .map { id in SoundAnswer(sound: id.rawValue, name: file ?? event!).json })
    }

    /// Registers a sound on the blocking pool within the client's quotas: the count is checked
    /// before, the decoded bytes after (a sound that takes the client past them is disposed again).
    func register(_ registry: SystemSoundRegistry, _ audio: ClientAudio,
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

    func playSound(_ request: ReceivedRequest) throws -> CommandResult {
        let args = try Arguments(request, for: .playSound)
        let audio = try clientAudio()
        let registry = try audio.systemSounds()
        let alert = try args.bool(.alert)
        let file = try absolutePath(args, .file)
        let event = try args.string(.event)
        let number = try args.integer(.sound, in: 1...Int(UInt32.max))
        switch try args.exactlyOne(of: [.sound, .file, .event]) {
        case .sound:
            return .now(try play(SystemSoundID(rawValue: UInt32(number!)), alert: alert, request: request.id, registry: registry))
        case .file:
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
    func play(_ id: SystemSoundID, alert: Bool, request: JSONValue, registry: SystemSoundRegistry) throws -> JSONValue {
        let sound = id.rawValue
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
        return SoundAnswer(sound: id.rawValue, outcome: outcome.map(Self.name) ?? .playing).json
    }

    func disposeSound(_ request: ReceivedRequest) throws -> CommandResult {
        let args = try Arguments(request, for: .disposeSound)
        let id = SystemSoundID(rawValue: UInt32(try args.integer(.sound, in: 1...Int(UInt32.max))!))
        let audio = try clientAudio()
        try audio.systemSounds().dispose(id)
        audio.forget(id)
        return .now(SoundAnswer(sound: id.rawValue, disposed: true).json)
    }

    func listSounds(_ request: ReceivedRequest) throws -> CommandResult {
        _ = try Arguments(request, for: .listSounds)
        let sounds = try clientAudio().registry?.registered ?? []
        return .now(SoundListAnswer(sounds: sounds.map { SoundAnswer(sound: $0.id.rawValue, name: $0.name) }).json)
    }

    func setSoundVolume(_ request: ReceivedRequest) throws -> CommandResult {
        let args = try Arguments(request, for: .setSoundVolume)
        let volume = try args.number(.volume, in: 0...16)!
        try clientAudio().systemSounds().volume = Float(volume)
        return .now(VolumeAnswer(volume: volume).json)
    }

    static func name(_ outcome: SystemSoundOutcome) -> PlayOutcome {
        switch outcome {
        case .finished: .finished
        case .replaced: .replaced
        case .coalesced: .coalesced
        case .silenced: .silenced
        case .disposed: .disposed
        case .failed: .failed
        }
    }
}
