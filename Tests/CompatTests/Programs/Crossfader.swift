// Two tracks crossfaded with setVolume(_:fadeDuration:), as DJ and ambience code does. Only the
// import changed.
import SoundstageCompat

final class Crossfader {
    private(set) var current: AVAudioPlayer?
    private var previous: AVAudioPlayer?

    func play(_ url: URL, fadeDuration: TimeInterval) throws {
        let next = try AVAudioPlayer(contentsOf: url)
        next.numberOfLoops = -1
        next.volume = 0
        next.play()
        next.setVolume(1, fadeDuration: fadeDuration)
        current?.setVolume(0, fadeDuration: fadeDuration)
        previous?.stop()
        previous = current
        current = next
    }

    func stopAll() {
        current?.stop()
        previous?.stop()
    }
}
