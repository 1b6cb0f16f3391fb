import Foundation
import SoundFile

/// Test signals and measurements on rendered audio.
public enum Signals {
    public static let rate = 48_000

    /// A mono sine.
    public static func sine(_ frequency: Double, seconds: Double, amplitude: Float = 0.5, rate: Int = rate) -> AudioBuffer {
        let n = Int(seconds * Double(rate))
        let samples = (0..<n).map { Float(sin(2 * Double.pi * frequency * Double($0) / Double(rate))) * amplitude }
        return AudioBuffer(samples: samples, channels: 1, sampleRate: rate)
    }

    /// A mono sine whose first half is `first` Hz and second half `second` Hz.
    public static func twoTone(_ first: Double, _ second: Double, seconds: Double) -> AudioBuffer {
        let a = sine(first, seconds: seconds / 2), b = sine(second, seconds: seconds / 2)
        return AudioBuffer(samples: a.samples + b.samples, channels: 1, sampleRate: rate)
    }

    public static func rms(_ samples: some Collection<Float>) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    public static func rms(_ buffer: AudioBuffer, channel: Int) -> Double { rms(buffer.channel(channel)) }

    public static func peak(_ buffer: AudioBuffer) -> Float { buffer.samples.map(abs).max() ?? 0 }

    /// The median of ``frequency(_:rate:)`` over `windows` equal windows of `samples`. A dropout
    /// (silence a loaded machine left in a recording of a sink) spoils only the windows it falls
    /// in, where it would pull the whole span's count of crossings down.
    public static func medianFrequency(_ samples: [Float], rate: Int = rate, windows: Int = 8) -> Double {
        let length = samples.count / max(1, windows)
        guard length > 1 else { return frequency(samples, rate: rate) }
        let estimates = (0..<windows).map { frequency(Array(samples[($0 * length)..<(($0 + 1) * length)]), rate: rate) }.sorted()
        return estimates.count % 2 == 1 ? estimates[estimates.count / 2]
                                        : (estimates[estimates.count / 2 - 1] + estimates[estimates.count / 2]) / 2
    }

    /// Frequency from upward zero crossings, interpolated between samples.
    public static func frequency(_ samples: [Float], rate: Int = rate) -> Double {
        var crossings: [Double] = []
        for i in 1..<samples.count where samples[i - 1] < 0 && samples[i] >= 0 {
            let fraction = Double(-samples[i - 1]) / Double(samples[i] - samples[i - 1])
            crossings.append(Double(i - 1) + fraction)
        }
        guard crossings.count >= 2 else { return 0 }
        return Double(crossings.count - 1) * Double(rate) / (crossings.last! - crossings.first!)
    }

    /// The amplitude of the `frequency` Hz component of mono `samples` (the magnitude of one DFT
    /// bin, Goertzel's way, times 2/N): about A for a sine of amplitude A at that frequency whose
    /// period fits the window a few times, about 0 where that tone is absent, whatever else sounds.
    public static func toneLevel(_ samples: some Collection<Float>, frequency: Double, rate: Int = rate) -> Double {
        guard !samples.isEmpty else { return 0 }
        let w = 2 * Double.pi * frequency / Double(rate), coefficient = 2 * cos(w)
        var previous = 0.0, beforePrevious = 0.0
        for sample in samples {
            let current = Double(sample) + coefficient * previous - beforePrevious
            beforePrevious = previous
            previous = current
        }
        let power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
        return 2 * max(0, power).squareRoot() / Double(samples.count)
    }

    public static func frequency(_ buffer: AudioBuffer, channel: Int = 0) -> Double {
        frequency(buffer.channel(channel), rate: buffer.sampleRate)
    }

    /// Frames of interleaved stereo `samples` in which either channel sounds (|sample| above
    /// `threshold`), counting the low samples around zero crossings (within ±`window` frames of a
    /// loud one). A cut tail shortens it; a gap (an underrun's silence) inside a sound does not
    /// lengthen it, as a first-to-last span would.
    public static func soundingFrames(_ samples: [Float], threshold: Float = 0.02, window: Int = 24) -> Int {
        let frames = samples.count / 2
        var loud = [Bool](repeating: false, count: frames)
        for frame in 0..<frames where abs(samples[2 * frame]) > threshold || abs(samples[2 * frame + 1]) > threshold {
            loud[frame] = true
        }
        var nextLoud = [Int](repeating: Int.max, count: frames + 1)
        for frame in stride(from: frames - 1, through: 0, by: -1) { nextLoud[frame] = loud[frame] ? frame : nextLoud[frame + 1] }
        var count = 0, lastLoud = -1_000_000
        for frame in 0..<frames {
            if loud[frame] { lastLoud = frame }
            if loud[frame] || (frame - lastLoud <= window && nextLoud[frame] - frame <= window) { count += 1 }
        }
        return count
    }

    /// ``soundingFrames(_:threshold:window:)`` in seconds at `rate`.
    public static func soundingSeconds(_ samples: [Float], rate: Int = rate) -> Double {
        Double(soundingFrames(samples)) / Double(rate)
    }

    /// Sounds separated by more than `gap` seconds of silence: (first, last) frame of each.
    public static func separateSounds(_ samples: [Float], gap: Double = 0.1, threshold: Float = 0.01, rate: Int = rate) -> [(Int, Int)] {
        var runs: [(Int, Int)] = []
        var start: Int?, last = Int.min / 2
        let gapFrames = Int(gap * Double(rate))
        for frame in 0..<(samples.count / 2) where abs(samples[2 * frame]) > threshold || abs(samples[2 * frame + 1]) > threshold {
            if frame - last > gapFrames { if let start { runs.append((start, last)) }; start = frame }
            last = frame
        }
        if let start { runs.append((start, last)) }
        return runs
    }

    /// The dropouts inside a sine of `frequency` (channel 0 of interleaved stereo `samples`,
    /// frames `first...last`): places where it stops following a sine — silence cut into it, or
    /// frames missing so that its phase jumps. A sine obeys s[n] = 2 cos(ω) s[n-1] - s[n-2] to
    /// rounding; a break of that recurrence by more than `tolerance` is a dropout, and breaks
    /// within `merge` frames of each other are one (a gap's start and end). A server that missed
    /// a cycle (PipeWire beside `stress-ng` lost 256-frame quanta of what a sink played) makes
    /// one; a sound cut or started late by the client does not: its sine runs on unbroken, only
    /// shorter. So a test may allow what the server dropped and still catch what was lost
    /// before it.
    public static func dropouts(_ samples: [Float], frequency: Double, first: Int, last: Int,
                                tolerance: Float = 0.002, merge: Int = 2_048, rate: Int = rate) -> Int {
        let coefficient = Float(2 * cos(2 * Double.pi * frequency / Double(rate)))
        var count = 0, lastBreak = Int.min / 2
        let frames = samples.count / 2
        guard first >= 0, last < frames, last - first > 4 else { return 0 }
        for frame in (first + 2)...last {
            let predicted = coefficient * samples[2 * (frame - 1)] - samples[2 * (frame - 2)]
            guard abs(samples[2 * frame] - predicted) > tolerance else { continue }
            if frame - lastBreak > merge { count += 1 }
            lastBreak = frame
        }
        return count
    }

    /// Where two runs of samples first differ, in words; nil when they are identical. For
    /// `#expect(Signals.difference(a, b) == nil)`: a failed `a == b` on sample arrays prints a
    /// diff of every sample (megabytes, and tens of seconds to compute).
    public static func difference(_ a: [Float], _ b: [Float]) -> String? {
        if let index = (0..<min(a.count, b.count)).first(where: { a[$0] != b[$0] }) {
            return "\(a.count) and \(b.count) samples; they first differ at sample \(index): \(a[index]) against \(b[index])"
        }
        return a.count == b.count ? nil : "\(a.count) and \(b.count) samples, the same up to the shorter one's end"
    }
}
