// Written as an iOS developer writes it (the seeds' "set the ambient category, start the music
// with AVAudioPlayer and loop it"), with one change: `import AVFoundation` became
// `import SoundstageCompat`.
import Foundation
import SoundstageCompat

/// The game's music: ambient (it mixes with the player's own music), looping, at 80 %.
final class GameMusic: NSObject, AVAudioPlayerDelegate {
    var player: AVAudioPlayer?
    private(set) var finished = 0

    func start(musicURL: URL) throws {
        let session = AVAudioSession.sharedInstance()
        try session.setCategory(.ambient, mode: .default, options: [.mixWithOthers])
        try session.setActive(true)

        let player = try AVAudioPlayer(contentsOf: musicURL)
        player.delegate = self
        player.numberOfLoops = -1
        player.volume = 0.8
        player.prepareToPlay()
        player.play()
        self.player = player
    }

    func playOnce(effectURL: URL) throws -> AVAudioPlayer {
        let effect = try AVAudioPlayer(contentsOf: effectURL)
        effect.delegate = self
        effect.play()
        return effect
    }

    func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool) {
        if flag { finished += 1 }
    }
}
