#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

// Making scenes and buffers on a device.
extension Device {
    // MARK: Scenes and buffers

    /// Creates a scene: a new OpenAL context on this device, mixed together with the others.
    ///
    /// - Parameter sourceBudget: how many sources may play (or be paused) at once in this
    ///   scene. Passed to OpenAL as `ALC_MONO_SOURCES`, so it may exceed OpenAL's default 256.
    public func makeScene(sourceBudget: Int = 256) throws -> Scene {
        guard sourceBudget >= 1, sourceBudget <= 65_536 else {
            throw SoundstageError(.invalidArgument, "source budget \(sourceBudget) is outside 1...65536")
        }
        // The device's own context is lent to a scene when no scene has it and the device's
        // source limit already covers the budget (every context costs 9.3 MB of voices in OpenAL
        // Soft 1.19; this one has none in use). The scene gives it back when it closes.
        let (attributes, lend, renew) = try state.withLock { state throws(SoundstageError) -> (ALContextAttributes, Bool, Bool) in
            guard !state.closed else { throw SoundstageError(.released, "the device is closed") }
            let lend = !state.resourceContextLent && sourceBudget <= state.largestBudget
            let renew = lend && state.resourceContextUsed
            if lend {
                state.resourceContextLent = true
                state.resourceContextUsed = false
            }
            state.largestBudget = max(state.largestBudget, sourceBudget)
            return (Self.attributes(kind: kind, sampleRate: sampleRate, layout: layout, hrtf: hrtfRequested,
                                    hrtfID: state.hrtfID, budget: state.largestBudget, sends: reverbZones), lend, renew)
        }
        let context: ContextHandle
        if lend {
            // A context an earlier scene borrowed is replaced by a fresh one first (it holds that
            // scene's listener settings and parked slots).
            let lent = excludingRender { () -> Result<ContextHandle, SoundstageError> in
                if renew {
                    do throws(SoundstageError) {
                        let fresh = try OpenAL.createContext(on: handle.raw, attributes, for: "a scene")
                        resourceContext.withLock { $0.rebind(to: fresh) }
                    } catch {
                        return .failure(error)
                    }
                }
                return .success(resourceContext.withLock { ContextHandle(raw: $0.rawContext, borrowed: true) })
            }
            switch lent {
            case let .success(borrowed): context = borrowed
            case let .failure(error):
                state.withLock { state in
                    state.resourceContextLent = false
                    state.resourceContextUsed = true
                }
                throw error
            }
        } else {
            // OpenAL Soft 1.19 re-initializes a loopback device's mixing state in alcCreateContext
            // without the lock alcRenderSamplesSOFT holds: creating a context while another thread
            // renders crashed the daemon (its real-time renderer) now and then. So never overlap them.
            let raw = try OpenAL.createContext(on: handle.raw, attributes, for: "a scene") { create in excludingRender(create) }
            LiveObjects.contexts.add(1, ordering: .relaxed)
            context = ContextHandle(raw: raw)
        }
        let scene = Scene(device: self, context: context, sourceBudget: sourceBudget)
        let closed = state.withLock { state in
            // Every scene removes its own entry when it closes (or is freed): see `sceneClosed`.
            if !state.closed { state.scenes.append(WeakScene(scene: scene, id: ObjectIdentifier(scene))) }
            return state.closed
        }
        if closed { scene.close() }
        return scene
    }

    /// Uploads decoded audio into a new OpenAL buffer. Mono audio is spatialized when played;
    /// multi-channel audio (stereo, quad, 5.1, 6.1, 7.1) plays unspatialized.
    public func makeBuffer(_ audio: AudioBuffer, name: String? = nil) throws -> Buffer {
        try Buffer(device: self, audio: audio, name: name)
    }

    /// The default of ``maxDecodedBytes``: 512 MiB of float samples (about 46 minutes of 48 kHz
    /// stereo, 93 of mono).
    public static let defaultMaxDecodedBytes = 512 << 20

    /// The most decoded audio one ``buffer(file:)`` may hold. A longer file is a `.tooLarge`
    /// error that says to stream it (``Scene/makeStreamingSource(file:options:)``); an
    /// uncompressed one is refused from its header, before anything is decoded. Nothing a file
    /// claims can make the process allocate more.
    public var maxDecodedBytes: Int {
        get { state.withLock { $0.maxDecodedBytes } }
        set { state.withLock { $0.maxDecodedBytes = max(0, newValue) } }
    }

    /// Decodes the file at `path` into a buffer, once: later calls with the same file return the
    /// cached buffer until ``evictCachedBuffers()`` (the cache key is the file's resolved path).
    ///
    /// - Throws: `.tooLarge` when it decodes to more than ``maxDecodedBytes``; the file's errors.
    public func buffer(file path: String) throws -> Buffer {
        let key = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        if let cached = try state.withLock({ state throws(SoundstageError) -> Buffer? in
            guard !state.closed else { throw SoundstageError(.released, "the device is closed") }
            return state.cache[key]
        }) {
            return cached
        }
        // Opened by its resolved path, the cache's key: the path is looked up once.
        let file = try SoundFile(path: key)
        let audio = try file.readAll(maxFrames: file.frames(fittingIn: maxDecodedBytes))
        let buffer = try makeBuffer(audio, name: path)
        return state.withLock { state in
            if let raced = state.cache[key] { return raced }
            state.cache[key] = buffer
            return buffer
        }
    }

    /// Empties the file cache of ``buffer(file:)``; buffers still used elsewhere stay alive.
    public func evictCachedBuffers() {
        // Take the buffers out under the lock; the last references (and so their deinit, which
        // takes this lock) go when `evicted` leaves scope, after the lock is released.
        let evicted = state.withLock { state in
            defer { state.cache.removeAll() }
            return Array(state.cache.values)
        }
        withExtendedLifetime(evicted) {}
    }

    /// Number of files in the buffer cache.
    public var cachedBufferCount: Int { state.withLock { $0.cache.count } }
}
