// A metronome: clicks scheduled on the player's device clock with play(atTime:), an accented
// first beat from a second player, as music apps keep time. Only the import changed.
import SoundstageCompat

final class Metronome {
    private var accent: [AVAudioPlayer] = []
    private var tick: [AVAudioPlayer] = []
    private(set) var scheduledTimes: [TimeInterval] = []
    var beatsPerMeasure = 4

    init(accentURL: URL, tickURL: URL) throws {
        // One player per beat of a measure: a player plays one sound at a time.
        for _ in 0..<4 {
            accent.append(try AVAudioPlayer(contentsOf: accentURL))
            tick.append(try AVAudioPlayer(contentsOf: tickURL))
        }
        accent.forEach { $0.prepareToPlay() }
        tick.forEach { $0.prepareToPlay() }
    }

    /// Schedules one measure at `bpm`, starting `leadIn` seconds from now.
    func scheduleMeasure(bpm: Double, leadIn: TimeInterval = 0.2) -> Bool {
        let interval = 60.0 / bpm
        let start = accent[0].deviceCurrentTime + leadIn
        scheduledTimes = []
        var ok = true
        for beat in 0..<beatsPerMeasure {
            let time = start + Double(beat) * interval
            let player = beat == 0 ? accent[beat % accent.count] : tick[beat % tick.count]
            ok = player.play(atTime: time) && ok
            scheduledTimes.append(time)
        }
        return ok
    }

    func stop() {
        accent.forEach { $0.stop() }
        tick.forEach { $0.stop() }
    }
}
