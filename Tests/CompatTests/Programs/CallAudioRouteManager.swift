// A voice-chat app's route manager: play-and-record with the speaker by default and Bluetooth
// allowed, the voice-chat mode, a speaker button, headphones detected from the current route,
// the built-in microphone chosen among the available inputs, and the route changes watched.
// Only the import changed.
import SoundstageCompat

final class CallAudioRouteManager {
    static let shared = CallAudioRouteManager()
    private let session = AVAudioSession.sharedInstance()
    private var observer: NSObjectProtocol?
    private let lock = NSLock()
    private var _headphonesUnplugged = 0
    private var _reasons: [AVAudioSession.RouteChangeReason] = []

    var headphonesUnplugged: Int { lock.lock(); defer { lock.unlock() }; return _headphonesUnplugged }
    var routeChangeReasons: [AVAudioSession.RouteChangeReason] { lock.lock(); defer { lock.unlock() }; return _reasons }

    func configureForCall() throws {
        try session.setCategory(.playAndRecord, options: [.defaultToSpeaker, .allowBluetooth])
        try session.setMode(.voiceChat)
        try session.setActive(true)
        observer = NotificationCenter.default.addObserver(forName: AVAudioSession.routeChangeNotification,
                                                          object: nil, queue: nil) { [weak self] notification in
            self?.handleRouteChange(notification)
        }
    }

    func endCall() {
        if let observer = observer { NotificationCenter.default.removeObserver(observer) }
        observer = nil
        try? session.setActive(false, options: .notifyOthersOnDeactivation)
    }

    var isHeadphonesConnected: Bool {
        return session.currentRoute.outputs.contains { output in
            output.portType == .headphones || output.portType == .bluetoothA2DP || output.portType == .bluetoothHFP
        }
    }

    func setSpeaker(_ on: Bool) throws {
        try session.overrideOutputAudioPort(on ? .speaker : .none)
    }

    @discardableResult
    func preferBuiltInMic() -> Bool {
        guard let inputs = session.availableInputs,
              let mic = inputs.first(where: { $0.portType == .builtInMic }) else { return false }
        do {
            try session.setPreferredInput(mic)
            return true
        } catch {
            print("CallAudioRouteManager: \(error)")
            return false
        }
    }

    private func handleRouteChange(_ notification: Notification) {
        guard let userInfo = notification.userInfo,
              let reasonValue = userInfo[AVAudioSessionRouteChangeReasonKey] as? UInt,
              let reason = AVAudioSession.RouteChangeReason(rawValue: reasonValue) else { return }
        lock.lock()
        _reasons.append(reason)
        lock.unlock()
        if reason == .oldDeviceUnavailable,
           let previousRoute = userInfo[AVAudioSessionRouteChangePreviousRouteKey] as? AVAudioSessionRouteDescription {
            for output in previousRoute.outputs where output.portType == .headphones {
                lock.lock()
                _headphonesUnplugged += 1
                lock.unlock()
                try? setSpeaker(true)
            }
        }
    }
}
