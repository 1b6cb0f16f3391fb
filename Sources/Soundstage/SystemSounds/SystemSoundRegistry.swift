import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import NIOConcurrencyHelpers

/// Short UI sounds — clicks, alerts — registered once and played instantly by ID, by file or by
/// freedesktop sound-theme event name: System Sound Services for Linux.
///
/// - Registration decodes the sound once into an OpenAL buffer; a play is a buffer bind and a
///   start, with no file I/O and no decoding.
/// - The rules of the model are enforced at registration: at most 30 s
///   (`.exceededMaximumDuration`); linear PCM, IMA4/ADPCM, µ-law or A-law data in `.caf`,
///   `.aif`/`.aiff` or `.wav` files (`.unsupportedFormat` otherwise). Theme sounds are the
///   exception: Ogg Vorbis is allowed for them. So are an iOS game's assets, where FFmpeg is
///   installed: AAC and ALAC in `.m4a`, `.caf` or ADTS (iOS itself wants them converted).
/// - System sounds play in their own context on the device, unpositioned (equally in every
///   channel for a mono sound), at the registry's ``volume``, never looping, and not affected
///   by any game scene's gain. By default a new one replaces the one playing;
///   ``Options/maxConcurrent`` allows a few to overlap. Retriggers of the same sound within
///   ``Options/coalescingWindow`` coalesce.
/// - While an interruption is in progress (``beginInterruption()``) plays are silent — their
///   completions still report, with `.silenced` — and they are heard again after
///   ``endInterruption()``.
/// - Every play attempt's completion runs exactly once, success or not, outside the registry's
///   locks.
public final class SystemSoundRegistry: Sendable {
    /// How the registry plays sounds.
    public struct Options: Sendable {
        /// How many system sounds may sound at once; a new one beyond that replaces the oldest.
        public var maxConcurrent = 1
        /// Seconds within which a retrigger of the same sound coalesces into the play in progress.
        public var coalescingWindow = 0.08
        /// The longest sound that may be registered, in seconds.
        public var maximumDuration = 30.0
        /// Where event names are looked up.
        public var theme = SoundTheme()
        /// The time in seconds, for coalescing; injectable so tests are deterministic.
        public var clock: @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

        /// Default options: one sound at a time, 80 ms coalescing, 30 s maximum.
        public init() {}
    }

    /// The device the sounds play on.
    public let device: Device
    /// The context its sounds play in: its own, or one it shares with other registries
    /// (``init(sharing:options:)``).
    public let scene: Scene
    /// Whether ``close()`` closes ``scene`` (a shared scene outlives its registries).
    private let ownsScene: Bool
    private let options: Options
    private let state = NIOLockedValueBox(State())

    private struct Entry {
        let buffer: Buffer
        let name: String
        var completions: [@Sendable (SystemSoundID) -> Void] = []
    }

    private struct Play {
        let id: SystemSoundID
        let source: Source
        let started: Double
        var completions: [@Sendable (SystemSoundOutcome) -> Void]
    }

    private struct State {
        var nextID: UInt32 = 1
        var entries: [SystemSoundID: Entry] = [:]
        var byEvent: [String: SystemSoundID] = [:]
        var playing: [Play] = []
        var volume: Float = 1
        var enabled = true
        var interrupted = false
        var attention: (@Sendable (SystemSoundID) -> Void)?
    }

    /// Creates a registry with its own context on `device`.
    public init(device: Device, options: Options = Options()) throws {
        try Self.check(options)
        self.device = device
        self.options = options
        self.scene = try device.makeScene(sourceBudget: options.maxConcurrent + 1)
        ownsScene = true
    }

    /// Creates a registry that plays in `scene`, a context it shares with other registries: a
    /// server gives each client a registry of its own — its IDs, volume, plays, interruptions —
    /// without a context (and OpenAL Soft's thread and some 6 MB of voices) per client. Each
    /// play takes a source from the shared scene's budget; ``close()`` leaves the scene open.
    public init(sharing scene: Scene, options: Options = Options()) throws {
        try Self.check(options)
        guard !scene.isClosed else { throw SoundstageError(.released, "the shared scene is closed") }
        device = scene.device
        self.options = options
        self.scene = scene
        ownsScene = false
    }

    private static func check(_ options: Options) throws {
        guard options.maxConcurrent >= 1, options.maxConcurrent <= 64 else {
            throw SoundstageError(.invalidArgument, "maxConcurrent must be 1...64, got \(options.maxConcurrent)")
        }
    }

    // MARK: Settings

    /// The system-sounds level, linear 0...1 (1 = as recorded). Applies to sounds playing now too.
    public var volume: Float {
        get { state.withLockedValue { $0.volume } }
        set {
            guard scene.refusals.admits(newValue.isFinite && newValue >= 0, "SystemSoundRegistry.volume", newValue, "finite and >= 0") else { return }
            let sources = state.withLockedValue { state in
                state.volume = newValue
                return state.playing.map(\.source)
            }
            for source in sources { source.gain = newValue }
        }
    }

    /// Whether system sounds are heard at all (like libcanberra's enable switch). When off, plays
    /// complete at once with `.silenced`.
    public var isEnabled: Bool {
        get { state.withLockedValue { $0.enabled } }
        set { state.withLockedValue { $0.enabled = newValue } }
    }

    /// Called with the sound's ID by every ``playAlert(_:completion:)``: flash the window, rumble a
    /// gamepad. Runs on the calling thread, outside the registry's locks.
    public var attentionHandler: (@Sendable (SystemSoundID) -> Void)? {
        get { state.withLockedValue { $0.attention } }
        set { state.withLockedValue { $0.attention = newValue } }
    }

    // MARK: Registration

    /// Registers a sound file: `.wav`, `.caf` or `.aif`/`.aiff` holding linear PCM, IMA4/ADPCM,
    /// µ-law or A-law, at most 30 s.
    public func register(file path: String) throws -> SystemSoundID {
        try register(try SoundFile(path: path), name: path, allowVorbis: false)
    }

    /// Registers a sound from a file's bytes in memory (same rules as ``register(file:)``).
    public func register(data: [UInt8], name: String = "<memory>") throws -> SystemSoundID {
        try register(try SoundFile(data: data, name: name), name: name, allowVorbis: false)
    }

    /// Registers the sound the theme gives for a freedesktop event name (`message-new-instant`),
    /// once: later calls return the same ID.
    ///
    /// - Throws: `.notFound` when no theme in the chain has the event, `.invalidArgument` when
    ///   the theme disables it (a `.disabled` file).
    public func register(event: String) throws -> SystemSoundID {
        if let id = state.withLockedValue({ $0.byEvent[event] }) { return id }
        switch options.theme.resolve(event) {
        case .file(let path):
            let id = try register(try SoundFile(path: path), name: path, allowVorbis: true)
            return state.withLockedValue { state in
                if let raced = state.byEvent[event] { return raced }
                state.byEvent[event] = id
                return id
            }
        case .disabled(let marker):
            throw SoundstageError(.invalidArgument, "the sound theme disables '\(event)'", subject: marker)
        case nil:
            throw SoundstageError(.notFound, "no sound for the event '\(event)' in the theme '\(options.theme.name)' or its fallbacks",
                                  subject: event)
        }
    }

    private func register(_ file: SoundFile, name: String, allowVorbis: Bool) throws -> SystemSoundID {
        let format = file.format
        let containers: Set<Container> = allowVorbis ? [.wav, .caf, .aiff, .mp4, .adts, .ogg] : [.wav, .caf, .aiff, .mp4, .adts]
        // AAC and ALAC come from an iOS game's assets (decoded through FFmpeg): accepted as they are.
        let encodings: Set<SampleEncoding> = [.pcmS8, .pcmU8, .pcm16, .pcm24, .pcm32, .float32, .float64,
                                              .imaADPCM, .msADPCM, .ulaw, .alaw, .aac, .alac16, .alac20, .alac24, .alac32]
        guard containers.contains(format.container),
              encodings.contains(format.encoding) || (allowVorbis && format.encoding == .vorbis) else {
            throw SoundstageError(.unsupportedFormat,
                                  "system sounds must be linear PCM, IMA4/ADPCM, µ-law or A-law in .caf, .aiff or .wav, "
                                  + "or AAC/ALAC in .m4a, .caf or .aac; "
                                  + "this is \(format.container.rawValue) \(format.encoding.rawValue)", subject: name)
        }
        let limit = Int(options.maximumDuration * Double(format.sampleRate)) + 1
        if format.frames > Int64(limit) {
            throw SoundstageError(.exceededMaximumDuration,
                                  "\(format.duration) s is longer than the \(options.maximumDuration) s a system sound may last",
                                  subject: name)
        }
        let audio: AudioBuffer
        do {
            audio = try file.readAll(maxFrames: limit)
        } catch let error as SoundstageError where error.code == .tooLarge {
            throw SoundstageError(.exceededMaximumDuration,
                                  "longer than the \(options.maximumDuration) s a system sound may last", subject: name)
        }
        if audio.duration > options.maximumDuration + 1e-9 {
            throw SoundstageError(.exceededMaximumDuration,
                                  "\(audio.duration) s is longer than the \(options.maximumDuration) s a system sound may last",
                                  subject: name)
        }
        let buffer = try device.makeBuffer(audio, name: name)
        return state.withLockedValue { state in
            let id = SystemSoundID(rawValue: state.nextID)
            state.nextID += 1
            state.entries[id] = Entry(buffer: buffer, name: name)
            return id
        }
    }

    /// Forgets a sound; a play of it in progress stops (its completion reports `.disposed`).
    /// - Throws: `.unknownSoundID` for an ID that is not registered.
    public func dispose(_ id: SystemSoundID) throws {
        let (entry, stopped) = state.withLockedValue { state -> (Entry?, [Play]) in
            guard let entry = state.entries.removeValue(forKey: id) else { return (nil, []) }
            state.byEvent = state.byEvent.filter { $0.value != id }
            let stopped = state.playing.filter { $0.id == id }
            state.playing.removeAll { $0.id == id }
            return (entry, stopped)
        }
        guard entry != nil else { throw unknown(id) }
        for play in stopped {
            play.source.stop()
            for completion in play.completions { completion(.disposed) }
        }
    }

    /// Bytes of decoded audio its registered sounds hold.
    public var decodedBytes: Int {
        state.withLockedValue { $0.entries.values.reduce(0) { $0 + $1.buffer.frames * $1.buffer.channels * MemoryLayout<Float>.size } }
    }

    /// The registered IDs and the file each came from.
    public var registered: [(id: SystemSoundID, name: String)] {
        state.withLockedValue { $0.entries.map { ($0.key, $0.value.name) }.sorted { $0.id.rawValue < $1.id.rawValue } }
    }

    /// Adds a handler called each time a play of `id` finishes (like
    /// `AudioServicesAddSystemSoundCompletion`).
    public func addCompletion(_ id: SystemSoundID, _ handler: @escaping @Sendable (SystemSoundID) -> Void) throws {
        let found = state.withLockedValue { state -> Bool in
            guard state.entries[id] != nil else { return false }
            state.entries[id]!.completions.append(handler)
            return true
        }
        if !found { throw unknown(id) }
    }

    /// Removes the handlers added with ``addCompletion(_:_:)``.
    public func removeCompletion(_ id: SystemSoundID) throws {
        let found = state.withLockedValue { state -> Bool in
            guard state.entries[id] != nil else { return false }
            state.entries[id]!.completions.removeAll()
            return true
        }
        if !found { throw unknown(id) }
    }

    // MARK: Playing

    /// Plays a registered sound now. `completion` runs exactly once with how the attempt ended.
    /// - Throws: `.unknownSoundID` for an unknown or disposed ID (the completion reports it too).
    public func play(_ id: SystemSoundID, completion: (@Sendable (SystemSoundOutcome) -> Void)? = nil) throws {
        try start(id, alert: false, completion: completion)
    }

    /// Plays a registered sound and calls the ``attentionHandler`` (the Linux counterpart of
    /// iOS's vibrate-with-alert).
    public func playAlert(_ id: SystemSoundID, completion: (@Sendable (SystemSoundOutcome) -> Void)? = nil) throws {
        try start(id, alert: true, completion: completion)
    }

    /// Registers (once) and plays the theme's sound for an event name.
    public func play(event: String, alert: Bool = false, completion: (@Sendable (SystemSoundOutcome) -> Void)? = nil) throws {
        try registerAndStart({ try register(event: event) }, alert: alert, completion: completion)
    }

    /// Plays a file once, registering it first (same rules as ``register(file:)``).
    public func play(file: String, alert: Bool = false, completion: (@Sendable (SystemSoundOutcome) -> Void)? = nil) throws {
        try registerAndStart({ try register(file: file) }, alert: alert, completion: completion)
    }

    /// Registers, then plays; a registration failure is the attempt's outcome too.
    private func registerAndStart(_ register: () throws -> SystemSoundID, alert: Bool,
                                  completion: (@Sendable (SystemSoundOutcome) -> Void)?) throws {
        let id: SystemSoundID
        do {
            id = try register()
        } catch let error as SoundstageError {
            completion?(.failed(error))
            throw error
        }
        try start(id, alert: alert, completion: completion)
    }

    // MARK: Interruptions

    /// Silences system sounds until ``endInterruption()``: what is playing stops (completing
    /// with `.silenced`), and plays complete at once with `.silenced`.
    public func beginInterruption() {
        let stopped = state.withLockedValue { state -> [Play] in
            state.interrupted = true
            defer { state.playing.removeAll() }
            return state.playing
        }
        for play in stopped {
            play.source.stop()
            for completion in play.completions { completion(.silenced) }
        }
    }

    /// Makes system sounds heard again after ``beginInterruption()``.
    public func endInterruption() {
        state.withLockedValue { $0.interrupted = false }
    }

    /// Whether an interruption is in progress.
    public var isInterrupted: Bool { state.withLockedValue { $0.interrupted } }

    /// Sounds playing now.
    public var playingCount: Int { state.withLockedValue { $0.playing.count } }

    /// Whether OpenAL reports a play of `id` as playing right now.
    public func isSounding(_ id: SystemSoundID) -> Bool {
        let sources = state.withLockedValue { $0.playing.filter { $0.id == id }.map(\.source) }
        return sources.contains { $0.playbackState == .playing }
    }

    /// Stops everything and lets go of its buffers; closes its context unless it shares it.
    public func close() {
        beginInterruption()
        state.withLockedValue { $0.entries.removeAll(); $0.byEvent.removeAll() }
        if ownsScene { scene.close() }
    }

    // MARK: Internals

    private func unknown(_ id: SystemSoundID) -> SoundstageError {
        SoundstageError(.unknownSoundID, "no system sound has ID \(id) (never registered, or disposed)")
    }

    private func start(_ id: SystemSoundID, alert: Bool, completion: (@Sendable (SystemSoundOutcome) -> Void)?) throws {
        let now = options.clock()
        enum Decision { case unknown, silenced, coalesced, play(Source, replaced: [Play]) }
        let decision: Decision = state.withLockedValue { state in
            guard let entry = state.entries[id] else { return .unknown }
            if !state.enabled || state.interrupted { return .silenced }
            if state.playing.contains(where: { $0.id == id && now - $0.started < options.coalescingWindow }) {
                return .coalesced
            }
            var replaced: [Play] = []
            while state.playing.count >= options.maxConcurrent { replaced.append(state.playing.removeFirst()) }
            let source = scene.makeSource(buffer: entry.buffer)
            source.isHeadRelative = true          // at the listener: unpositioned
            source.gain = state.volume
            state.playing.append(Play(id: id, source: source, started: now, completions: completion.map { [$0] } ?? []))
            return .play(source, replaced: replaced)
        }
        switch decision {
        case .unknown:
            let error = unknown(id)
            completion?(.failed(error))
            throw error
        case .silenced:
            if alert { state.withLockedValue { $0.attention }?(id) }
            completion?(.silenced)
        case .coalesced:
            completion?(.coalesced)
        case let .play(source, replaced):
            for play in replaced {
                play.source.stop()
                for completion in play.completions { completion(.replaced) }
            }
            source.completionHandler = { [weak self] source in self?.finished(source) }
            do {
                try source.play()
            } catch let error as SoundstageError {
                let play = state.withLockedValue { state -> Play? in
                    guard let index = state.playing.firstIndex(where: { $0.source === source }) else { return nil }
                    return state.playing.remove(at: index)
                }
                for completion in play?.completions ?? [] { completion(.failed(error)) }
                throw error
            }
            // A play from another thread may have replaced this one before it started.
            if !state.withLockedValue({ $0.playing.contains { $0.source === source } }) { source.stop() }
            if alert { state.withLockedValue { $0.attention }?(id) }
        }
    }

    private func finished(_ source: Source) {
        let done = state.withLockedValue { state -> (Play, [@Sendable (SystemSoundID) -> Void])? in
            guard let index = state.playing.firstIndex(where: { $0.source === source }) else { return nil }
            let play = state.playing.remove(at: index)
            return (play, state.entries[play.id]?.completions ?? [])
        }
        guard let (play, perSound) = done else { return }
        for completion in play.completions { completion(.finished) }
        for handler in perSound { handler(play.id) }
    }
}
