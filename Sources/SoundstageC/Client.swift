import NIOConcurrencyHelpers
import CSoundstage
import Dispatch
import SoundstageClient
import SoundstageErrors
import SoundstageProtocol
import Synchronization

/// What a client handle holds: the connection, and the completion callback with the task that
/// reads the daemon's events for it.
final class CClient: HandleObject {
    let client: SoundstageClient
    /// The C callback (nil: none) and whether the event reader runs.
    private let completion = NIOLockedValueBox<(callback: CCallback<ss_client_callback>?, reading: Bool)>((nil, false))
    /// Callbacks run here, one at a time and off Swift's concurrency pool (so they may make
    /// blocking client calls, which wait for tasks on that pool).
    private let callbacks = DispatchQueue(label: "Soundstage client callbacks")
    private static let onCallbacks = DispatchSpecificKey<Bool>()

    init(_ client: SoundstageClient) {
        self.client = client
        callbacks.setSpecific(key: Self.onCallbacks, value: true)
    }

    /// Sets the callback; the first one subscribes and starts reading events.
    func setCompletion(_ callback: CCallback<ss_client_callback>?, handle: OpaquePointer?) throws {
        let start = completion.withLockedValue { state -> Bool in
            state.callback = callback
            defer { if callback != nil { state.reading = true } }
            return callback != nil && !state.reading
        }
        guard start else { return }
        let client = client
        try blocking { try await client.subscribe([.completion]) }
        let bits = UInt(bitPattern: Int(bitPattern: handle.map(UnsafeRawPointer.init)))
        Task { [self] in
            for await event in client.events where event.kind == .completion {
                guard let body = try? event.decode(CompletionEvent.self), let outcome = soundOutcome(body.outcome) else { continue }
                let sound = body.sound ?? 0
                callbacks.async { [self] in
                    guard let target = completion.withLockedValue({ $0.callback }) else { return }
                    target.function(OpaquePointer(bitPattern: bits), sound, outcome, target.userData)
                }
            }
        }
    }

    func handleDestroyed() {
        completion.withLockedValue { $0.callback = nil }
        let client = client
        _ = try? blocking { await client.close() }
        // No callback runs after the handle is gone (unless a callback is what destroys it).
        if DispatchQueue.getSpecific(key: Self.onCallbacks) != true { callbacks.sync {} }
    }
}

/// The C outcome of a daemon's play outcome (nil for `playing`, which is not an end).
private func soundOutcome(_ outcome: PlayOutcome) -> ss_sound_outcome? {
    switch outcome {
    case .playing: nil
    case .finished: SS_SOUND_FINISHED
    case .replaced: SS_SOUND_REPLACED
    case .coalesced: SS_SOUND_COALESCED
    case .silenced: SS_SOUND_SILENCED
    case .disposed: SS_SOUND_DISPOSED
    case .failed: SS_SOUND_FAILED
    }
}

@c @implementation
public func ss_client_set_completion_callback(_ client: OpaquePointer?, _ callback: ss_client_callback?,
                                              _ userData: UnsafeMutableRawPointer?) -> ss_result {
    capi {
        try HandleTable.shared.with(client, .client, as: CClient.self) { c in
            try c.setCompletion(callback.map { CCallback(function: $0, userData: userData) }, handle: client)
        }
    }
}

@inline(__always)
private func withClient<R>(_ handle: OpaquePointer?, _ body: (SoundstageClient) throws -> R) throws -> R {
    try HandleTable.shared.with(handle, .client, as: CClient.self) { try body($0.client) }
}

/// How long a call waits for the daemon's answer.
private let answerTimeout = 10.0

/// Runs `body` on Swift's concurrency pool and waits for it on the calling thread (a C thread,
/// never one of the pool's), at most `answerTimeout` seconds.
private func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let result = NIOLockedValueBox<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let outcome: Result<T, any Error>
        do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
        result.withLockedValue { $0 = outcome }
        done.signal()
    }
    guard done.wait(timeout: .now() + answerTimeout) == .success else {
        throw CAPIError(SS_ERROR_CONNECTION, "the daemon did not answer within \(Int(answerTimeout)) s")
    }
    return try result.withLockedValue { $0! }.get()
}

@c @implementation
public func ss_client_connect(_ socketPath: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> ss_result {
    capi {
        let out = try require(out, "out_client")
        let path = optionalString(socketPath) ?? ServerProtocol.defaultSocketPath()
        let client = try blocking { try await SoundstageClient.connect(socketPath: path) }
        try publish(CClient(client), .client, to: out)
    }
}

@c @implementation
public func ss_client_destroy(_ client: OpaquePointer?) -> ss_result {
    capi { try HandleTable.shared.destroy(client, kind: .client) }
}

/// A play's sound id into `out` (may be NULL).
private func play(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<UInt32>?,
                  _ body: @escaping @Sendable (SoundstageClient) async throws -> SoundstageClient.Play) throws {
    let answer = try withClient(handle) { client in try blocking { try await body(client) } }
    out?.pointee = answer.sound
}

@c @implementation
public func ss_client_play_event(_ client: OpaquePointer?, _ event: UnsafePointer<CChar>?, _ alert: Int32,
                                 _ out: UnsafeMutablePointer<UInt32>?) -> ss_result {
    capi {
        let event = try string(event, "event")
        let alert = flag(alert)
        try play(client, out) { try await $0.playSound(event: event, alert: alert) }
    }
}

@c @implementation
public func ss_client_play_file(_ client: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ alert: Int32,
                                _ out: UnsafeMutablePointer<UInt32>?) -> ss_result {
    capi {
        let path = try string(path, "path")
        let alert = flag(alert)
        try play(client, out) { try await $0.playSound(file: path, alert: alert) }
    }
}

@c @implementation
public func ss_client_play_id(_ client: OpaquePointer?, _ id: UInt32, _ alert: Int32) -> ss_result {
    capi {
        let alert = flag(alert)
        try play(client, nil) { try await $0.playSound(id: id, alert: alert) }
    }
}

@c @implementation
public func ss_client_register_file(_ client: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<UInt32>?) -> ss_result {
    capi {
        let out = try require(out, "out_id")
        let path = try string(path, "path")
        out.pointee = try withClient(client) { c in try blocking { try await c.registerSound(file: path) } }
    }
}

@c @implementation
public func ss_client_register_event(_ client: OpaquePointer?, _ event: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<UInt32>?) -> ss_result {
    capi {
        let out = try require(out, "out_id")
        let event = try string(event, "event")
        out.pointee = try withClient(client) { c in try blocking { try await c.registerSound(event: event) } }
    }
}

@c @implementation
public func ss_client_dispose(_ client: OpaquePointer?, _ id: UInt32) -> ss_result {
    capi { try withClient(client) { c in try blocking { try await c.disposeSound(id: id) } } }
}
