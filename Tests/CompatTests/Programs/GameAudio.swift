// A game's audio: background music that loops, effects, and a music volume setting kept in
// UserDefaults (read at start, faded to when changed). Only the import changed.
import SoundstageCompat

final class GameAudio {
    static let musicVolumeKey = "GameAudio.musicVolume"
    private var backgroundMusic: AVAudioPlayer?
    private var effects: [AVAudioPlayer] = []

    var musicVolume: Float {
        get { return UserDefaults.standard.object(forKey: GameAudio.musicVolumeKey) as? Float ?? 0.5 }
        set {
            UserDefaults.standard.set(newValue, forKey: GameAudio.musicVolumeKey)
            backgroundMusic?.setVolume(newValue, fadeDuration: 0.3)
        }
    }

    func playBackgroundMusic(_ url: URL) {
        do {
            try AVAudioSession.sharedInstance().setCategory(.ambient)
            try AVAudioSession.sharedInstance().setActive(true)
            backgroundMusic = try AVAudioPlayer(contentsOf: url)
            backgroundMusic?.numberOfLoops = -1
            backgroundMusic?.volume = musicVolume
            backgroundMusic?.play()
        } catch {
            print("GameAudio: could not play the music: \(error)")
        }
    }

    func stopBackgroundMusic() {
        backgroundMusic?.stop()
        backgroundMusic = nil
    }

    func playEffect(_ url: URL, volume: Float = 1.0) {
        effects.removeAll { !$0.isPlaying }
        guard let effect = try? AVAudioPlayer(contentsOf: url) else { return }
        effect.volume = volume
        effect.play()
        effects.append(effect)
    }

    var isMusicPlaying: Bool { return backgroundMusic?.isPlaying ?? false }
}
