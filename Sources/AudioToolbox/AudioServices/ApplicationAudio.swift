// The app's audio as iOS gives it to an app: one output device, its session center with the app's
// one audio session, a scene for players and a system-sound registry under that session, made on
// first use. Everything that speaks Apple's names stands on it: the Audio Session C API and System
// Sound Services here (for C and Swift at once), and SoundstageCompat's AVAudioSession,
// AVAudioPlayer and AVAudioRecorder.
import NIOConcurrencyHelpers
import Soundstage
#if canImport(Glibc)
import Glibc
#endif

/// The objects behind Apple's names: the device, the session and what it governs.
package final class ApplicationAudio: @unchecked Sendable {
    // @unchecked: every stored property is a `let` of a thread-safe Soundstage object.
    package let device: Device
    package let center: AudioSessionCenter
    package let session: AudioSession
    package let scene: Scene
    package let registry: SystemSoundRegistry

    /// Makes the app's audio on `device`: a session of category solo ambient (iOS's default),
    /// active at once, as an iOS app's session is once it makes sound.
    package init(device: Device) throws {
        self.device = device
        center = AudioSessionCenter(device: device)
        session = center.makeSession(category: .soloAmbient)
        // Active before anything is attached: a scene attached to an inactive session (nothing may
        // sound) pauses the output, and a desktop stream paused before it ever played waits up to
        // 2 s for a drain the server never answers: the app's first sound came that late.
        try session.setActive(true)
        scene = try device.makeScene()
        session.attach(scene)
        registry = try SystemSoundRegistry(device: device)
        session.attach(registry)
    }

    /// The program's own OpenAL device (`alcOpenDevice`), paused for the interruption in progress.
    private let pausedOpenAL = NIOLockedValueBox<ApplicationOpenALDevice?>(nil)

    /// iOS silences the app's OpenAL while it is interrupted; OpenAL Soft does not, so the
    /// interruption's beginning pauses the device of the current context, before any listener runs
    /// (they make no context current, as on iOS). Once for an interruption, whoever asks first.
    private func silenceApplicationOpenAL() {
        guard pausedOpenAL.withLockedValue({ $0 == nil }), let device = ApplicationOpenALDevice.ofCurrentContext() else { return }
        do {
            try device.pause()
            pausedOpenAL.withLockedValue { $0 = device }
        } catch {
            report("soundstage: the program's OpenAL device could not be paused for the interruption: \(error)")
        }
    }

    /// The output units running on the device (RemoteIO and its kin), each with what stops it.
    private let runningUnits = NIOLockedValueBox<[ObjectIdentifier: @Sendable () -> Void]>([:])

    /// Notes a running output unit (`stop` stops it) until ``forgetRunningUnit(_:)``.
    func noteRunningUnit(_ unit: AnyObject, stop: @escaping @Sendable () -> Void) {
        runningUnits.withLockedValue { $0[ObjectIdentifier(unit)] = stop }
    }

    func forgetRunningUnit(_ unit: AnyObject) {
        _ = runningUnits.withLockedValue { $0.removeValue(forKey: ObjectIdentifier(unit)) }
    }

    /// An interruption begins: iOS has stopped the app's output units and silenced its OpenAL
    /// before the app's interruption listener runs, so this runs first (the session's own
    /// observers run in no set order).
    package func interruptionBegins() {
        silenceApplicationOpenAL()
        for stop in runningUnits.withLockedValue({ Array($0.values) }) { stop() }
    }

    /// The end of ``silenceApplicationOpenAL()``, once the listeners have run (they made their
    /// context current again). Does nothing when nothing was paused.
    package func restoreApplicationOpenAL() {
        guard let device = pausedOpenAL.withLockedValue({ state -> ApplicationOpenALDevice? in
            defer { state = nil }
            return state
        }) else { return }
        do {
            try device.resume()
        } catch {
            report("soundstage: the program's OpenAL device could not be resumed after the interruption: \(error)")
        }
    }

    /// A line on standard error (what iOS would not say, and the program should know).
    private func report(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    private struct State {
        var current: ApplicationAudio?
        var observers: [Int: @Sendable (ApplicationAudio) -> Void] = [:]
        var nextObserver = 0
    }

    // NIO's lock, not `Mutex`: ThreadSanitizer sees its contended path on Linux (HandleTable.swift).
    private static let state = NIOLockedValueBox(State())

    /// The app's audio if it has been made.
    package static var current: ApplicationAudio? { state.withLockedValue { $0.current } }

    /// The app's audio, opening the default output (the desktop server, else OpenAL's default
    /// device) on first use.
    package static func shared() throws -> ApplicationAudio {
        if let current { return current }
        let made = try ApplicationAudio(device: Device.openOutput())
        let chosen = state.withLockedValue { state -> ApplicationAudio in
            if let current = state.current { return current }
            state.current = made
            return made
        }
        if chosen === made { announce(made) }
        return chosen
    }

    /// Makes Apple's names play on `device` from now on (a new session, scene and registry).
    @discardableResult
    package static func use(device: Device) throws -> ApplicationAudio {
        let made = try ApplicationAudio(device: device)
        state.withLockedValue { $0.current = made }
        announce(made)
        return made
    }

    /// Calls `observer` with each app audio made from now on (the first, or one `use(device:)` makes).
    @discardableResult
    package static func addObserver(_ observer: @escaping @Sendable (ApplicationAudio) -> Void) -> Int {
        state.withLockedValue { state in
            defer { state.nextObserver += 1 }
            state.observers[state.nextObserver] = observer
            return state.nextObserver
        }
    }

    private static func announce(_ audio: ApplicationAudio) {
        for observer in state.withLockedValue({ Array($0.observers.values) }) { observer(audio) }
    }
}
