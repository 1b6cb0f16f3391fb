import Foundation
import Soundstage

/// The settings keys `AVAudioRecorder(url:settings:)` reads.
public let AVFormatIDKey = "AVFormatIDKey"
public let AVSampleRateKey = "AVSampleRateKey"
public let AVNumberOfChannelsKey = "AVNumberOfChannelsKey"
public let AVEncoderAudioQualityKey = "AVEncoderAudioQualityKey"
public let AVEncoderBitRateKey = "AVEncoderBitRateKey"
public let AVLinearPCMBitDepthKey = "AVLinearPCMBitDepthKey"
public let AVLinearPCMIsFloatKey = "AVLinearPCMIsFloatKey"

/// `AVEncoderAudioQualityKey`'s values: for AAC, the bit rate (64, 96, 128, 192, 256 kb/s).
public enum AVAudioQuality: Int, Sendable {
    case min = 0
    case low = 0x20
    case medium = 0x40
    case high = 0x60
    case max = 0x7F
}

/// What an `AVAudioRecorder` tells its delegate; both methods have default implementations.
public protocol AVAudioRecorderDelegate: AnyObject {
    /// The recording ended (``AVAudioRecorder/stop()``, its duration, or a failure: `flag` false).
    func audioRecorderDidFinishRecording(_ recorder: AVAudioRecorder, successfully flag: Bool)
    /// Writing the file failed; `error` is an `NSError` (``SoundstageError/nsError``).
    func audioRecorderEncodeErrorDidOccur(_ recorder: AVAudioRecorder, error: Error?)
}

extension AVAudioRecorderDelegate {
    /// Does nothing.
    public func audioRecorderDidFinishRecording(_ recorder: AVAudioRecorder, successfully flag: Bool) {}
    /// Does nothing.
    public func audioRecorderEncodeErrorDidOccur(_ recorder: AVAudioRecorder, error: Error?) {}
}

/// `AVAudioRecorder`, spelled as the iOS SDK spells it in Swift, over Soundstage's
/// ``AudioRecorder`` under `AVAudioSession.sharedInstance()` (whose category must be `.record`
/// or `.playAndRecord` to record). It records the desktop server's default input.
public final class AVAudioRecorder: NSObject, @unchecked Sendable {
    /// Where it records.
    public let url: URL
    /// The settings it was made with.
    public let settings: [String: Any]
    /// Called when it finishes (held weakly).
    public weak var delegate: AVAudioRecorderDelegate?
    private let recorderSettings: AudioRecorder.Settings
    private let lock = NSLock()
    private var recorder: AudioRecorder?
    private var meteringWanted = false

    /// Prepares to record to `url` with iOS's settings keys: `AVFormatIDKey` (linear PCM, AAC,
    /// Apple Lossless, IMA4, µ-law, A-law, iLBC — in CAF, 8 kHz mono whatever the rate and channels
    /// asked, 30 ms frames, 20 ms with `AVEncoderBitRateKey` 15 200), `AVSampleRateKey`, `AVNumberOfChannelsKey`,
    /// `AVEncoderAudioQualityKey` (AAC's bit rate) or `AVEncoderBitRateKey`,
    /// `AVLinearPCMBitDepthKey` (16, 24, 32) and `AVLinearPCMIsFloatKey`.
    /// - Throws: an `NSError` (``SoundstageError/nsError``): `NSOSStatusErrorDomain` with
    ///   `kAudio_ParamError` (−50) for a URL that is not a file's, or a format ID, rate, channel
    ///   count or depth it cannot write.
    public init(url: URL, settings: [String: Any]) throws {
        recorderSettings = try throwingNSError {
            guard url.isFileURL else { throw SoundstageError(.invalidArgument, "only file URLs can be recorded to", subject: url.absoluteString) }
            return try Self.recorderSettings(settings, url: url)
        }
        self.url = url
        self.settings = settings
        super.init()
    }

    static func number(_ value: Any?) -> Double? {
        switch value {
        case let v as Int: Double(v)
        case let v as UInt32: Double(v)
        case let v as Double: v
        case let v as Float: Double(v)
        case let v as NSNumber: v.doubleValue
        default: nil
        }
    }

    static func recorderSettings(_ settings: [String: Any], url: URL) throws -> AudioRecorder.Settings {
        let ext = url.pathExtension.lowercased()
        let formatID = number(settings[AVFormatIDKey]).map { UInt32($0) } ?? kAudioFormatLinearPCM
        let depth = number(settings[AVLinearPCMBitDepthKey]).map { Int($0) } ?? 16
        let isFloat = (settings[AVLinearPCMIsFloatKey] as? Bool) ?? false
        let container: Container = switch ext {
        case "caf": .caf
        case "aif", "aiff", "aifc": .aiff
        case "m4a", "mp4", "aac": .mp4
        default: .wav
        }
        let format: OutputFormat
        switch formatID {
        case kAudioFormatLinearPCM:
            let encoding: SampleEncoding
            switch (depth, isFloat) {
            case (16, false): encoding = .pcm16
            case (24, false): encoding = .pcm24
            case (32, false): encoding = .pcm32
            case (32, true): encoding = .float32
            case (8, false): encoding = container == .wav ? .pcmU8 : .pcmS8
            default: throw SoundstageError(.invalidArgument, "linear PCM of \(depth) bits\(isFloat ? " float" : "") cannot be recorded")
            }
            format = OutputFormat(container: container == .mp4 ? .wav : container, encoding: encoding)
        case kAudioFormatMPEG4AAC: format = .m4aAAC
        case kAudioFormatAppleLossless: format = container == .caf ? .cafALAC : .m4aALAC
        case kAudioFormatAppleIMA4: format = .cafIMA4
        case kAudioFormatULaw: format = container == .wav ? .wavULaw : .cafULaw
        case kAudioFormatALaw: format = .wavALaw
        case kAudioFormatiLBC: format = .cafILBC
        default:
            throw SoundstageError(.invalidArgument, "AVFormatIDKey \(formatID) is not a format Soundstage records (linear PCM, AAC, "
                                  + "Apple Lossless, IMA4, µ-law, A-law, iLBC)")
        }
        let rate = number(settings[AVSampleRateKey]).map { Int($0.rounded()) }
        let channels = number(settings[AVNumberOfChannelsKey]).map { Int($0) }
        var bitRate = number(settings[AVEncoderBitRateKey]).map { Int($0) }
        // iLBC: only a stated bit rate (15 200) picks its 20 ms frames; a quality does not.
        if bitRate == nil, formatID != kAudioFormatiLBC, let quality = number(settings[AVEncoderAudioQualityKey]) {
            bitRate = switch Int(quality) {
            case ..<0x20: 64_000
            case ..<0x40: 96_000
            case ..<0x60: 128_000
            case ..<0x7F: 192_000
            default: 256_000
            }
        }
        return AudioRecorder.Settings(format: format, sampleRate: rate, channels: channels, bitRate: bitRate)
    }

    /// Prepares the file: true (the file is created when recording starts).
    @discardableResult
    public func prepareToRecord() -> Bool { true }

    private func make() throws -> AudioRecorder {
        if let recorder = lock.withLock({ recorder }) { return recorder }
        let engine = try CompatEngine.shared()
        var settings = recorderSettings
        settings.server = engine.device.desktopOptions?.server   // the server the app plays on
        if settings.input == nil { settings.input = AVAudioSession.sharedInstance().preferredInput?.uid }
        let made = try AudioRecorder(path: url.path, settings: settings, session: engine.session) { [weak self] result in
            CompatOutput.deliver { [weak self] in
                guard let self else { return }
                if !result.isSuccess, let error = result.fileError { delegate?.audioRecorderEncodeErrorDidOccur(self, error: error.nsError) }
                delegate?.audioRecorderDidFinishRecording(self, successfully: result.isSuccess)
            }
        }
        made.isMeteringEnabled = lock.withLock { meteringWanted }
        lock.withLock { recorder = made }
        return made
    }

    /// Starts or resumes recording; false when it cannot (the category forbids it, no input).
    /// Why it could not is in ``lastError`` (iOS says nothing more than false).
    @discardableResult
    public func record() -> Bool { attempt { try make().record() } }

    /// Records for `duration` seconds, then stops; false when it cannot (see ``lastError``).
    @discardableResult
    public func record(forDuration duration: TimeInterval) -> Bool { attempt { try make().record(forDuration: duration) } }

    /// The device clock, shared with `AVAudioPlayer.deviceCurrentTime` (the output's clock, in
    /// seconds), for ``record(atTime:)``.
    public var deviceCurrentTime: TimeInterval { (try? CompatEngine.shared().device.mixTime) ?? 0 }

    /// Starts recording at `time` on the device clock (``deviceCurrentTime``); a time already
    /// past starts now. The input opens at once, so the start comes on time, give or take the
    /// server's 10 ms capture fragments. False when it cannot record (see ``lastError``).
    @discardableResult
    public func record(atTime time: TimeInterval) -> Bool { scheduleRecording(at: time, duration: nil) }

    /// Records `duration` seconds from `time` on the device clock, then stops.
    @discardableResult
    public func record(atTime time: TimeInterval, forDuration duration: TimeInterval) -> Bool {
        scheduleRecording(at: time, duration: duration)
    }

    private func scheduleRecording(at time: TimeInterval, duration: TimeInterval?) -> Bool {
        // A bound keeps the wait a count of nanoseconds (Dispatch traps past Int64), as
        // record(forDuration:) bounds its duration.
        guard time.isFinite, time - deviceCurrentTime <= 1e9, duration.map({ $0.isFinite && $0 > 0 && $0 <= 1e9 }) ?? true else {
            lock.withLock {
                failure = SoundstageError(.invalidArgument, "record(atTime: \(time), forDuration: \(duration ?? 0)): the time must be "
                                          + "finite and at most 1e9 s ahead, the duration finite, > 0 and at most 1e9 s")
            }
            return false
        }
        // Refused now, as record() would be at the time: iOS's false comes at once.
        guard attempt({
            let engine = try CompatEngine.shared()
            guard engine.session.category.allowsRecording else {
                throw SoundstageError(.categoryForbids, "recording needs the record or playAndRecord category; the session's is "
                                      + engine.session.category.rawValue, subject: url.path)
            }
            // Opened now, so that the start itself only flips a state.
            try make().prepareToRecord()
        }) else { return false }
        let start: @Sendable () -> Void = { [weak self] in
            guard let self else { return }
            if let duration { record(forDuration: duration) } else { record() }
        }
        let wait = time - deviceCurrentTime
        if wait <= 0 {
            start()
        } else {
            DispatchQueue.global(qos: .userInteractive).asyncAfter(deadline: .now() + wait, execute: start)
        }
        return true
    }

    /// Why the last ``record()`` or ``record(forDuration:)`` returned false (nil after one that
    /// started). Not in iOS: a Linux addition, for the log of a port that wonders why.
    public var lastError: SoundstageError? { lock.withLock { failure } }
    private var failure: SoundstageError?

    private func attempt(_ start: () throws -> Void) -> Bool {
        do {
            try start()
            lock.withLock { failure = nil }
            return true
        } catch {
            lock.withLock { failure = error as? SoundstageError ?? SoundstageError(.internalError, "\(error)") }
            return false
        }
    }

    /// Pauses; ``record()`` goes on in the same file.
    public func pause() { lock.withLock { recorder }?.pause() }

    /// Stops and closes the file.
    public func stop() { _ = lock.withLock { recorder }?.stop() }

    /// Deletes the file (after ``stop()``); false when there is none.
    @discardableResult
    public func deleteRecording() -> Bool {
        stop()
        return (try? FileManager.default.removeItem(at: url)) != nil
    }

    /// Whether it records now.
    public var isRecording: Bool { lock.withLock { recorder }?.isRecording ?? false }
    /// Seconds recorded.
    public var currentTime: TimeInterval { lock.withLock { recorder }?.currentTime ?? 0 }

    /// Whether ``updateMeters()`` measures.
    public var isMeteringEnabled: Bool {
        get { lock.withLock { meteringWanted } }
        set {
            lock.withLock { meteringWanted = newValue }
            lock.withLock { recorder }?.isMeteringEnabled = newValue
        }
    }
    private var meters: LevelMeter?
    /// Takes the levels since the last call.
    public func updateMeters() {
        let levels = lock.withLock { recorder }?.meterLevels()
        lock.withLock { if let levels { meters = levels } }
    }
    /// dBFS, −160 silence.
    public func averagePower(forChannel channelNumber: Int) -> Float {
        lock.withLock { meters.flatMap { $0.averagePower.indices.contains(channelNumber) ? $0.averagePower[channelNumber] : nil } } ?? LevelMeter.silence
    }
    /// dBFS, −160 silence.
    public func peakPower(forChannel channelNumber: Int) -> Float {
        lock.withLock { meters.flatMap { $0.peakPower.indices.contains(channelNumber) ? $0.peakPower[channelNumber] : nil } } ?? LevelMeter.silence
    }
}
