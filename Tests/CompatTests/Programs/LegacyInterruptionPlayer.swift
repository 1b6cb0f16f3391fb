// A player written before iOS 8, still common in the open: its delegate hears interruptions
// itself (audioPlayerBeginInterruption / audioPlayerEndInterruption(_:withOptions:)) and plays
// on when told it may. Only the import changed.
import SoundstageCompat

class LegacyInterruptionPlayer: NSObject, AVAudioPlayerDelegate {
    var player: AVAudioPlayer?
    private(set) var interruptions = 0
    private(set) var resumes = 0

    func start(url: URL) throws {
        player = try AVAudioPlayer(contentsOf: url)
        player?.delegate = self
        player?.numberOfLoops = -1
        player?.play()
    }

    func audioPlayerBeginInterruption(_ player: AVAudioPlayer) {
        interruptions += 1
    }

    func audioPlayerEndInterruption(_ player: AVAudioPlayer, withOptions flags: Int) {
        if flags == Int(AVAudioSession.InterruptionOptions.shouldResume.rawValue) {
            resumes += 1
            player.play()
        }
    }
}
