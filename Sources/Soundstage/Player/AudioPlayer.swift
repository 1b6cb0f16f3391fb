#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import NIOConcurrencyHelpers
import SoundFile

/// Plays one sound file — music, a voice line, an ambience — the way `AVAudioPlayer` does for an
/// iOS game: made from a path, a URL or bytes; play, pause, stop, a scheduled start; volume with
/// fades, pan, rate; a number of loops; a current time that can be read and set to the sample;
/// metering; and a report when it finishes, fails to decode, or its session is interrupted.
///
/// A player is a streaming source of its scene, unpositioned (head-relative, at the listener),
/// so a long file never sits in memory and many players cost what as many streams cost. It obeys
/// the scene's session like any source: it does not sound while the session is inactive or
/// interrupted, and an interruption's end with `shouldResume` resumes it.
///
/// Thread-safe: any thread may call it. Events arrive on the engine's update (during
/// ``Device/render(frames:)`` on a loopback device).
public final class AudioPlayer: @unchecked Sendable {
    /// What happened to a player, as `AVAudioPlayerDelegate` hears it.
    public enum Event: Sendable, Equatable {
        /// It played to its end (after its loops); `successfully` is false when decoding failed
        /// part-way and the rest could not be played.
        case finished(successfully: Bool)
        /// Decoding failed (a damaged file): playback ends, ``finished(successfully:)`` follows.
        case decodeError(SoundstageError)
        /// Its session was interrupted: it is silent (paused) until the interruption ends.
        case interruptionBegan
        /// The interruption ended; with `shouldResume` the player plays on where it was.
        case interruptionEnded(shouldResume: Bool)
    }

    /// The scene it plays in.
    public let scene: Scene
    /// The file's path; nil for a player made from bytes.
    public let path: String?
    /// The file's format (channels, rate, frames).
    public let format: AudioFormat
    /// The sound's length in seconds.
    public let duration: Double
    /// The file's channel count.
    public var numberOfChannels: Int { format.channels }

    private let source: Source
    private let session: AudioSession?
    private var observer: Int?
    private let lock = NIOLock()
    private var state = PlayerState()

    private struct PlayerState {
        var volume: Float = 1
        var pan: Float = 0
        var panLaw = PanLaw.constantPower
        var rate: Float = 1
        var preservesPitch = false
        var numberOfLoops = 0
        var playing = false
        var meters: LevelMeter?
        var handler: (@Sendable (AudioPlayer, Event) -> Void)?
        var reportedFailure = false
    }

    /// Opens the file at `path` for playing in `scene`. `session`, if given, is the session the
    /// scene is attached to: the player reports its interruptions.
    ///
    /// - Throws: the file's errors (`.notFound`, `.unsupportedFormat`, `.corruptData`,
    ///   `.codecUnavailable`, ...), and `.unsupportedFormat` for more than two channels.
    public convenience init(contentsOf path: String, scene: Scene, session: AudioSession? = nil) throws {
        try self.init(file: SoundFile(path: path), path: path, scene: scene, session: session)
    }

    /// Opens the file at `url`, which must be a `file:` URL.
    public convenience init(url: URL, scene: Scene, session: AudioSession? = nil) throws {
        guard url.isFileURL else {
            throw SoundstageError(.invalidArgument, "only file URLs can be played", subject: url.absoluteString)
        }
        try self.init(contentsOf: url.path, scene: scene, session: session)
    }

    /// Plays a whole file's bytes held in memory (any format ``SoundFile`` reads).
    public convenience init(data: Data, scene: Scene, session: AudioSession? = nil) throws {
        try self.init(file: SoundFile(data: [UInt8](data), name: "<data>"), path: nil, scene: scene, session: session)
    }

    /// Plays what `producer` makes while it plays (an audio queue's buffers, decoded as they come):
    /// mono or stereo Float32 at `sampleRate`, through a stream of `options`. It plays once, from its
    /// start, and finishes when the producer ends; it cannot loop or seek.
    package convenience init(producer: FrameProducer, sampleRate: Int, channels: Int, name: String, scene: Scene,
                             session: AudioSession?, options: StreamOptions) throws {
        try self.init(file: SoundFile(producer: producer, sampleRate: sampleRate, channels: channels, name: name), path: nil,
                      scene: scene, session: session, options: options)
    }

    private init(file: SoundFile, path: String?, scene: Scene, session: AudioSession?, options: StreamOptions = StreamOptions()) throws {
        guard (1...2).contains(file.format.channels) else {
            throw SoundstageError(.unsupportedFormat, "a player plays mono or stereo; this has \(file.format.channels) channels",
                                  subject: path ?? file.name)
        }
        self.scene = scene
        self.path = path
        self.session = session
        format = file.format
        // A compressed header's count is a claim: the player's length is what decodes.
        duration = file.format.sampleRate > 0 ? Double(file.format.frames) / Double(file.format.sampleRate) : 0
        source = try scene.makeStreamingSource(opened: file, options: options)
        source.isHeadRelative = true
        source.rolloffFactor = 0
        source.position = Vector3(0, 0, -1)
        source.completionHandler = { [weak self] _ in self?.didFinish() }
        if let session {
            observer = session.addObserver { [weak self] event in self?.sessionEvent(event) }
        }
    }

    deinit {
        if let observer { session?.removeObserver(observer) }
        source.completionHandler = nil
        source.stop()
    }

    // MARK: Events

    /// Called (on the engine's update) with each ``Event``.
    public var eventHandler: (@Sendable (AudioPlayer, Event) -> Void)? {
        get { lock.withLock { state.handler } }
        set { lock.withLock { state.handler = newValue } }
    }

    private func emit(_ event: Event) {
        lock.withLock { state.handler }?(self, event)
    }

    private func didFinish() {
        let failure = source.streamError
        let reported = lock.withLock {
            state.playing = false
            defer { state.reportedFailure = false }
            return state.reportedFailure
        }
        if let failure, !reported { emit(.decodeError(failure)) }
        emit(.finished(successfully: failure == nil))
    }

    private func sessionEvent(_ event: SessionEvent) {
        switch event.kind {
        case .interruptionBegan: emit(.interruptionBegan)
        case .interruptionEnded(let shouldResume): emit(.interruptionEnded(shouldResume: shouldResume))
        default: break
        }
    }

    // MARK: Playing

    /// Gets ready to play (the decoder starts filling ahead when it plays): always true here,
    /// as `AVAudioPlayer.prepareToPlay()` returns.
    @discardableResult
    public func prepareToPlay() -> Bool { true }

    /// Plays from ``currentTime``: resumes after ``pause()`` or ``stop()``; a playing player goes on.
    ///
    /// - Throws: `.sessionNotActive` while its session is inactive or interrupted,
    ///   `.sourceBudgetExhausted` when the scene has no OpenAL source left.
    public func play() throws {
        if isPlaying { return }
        if source.playbackState == .playing {
            // Its session resumed it after an interruption: it plays on (OpenAL would play a
            // playing stream's queue again from its first chunk).
            lock.withLock { state.playing = true }
            return
        }
        applyLoops()
        try source.play()
        lock.withLock { state.playing = true }
    }

    /// Starts playing at `time` on the device clock (``deviceCurrentTime``), exactly on that
    /// sample (a desktop or loopback device).
    /// - Throws: `.invalidArgument` for a time that is not in the future, and ``play()``'s errors.
    public func play(atTime time: Double) throws {
        applyLoops()
        try scene.play([source], at: time)
        lock.withLock { state.playing = true }
    }

    /// Pauses; ``play()`` resumes where it paused.
    public func pause() {
        source.pause()
        lock.withLock { state.playing = false }
    }

    /// Stops playing. Unlike a source's stop, ``currentTime`` stays where it was (as
    /// `AVAudioPlayer.stop()` leaves it); ``play()`` goes on from there.
    public func stop() {
        let time = currentTime
        source.stop()
        try? source.seek(to: min(time, duration))
        lock.withLock { state.playing = false }
    }

    /// Whether it is playing now (false once it finished, or while paused or stopped).
    public var isPlaying: Bool {
        lock.withLock { state.playing } && source.playbackState == .playing
    }

    /// The device's clock in seconds, for ``play(atTime:)``.
    public var deviceCurrentTime: Double { scene.device.mixTime }

    // MARK: Position and loops

    /// The play position in seconds within the file, exact to the sample: readable while it
    /// plays, and settable (while playing it jumps there). Values outside 0…``duration`` are
    /// clamped; NaN is refused (the position stays).
    public var currentTime: Double {
        get {
            let offset = source.offset
            guard duration > 0 else { return offset }
            // A stream's position runs on across loop ends: within the file, it wraps.
            return offset < duration ? offset : offset.truncatingRemainder(dividingBy: duration)
        }
        set {
            guard newValue.isFinite else {
                _ = scene.refusals.admits(false, "AudioPlayer.currentTime", newValue, "a finite time")
                return
            }
            try? source.seek(to: max(0, min(newValue, duration)))
        }
    }

    /// How many times it plays again after the first: 0 plays once, 2 plays three times, any
    /// negative value loops until stopped. Counted at the sample: the loops are gapless.
    public var numberOfLoops: Int {
        get { lock.withLock { state.numberOfLoops } }
        set {
            lock.withLock { state.numberOfLoops = newValue }
            if isPlaying { applyLoops() }
        }
    }

    private func applyLoops() {
        let loops = numberOfLoops
        source.setStreamLoops(loops != 0, times: loops < 0 ? nil : loops)
    }

    // MARK: Volume, pan, rate

    /// The volume, 0…1 (1 by default). Setting it cancels a fade in progress.
    public var volume: Float {
        get { lock.withLock { state.volume } }
        set { setVolume(newValue, fadeDuration: 0) }
    }

    /// Fades the volume to `volume` (0…1) over `fadeDuration` seconds, on the device's clock.
    public func setVolume(_ volume: Float, fadeDuration: Double) {
        guard scene.refusals.admits(volume.isFinite && (0...1).contains(volume), "AudioPlayer.volume", volume, "in 0...1"),
              scene.refusals.admits(fadeDuration.isFinite && fadeDuration >= 0, "AudioPlayer.fadeDuration", fadeDuration,
                                    "finite and >= 0") else { return }
        lock.withLock { state.volume = volume }
        source.fade(to: volume, over: fadeDuration)
    }

    /// Left-right position, −1 (left) … 0 (centre) … 1 (right). A mono file is spread over the
    /// mix by ``panLaw``; a stereo file's channels stay on their sides and the pan is a balance
    /// (as iOS's `AVAudioPlayer` pans one), whatever the law: at −0.5 the right channel plays at
    /// half its level and the left at its own, at ±1 one side alone. A change while a stereo file
    /// plays is heard at once: what was decoded ahead is decoded again from the position heard,
    /// as for a rate change. Files of more than two channels are not moved.
    public var pan: Float {
        get { lock.withLock { state.pan } }
        set {
            guard scene.refusals.admits(newValue.isFinite && (-1...1).contains(newValue), "AudioPlayer.pan", newValue, "in -1...1")
            else { return }
            let law = lock.withLock { () -> PanLaw in
                state.pan = newValue
                return state.panLaw
            }
            place(pan: newValue, law: law)
        }
    }

    /// How ``pan`` spreads a mono file: OpenAL's constant power (the default: 0.596 in each
    /// channel at the centre), or iOS's balance (full level in both at the centre). The
    /// `SoundstageCompat` `AVAudioPlayer` uses `.balance`. Both hold for a stereo mix without HRTF.
    public var panLaw: PanLaw {
        get { lock.withLock { state.panLaw } }
        set {
            let pan = lock.withLock { () -> Float in
                state.panLaw = newValue
                return state.pan
            }
            place(pan: pan, law: newValue)
        }
    }

    private func place(pan: Float, law: PanLaw) {
        switch format.channels {
        case 1:
            let placement = PanPlacement(pan: pan, law: law)
            source.place(azimuth: placement.azimuth, gain: placement.gain)
        case 2: source.setStreamChannelGains(pan == 0 ? nil : [min(1, 1 - pan), min(1, 1 + pan)])
        default: break
        }
    }

    /// The playback rate, 0.5…2 (1 by default). With ``preservesPitch`` off (the default) it
    /// changes speed and pitch together, as OpenAL's pitch; on, only the speed (SoundTouch's time
    /// stretch). `AVAudioPlayer` needs `enableRate`; here it always applies.
    public var rate: Float {
        get { lock.withLock { state.rate } }
        set {
            guard scene.refusals.admits(newValue.isFinite && (0.5...2).contains(newValue), "AudioPlayer.rate", newValue, "in 0.5...2")
            else { return }
            let keepsPitch = lock.withLock { () -> Bool in
                state.rate = newValue
                return state.preservesPitch
            }
            applyRate(newValue, keepsPitch: keepsPitch)
        }
    }

    /// Whether ``rate`` keeps the pitch, as iOS's `AVAudioPlayer` does: the decoder plays the
    /// file faster or slower through SoundTouch (``TimeStretch``), and the position stays exact.
    /// A change applies at once (what was queued is decoded again from the position heard).
    /// Off by default (the rate is OpenAL's pitch). Without SoundTouch the rate changes the
    /// pitch too; ``TimeStretch/check()`` says what to install.
    public var preservesPitch: Bool {
        get { lock.withLock { state.preservesPitch } }
        set {
            let rate = lock.withLock { () -> Float in
                state.preservesPitch = newValue
                return state.rate
            }
            applyRate(rate, keepsPitch: newValue)
        }
    }

    /// Plays `speed` times as fast with the pitch moved by the frequency ratio `pitch`, apart (an
    /// audio queue's time-pitch unit: OpenAL's pitch moves both, the time stretch puts the speed
    /// back). Without SoundTouch the speed is OpenAL's pitch alone (the pitch moves with it).
    /// For a stream that cannot seek, heard once what was decoded ahead has played.
    package func setSpeed(_ speed: Float, pitch: Float) {
        guard speed.isFinite, pitch.isFinite, speed > 0, pitch > 0 else { return }
        let stretch = TimeStretch.isAvailable
        source.pitch = stretch ? pitch : speed
        let tempo = Double(speed) / Double(pitch)
        source.setStreamTempo(stretch && abs(tempo - 1) > 1e-6 ? tempo : nil)
    }

    private func applyRate(_ rate: Float, keepsPitch: Bool) {
        let stretch = keepsPitch && TimeStretch.isAvailable
        source.pitch = stretch ? 1 : rate
        source.setStreamTempo(stretch && rate != 1 ? Double(rate) : nil)
    }

    // MARK: Metering

    /// Whether levels are measured (off by default; ``updateMeters()`` reads them).
    public var isMeteringEnabled: Bool {
        get { source.isMeteringEnabled }
        set { source.isMeteringEnabled = newValue }
    }

    /// Takes the levels of what played since the last call, for ``averagePower(forChannel:)``
    /// and ``peakPower(forChannel:)``. The source's meter moves on every 100 ms of mix: a call
    /// sooner than that, while the player plays, keeps the last levels (as iOS's meters, polled
    /// at a display's rate, read steadily); a player that stopped reads silence.
    public func updateMeters() {
        // The source's meter counts its gain, which holds the pan law's make-up (1.68 for a
        // centred mono file under `.balance`): the player's meters are the file's level × volume.
        let makeUp = LevelMeter.decibels(Double(source.gain))
        let levels = source.meterLevels().map { levels in
            LevelMeter(averagePower: levels.averagePower.map { $0 <= LevelMeter.silence ? $0 : $0 - makeUp },
                       peakPower: levels.peakPower.map { $0 <= LevelMeter.silence ? $0 : $0 - makeUp }, frames: levels.frames)
        }
        let playing = isPlaying
        lock.withLock {
            if let levels {
                state.meters = levels
            } else if !playing {
                state.meters = state.meters.map { LevelMeter(averagePower: $0.averagePower.map { _ in LevelMeter.silence },
                                                             peakPower: $0.peakPower.map { _ in LevelMeter.silence }, frames: 0) }
            }
        }
    }

    /// The RMS level of `channel` at the last ``updateMeters()``, in dBFS (−160 for silence,
    /// or before any reading, or for a channel the file lacks).
    public func averagePower(forChannel channel: Int) -> Float {
        lock.withLock { state.meters.flatMap { $0.averagePower.indices.contains(channel) ? $0.averagePower[channel] : nil } } ?? LevelMeter.silence
    }

    /// The peak level of `channel` at the last ``updateMeters()``, in dBFS.
    public func peakPower(forChannel channel: Int) -> Float {
        lock.withLock { state.meters.flatMap { $0.peakPower.indices.contains(channel) ? $0.peakPower[channel] : nil } } ?? LevelMeter.silence
    }
}
