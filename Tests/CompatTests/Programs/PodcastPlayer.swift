// A podcast player: a speed button that cycles 1×, 1.5×, 2× (enableRate, the pitch kept as on
// iOS), skip forward 30 s and back 15 s, and the progress shown. Only the import changed.
import SoundstageCompat

class PodcastPlayer: NSObject, AVAudioPlayerDelegate {
    private var audioPlayer: AVAudioPlayer?
    private let speeds: [Float] = [1.0, 1.5, 2.0]
    private var speedIndex = 0
    private(set) var didFinish = false

    var currentSpeed: Float { return speeds[speedIndex] }

    func load(url: URL) throws {
        try AVAudioSession.sharedInstance().setCategory(.playback, mode: .spokenAudio, options: [])
        try AVAudioSession.sharedInstance().setActive(true)
        audioPlayer = try AVAudioPlayer(contentsOf: url)
        audioPlayer?.delegate = self
        audioPlayer?.enableRate = true
        audioPlayer?.prepareToPlay()
    }

    func play() { audioPlayer?.play() }
    func pause() { audioPlayer?.pause() }

    func cycleSpeed() {
        speedIndex = (speedIndex + 1) % speeds.count
        audioPlayer?.rate = speeds[speedIndex]
    }

    func skipForward() {
        guard let player = audioPlayer else { return }
        player.currentTime = min(player.currentTime + 30, player.duration)
    }

    func skipBackward() {
        guard let player = audioPlayer else { return }
        player.currentTime = max(player.currentTime - 15, 0)
    }

    var progress: Double {
        guard let player = audioPlayer, player.duration > 0 else { return 0 }
        return player.currentTime / player.duration
    }

    var currentTime: TimeInterval { return audioPlayer?.currentTime ?? 0 }

    func formattedTime() -> String {
        let time = Int(audioPlayer?.currentTime ?? 0)
        return String(format: "%02d:%02d", time / 60, time % 60)
    }

    func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool) {
        didFinish = flag
    }
}
