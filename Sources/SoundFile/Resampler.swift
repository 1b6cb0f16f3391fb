#if canImport(Glibc)
import Glibc
#endif

// The sample-rate converter: a streaming polyphase windowed-sinc filter (Kaiser window), whose
// length and stopband a design chooses (Audio Converter Services map their quality settings onto
// one), or linear interpolation. Used by AudioToolbox's converters and by SoundFile's iLBC writer. Output frame n is the input's value at time
// n × inRate / outRate (plus the priming offset), computed from the input frames around it in
// exact integer arithmetic when both rates are whole numbers, so a long stream never drifts.

/// The filter: its length and stopband, or linear interpolation.
package struct ResamplerDesign: Equatable, Sendable {
    /// Zero crossings of the sinc on each side, counted at the lower of the two rates.
    package let zeroCrossings: Int
    /// Stopband attenuation the Kaiser window is designed for, in dB.
    package let attenuation: Double
    /// Linear interpolation instead of a filter.
    package let linear: Bool

    package init(zeroCrossings: Int, attenuation: Double, linear: Bool) {
        self.zeroCrossings = zeroCrossings
        self.attenuation = attenuation
        self.linear = linear
    }

    /// The transition band's width, as a fraction of the lower rate: the passband ends this far
    /// below the lower rate's Nyquist frequency, where the stopband begins (Kaiser's estimate).
    package var transition: Double {
        guard !linear else { return 0.5 }
        return (attenuation - 7.95) / (2.285 * 2 * Double.pi * Double(2 * zeroCrossings - 1))
    }
}

/// Converts planes of frames from one rate to another, a block at a time.
package final class Resampler {
    /// Where output frame 0 falls: at input frame 0 (the frames before the start are taken as
    /// silence), `halfTaps` frames earlier (the filter's latency shows), or `leadingFrames` later
    /// (nil: `halfTaps`; the caller supplies that many frames from before the start).
    package enum Priming: Equatable, Sendable {
        case normal
        case none
        case pre(leadingFrames: Int?)
    }

    package let channels: Int
    package let design: ResamplerDesign
    /// Input frames a side of the output's instant that the filter reads (the priming's
    /// leading and trailing frames).
    package let halfTaps: Int
    private let taps: Int
    /// The step between output frames, in input frames: `step / denominator`.
    private let step: Int64
    private let denominator: Int64
    /// Coefficients by phase: `phases` rows of `taps`, plus one row when interpolating between rows.
    private let table: [Double]
    private let phases: Int
    /// Whether a phase falls between the table's rows (rates whose ratio has a large denominator).
    private let interpolated: Bool

    // Stream state.
    /// Input frames held: `history[c][0]` is input frame `historyStart` (negative: the silence
    /// before the stream).
    private var history: [[Double]]
    private var historyStart: Int64
    /// The next output frame's instant, in input frames × denominator.
    private var position: Int64
    /// The input's length once its end is known; the output stops at that instant.
    private var inputEnd: Int64?
    /// Input frames received so far.
    private var received: Int64 = 0
    /// Where output frame 0 falls, in input frames × denominator.
    private var startPosition: Int64 = 0

    /// - Parameters:
    ///   - priming: where output frame 0 falls (``Priming``).
    ///   - initialPhase: the fraction of an input frame added to every instant (0..<1).
    package init(inRate: Double, outRate: Double, channels: Int, design: ResamplerDesign, priming: Priming = .normal,
                 initialPhase: Double = 0) {
        self.channels = channels
        self.design = design
        // The ratio as a fraction: exact for whole-number rates.
        var numerator: Int64, denominator: Int64
        if inRate == inRate.rounded(), outRate == outRate.rounded(), inRate < 1e9, outRate < 1e9 {
            numerator = Int64(inRate)
            denominator = Int64(outRate)
        } else {
            numerator = Int64((inRate / outRate * Double(1 << 24)).rounded())
            denominator = 1 << 24
        }
        let divisor = Resampler.gcd(numerator, denominator)
        numerator /= divisor
        denominator /= divisor
        step = numerator
        self.denominator = denominator
        let ratio = min(1, outRate / inRate)
        if design.linear {
            halfTaps = 1
        } else {
            halfTaps = min(8192, Int((Double(design.zeroCrossings) / ratio).rounded(.up)))
        }
        taps = 2 * halfTaps
        // The exact phases when there are few; else 512 rows and linear interpolation between them.
        if design.linear {
            phases = 1
            interpolated = true
            table = []
        } else if denominator <= 1024 && Int(denominator) * taps <= 2_000_000 {
            phases = Int(denominator)
            interpolated = false
            table = Resampler.makeTable(phases: phases, extraRow: false, halfTaps: halfTaps, ratio: ratio, design: design)
        } else {
            phases = 512
            interpolated = true
            table = Resampler.makeTable(phases: phases, extraRow: true, halfTaps: halfTaps, ratio: ratio, design: design)
        }
        history = Array(repeating: [], count: channels)
        historyStart = 0
        position = 0
        let offsetFrames: Int64 = switch priming {
        case .none: -Int64(halfTaps)
        case .pre(let leadingFrames): Int64(leadingFrames ?? halfTaps)
        case .normal: 0
        }
        let phase = initialPhase.isFinite ? Int64((max(0, min(0.999_999, initialPhase)) * Double(denominator)).rounded(.down)) : 0
        startPosition = offsetFrames * denominator + phase
        reset()
    }

    /// Back to the start of a stream.
    package func reset() {
        for c in 0..<channels { history[c].removeAll(keepingCapacity: true) }
        // The silence before the stream: enough for the first output frame's left half.
        let before = Int64(halfTaps) + max(0, -Resampler.floorDiv(startPosition, denominator))
        historyStart = -before
        for c in 0..<channels { history[c].append(contentsOf: repeatElement(0, count: Int(before))) }
        position = startPosition
        inputEnd = nil
        received = 0
    }

    /// Takes `frames` frames of input (from `queue`'s front, which is consumed).
    package func append(_ queue: inout FrameQueue, frames: Int) {
        guard frames > 0 else { return }
        for c in 0..<channels {
            queue.withFront(channel: c) { history[c].append(contentsOf: UnsafeBufferPointer(start: $0, count: frames)) }
        }
        queue.consume(frames)
        received += Int64(frames)
    }

    /// The input has ended: what follows it is silence, and the output stops at its end.
    package func endInput() {
        guard inputEnd == nil else { return }
        inputEnd = received
        for c in 0..<channels { history[c].append(contentsOf: repeatElement(0, count: taps + 1)) }
    }

    /// Whether every output frame of a stream whose input has ended has been made.
    package var isFinished: Bool {
        guard let inputEnd else { return false }
        return position >= inputEnd * denominator
    }

    /// Input frames still to be appended before `frames` more output frames can be made.
    package func inputNeeded(forOutput frames: Int) -> Int {
        guard inputEnd == nil, frames > 0 else { return 0 }
        let last = position + Int64(frames - 1) * step
        let lastInput = Resampler.floorDiv(last, denominator) + Int64(halfTaps)
        let have = historyStart + Int64(history.first?.count ?? 0)
        return Int(max(0, lastInput + 1 - have))
    }

    /// Makes up to `maximum` output frames from the input held, appending them to `out`.
    /// Returns how many were made.
    @discardableResult
    package func produce(maximum: Int, into out: inout FrameQueue) -> Int {
        guard maximum > 0 else { return 0 }
        let have = historyStart + Int64(history.first?.count ?? 0)
        // How many output frames the input held allows (and the stream's end permits).
        var count = 0
        var probe = position
        while count < maximum {
            if let inputEnd, probe >= inputEnd * denominator { break }
            let base = Resampler.floorDiv(probe, denominator) - Int64(halfTaps) + 1
            if base + Int64(taps) > have { break }
            count += 1
            probe += step
        }
        guard count > 0 else { return 0 }
        let startPosition = position
        out.append(frames: count) { channel, target in
            history[channel].withUnsafeBufferPointer { input in
                table.withUnsafeBufferPointer { coefficients in
                    var at = startPosition
                    for n in 0..<count {
                        let whole = Resampler.floorDiv(at, denominator)
                        let fraction = at - whole * denominator
                        let base = Int(whole - Int64(halfTaps) + 1 - historyStart)
                        target[n] = value(input.baseAddress! + base, fraction: fraction, coefficients.baseAddress)
                        at += step
                    }
                }
            }
        }
        position += Int64(count) * step
        // Drop what no later output frame reads.
        let keepFrom = Resampler.floorDiv(position, denominator) - Int64(halfTaps) + 1
        let drop = Int(keepFrom - historyStart)
        if drop > 4096 {
            for c in 0..<channels { history[c].removeSubrange(0..<drop) }
            historyStart += Int64(drop)
        }
        return count
    }

    /// The filtered value at `fraction / denominator` past input frame `window[halfTaps - 1]`.
    @inline(__always)
    private func value(_ window: UnsafePointer<Double>, fraction: Int64, _ coefficients: UnsafePointer<Double>?) -> Double {
        if design.linear {
            let t = Double(fraction) / Double(denominator)
            return window[0] + (window[1] - window[0]) * t
        }
        let coefficients = coefficients!
        var sum = 0.0
        if !interpolated {
            let row = coefficients + Int(fraction) * taps
            for k in 0..<taps { sum += window[k] * row[k] }
            return sum
        }
        let exact = Double(fraction) / Double(denominator) * Double(phases)
        let index = min(phases - 1, Int(exact))
        let t = exact - Double(index)
        let a = coefficients + index * taps, b = a + taps
        var sumB = 0.0
        for k in 0..<taps {
            sum += window[k] * a[k]
            sumB += window[k] * b[k]
        }
        return sum + (sumB - sum) * t
    }

    /// The coefficient rows: row `p` holds the taps for an instant `p / phases` of a frame past
    /// the window's centre, each row normalised to a gain of exactly 1 at 0 Hz.
    private static func makeTable(phases: Int, extraRow: Bool, halfTaps: Int, ratio: Double, design: ResamplerDesign) -> [Double] {
        let taps = 2 * halfTaps
        let rows = phases + (extraRow ? 1 : 0)
        var table = [Double](repeating: 0, count: rows * taps)
        // Cut-off midway through the transition band, which ends at the lower rate's Nyquist.
        let cutoff = ratio * (0.5 - design.transition / 2)   // cycles per input frame
        let beta: Double = design.attenuation > 50 ? 0.1102 * (design.attenuation - 8.7)
            : design.attenuation >= 21 ? 0.5842 * pow(design.attenuation - 21, 0.4) + 0.07886 * (design.attenuation - 21) : 0
        let i0beta = besselI0(beta)
        let half = Double(halfTaps)
        for p in 0..<rows {
            let phase = Double(p) / Double(phases)
            var sum = 0.0
            for k in 0..<taps {
                // Tap k reads input frame (centre − halfTaps + 1 + k); its distance from the instant:
                let x = Double(k - halfTaps + 1) - phase
                let r = x / half
                let window = abs(r) >= 1 ? 0 : besselI0(beta * (1 - r * r).squareRoot()) / i0beta
                let argument = 2 * cutoff * x
                let sinc = argument == 0 ? 1 : sin(Double.pi * argument) / (Double.pi * argument)
                let value = 2 * cutoff * sinc * window
                table[p * taps + k] = value
                sum += value
            }
            if sum != 0 { for k in 0..<taps { table[p * taps + k] /= sum } }
        }
        return table
    }

    /// The modified Bessel function of the first kind, order 0 (its power series).
    private static func besselI0(_ x: Double) -> Double {
        var sum = 1.0, term = 1.0
        let quarter = x * x / 4
        for k in 1..<64 {
            term *= quarter / Double(k * k)
            sum += term
            if term < sum * 1e-17 { break }
        }
        return sum
    }

    package static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    private static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        var (a, b) = (abs(a), abs(b))
        while b != 0 { (a, b) = (b, a % b) }
        return max(a, 1)
    }
}
