import Foundation
import Soundstage

/// What an `AVAudioPlayer` tells its delegate. Both methods have default implementations, so a
/// delegate implements only what it needs, as with iOS's optional methods.
public protocol AVAudioPlayerDelegate: AnyObject {
    /// The player played to its end (after its loops); `flag` is false when decoding failed.
    func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool)
    /// Decoding failed part-way (a damaged file); `error` is an `NSError` (``SoundstageError/nsError``).
    func audioPlayerDecodeErrorDidOccur(_ player: AVAudioPlayer, error: Error?)
    /// Its session was interrupted: the player is paused (deprecated on iOS 8, still written).
    func audioPlayerBeginInterruption(_ player: AVAudioPlayer)
    /// The interruption ended; `flags` holds `AVAudioSession.InterruptionOptions.shouldResume`'s
    /// raw value when the player may play on (it does so by itself then, as Soundstage's sessions do).
    func audioPlayerEndInterruption(_ player: AVAudioPlayer, withOptions flags: Int)
}

extension AVAudioPlayerDelegate {
    /// Does nothing.
    public func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool) {}
    /// Does nothing.
    public func audioPlayerDecodeErrorDidOccur(_ player: AVAudioPlayer, error: Error?) {}
    /// Does nothing.
    public func audioPlayerBeginInterruption(_ player: AVAudioPlayer) {}
    /// Does nothing.
    public func audioPlayerEndInterruption(_ player: AVAudioPlayer, withOptions flags: Int) {}
}

/// `AVAudioPlayer`, spelled as the iOS SDK spells it in Swift, over Soundstage's
/// ``AudioPlayer`` in the session of `AVAudioSession.sharedInstance()`.
///
/// The delegate is called where `CompatOutput.callbackQueue` says: the engine's update thread by
/// default (iOS calls it on the main thread; set the queue to `.main` for that).
/// As on iOS, `rate` keeps the pitch (SoundTouch's time stretch, when `libsoundtouch1` is
/// installed; without it the pitch follows the rate and a warning is logged once), and `pan`
/// follows iOS's balance law, for mono and stereo files: full level in both channels at 0, the
/// far channel falling linearly to silence at ±1.
public final class AVAudioPlayer: NSObject, @unchecked Sendable {
    private let player: AudioPlayer
    /// The file's URL (nil for a player made from data).
    public let url: URL?
    /// The data it was made from (nil for a player made from a URL).
    public let data: Data?
    /// Called when it finishes or fails to decode (held weakly, as on iOS).
    public weak var delegate: AVAudioPlayerDelegate?
    /// Whether ``rate`` changes the playback, as on iOS: off by default, and while off a rate set
    /// is kept but the player plays at 1. Turning it on applies the rate kept.
    public var enableRate: Bool {
        get { rateLock.withLock { rateState.enabled } }
        set {
            let rate = rateLock.withLock { () -> Float in
                rateState.enabled = newValue
                return newValue ? rateState.requested : 1
            }
            player.rate = rate
        }
    }
    private let rateLock = NSLock()
    private var rateState = (enabled: false, requested: Float(1))

    /// Opens the file at `url`.
    /// - Throws: an `NSError` as iOS's (``SoundstageError/nsError``): `NSOSStatusErrorDomain`
    ///   with ``kAudioFileUnspecifiedError`` for a file that is not there,
    ///   ``kAudioFileUnsupportedFileTypeError`` for one it cannot read, ...; the
    ///   `SoundstageError` under `NSUnderlyingErrorKey`.
    public init(contentsOf url: URL) throws {
        player = try throwingNSError {
            let engine = try CompatEngine.shared()
            return try AudioPlayer(url: url, scene: engine.scene, session: engine.session)
        }
        self.url = url
        data = nil
        super.init()
        hook()
    }

    /// Plays a whole file's bytes; the type hint is not needed (files are recognised by content).
    public convenience init(data: Data, fileTypeHint utiString: String?) throws { try self.init(data: data) }

    /// Plays a whole file's bytes.
    /// - Throws: an `NSError` as ``init(contentsOf:)`` does.
    public init(data: Data) throws {
        player = try throwingNSError {
            let engine = try CompatEngine.shared()
            return try AudioPlayer(data: data, scene: engine.scene, session: engine.session)
        }
        url = nil
        self.data = data
        super.init()
        hook()
    }

    /// `init(contentsOf:)`; the file type hint is not needed (files are recognised by content).
    public convenience init(contentsOf url: URL, fileTypeHint utiString: String?) throws { try self.init(contentsOf: url) }

    /// Says once, through `CompatOutput.logger`, that the pitch follows the rate without
    /// SoundTouch (a static's initialiser runs once, whatever the threads).
    private static let timeStretchWarning: Void = {
        do throws(SoundstageError) {
            try TimeStretch.check()
        } catch {
            CompatOutput.logger.warning("AVAudioPlayer.rate changes the pitch too: \(error.message)")
        }
    }()

    private func hook() {
        player.panLaw = .balance
        player.preservesPitch = true
        player.eventHandler = { [weak self] _, event in
            CompatOutput.deliver { [weak self] in
                guard let self else { return }
                switch event {
                case .finished(let successfully): delegate?.audioPlayerDidFinishPlaying(self, successfully: successfully)
                case .decodeError(let error): delegate?.audioPlayerDecodeErrorDidOccur(self, error: error.nsError)
                case .interruptionBegan: delegate?.audioPlayerBeginInterruption(self)
                case .interruptionEnded(let shouldResume):
                    delegate?.audioPlayerEndInterruption(self, withOptions: Int(shouldResume ? AVAudioSession.InterruptionOptions.shouldResume.rawValue : 0))
                }
            }
        }
    }

    /// The file's format as iOS's settings keys give it: `AVFormatIDKey` (the codec's format ID,
    /// `kAudioFormatLinearPCM` for PCM), `AVSampleRateKey` (Double), `AVNumberOfChannelsKey`
    /// (Int), and for PCM `AVLinearPCMBitDepthKey` and `AVLinearPCMIsFloatKey`.
    public var settings: [String: Any] {
        let format = player.format
        var settings: [String: Any] = [AVSampleRateKey: Double(format.sampleRate), AVNumberOfChannelsKey: format.channels]
        let pcm: (bits: Int, isFloat: Bool)? = switch format.encoding {
        case .pcmS8, .pcmU8: (8, false)
        case .pcm16: (16, false)
        case .pcm24: (24, false)
        case .pcm32: (32, false)
        case .float32: (32, true)
        case .float64: (64, true)
        default: nil
        }
        if let pcm {
            settings[AVFormatIDKey] = Int(kAudioFormatLinearPCM)
            settings[AVLinearPCMBitDepthKey] = pcm.bits
            settings[AVLinearPCMIsFloatKey] = pcm.isFloat
        } else if let id = Self.formatID(format.encoding) {
            settings[AVFormatIDKey] = Int(id)
        }
        return settings
    }

    /// Audio Toolbox's format ID of an encoding that has one.
    static func formatID(_ encoding: SampleEncoding) -> UInt32? {
        switch encoding {
        case .ulaw: kAudioFormatULaw
        case .alaw: kAudioFormatALaw
        case .imaADPCM: kAudioFormatAppleIMA4
        case .alac16, .alac20, .alac24, .alac32: kAudioFormatAppleLossless
        case .aac: kAudioFormatMPEG4AAC
        case .mpegLayer3: kAudioFormatMPEGLayer3
        case .flac: kAudioFormatFLAC
        case .opus: kAudioFormatOpus
        case .ilbc: kAudioFormatiLBC
        default: nil
        }
    }

    /// Ready to play: true.
    @discardableResult
    public func prepareToPlay() -> Bool { player.prepareToPlay() }

    /// Plays from ``currentTime``; false when it cannot (the session is not active, no source is left).
    @discardableResult
    public func play() -> Bool { (try? player.play()) != nil }

    /// Starts at `time` on the device clock (``deviceCurrentTime``); false when it cannot.
    @discardableResult
    public func play(atTime time: TimeInterval) -> Bool { (try? player.play(atTime: time)) != nil }

    /// Pauses.
    public func pause() { player.pause() }

    /// Stops; ``currentTime`` stays.
    public func stop() { player.stop() }

    /// Whether it plays now.
    public var isPlaying: Bool { player.isPlaying }
    /// The length in seconds.
    public var duration: TimeInterval { player.duration }
    /// The file's channels.
    public var numberOfChannels: Int { player.numberOfChannels }
    /// The position in seconds, settable.
    public var currentTime: TimeInterval {
        get { player.currentTime }
        set { player.currentTime = newValue }
    }
    /// The device clock, for ``play(atTime:)``.
    public var deviceCurrentTime: TimeInterval { player.deviceCurrentTime }
    /// Extra plays: 0 once, -1 until stopped.
    public var numberOfLoops: Int {
        get { player.numberOfLoops }
        set { player.numberOfLoops = newValue }
    }
    /// 0…1.
    public var volume: Float {
        get { player.volume }
        set { player.volume = newValue }
    }
    /// Fades to `volume` over `duration` seconds.
    public func setVolume(_ volume: Float, fadeDuration duration: TimeInterval) { player.setVolume(volume, fadeDuration: duration) }
    /// −1…1, iOS's balance: at 0 both channels at full level, toward a side the other channel
    /// falls linearly to silence at ±1 (a stereo file's channels stay on their sides).
    public var pan: Float {
        get { player.pan }
        set { player.pan = newValue }
    }
    /// 0.5…2; heard only while ``enableRate`` is on (as on iOS). A value outside the range, or
    /// not finite, is refused and the rate stays as it was.
    public var rate: Float {
        get { rateLock.withLock { rateState.requested } }
        set {
            guard newValue.isFinite, (0.5...2).contains(newValue) else {
                player.rate = newValue        // refused and counted by the engine, as a direct set is
                return
            }
            let enabled = rateLock.withLock { () -> Bool in
                rateState.requested = newValue
                return rateState.enabled
            }
            if enabled { player.rate = newValue }
            if enabled && newValue != 1 { Self.timeStretchWarning }
        }
    }
    /// Whether ``updateMeters()`` measures.
    public var isMeteringEnabled: Bool {
        get { player.isMeteringEnabled }
        set { player.isMeteringEnabled = newValue }
    }
    /// Takes the levels since the last call.
    public func updateMeters() { player.updateMeters() }
    /// dBFS, −160 silence.
    public func averagePower(forChannel channelNumber: Int) -> Float { player.averagePower(forChannel: channelNumber) }
    /// dBFS, −160 silence.
    public func peakPower(forChannel channelNumber: Int) -> Float { player.peakPower(forChannel: channelNumber) }
}
