import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// Route changes and migration. OpenAL Soft 1.19.1 has no `alcReopenDeviceSOFT`, so moving to
/// another output means opening it, recreating every context, buffer and source, and restoring
/// every property and offset. The `Device` object, its scenes, buffers and sources keep their
/// identity: a game's references stay valid.
extension Device {
    /// Hooks that decide how the route is watched and recovered; injectable so tests can
    /// simulate a vanished device and failing reopens deterministically.
    struct RouteHooks: Sendable {
        /// Whether the output is still there (default: `ALC_CONNECTED`).
        var isConnected: (@Sendable (Device) -> Bool)?
        /// Opens the replacement `ALCdevice` (default: the default output, or a new loopback device).
        var openReplacement: (@Sendable (Device) throws(SoundstageError) -> DeviceHandle)?
        /// Seconds, for the retry backoff and event time stamps.
        var clock: @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
    }

    struct RouteState {
        var hooks = RouteHooks()
        var disconnected = false
        var nextAttempt = 0.0
        var backoff = 0.1
        /// The mix time the disconnect was noticed (OpenAL outputs), for the sources' offsets.
        var lostAt: Double?
        var lastRecoveryError: SoundstageError?
        var observers: [Int: @Sendable (RouteChange) -> Void] = [:]
        var nextObserver = 0
        /// Whether the current ALCdevice has ALC_EXT_disconnect (looked up once per device).
        var canReportDisconnect: Bool?
    }

    /// Calls `handler` with every route change, outside Soundstage's locks. Returns a token for
    /// ``removeRouteObserver(_:)``.
    @discardableResult
    public func addRouteObserver(_ handler: @escaping @Sendable (RouteChange) -> Void) -> Int {
        route.withLockedValue { route in
            defer { route.nextObserver += 1 }
            route.observers[route.nextObserver] = handler
            return route.nextObserver
        }
    }

    /// Stops calling a route observer.
    public func removeRouteObserver(_ token: Int) {
        route.withLockedValue { _ = $0.observers.removeValue(forKey: token) }
    }

    /// Route changes as an `AsyncStream` (from now on).
    public func routeChanges() -> AsyncStream<RouteChange> {
        let (stream, continuation) = AsyncStream<RouteChange>.makeStream()
        let token = addRouteObserver { continuation.yield($0) }
        continuation.onTermination = { [weak self] _ in self?.removeRouteObserver(token) }
        return stream
    }

    /// Whether the output has gone away and the engine is waiting to migrate to a new one.
    public var isAwaitingOutput: Bool { route.withLockedValue { $0.disconnected } }

    /// Why the last attempt to open a replacement output failed, while one is awaited.
    public var lastRecoveryError: SoundstageError? { route.withLockedValue { $0.lastRecoveryError } }

    /// Moves everything to another output device (nil: the default one) and posts a
    /// `RouteChange` with `reason` (`.override` when the game asks, `.categoryChange` when a
    /// category change calls for another output). Every scene, buffer and source is rebuilt there
    /// with its properties and offsets.
    /// - Throws: `.invalidArgument` on a loopback device or for a reason that is not a request;
    ///   `.noOutputDevice` when it cannot be opened (nothing changes then).
    public func switchOutput(to name: String?, reason: RouteChange.Reason = .override) throws {
        guard kind == .output else {
            throw SoundstageError(.invalidArgument, kind == .desktop
                ? "a desktop stream follows the default sink; choose another with DesktopOutputOptions.sink or the desktop's sound settings"
                : "a loopback device has no output to switch")
        }
        guard reason == .override || reason == .categoryChange else {
            throw SoundstageError(.invalidArgument, "switchOutput posts .override or .categoryChange, not .\(reason.rawValue)")
        }
        try migrate { _ throws(SoundstageError) in try Device.openOutputHandle(name) }
        post(reason)
    }

    /// Watches the route: called by the update thread (real outputs) and after each render
    /// (loopback devices). On a disconnect it posts `.oldDeviceUnavailable` and tries to
    /// migrate; while that fails it retries with a backoff (0.1 s doubling to 5 s), keeping
    /// every scene's state; on success it posts `.newDeviceAvailable`.
    func checkRoute() {
        guard !isClosed else { return }
        let (hooks, wasDisconnected) = route.withLockedValue { ($0.hooks, $0.disconnected) }
        // Loopback devices without injected hooks are never disconnected: skip the probe.
        // The desktop output watches its own route (DesktopOutput).
        if rendersInEngine && hooks.isConnected == nil && !wasDisconnected { return }
        let now = hooks.clock()
        if !wasDisconnected {
            let connected = hooks.isConnected.map { $0(self) } ?? defaultIsConnected()
            guard !connected else { return }
            let mix = mixTime
            route.withLockedValue { route in
                route.disconnected = true
                route.nextAttempt = now
                route.backoff = 0.1
                route.lostAt = kind == .output ? mix : nil
            }
            post(.oldDeviceUnavailable, at: now)
        }
        let due = route.withLockedValue { $0.nextAttempt <= now }
        guard due else { return }
        do {
            try migrate { device throws(SoundstageError) in
                if let open = hooks.openReplacement { return try open(device) }
                return device.rendersInEngine ? try Device.openLoopbackHandle() : try Device.openOutputHandle(nil)
            }
            route.withLockedValue { route in
                route.disconnected = false
                route.lastRecoveryError = nil
                route.lostAt = nil
            }
            post(.newDeviceAvailable, at: hooks.clock())
        } catch {
            route.withLockedValue { route in
                route.lastRecoveryError = error
                route.nextAttempt = now + route.backoff
                route.backoff = min(route.backoff * 2, 5)
            }
        }
    }

    /// False only for an OpenAL output whose device has gone (OpenAL then reports every source
    /// stopped at offset 0); true for every other device.
    var isOutputConnectedIfWatched: Bool { kind != .output || isOutputConnected() }

    /// Whether the OpenAL output is still connected (ALC_EXT_disconnect); true where it cannot tell.
    func isOutputConnected() -> Bool {
        let hooks = route.withLockedValue { $0.hooks }
        return hooks.isConnected.map { $0(self) } ?? defaultIsConnected()
    }

    func defaultIsConnected() -> Bool {
        let handle = self.handle
        let supported = route.withLockedValue { route -> Bool in
            if let known = route.canReportDisconnect { return known }
            let present = handle.hasExtension("ALC_EXT_disconnect")
            route.canReportDisconnect = present
            return present
        }
        guard supported else { return true }
        return handle.isConnected
    }

    func post(_ reason: RouteChange.Reason, at time: Double? = nil) {
        let now = route.withLockedValue { time ?? $0.hooks.clock() }
        postRoute(RouteChange(reason: reason, time: now))
    }

    /// Tells every route observer about `change` (outside Soundstage's locks).
    func postRoute(_ change: RouteChange) {
        let observers = route.withLockedValue { Array($0.observers.values) }
        for observer in observers { observer(change) }
    }

    /// Rebuilds everything on the `ALCdevice` that `open` returns, then closes the old one.
    func migrate(_ open: (Device) throws(SoundstageError) -> DeviceHandle) throws(SoundstageError) {
        try renderLock.withTypedLock { () throws(SoundstageError) in
            guard !isClosed else { throw SoundstageError(.released, "the device is closed") }
            let newHandle = try open(self)
            let (attributes, records, scenes) = state.withLock { state in
                (Self.attributes(kind: kind, sampleRate: sampleRate, layout: layout, hrtf: hrtfRequested,
                                 hrtfID: state.hrtfID, budget: state.largestBudget, sends: reverbZones),
                 state.buffers, state.scenes.compactMap(\.scene))
            }
            let newResource = try newHandle.makeFirstContext(attributes, for: "a context on the new device")
            let staging = ContextHandle(raw: newResource)
            // 1. The buffers, uploaded again from their samples.
            var uploaded: [ObjectIdentifier: ALName] = [:]
            for (key, record) in records {
                guard let buffer = record.buffer else { continue }
                do throws(SoundstageError) {
                    uploaded[key] = try Buffer.upload(buffer.audio, name: buffer.name, into: staging)
                } catch {
                    for (_, id) in uploaded { Buffer.delete(id, in: staging) }
                    staging.withLock { $0.destroy() }
                    newHandle.close()
                    throw error
                }
            }
            for (key, id) in uploaded { records[key]?.buffer?.replaceID(id) }
            // 2. The scenes, with their listeners and sources (which bind the new buffer names).
            let lostAt = route.withLockedValue { $0.disconnected ? $0.lostAt : nil }
            for scene in scenes {
                try scene.migrate(to: newHandle.raw, deviceContext: newResource, attributes: attributes, lostAt: lostAt)
            }
            // 3. The old buffers, the old resource context and the old device go.
            for (_, record) in records { Buffer.delete(record.id, in: resourceContext) }
            state.withLock { state in
                for (key, id) in uploaded { state.buffers[key]?.id = id }
            }
            let old = handle
            resourceContext.withLock { $0.rebind(to: newResource) }
            handleBox.withLockedValue { $0 = newHandle }
            route.withLockedValue { $0.canReportDisconnect = nil }
            old.close()
        }
    }
}
