// A pool of effect players made from Data (an asset catalog's NSDataAsset gives Data too): a
// free player is picked for each shot so shots overlap, each panned to where it comes from.
// Only the import changed.
import SoundstageCompat

final class SoundEffectPool {
    private var pool: [AVAudioPlayer] = []

    init(fileURL: URL, size: Int = 4) throws {
        let data = try Data(contentsOf: fileURL)
        for _ in 0..<size {
            let player = try AVAudioPlayer(data: data, fileTypeHint: AVFileType.wav.rawValue)
            player.prepareToPlay()
            pool.append(player)
        }
    }

    @discardableResult
    func play(pan: Float = 0, volume: Float = 1) -> Bool {
        guard let player = pool.first(where: { !$0.isPlaying }) else { return false }
        player.pan = pan
        player.volume = volume
        player.currentTime = 0
        return player.play()
    }

    var playingCount: Int { return pool.filter { $0.isPlaying }.count }
}
