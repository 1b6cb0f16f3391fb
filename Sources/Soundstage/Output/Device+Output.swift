#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

extension Device {
    /// The state of the output: which backend, which server and sink, the latency it reports,
    /// underruns, the volume the user set, and whether it is paused or waiting for a server.
    /// The latency is asked of the server (a round trip): read it when you need it, not every frame.
    public var outputStatus: OutputStatus {
        if let desktop { return desktop.status(rest: rest) }
        let latency = kind == .output ? (try? info)?.latency : nil
        let name = kind == .output ? ((try? info)?.name ?? "OpenAL") : "loopback"
        return OutputStatus(backend: kind == .output ? OutputBackend.openAL.rawValue : "loopback", server: name, sink: nil,
                            targetLatency: nil, latency: latency, underruns: 0, volume: 1, muted: false,
                            paused: openALPauses.withLockedValue { $0.session }, connected: !isAwaitingOutput,
                            resting: rest.isResting, rests: rest.rests)
    }

    /// The outputs (sinks) of the desktop server at `server` (the default server when nil), with
    /// what the server says of each: its form factor (`headphones`, `speaker`, ...) and bus.
    /// - Throws: `.noOutputDevice` when no server answers.
    public static func availableOutputs(server: String? = nil) throws(SoundstageError) -> [AudioOutput] {
        try PulseConnection.listing(server: server, what: "output") { connection throws(SoundstageError) in try connection.sinksLocked() }
    }

    /// The options the desktop output was opened with (its server, sink, role, latency); nil for
    /// an OpenAL or loopback device. A recorder that should record on the same server passes
    /// `desktopOptions?.server` as ``AudioRecorder/Settings/server``.
    public var desktopOptions: DesktopOutputOptions? { desktop?.options }

    /// Waits until everything mixed so far has reached the output, at most `timeout` seconds:
    /// call it before ``close()`` or before exiting so a sound's last samples are heard.
    ///
    /// On a desktop stream this is `pa_stream_drain` (rendering pauses meanwhile). On an OpenAL
    /// output it waits for the latency the device reports plus one mixer period. A loopback
    /// device has nothing queued. ``close()`` drains a desktop stream by itself.
    /// - Returns: false if the output could not be drained (the server is gone, or the timeout).
    @discardableResult
    public func drain(timeout: Double = 5) -> Bool {
        if let desktop { return desktop.drain(timeout: timeout) }
        guard kind == .output, !isClosed else { return true }
        let info = try? info
        let period = info.map { Double($0.updateFrames) / Double(max(sampleRate, 1)) } ?? 0.02
        let wait = min(timeout, (info?.latency ?? 0.05) + period)
        usleep(useconds_t(max(0, wait) * 1e6))
        return true
    }

    /// Calls `handler` with what the desktop server does to the stream (pause and resume
    /// requests, volume and mute set by the user, underruns, the server lost and back), outside
    /// Soundstage's locks. Other outputs post nothing. Returns a token for ``removeOutputObserver(_:)``.
    @discardableResult
    public func addOutputObserver(_ handler: @escaping @Sendable (OutputEvent) -> Void) -> Int {
        desktop?.addObserver(handler) ?? -1
    }

    /// Stops calling an output observer.
    public func removeOutputObserver(_ token: Int) {
        desktop?.removeObserver(token)
    }

    /// Output events as an `AsyncStream` (from now on).
    public func outputEvents() -> AsyncStream<OutputEvent> {
        let (stream, continuation) = AsyncStream<OutputEvent>.makeStream()
        let token = addOutputObserver { continuation.yield($0) }
        continuation.onTermination = { [weak self] _ in self?.removeOutputObserver(token) }
        return stream
    }
}
