import AudioToolbox
import Foundation
import Soundstage

/// `AVAudioSession`, spelled as the iOS SDK spells it in Swift, over Soundstage's
/// ``AudioSession``: the app's one session (`sharedInstance()`), its category, mode and options,
/// activation, and the interruption and route-change notifications on `NotificationCenter.default`.
///
/// Notifications are posted where `CompatOutput.callbackQueue` says: on the engine's threads by
/// default (iOS posts interruptions on the main thread); set the queue to `.main` for that.
public final class AVAudioSession: NSObject, @unchecked Sendable {
    /// An audio session category, by its iOS name.
    public struct Category: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Mixes with others; silenced by the ring/silent switch and screen lock.
        public static let ambient = Category(rawValue: "AVAudioSessionCategoryAmbient")
        /// The default: silences others.
        public static let soloAmbient = Category(rawValue: "AVAudioSessionCategorySoloAmbient")
        /// Music and audio that must keep playing.
        public static let playback = Category(rawValue: "AVAudioSessionCategoryPlayback")
        /// Recording.
        public static let record = Category(rawValue: "AVAudioSessionCategoryRecord")
        /// Voice chat: recording and playing.
        public static let playAndRecord = Category(rawValue: "AVAudioSessionCategoryPlayAndRecord")
        /// Several outputs at once: refused on Linux (one output per device).
        public static let multiRoute = Category(rawValue: "AVAudioSessionCategoryMultiRoute")
    }

    /// A mode, kept and reported; on Linux it changes nothing (no hardware signal processing).
    public struct Mode: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let `default` = Mode(rawValue: "AVAudioSessionModeDefault")
        public static let gameChat = Mode(rawValue: "AVAudioSessionModeGameChat")
        public static let voiceChat = Mode(rawValue: "AVAudioSessionModeVoiceChat")
        public static let measurement = Mode(rawValue: "AVAudioSessionModeMeasurement")
        public static let moviePlayback = Mode(rawValue: "AVAudioSessionModeMoviePlayback")
        public static let spokenAudio = Mode(rawValue: "AVAudioSessionModeSpokenAudio")
        public static let videoChat = Mode(rawValue: "AVAudioSessionModeVideoChat")
        public static let videoRecording = Mode(rawValue: "AVAudioSessionModeVideoRecording")
        public static let voicePrompt = Mode(rawValue: "AVAudioSessionModeVoicePrompt")
    }

    /// Category options, with iOS's raw values.
    public struct CategoryOptions: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let mixWithOthers = CategoryOptions(rawValue: 0x1)
        public static let duckOthers = CategoryOptions(rawValue: 0x2)
        /// Kept; no Bluetooth routing decision is Soundstage's on Linux (the desktop server's).
        public static let allowBluetooth = CategoryOptions(rawValue: 0x4)
        /// Kept; a desktop has no receiver at the ear (see ``AVAudioSession/overrideOutputAudioPort(_:)``).
        public static let defaultToSpeaker = CategoryOptions(rawValue: 0x8)
        public static let interruptSpokenAudioAndMixWithOthers = CategoryOptions(rawValue: 0x11)
        public static let allowBluetoothA2DP = CategoryOptions(rawValue: 0x20)
        public static let allowAirPlay = CategoryOptions(rawValue: 0x40)
        public static let overrideMutedMicrophoneInterruption = CategoryOptions(rawValue: 0x80)
    }

    /// Options of ``setActive(_:options:)``.
    public struct SetActiveOptions: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let notifyOthersOnDeactivation = SetActiveOptions(rawValue: 1)
    }

    /// `AVAudioSessionInterruptionTypeKey`'s values.
    public enum InterruptionType: UInt, Sendable {
        case began = 1
        case ended = 0
    }

    /// `AVAudioSessionInterruptionOptionKey`'s values.
    public struct InterruptionOptions: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let shouldResume = InterruptionOptions(rawValue: 1)
    }

    /// `AVAudioSessionRouteChangeReasonKey`'s values.
    public enum RouteChangeReason: UInt, Sendable {
        case unknown = 0
        case newDeviceAvailable = 1
        case oldDeviceUnavailable = 2
        case categoryChange = 3
        case override = 4
        case wakeFromSleep = 6
        case noSuitableRouteForCategory = 7
        case routeConfigurationChange = 8
    }

    /// Posted when an interruption begins or ends; `userInfo` has
    /// `AVAudioSessionInterruptionTypeKey` (a `UInt`) and, at the end,
    /// `AVAudioSessionInterruptionOptionKey` (a `UInt`).
    public static let interruptionNotification = Notification.Name("AVAudioSessionInterruptionNotification")
    /// Posted when the output changes; `userInfo` has `AVAudioSessionRouteChangeReasonKey` (a
    /// `UInt`) and `AVAudioSessionRouteChangePreviousRouteKey`.
    public static let routeChangeNotification = Notification.Name("AVAudioSessionRouteChangeNotification")
    /// Never posted: there is no media server to reset on Linux.
    public static let mediaServicesWereResetNotification = Notification.Name("AVAudioSessionMediaServicesWereResetNotification")

    private static let shared = AVAudioSession()

    /// The app's session.
    public static func sharedInstance() -> AVAudioSession { shared }

    let lock = NSLock()
    private var engine: ApplicationAudio?
    private var observer: Int?
    private var routeObserver: (Device, Int)?
    private var chosen = (category: Category.soloAmbient, mode: Mode.default, options: CategoryOptions())
    private var preferred = (sampleRate: 0.0, ioBufferDuration: 0.0)
    private var route = AVAudioSessionRouteDescription(inputs: [], outputs: [])
    /// A pulled output told once, as iOS tells it.
    private var routeFolding = RouteChangeFolding()
    /// Set by ``setPreferredInput(_:)`` and ``overrideOutputAudioPort(_:)``.
    var preferredInputPort: AVAudioSessionPortDescription?
    var outputOverride = PortOverride.none

    private override init() { super.init() }

    /// Moves the session onto `engine` (its first use, or `CompatOutput.use(device:)`).
    func attach(_ engine: ApplicationAudio) {
        guard let (previous, category, options) = lock.withLock({ () -> ((Device, Int)?, Category, CategoryOptions)? in
            if self.engine === engine { return nil }
            if let observer { self.engine?.session.removeObserver(observer) }
            self.engine = engine
            defer {
                routeObserver = nil
                // The input and the override belonged to the previous output's server.
                preferredInputPort = nil
                outputOverride = .none
            }
            return (routeObserver, chosen.category, chosen.options)
        }) else { return }
        if let previous { previous.0.removeRouteObserver(previous.1) }
        engine.session.setCategory(Self.sessionCategory(category) ?? .soloAmbient, options: Self.sessionOptions(options))
        let token = engine.session.addObserver { [weak self] event in self?.sessionEvent(event) }
        let routeToken = engine.device.addRouteObserver { [weak self] change in self?.routeChanged(change) }
        let described = Self.describe(engine.device, output: nil)     // asks the server: outside the lock
        lock.withLock {
            observer = token
            routeObserver = (engine.device, routeToken)
            route = described
        }
    }

    func current() throws -> ApplicationAudio {
        if let engine = lock.withLock({ engine }) { return engine }
        return try CompatEngine.shared()
    }

    // MARK: Category

    /// The category (`.soloAmbient` until set).
    public var category: Category { lock.withLock { chosen.category } }
    /// The mode (`.default` until set).
    public var mode: Mode { lock.withLock { chosen.mode } }
    /// The category options.
    public var categoryOptions: CategoryOptions { lock.withLock { chosen.options } }

    /// Sets the category.
    /// - Throws: an `NSError` (``SoundstageError/nsError``) of code `ErrorCode.badParam` for
    ///   `.multiRoute` (Linux plays on one output per device) or a category iOS does not have.
    public func setCategory(_ category: Category) throws {
        try setCategory(category, mode: mode, options: [])
    }

    /// Sets the category and its options.
    public func setCategory(_ category: Category, options: CategoryOptions) throws {
        try setCategory(category, mode: mode, options: options)
    }

    /// Sets the category, the mode and the options. A change of category while active posts a
    /// route change with `.categoryChange`, as iOS does.
    public func setCategory(_ category: Category, mode: Mode, options: CategoryOptions = []) throws {
        try throwingNSError { try setCategoryThrowingSoundstageError(category, mode: mode, options: options) }
    }

    private func setCategoryThrowingSoundstageError(_ category: Category, mode: Mode, options: CategoryOptions) throws {
        guard let mapped = Self.sessionCategory(category) else {
            throw SoundstageError(.invalidArgument, category == .multiRoute
                ? "AVAudioSession.Category.multiRoute is not available on Linux: a Soundstage device plays on one output; "
                  + "open a Device per output instead"
                : "\(category.rawValue) is not an AVAudioSession category")
        }
        let engine = try current()
        let changed = lock.withLock { () -> Bool in
            defer { chosen = (category, mode, options) }
            return chosen.category != category
        }
        engine.session.setCategory(mapped, options: Self.sessionOptions(options))
        if changed && engine.session.isActive {
            post(routeChange: .categoryChange, previous: lock.withLock { route })
        }
    }

    /// Sets the mode, keeping the category and its options.
    public func setMode(_ mode: Mode) throws {
        lock.withLock { chosen.mode = mode }
    }

    /// Activates or deactivates the session.
    /// - Throws: an `NSError` (``SoundstageError/nsError``) of code `ErrorCode.insufficientPriority`
    ///   when a session of higher priority that does not mix holds the output, as on iOS during a call.
    public func setActive(_ active: Bool, options: SetActiveOptions = []) throws {
        try throwingNSError {
            try current().session.setActive(active, notifyOthersOnDeactivation: options.contains(.notifyOthersOnDeactivation))
        }
    }

    static func sessionCategory(_ category: Category) -> SessionCategory? {
        switch category {
        case .ambient: .ambient
        case .soloAmbient: .soloAmbient
        case .playback: .playback
        case .record: .record
        case .playAndRecord: .playAndRecord
        default: nil
        }
    }

    static func sessionOptions(_ options: CategoryOptions) -> SessionOptions {
        var mapped: SessionOptions = []
        if options.contains(.mixWithOthers) || options.contains(.interruptSpokenAudioAndMixWithOthers) { mapped.insert(.mixWithOthers) }
        if options.contains(.duckOthers) { mapped.insert(.duckOthers) }
        return mapped
    }

    // MARK: State of the device and the other sessions

    /// Whether another session of this device sounds (another part of the program, or a client
    /// of the Soundstage daemon sharing the device). Other programs on the desktop are the
    /// desktop server's business and are not seen.
    public var isOtherAudioPlaying: Bool {
        guard let engine = try? current() else { return false }
        return !engine.center.categoriesSounding(besides: engine.session).isEmpty
    }

    /// Whether another session plays audio that a game's secondary audio (its music) should give
    /// way to: one of category `playback` or `playAndRecord`.
    public var secondaryAudioShouldBeSilencedHint: Bool {
        guard let engine = try? current() else { return false }
        return engine.center.categoriesSounding(besides: engine.session).contains { $0 == .playback || $0 == .playAndRecord }
    }

    /// Whether an input to record from exists (a microphone on the desktop server the output
    /// plays on; monitors of outputs do not count).
    public var isInputAvailable: Bool {
        AudioRecorder.captureAvailable(server: (try? current())?.device.desktopOptions?.server)
    }

    /// The output's sample rate in Hz.
    public var sampleRate: Double { (try? current()).map { Double($0.device.sampleRate) } ?? 0 }

    /// The rate asked for by ``setPreferredSampleRate(_:)`` (0 until asked). The device is open
    /// already: the rate applies to a device opened later (iOS may also decline).
    public var preferredSampleRate: Double { lock.withLock { preferred.sampleRate } }

    /// Records a preferred rate (see ``preferredSampleRate``).
    public func setPreferredSampleRate(_ rate: Double) throws {
        guard rate.isFinite, rate >= 0 else { throw SoundstageError(.invalidArgument, "preferred sample rate \(rate)").nsError }
        lock.withLock { preferred.sampleRate = rate }
    }

    /// The duration of one update of the mix, in seconds (the device's update size).
    public var ioBufferDuration: Double {
        guard let device = try? current().device, let info = try? device.info else { return 0 }
        return info.sampleRate > 0 ? Double(info.updateFrames) / Double(info.sampleRate) : 0
    }

    /// The duration asked for by ``setPreferredIOBufferDuration(_:)`` (0 until asked).
    public var preferredIOBufferDuration: Double { lock.withLock { preferred.ioBufferDuration } }

    /// Records a preferred update duration: the I/O buffer a RemoteIO unit's render callback is
    /// asked for (at the device's rate). The open device keeps its own update; a desktop device's
    /// latency is chosen when it opens (`DesktopOutputOptions.latency`).
    public func setPreferredIOBufferDuration(_ duration: Double) throws {
        guard duration.isFinite, duration >= 0 else { throw SoundstageError(.invalidArgument, "preferred I/O buffer duration \(duration)").nsError }
        lock.withLock { preferred.ioBufferDuration = duration }
        // The C session's too: a RemoteIO unit renders I/O buffers of this length.
        AudioSessionServices.shared.preferredIOBufferDuration = Float32(duration)
    }

    /// The output latency the device reports, in seconds (0 when it does not say).
    public var outputLatency: Double {
        guard let device = try? current().device, let info = try? device.info else { return 0 }
        return info.latency ?? 0
    }

    /// The volume the user set, 0…1: on a desktop server, the volume of the app's stream (linear,
    /// as pavucontrol or the desktop's mixer set it; 50 % there is 0.125) and 0 while it is muted;
    /// 1 on other outputs, which have no user volume of their own. Read it when needed (it asks
    /// the output); no key-value observation.
    public var outputVolume: Float {
        guard let status = (try? current())?.device.outputStatus else { return 1 }
        return status.muted ? 0 : min(1, max(0, status.volume))
    }

    /// The route in use: the output the device plays on (its port type from what the desktop
    /// server says of the sink: ``AVAudioSession/Port/headphones`` for headphones, and so on) and,
    /// while the category records, the input chosen with ``setPreferredInput(_:)``.
    public var currentRoute: AVAudioSessionRouteDescription {
        let (outputs, input, category) = lock.withLock { (route.outputs, preferredInputPort, chosen.category) }
        let records = category == .record || category == .playAndRecord
        return AVAudioSessionRouteDescription(inputs: records ? input.map { [$0] } ?? [] : [], outputs: outputs)
    }

    // MARK: Notifications

    private func sessionEvent(_ event: SessionEvent) {
        switch event.kind {
        case .interruptionBegan:
            // iOS stops the app's output units and silences its OpenAL while it is interrupted;
            // OpenAL Soft does not, so do it here, before the listeners run (they make no context
            // current, as on iOS).
            lock.withLock { engine }?.interruptionBegins()
            CompatOutput.deliver { [self] in
                NotificationCenter.default.post(name: Self.interruptionNotification, object: self,
                                                userInfo: [AVAudioSessionInterruptionTypeKey: InterruptionType.began.rawValue])
            }
        case .interruptionEnded(let shouldResume):
            CompatOutput.deliver { [self] in
                NotificationCenter.default.post(name: Self.interruptionNotification, object: self, userInfo: [
                    AVAudioSessionInterruptionTypeKey: InterruptionType.ended.rawValue,
                    AVAudioSessionInterruptionOptionKey: (shouldResume ? InterruptionOptions.shouldResume : []).rawValue,
                ])
                // The listeners have made their context current again: give the device back.
                lock.withLock { engine }?.restoreApplicationOpenAL()
            }
        default:
            break
        }
    }

    private func routeChanged(_ change: RouteChange) {
        guard let device = lock.withLock({ engine?.device }) else { return }
        // asks the server: outside the lock
        let described = Self.describe(device, output: change.output, port: change.port)
        let (told, before) = lock.withLock { () -> (Bool, AVAudioSessionRouteDescription) in
            defer { route = described }
            return (routeFolding.tells(change), route)
        }
        guard told else { return }
        var previous = before
        if let port = change.previousPort {
            // The sink stayed and its port changed (a laptop's headphones pulled): the previous
            // route is that sink as it was, on the port it had.
            previous = AVAudioSessionRouteDescription(inputs: previous.inputs, outputs: previous.outputs.map { output in
                output.uid == change.previousOutput ? output.onPort(port) : output
            })
        }
        let reason: RouteChangeReason = switch change.reason {
        case .oldDeviceUnavailable: .oldDeviceUnavailable
        case .newDeviceAvailable: .newDeviceAvailable
        case .override: .override
        case .categoryChange: .categoryChange
        // The desktop server moved the stream: the output it played on is gone or was replaced.
        case .outputMoved: .oldDeviceUnavailable
        }
        post(routeChange: reason, previous: previous)
    }

    func post(routeChange reason: RouteChangeReason, previous: AVAudioSessionRouteDescription) {
        CompatOutput.deliver { [self] in
            NotificationCenter.default.post(name: Self.routeChangeNotification, object: self, userInfo: [
                AVAudioSessionRouteChangeReasonKey: reason.rawValue,
                AVAudioSessionRouteChangePreviousRouteKey: previous,
            ])
        }
    }

    private static func describe(_ device: Device, output: String?, port: String? = nil) -> AVAudioSessionRouteDescription {
        AVAudioSessionRouteDescription(inputs: [], outputs: [AVAudioSessionPortDescription(output: device, sink: output, port: port)])
    }
}

/// `userInfo` key of ``AVAudioSession/interruptionNotification``: an ``AVAudioSession/InterruptionType`` raw value (`UInt`).
public let AVAudioSessionInterruptionTypeKey = "AVAudioSessionInterruptionTypeKey"
/// `userInfo` key of ``AVAudioSession/interruptionNotification``: ``AVAudioSession/InterruptionOptions`` raw value (`UInt`).
public let AVAudioSessionInterruptionOptionKey = "AVAudioSessionInterruptionOptionKey"
/// `userInfo` key of ``AVAudioSession/routeChangeNotification``: a ``AVAudioSession/RouteChangeReason`` raw value (`UInt`).
public let AVAudioSessionRouteChangeReasonKey = "AVAudioSessionRouteChangeReasonKey"
/// `userInfo` key of ``AVAudioSession/routeChangeNotification``: the ``AVAudioSessionRouteDescription`` before.
public let AVAudioSessionRouteChangePreviousRouteKey = "AVAudioSessionRouteChangePreviousRouteKey"
