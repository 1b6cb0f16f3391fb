import Foundation
import SoundFile

/// What the Core Audio books' OpenAL orbit (Tests/C/openal_orbit.c and its Swift twin,
/// `compat-openal-orbit`) printed and what OpenAL Soft's wave writer recorded of it, checked: the
/// moves a tenth of a second apart (the audio system on the main run loop keeps each
/// `CFRunLoopRunInMode` waiting), the 440 Hz tone for the run's length, and the sound on the side
/// the program put the source, within a window past the mixer's latency of each move.
public struct OrbitHearing {
    /// The moves the program printed: seconds after `alSourcePlay`, and x.
    public let moves: [(at: Double, x: Double)]
    /// What is wrong, in words (empty: all heard as the program said).
    public private(set) var problems: [String] = []
    /// Moves checked on the right and on the left.
    public private(set) var sides = (right: 0, left: 0)

    /// The wave writer's settings for the orbit: stereo 16-bit at 44.1 kHz, no HRTF, into
    /// `played`. Write them to a file and point `ALSOFT_CONF` at it, with `ALSOFT_DRIVERS=wave`.
    public static func waveWriterConfiguration(played: String) -> String {
        "[general]\nchannels = stereo\nfrequency = 44100\nsample-type = int16\nhrtf = false\n[wave]\nfile = \(played)\n"
    }

    /// One second of a 440 Hz tone at 0.4, stereo at 44.1 kHz: the orbit's input.
    public static let tone = AudioBuffer(samples: (0..<44_100).flatMap { i in
        [Float](repeating: Float(0.4 * sin(2 * Double.pi * 440 * Double(i) / 44_100)), count: 2)
    }, channels: 2, sampleRate: 44_100)

    /// Checks a run of `seconds` from what the program printed and the wave writer's file.
    public init(output: String, played: String, seconds: Double) throws {
        moves = output.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard words.count == 6, words[0] == "at", let at = Double(words[1]), let x = Double(words[3]) else { return nil }
            return (at, x)
        }
        let expected = Int(seconds * 10)
        if !output.contains("loaded 44100 frames at 44100 Hz") { problems.append("the file did not load whole: \(output)") }
        if moves.count < expected - 5 || moves.count > expected + 5 {
            problems.append("\(moves.count) moves in \(seconds) s, one every 0.1 s asked")
        }
        let heard = try SoundFile.decode(path: played)
        guard heard.channels == 2, heard.sampleRate == 44_100 else {
            problems.append("the wave writer wrote \(heard.channels) channels at \(heard.sampleRate) Hz")
            return
        }
        let left = heard.channel(0), right = heard.channel(1)
        guard let onset = (0..<left.count).first(where: { abs(left[$0]) > 0.01 || abs(right[$0]) > 0.01 }) else {
            problems.append("nothing played")
            return
        }
        let sounding = Double(left.count - onset) / 44_100
        if sounding < seconds - 0.1 || sounding > seconds + 0.5 { problems.append("the tone sounded \(sounding) s of the \(seconds) s run") }
        // Both sides carry the one mono tone, each at its gain: their sum is the tone.
        let frequency = Signals.medianFrequency(zip(left[onset...], right[onset...]).map { $0 + $1 }, rate: 44_100)
        if abs(frequency - 440) >= 5 { problems.append("heard \(frequency) Hz, not the 440 Hz tone") }
        // Each move holds until the next, 0.1 s later: its middle 60 ms, past the mixer's
        // latency, is on the side the program put the source.
        for move in moves where abs(move.x) > 2 {
            let start = onset + Int((move.at + 0.02) * 44_100), end = start + 2_646
            guard end < left.count else { continue }
            let l = Signals.rms(left[start..<end]), r = Signals.rms(right[start..<end])
            if move.x > 0 {
                sides.right += 1
                if r <= 1.5 * l { problems.append("at \(move.at) s the source was at x = \(move.x), heard left \(l), right \(r)") }
            } else {
                sides.left += 1
                if l <= 1.5 * r { problems.append("at \(move.at) s the source was at x = \(move.x), heard left \(l), right \(r)") }
            }
        }
        if sides.right < 5 || sides.left < 5 { problems.append("moves checked on the right \(sides.right), on the left \(sides.left)") }
    }
}
