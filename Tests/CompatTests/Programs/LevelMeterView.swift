// A level meter's model as apps write it: a Timer polling updateMeters() every 50 ms, the
// average power turned into 0…1 with pow(10, dB / 20). Only the import changed (the view was
// UIKit; this is what it drew from).
import SoundstageCompat

class LevelMeterModel {
    private var timer: Timer?
    private let player: AVAudioPlayer
    private(set) var levels: [Float] = []

    init(player: AVAudioPlayer) {
        self.player = player
        player.isMeteringEnabled = true
    }

    func start() {
        timer = Timer.scheduledTimer(withTimeInterval: 0.05, repeats: true) { [weak self] _ in
            self?.tick()
        }
    }

    func stop() {
        timer?.invalidate()
        timer = nil
    }

    private func tick() {
        player.updateMeters()
        let power = player.averagePower(forChannel: 0)
        let level = power < -60 ? 0 : pow(10, power / 20)
        levels.append(level)
    }
}
