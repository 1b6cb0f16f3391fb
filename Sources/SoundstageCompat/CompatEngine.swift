import Foundation
import Logging
import Soundstage

/// What the iOS names run on: one output device, its session center with the app's one audio
/// session, a scene for players and a system-sound registry under that session — made on first
/// use, as iOS gives an app its audio session.
///
/// A program that wants another output (a named sink, a loopback render for tests) calls
/// ``use(device:)`` before its first audio call; otherwise the default output opens
/// (`Device.openOutput()`: the desktop server, else the sound card).
public enum CompatOutput {
    /// Makes the iOS names play on `device` from now on (a new session, scene and registry).
    /// The previous engine's players stop.
    /// - Throws: an `NSError` (``SoundstageError/nsError``) when the session cannot activate.
    public static func use(device: Device) throws {
        let engine = try throwingNSError { try ApplicationAudio.use(device: device) }
        AVAudioSession.sharedInstance().attach(engine)
    }

    /// The device the iOS names play on (opening the default output on first use).
    /// - Throws: an `NSError` (``SoundstageError/nsError``) when no output can open.
    public static func device() throws -> Device { try throwingNSError { try CompatEngine.shared().device } }

    /// The Soundstage session behind `AVAudioSession.sharedInstance()`.
    public static func session() throws -> AudioSession { try throwingNSError { try CompatEngine.shared().session } }

    /// Where the iOS names say what iOS would not (a device that could not be paused for an
    /// interruption, say), label `org.soundstage.compat`: through the program's
    /// `LoggingSystem.bootstrap`, as swift-log libraries do (stderr when it never bootstraps).
    public static let logger = Logger(label: "org.soundstage.compat")

    /// Where delegates, completions and the session's notifications are delivered. Nil (the
    /// default): on the engine's threads, as they happen. iOS delivers them on the main thread,
    /// and iOS code keeps its state unsynchronised because of it: a program that runs a main loop
    /// (`RunLoop.main.run()`, `dispatchMain()`) sets `.main` and gets iOS's behaviour; a game
    /// whose own loop owns the main thread gives a serial queue it drains or synchronises with.
    /// Delivered in order, asynchronously (as iOS does): `stop()` returns before the recorder's
    /// delegate hears of it.
    public static var callbackQueue: DispatchQueue? {
        get { CompatEngine.lock.withLock { CompatEngine.queue } }
        set { CompatEngine.lock.withLock { CompatEngine.queue = newValue } }
    }

    /// Runs `body` where ``callbackQueue`` says.
    static func deliver(_ body: @escaping @Sendable () -> Void) {
        if let queue = callbackQueue { queue.async(execute: body) } else { body() }
    }

    /// The system-sound registry behind System Sound Services (its ``SystemSoundRegistry/attentionHandler``
    /// receives `kSystemSoundID_Vibrate`).
    public static func systemSounds() throws -> SystemSoundRegistry { try throwingNSError { try CompatEngine.shared().registry } }
}

/// The objects behind the iOS names are AudioToolbox's `ApplicationAudio` (the device, the app's
/// session, a scene, the system-sound registry), shared with the Audio Session and System Sound C
/// APIs; this is where SoundstageCompat reaches it, with AVAudioSession following it.
enum CompatEngine {
    static let lock = NSLock()
    nonisolated(unsafe) static var queue: DispatchQueue?

    /// The app's audio, opening the default output on first use; AVAudioSession follows it.
    static func shared() throws -> ApplicationAudio {
        let audio = try ApplicationAudio.shared()
        AVAudioSession.sharedInstance().attach(audio)
        return audio
    }
}
