// A music player with a playlist: the next track when one finishes, paused by an interruption
// and resumed when it may, paused when the headphones go. Only the import changed.
import SoundstageCompat

class PlaylistPlayer: NSObject, AVAudioPlayerDelegate {
    private(set) var tracks: [URL] = []
    private(set) var currentIndex = 0
    private(set) var player: AVAudioPlayer?
    private(set) var playedTracks: [Int] = []
    private(set) var pausedByInterruption = false
    private(set) var pausedByRouteChange = false
    private var observers: [NSObjectProtocol] = []

    override init() {
        super.init()
        observers.append(NotificationCenter.default.addObserver(forName: AVAudioSession.interruptionNotification, object: nil, queue: nil) { [weak self] note in
            self?.handleInterruption(note)
        })
        observers.append(NotificationCenter.default.addObserver(forName: AVAudioSession.routeChangeNotification, object: nil, queue: nil) { [weak self] note in
            self?.handleRouteChange(note)
        })
    }

    deinit {
        observers.forEach { NotificationCenter.default.removeObserver($0) }
    }

    func load(_ urls: [URL]) throws {
        tracks = urls
        try AVAudioSession.sharedInstance().setCategory(.playback, mode: .default)
        try AVAudioSession.sharedInstance().setActive(true)
    }

    func play(trackAt index: Int) {
        guard tracks.indices.contains(index) else { return }
        do {
            player = try AVAudioPlayer(contentsOf: tracks[index])
            player?.delegate = self
            player?.prepareToPlay()
            player?.play()
            currentIndex = index
            playedTracks.append(index)
        } catch {
            print("PlaylistPlayer: \(error.localizedDescription)")
        }
    }

    func next() { play(trackAt: currentIndex + 1) }

    var isPlaying: Bool { return player?.isPlaying ?? false }

    func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool) {
        if flag { next() }
    }

    private func handleInterruption(_ notification: Notification) {
        guard let info = notification.userInfo,
              let typeValue = info[AVAudioSessionInterruptionTypeKey] as? UInt,
              let type = AVAudioSession.InterruptionType(rawValue: typeValue) else { return }
        if type == .began {
            player?.pause()
            pausedByInterruption = true
        } else if type == .ended {
            if let optionsValue = info[AVAudioSessionInterruptionOptionKey] as? UInt {
                let options = AVAudioSession.InterruptionOptions(rawValue: optionsValue)
                if options.contains(.shouldResume) && pausedByInterruption {
                    player?.play()
                    pausedByInterruption = false
                }
            }
        }
    }

    private func handleRouteChange(_ notification: Notification) {
        guard let info = notification.userInfo,
              let reasonValue = info[AVAudioSessionRouteChangeReasonKey] as? UInt,
              let reason = AVAudioSession.RouteChangeReason(rawValue: reasonValue) else { return }
        switch reason {
        case .oldDeviceUnavailable:
            player?.pause()
            pausedByRouteChange = true
        default:
            break
        }
    }
}
