// A singleton sound manager, the commonest shape of iOS game audio code: a dictionary of
// preloaded players found in the app bundle, a file type hint, rewind and replay, and a mute
// switch kept in UserDefaults. Only the import changed (`import AVFoundation` →
// `import SoundstageCompat`); the bundle is a parameter, as testable iOS code has it.
import SoundstageCompat

class SoundManager {
    static let shared = SoundManager()

    private var players = [String: AVAudioPlayer]()
    var bundle: Bundle = .main
    static let mutedKey = "SoundManager.isMuted"

    var isMuted: Bool {
        get { return UserDefaults.standard.bool(forKey: SoundManager.mutedKey) }
        set {
            UserDefaults.standard.set(newValue, forKey: SoundManager.mutedKey)
            for player in players.values {
                player.volume = newValue ? 0.0 : 1.0
            }
        }
    }

    func preloadSounds(_ names: [String], ofType type: String = "wav") {
        for name in names {
            guard let url = bundle.url(forResource: name, withExtension: type) else {
                print("SoundManager: could not find \(name).\(type)")
                continue
            }
            do {
                let player = try AVAudioPlayer(contentsOf: url, fileTypeHint: AVFileType.wav.rawValue)
                player.prepareToPlay()
                players[name] = player
            } catch let error {
                print("SoundManager: could not load \(name): \(error.localizedDescription)")
            }
        }
    }

    var loadedSounds: [String] { return players.keys.sorted() }

    func playSound(_ name: String) {
        guard let player = players[name] else { return }
        if player.isPlaying {
            player.stop()
        }
        player.currentTime = 0
        player.volume = isMuted ? 0.0 : 1.0
        player.play()
    }

    func stopAll() {
        players.values.forEach { $0.stop() }
    }

    func unloadAll() {
        stopAll()
        players.removeAll()
    }
}
