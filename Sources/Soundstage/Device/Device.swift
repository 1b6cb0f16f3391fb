import COpenAL
import Foundation
import SoundFile
import NIOConcurrencyHelpers
import Synchronization

/// An OpenAL output device: the default sound card, a named device, or an offline loopback
/// renderer that mixes into memory (``loopback(sampleRate:layout:hrtf:)``).
///
/// A device owns its scenes (contexts) and buffers. ``close()`` frees all of them; dropping the
/// last reference does the same. The same engine code runs on every kind of device.
public final class Device: Sendable {
    /// What kind of device this is.
    public enum Kind: Sendable, Equatable {
        /// A real output (sound card, PulseAudio, ...), mixing in real time.
        case output
        /// An offline renderer: audio is produced only by ``Device/render(frames:)``.
        case loopback
        /// Soundstage's own stream on the desktop audio server (PulseAudio, or PipeWire through
        /// pipewire-pulse): the engine renders the mix itself and writes it there, in real time.
        case desktop
    }

    /// Whether this is a real output or a loopback renderer.
    public let kind: Kind
    /// The output's frame rate (Hz).
    public let sampleRate: Int
    /// The output's channel layout.
    public let layout: ChannelLayout
    /// Whether HRTF was requested when the device was opened (see ``info`` for the actual state).
    public let hrtfRequested: Bool?
    /// Frames mixed between two engine updates (completion checks) on a loopback or desktop device.
    public let updateFrames: Int
    /// The desktop server's stream, for ``Kind/desktop`` devices.
    let desktop: DesktopOutput?

    let handleBox: NIOLockedValueBox<DeviceHandle>
    /// The `ALCdevice` now in use (a migration replaces it).
    var handle: DeviceHandle { handleBox.withLockedValue { $0 } }
    /// A context with no sources, current whenever buffers are created or deleted.
    let resourceContext: ContextHandle
    let state: NIOLockedValueBox<DeviceState>
    /// Held while rendering, migrating, closing and creating contexts (a plain lock: it guards
    /// OpenAL calls, no Swift value).
    let renderLock = NIOLock()
    /// The thread inside ``render(into:)`` now (`pthread_self()`, 0 when none), so work that must
    /// not overlap a render runs directly when a render's own update asks for it.
    private let renderingThread = Atomic<UInt>(0)
    /// Route watching: hooks, disconnect state, observers (see DeviceMigration.swift).
    let route = NIOLockedValueBox(RouteState())
    private let poller: Poller?
    /// Frames mixed by ``render(into:)`` (loopback devices): their clock.
    private let renderedFrames = Atomic<Int>(0)
    /// Wall-clock nanoseconds spent in ``renderForOutput(into:inRealTime:)`` (``renderLoad``).
    let renderBusyNanoseconds = Atomic<Int>(0)
    /// Of those, the nanoseconds spent metering (the output's meter and the scenes' meter updates).
    let meteringBusyNanoseconds = Atomic<Int>(0)
    /// Levels of the mix, when metered (``isOutputMeteringEnabled``).
    let outputMeter = LevelAccumulator()
    /// The recording of the mix, if one runs (``recordOutput(to:format:)``), and whether one does
    /// (read by the render thread without the lock).
    let mixRecorder = NIOLockedValueBox<MixRecorder?>(nil)
    let isRecordingMix = Atomic<Bool>(false)
    /// The frames scheduled plays wait for (``Scene/play(_:at:)``), earliest first.
    private let scheduledFrames = NIOLockedValueBox<[Int]>([])
    /// When a real output was opened, on the monotonic clock (seconds).
    private let openedAt = Double(DispatchTime.now().uptimeNanoseconds) / 1e9

    struct DeviceState {
        var closed = false
        var scenes: [WeakScene] = []
        /// Live buffers, with the OpenAL name each has on the current output.
        var buffers: [ObjectIdentifier: BufferRecord] = [:]
        var cache: [String: Buffer] = [:]
        var maxDecodedBytes = Device.defaultMaxDecodedBytes
        var largestBudget = 256
        var hrtfID: Int?
    }

    /// A scene, held weakly, and its identity: entries are removed by identity, never by
    /// loading the reference under the lock — a load makes a strong reference, and if it is the
    /// last one (another thread just let the scene go), its release would run the scene's deinit,
    /// which closes it and takes this lock again (a crash the ThreadSanitizer suite caught).
    struct WeakScene {
        weak var scene: Scene?
        let id: ObjectIdentifier
    }

    struct BufferRecord {
        weak var buffer: Buffer?
        var id: ALuint
    }

    private init(handle: DeviceHandle, kind: Kind, sampleRate: Int, layout: ChannelLayout, hrtf: Bool?,
                 hrtfID: Int?, updateFrames: Int, desktop: DesktopOutput? = nil) throws {
        self.handleBox = NIOLockedValueBox(handle)
        self.kind = kind
        self.desktop = desktop
        self.layout = layout
        self.hrtfRequested = hrtf
        self.updateFrames = updateFrames
        var deviceState = DeviceState()
        deviceState.hrtfID = hrtfID
        let attributes = Self.attributes(kind: kind, sampleRate: sampleRate, layout: layout, hrtf: hrtf,
                                         hrtfID: hrtfID, budget: deviceState.largestBudget)
        let context: OpaquePointer
        do throws(SoundstageError) {
            context = try OpenAL.createContext(on: handle.raw, attributes, for: "an OpenAL context on the device")
        } catch {
            alcCloseDevice(handle.raw)
            throw error
        }
        resourceContext = ContextHandle(raw: context)
        var rate: ALCint = 0
        alcGetIntegerv(handle.raw, ALC_FREQUENCY, 1, &rate)
        self.sampleRate = rate > 0 ? Int(rate) : sampleRate
        state = NIOLockedValueBox(deviceState)
        LiveObjects.devices.add(1, ordering: .relaxed)
        LiveObjects.contexts.add(1, ordering: .relaxed)
        poller = kind == .output ? Poller() : nil
        poller?.start(self)
    }

    deinit {
        close()
    }

    /// Whether the engine renders this device's mix itself (a loopback `ALCdevice`, offline or
    /// written to the desktop server) rather than OpenAL Soft's own mixer thread.
    var rendersInEngine: Bool { kind != .output }

    // MARK: Opening

    /// Opens the system's default output device (`alcOpenDevice(NULL)`).
    ///
    /// - Parameters:
    ///   - hrtf: `true` to request HRTF, `false` to forbid it, nil for OpenAL's default.
    /// - Throws: `.noOutputDevice` when none can be opened — on a machine without a sound card
    ///   OpenAL Soft does not fall back. Use ``loopback(sampleRate:layout:hrtf:hrtfName:updateFrames:)``
    ///   to render offline instead, or set `ALSOFT_DRIVERS=null` for a silent real-time device.
    ///
    /// ALSA and OpenAL Soft print lines on stderr while probing for a sound card that is not
    /// there; a program that wants them hidden wraps the call in
    /// ``Soundstage/silencingStandardError(_:)`` (the library never redirects stderr itself).
    public static func openDefault(hrtf: Bool? = nil) throws -> Device {
        try open(name: nil, hrtf: hrtf)
    }

    /// Opens the output device called `name` (see ``outputDeviceNames()``).
    public static func open(named name: String, hrtf: Bool? = nil) throws -> Device {
        try open(name: name, hrtf: hrtf)
    }

    private static func open(name: String?, hrtf: Bool?) throws -> Device {
        guard let raw = alcOpenDevice(name) else {
            let what = name.map { "the output device '\($0)'" } ?? "the default output device"
            throw SoundstageError(.noOutputDevice,
                                  "cannot open \(what): no sound card or audio server is available. "
                                  + "Render offline with Device.loopback(...) (the CLI does this by itself), "
                                  + "or set ALSOFT_DRIVERS=null for a silent device",
                                  subject: name, cause: .openAL(function: "alcOpenDevice", error: ALC_INVALID_VALUE,
                                                                 name: "no device"))
        }
        return try Device(handle: DeviceHandle(raw: raw), kind: .output, sampleRate: 0, layout: .stereo,
                          hrtf: hrtf, hrtfID: nil, updateFrames: 0)
    }

    /// Opens the best output there is: Soundstage's own stream on the desktop server when one
    /// answers (``openDesktop(_:)``), else OpenAL Soft's own output (ALSA).
    ///
    /// - Parameters:
    ///   - backend: `.automatic` tries the desktop server, then OpenAL; the others only that one.
    ///   - desktop: how to open the desktop stream (application name, role, latency, server).
    /// - Throws: `.noOutputDevice` when nothing opens (render to a file instead); `.audioServer`
    ///   when a server answers but refuses the stream.
    public static func openOutput(backend: OutputBackend = .automatic, desktop: DesktopOutputOptions = DesktopOutputOptions())
        throws -> Device {
        switch backend {
        case .desktop:
            return try openDesktop(desktop)
        case .openAL:
            return try openDefault(hrtf: desktop.hrtf)
        case .automatic:
            do {
                return try openDesktop(desktop)
            } catch let error as SoundstageError where error.code == .noOutputDevice {
                return try openDefault(hrtf: desktop.hrtf)
            }
        }
    }

    /// Opens Soundstage's own playback stream on the desktop audio server — PulseAudio, or
    /// PipeWire through pipewire-pulse — and renders the mix into it on a thread of its own.
    ///
    /// Unlike OpenAL Soft's PulseAudio backend, the stream follows the default sink, carries on
    /// (at the same offsets) when its sink is pulled, names the game and its `media.role`, uses
    /// the latency in `options` (20 ms by default), pauses when the server asks
    /// (``OutputEvent/pauseRequested``) and plays out every tail before closing (``drain(timeout:)``).
    /// - Throws: `.noOutputDevice` when no server answers; `.audioServer` when it refuses the
    ///   stream; `.invalidArgument` for a latency outside 0.005...0.5 s or a bad format.
    public static func openDesktop(_ options: DesktopOutputOptions = DesktopOutputOptions()) throws -> Device {
        guard SampleRateLimits.mix.contains(options.sampleRate) else {
            throw SoundstageError(.invalidArgument, "sample rate \(options.sampleRate) is outside \(SampleRateLimits.describe(SampleRateLimits.mix))")
        }
        try validateUpdateFrames(options.updateFrames, sampleRate: options.sampleRate)
        let output = try DesktopOutput(options: options, sampleRate: options.sampleRate, channels: options.layout.channelCount)
        guard let raw = alcLoopbackOpenDeviceSOFT(nil) else {
            throw SoundstageError(.extensionMissing, "ALC_SOFT_loopback is not available")
        }
        let update = options.updateFrames ?? max(1, options.sampleRate / 200)
        let device = try Device(handle: DeviceHandle(raw: raw), kind: .desktop, sampleRate: options.sampleRate,
                                layout: options.layout, hrtf: options.hrtf, hrtfID: nil, updateFrames: update,
                                desktop: output)
        output.start(rendering: device)
        return device
    }

    /// Opens an offline renderer (ALC_SOFT_loopback) that mixes float samples into memory,
    /// deterministically and as fast as the CPU allows.
    ///
    /// - Parameters:
    ///   - sampleRate: output frames per second.
    ///   - layout: output channels; HRTF needs `.stereo`.
    ///   - hrtf: `true` to request HRTF (binaural) mixing, `false` to forbid it, nil for OpenAL's default.
    ///   - hrtfName: a specific HRTF from ``DeviceInfo/hrtfNames``.
    ///   - updateFrames: frames between engine updates (completion checks); default 10 ms.
    public static func loopback(sampleRate: Int = 48_000, layout: ChannelLayout = .stereo, hrtf: Bool? = false,
                                hrtfName: String? = nil, updateFrames: Int? = nil) throws -> Device {
        guard SampleRateLimits.mix.contains(sampleRate) else {
            throw SoundstageError(.invalidArgument, "loopback sample rate \(sampleRate) is outside \(SampleRateLimits.describe(SampleRateLimits.mix))")
        }
        try validateUpdateFrames(updateFrames, sampleRate: sampleRate)
        guard let raw = alcLoopbackOpenDeviceSOFT(nil) else {
            throw SoundstageError(.extensionMissing, "ALC_SOFT_loopback is not available")
        }
        guard alcIsRenderFormatSupportedSOFT(raw, ALCsizei(sampleRate), layout.alcValue, ALC_FLOAT_SOFT) != 0 else {
            alcCloseDevice(raw)
            throw SoundstageError(.invalidArgument, "the loopback device cannot render \(layout.rawValue) at \(sampleRate) Hz")
        }
        var hrtfID: Int?
        if let hrtfName {
            let names = hrtfNames(raw)
            guard let index = names.firstIndex(of: hrtfName) else {
                alcCloseDevice(raw)
                throw SoundstageError(.invalidArgument, "no HRTF named '\(hrtfName)'; available: \(names.joined(separator: ", "))")
            }
            hrtfID = index
        }
        let update = updateFrames ?? max(1, sampleRate / 100)
        return try Device(handle: DeviceHandle(raw: raw), kind: .loopback, sampleRate: sampleRate, layout: layout,
                          hrtf: hrtfName != nil ? true : hrtf, hrtfID: hrtfID, updateFrames: update)
    }

    /// An update interval must be at least one frame and at most a second (0 would never advance).
    private static func validateUpdateFrames(_ frames: Int?, sampleRate: Int) throws {
        guard let frames else { return }
        guard frames >= 1, frames <= sampleRate else {
            throw SoundstageError(.invalidArgument, "updateFrames \(frames) is outside 1...\(sampleRate) (one second)")
        }
    }

    /// Names of the output devices OpenAL can open (`ALC_ALL_DEVICES_SPECIFIER`).
    public static func outputDeviceNames() -> [String] {
        let list = alcIsExtensionPresent(nil, "ALC_ENUMERATE_ALL_EXT") != 0
            ? alcGetString(nil, ALC_ALL_DEVICES_SPECIFIER) : alcGetString(nil, ALC_DEVICE_SPECIFIER)
        return splitDoubleNullList(list)
    }

    /// The default output device's name, if OpenAL reports one.
    public static func defaultOutputDeviceName() -> String? {
        let name = alcIsExtensionPresent(nil, "ALC_ENUMERATE_ALL_EXT") != 0
            ? alcGetString(nil, ALC_DEFAULT_ALL_DEVICES_SPECIFIER) : alcGetString(nil, ALC_DEFAULT_DEVICE_SPECIFIER)
        return name.map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    // MARK: Scenes and buffers

    /// Creates a scene: a new OpenAL context on this device, mixed together with the others.
    ///
    /// - Parameter sourceBudget: how many sources may play (or be paused) at once in this
    ///   scene. Passed to OpenAL as `ALC_MONO_SOURCES`, so it may exceed OpenAL's default 256.
    public func makeScene(sourceBudget: Int = 256) throws -> Scene {
        guard sourceBudget >= 1, sourceBudget <= 65_536 else {
            throw SoundstageError(.invalidArgument, "source budget \(sourceBudget) is outside 1...65536")
        }
        let attributes = try state.withLock { state throws(SoundstageError) -> [ALCint] in
            guard !state.closed else { throw SoundstageError(.released, "the device is closed") }
            state.largestBudget = max(state.largestBudget, sourceBudget)
            return Self.attributes(kind: kind, sampleRate: sampleRate, layout: layout, hrtf: hrtfRequested,
                                   hrtfID: state.hrtfID, budget: state.largestBudget)
        }
        // OpenAL Soft 1.19 re-initializes a loopback device's mixing state in alcCreateContext
        // without the lock alcRenderSamplesSOFT holds: creating a context while another thread
        // renders crashed the daemon (its real-time renderer) now and then. So never overlap them.
        let raw = try OpenAL.createContext(on: handle.raw, attributes, for: "a scene") { device, attributes in
            excludingRender { alcCreateContext(device, attributes) }
        }
        LiveObjects.contexts.add(1, ordering: .relaxed)
        let scene = Scene(device: self, context: ContextHandle(raw: raw), sourceBudget: sourceBudget)
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

    // MARK: Rendering

    /// Renders `frames` frames of the mix of every scene (loopback devices only), running the
    /// engine's update (completion events) every ``updateFrames`` frames.
    public func render(frames: Int) throws -> AudioBuffer {
        try render(frames: frames, inRealTime: false)
    }

    /// ``render(frames:)``, mixing in short slices when a real-time renderer's thread calls it.
    func render(frames: Int, inRealTime: Bool) throws -> AudioBuffer {
        guard frames >= 0 else { throw SoundstageError(.invalidArgument, "cannot render \(frames) frames") }
        guard kind == .loopback else {
            throw SoundstageError(.invalidArgument, "render needs a loopback device; this one plays in real time")
        }
        var samples = [Float](repeating: 0, count: frames * layout.channelCount)
        try samples.withUnsafeMutableBufferPointer { try renderForOutput(into: $0, inRealTime: inRealTime) }
        return AudioBuffer(samples: samples, channels: layout.channelCount, sampleRate: sampleRate)
    }

    /// Renders into caller-owned memory (interleaved floats, a whole number of frames): the
    /// allocation-free form of ``render(frames:)`` for render loops.
    public func render(into output: UnsafeMutableBufferPointer<Float>) throws {
        guard kind == .loopback else {
            throw SoundstageError(.invalidArgument, "render needs a loopback device; this one plays in real time")
        }
        try renderForOutput(into: output, inRealTime: false)
    }

    /// Renders the mix (a loopback `ALCdevice`): for ``render(into:)`` and the real-time renderers'
    /// threads. `inRealTime` mixes in slices of at most ``renderSliceFrames`` so game threads
    /// never wait long for OpenAL's device lock; an offline render mixes whole updates (cheaper).
    func renderForOutput(into output: UnsafeMutableBufferPointer<Float>, inRealTime: Bool = true) throws {
        let channels = layout.channelCount
        guard output.count % channels == 0 else {
            throw SoundstageError(.invalidArgument, "the output holds \(output.count) samples, not a whole number of \(channels)-channel frames")
        }
        let frames = output.count / channels
        let began = DispatchTime.now().uptimeNanoseconds
        defer { renderBusyNanoseconds.add(Int(DispatchTime.now().uptimeNanoseconds - began), ordering: .relaxed) }
        try renderLock.withTypedLock { () throws(SoundstageError) in
            guard !isClosed else { throw SoundstageError(.released, "the device is closed") }
            renderingThread.store(pthread_self(), ordering: .relaxed)
            defer { renderingThread.store(0, ordering: .relaxed) }
            var done = 0
            while done < frames {
                let count = min(updateFrames, frames - done)
                if kind == .loopback { refillStreamsForOfflineRender() }
                for scene in state.withLock({ $0.scenes.compactMap(\.scene) }) { scene.startPendingPlays() }
                // In slices of at most 128 frames: OpenAL Soft holds the device's lock for a whole
                // call, and alSourcePlay/Stop from a game thread wait for it.
                var sliced = 0
                while sliced < count {
                    // A scheduled start splits the slice: the sources start on exactly their frame.
                    let now = renderedFrames.load(ordering: .relaxed) + sliced
                    var slice = inRealTime ? min(Self.renderSliceFrames, count - sliced) : count - sliced
                    if let next = scheduledFrames.withLockedValue({ $0.first }) {
                        if next <= now {
                            startScheduled(upTo: now)
                            continue
                        }
                        slice = min(slice, next - now)
                    }
                    alcRenderSamplesSOFT(handle.raw, output.baseAddress! + (done + sliced) * channels, ALCsizei(slice))
                    try OpenAL.checkALC(handle.raw, "alcRenderSamplesSOFT")
                    sliced += slice
                }
                let mixed = UnsafeBufferPointer(rebasing: output[(done * channels)..<((done + count) * channels)])
                if outputMeter.isEnabled {
                    let metering = DispatchTime.now().uptimeNanoseconds
                    outputMeter.add(mixed, channels: channels)
                    meteringBusyNanoseconds.add(Int(DispatchTime.now().uptimeNanoseconds - metering), ordering: .relaxed)
                }
                recordMix(mixed)
                done += count
                renderedFrames.add(count, ordering: .relaxed)
                update()
            }
        }
        checkRoute()
    }

    /// Starts every scheduled play whose frame has come, in every scene, before the next sample.
    private func startScheduled(upTo frame: Int) {
        scheduledFrames.withLockedValue { $0.removeAll { $0 <= frame } }
        for scene in state.withLock({ $0.scenes.compactMap(\.scene) }) { scene.startScheduledPlays(upTo: frame) }
    }

    /// Notes that a play is scheduled at `frame` (so the render splits there).
    func noteScheduledFrame(_ frame: Int) {
        scheduledFrames.withLockedValue { frames in
            frames.insert(frame, at: frames.firstIndex { $0 > frame } ?? frames.endIndex)
        }
    }

    /// The frame the render thread mixes next (the device's clock in frames).
    var renderedFrameCount: Int { renderedFrames.load(ordering: .relaxed) }

    /// The most frames one `alcRenderSamplesSOFT` call mixes (see ``renderForOutput(into:)``).
    static let renderSliceFrames = 128

    /// Before each chunk of an offline render: every playing stream's free buffers are filled,
    /// waiting for the decoder thread if it is behind, so a render does not depend on its timing
    /// (a real-time output never waits: a late decoder is an underrun there).
    private func refillStreamsForOfflineRender() {
        let scenes = state.withLock { $0.scenes.compactMap(\.scene) }
        for scene in scenes {
            for completion in scene.serviceStreams(waitForDecoder: true) { completion() }
        }
    }

    /// Runs `body` while no other thread renders this loopback device (on the render's own thread
    /// — an update's completion handler — directly). Output devices mix on OpenAL's own thread,
    /// which OpenAL Soft stops and restarts itself around such calls.
    func excludingRender<R>(_ body: () -> R) -> R {
        guard rendersInEngine, renderingThread.load(ordering: .relaxed) != pthread_self() else { return body() }
        return renderLock.withTypedLock { body() }
    }

    /// Renders `seconds` of the mix into a file, in chunks (loopback devices only), after checking
    /// that `format` can hold that much (a `.tooLarge` error names formats that can).
    ///
    /// - Parameters:
    ///   - progress: called after each chunk with the fraction done (0...1).
    ///   - isCancelled: asked after each chunk; true stops the render and completes the file with
    ///     what was rendered.
    /// - Returns: the seconds rendered.
    @discardableResult
    public func render(seconds: Double, to path: String, format: OutputFormat = .wavFloat32,
                       progress: ((Double) -> Void)? = nil, isCancelled: (() -> Bool)? = nil) throws -> Double {
        guard seconds.isFinite, seconds >= 0 else {
            throw SoundstageError(.invalidArgument, "cannot render \(seconds) seconds")
        }
        try format.checkCapacity(seconds: seconds, sampleRate: sampleRate, channels: layout.channelCount, path: path)
        let total = Int((seconds * Double(sampleRate)).rounded())
        let writer = try SoundFileWriter(path: path, format: format, sampleRate: sampleRate, channels: layout.channelCount)
        var done = 0
        let chunk = max(updateFrames, sampleRate / 2)
        while done < total, !(isCancelled?() ?? false) {
            let count = min(chunk, total - done)
            try writer.write(try render(frames: count))
            done += count
            progress?(Double(done) / Double(max(total, 1)))
        }
        try writer.finish()
        return Double(done) / Double(sampleRate)
    }

    /// Runs one engine update: advances group fades and ducking to ``mixTime``, finds sources
    /// that reached their end and reports their completion. Loopback devices update during
    /// ``render(frames:)``; real outputs on a background thread every 10 ms.
    public func update() {
        let scenes = state.withLock { $0.scenes.compactMap(\.scene) }
        let now = mixTime
        for scene in scenes { scene.update(at: now) }
    }

    /// The device's clock in seconds: audio rendered so far on a loopback or desktop device (so
    /// fades are sample-exact, and the clock stops while the desktop server is gone), time since
    /// opening on an OpenAL output.
    public var mixTime: Double {
        rendersInEngine ? Double(renderedFrames.load(ordering: .relaxed)) / Double(sampleRate)
                          : Double(DispatchTime.now().uptimeNanoseconds) / 1e9 - openedAt
    }

    // MARK: State

    /// Whether ``close()`` has run.
    public var isClosed: Bool { state.withLock { $0.closed } }

    /// The OpenAL objects this device holds now: itself, its contexts, buffers and sources.
    public var liveObjects: LiveObjectCounts {
        let (closed, scenes, buffers) = state.withLock { ($0.closed, $0.scenes.compactMap(\.scene), $0.buffers.count) }
        if closed { return LiveObjectCounts() }
        var counts = LiveObjectCounts(devices: 1, contexts: 1, buffers: buffers, sources: 0)
        for scene in scenes where !scene.isClosed {
            counts.contexts += 1
            counts.sources += scene.allocatedSourceCount
            counts.buffers += scene.streamBufferCount
            let effects = scene.effectObjectCounts
            counts.effectSlots += effects.slots
            counts.effects += effects.effects
            counts.filters += effects.filters
        }
        return counts
    }

    /// Closes every scene, frees every buffer and closes the OpenAL device. Idempotent.
    /// Objects still referenced afterwards report `.released` errors.
    public func close() {
        // Play out what the desktop stream still holds before anything goes (no cut tails).
        desktop?.stop(drain: true)
        // A recording of the mix ends with the last chunk sent out, its file complete.
        stopRecordingOutput()
        // The cache's buffers are taken out too, so their deinit runs after the lock is released.
        let taken = state.withLock { state -> (scenes: [Scene], buffers: [ALuint], cache: [String: Buffer])? in
            guard !state.closed else { return nil }
            state.closed = true
            let taken = (state.scenes.compactMap(\.scene), state.buffers.values.map(\.id), state.cache)
            state.scenes.removeAll()
            state.buffers.removeAll()
            state.cache.removeAll()
            return taken
        }
        guard let taken else { return }
        poller?.stop()
        for scene in taken.scenes { scene.close() }
        excludingRender {
            if !taken.buffers.isEmpty {
                try? OpenAL.withContext(resourceContext) { al throws(SoundstageError) in
                    al.freeing {
                        taken.buffers.withUnsafeBufferPointer { ids in
                            alDeleteBuffers(ALsizei(ids.count), ids.baseAddress)
                        }
                    }
                }
                LiveObjects.buffers.subtract(taken.buffers.count, ordering: .relaxed)
            }
            resourceContext.withLock { $0.destroy() }
            LiveObjects.contexts.subtract(1, ordering: .relaxed)
            alcCloseDevice(handle.raw)
            LiveObjects.devices.subtract(1, ordering: .relaxed)
        }
        withExtendedLifetime(taken.cache) {}
    }

    /// Pauses or resumes a real output's mixing (ALC_SOFT_pause_device); used by the session
    /// center when no session may sound. Loopback devices only mix when rendered.
    func setOutputPaused(_ paused: Bool) {
        if let desktop { return desktop.setPaused(paused) }
        guard kind == .output, !isClosed, alcIsExtensionPresent(handle.raw, "ALC_SOFT_pause_device") != 0 else { return }
        if paused { alcDevicePauseSOFT(handle.raw) } else { alcDeviceResumeSOFT(handle.raw) }
        // An open device with the extension never refuses: a failure is an OpenAL bug, counted.
        do { try OpenAL.checkALC(handle.raw, paused ? "alcDevicePauseSOFT" : "alcDeviceResumeSOFT") } catch {
            UnexpectedOpenALErrors.record(error)
        }
    }

    // MARK: Internals used by Buffer and Scene

    /// Records a new buffer so ``close()`` and migrations can find it; false if the device is closed.
    func adopt(_ buffer: Buffer) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.buffers[ObjectIdentifier(buffer)] = BufferRecord(buffer: buffer, id: buffer.id)
            return true
        }
    }

    /// Frees a buffer's OpenAL name exactly once: here (its deinit), or in ``close()`` if that came first.
    func forget(_ buffer: Buffer) {
        guard let record = state.withLock({ $0.buffers.removeValue(forKey: ObjectIdentifier(buffer)) }) else { return }
        Buffer.delete(record.id, in: resourceContext)
    }

    /// Forgets a scene that closed (from `close()` or its deinit), by identity alone.
    func sceneClosed(_ scene: Scene) {
        let id = ObjectIdentifier(scene)
        state.withLock { state in state.scenes.removeAll { $0.id == id } }
    }

    static func attributes(kind: Kind, sampleRate: Int, layout: ChannelLayout, hrtf: Bool?, hrtfID: Int?,
                           budget: Int) -> [ALCint] {
        var list: [ALCint] = [ALC_MONO_SOURCES, ALCint(budget), ALC_STEREO_SOURCES, 0, ALC_MAX_AUXILIARY_SENDS, 4]
        if kind != .output {
            list += [ALC_FORMAT_CHANNELS_SOFT, layout.alcValue, ALC_FORMAT_TYPE_SOFT, ALC_FLOAT_SOFT,
                     ALC_FREQUENCY, ALCint(sampleRate), ALC_OUTPUT_LIMITER_SOFT, ALC_FALSE]
        }
        if let hrtf {
            list += [ALC_HRTF_SOFT, hrtf ? ALC_TRUE : ALC_FALSE]
            if let hrtfID { list += [ALC_HRTF_ID_SOFT, ALCint(hrtfID)] }
        }
        return list + [0]
    }

    static func hrtfNames(_ device: OpaquePointer) -> [String] {
        guard alcIsExtensionPresent(device, "ALC_SOFT_HRTF") != 0 else { return [] }
        var count: ALCint = 0
        alcGetIntegerv(device, ALC_NUM_HRTF_SPECIFIERS_SOFT, 1, &count)
        return (0..<max(0, Int(count))).compactMap { index in
            alcGetStringiSOFT(device, ALC_HRTF_SPECIFIER_SOFT, ALCsizei(index)).map { String(cString: $0) }
        }
    }

    private static func splitDoubleNullList(_ list: UnsafePointer<ALCchar>?) -> [String] {
        guard var cursor = list else { return [] }
        var names: [String] = []
        while cursor.pointee != 0 {
            let name = String(cString: cursor)
            names.append(name)
            cursor += name.utf8.count + 1
        }
        return names
    }
}

/// Runs ``Device/update()`` every 10 ms on a thread of its own, for real-time outputs.
private final class Poller: Sendable {
    private let running = Atomic<Bool>(false)

    func start(_ device: Device) {
        running.store(true, ordering: .relaxed)
        let thread = Thread { [weak device, self] in
            // No context may stay current on a thread that ends (OpenAL Soft warns, and keeps it).
            defer { Soundstage.detachCurrentThread() }
            while self.running.load(ordering: .relaxed) {
                guard let device else { return }
                device.update()
                device.checkRoute()
                usleep(10_000)
            }
        }
        thread.name = "Soundstage update"
        thread.start()
    }

    func stop() { running.store(false, ordering: .relaxed) }
}
