// The seeds' route-change handler: when the headphones go (the old device is unavailable), the
// music pauses, as iOS apps are expected to do. Only the import changed.
import Foundation
import SoundstageCompat

/// Pauses the music when the output it played on goes away. Route changes arrive on a thread
/// of the audio system (on iOS too), so what it counts is behind a lock.
final class HeadphoneWatcher: @unchecked Sendable {  // (Swift 6 asks this on iOS too: the observer closure is @Sendable)
    let music: AVAudioPlayer
    private let lock = NSLock()
    private var paused = 0
    private var seen: [AVAudioSession.RouteChangeReason] = []
    private var token: NSObjectProtocol?

    var pausedForRoute: Int { lock.withLock { paused } }
    var reasons: [AVAudioSession.RouteChangeReason] { lock.withLock { seen } }

    init(music: AVAudioPlayer) {
        self.music = music
        token = NotificationCenter.default.addObserver(forName: AVAudioSession.routeChangeNotification, object: nil, queue: nil) {
            [weak self] note in self?.routeChanged(note)
        }
    }

    deinit { if let token { NotificationCenter.default.removeObserver(token) } }

    private func routeChanged(_ notification: Notification) {
        guard let value = notification.userInfo?[AVAudioSessionRouteChangeReasonKey] as? UInt,
              let reason = AVAudioSession.RouteChangeReason(rawValue: value) else { return }
        lock.withLock { seen.append(reason) }
        switch reason {
        case .oldDeviceUnavailable:
            if let previous = notification.userInfo?[AVAudioSessionRouteChangePreviousRouteKey] as? AVAudioSessionRouteDescription,
               !previous.outputs.isEmpty {
                music.pause()
                lock.withLock { paused += 1 }
            }
        default:
            break
        }
    }
}
