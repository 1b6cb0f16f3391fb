#if canImport(Glibc)
import Glibc
#endif

/// LPC analysis of RFC 3951 §3.2.1: a windowed autocorrelation, a lag window, the
/// Levinson-Durbin recursion and a bandwidth expansion, once (20 ms) or twice (30 ms) a frame.
enum ILBCLPCAnalysis {
    /// Samples one analysis looks at.
    static let windowLength = 240
    /// Samples of the previous frame kept ahead of a 30 ms frame.
    static let lookback = 60

    /// A symmetric (Hann) window centred on the frame's second sub-block: a 30 ms frame's
    /// first analysis.
    static let centredWindow: [Double] = (0..<windowLength).map { n in
        let s = sin(Double.pi * Double(n + 1) / Double(windowLength + 1))
        return s * s
    }

    /// A window that rises over 220 samples and falls over the last 20: the analysis that
    /// ends a frame, weighted towards its end.
    static let endWindow: [Double] = (0..<windowLength).map { n in
        let rise = 220
        if n < rise {
            let s = sin(Double.pi / 2 * Double(n + 1) / Double(rise))
            return s * s
        }
        return cos(Double.pi / 2 * Double(n - rise + 1) / Double(windowLength - rise + 1))
    }

    /// Lag window of a 60 Hz Gaussian, and a white-noise floor of 40 dB below the signal.
    static let lagWindow: [Double] = (0...ILBCTables.order).map { k in
        if k == 0 { return 1.0001 }
        let w = 2 * Double.pi * 60 / 8000 * Double(k)
        return exp(-0.5 * w * w)
    }

    /// The bandwidth-expanded LPC polynomial `[1, a1, ..., a10]` of `samples` (240 of them)
    /// under `window`; `[1, 0, ..., 0]` for silence.
    static func polynomial(_ samples: ArraySlice<Double>, window: [Double]) -> [Double] {
        let order = ILBCTables.order
        var x = [Double](repeating: 0, count: windowLength)
        let base = samples.startIndex
        for n in 0..<min(windowLength, samples.count) { x[n] = samples[base + n] * window[n] }
        var r = [Double](repeating: 0, count: order + 1)
        for k in 0...order {
            var sum = 0.0
            for n in k..<windowLength { sum += x[n] * x[n - k] }
            r[k] = sum * lagWindow[k]
        }
        return ILBCFilters.chirp(levinson(r), ILBCTables.synthesisChirp)
    }

    /// The Levinson-Durbin recursion; a flat filter when the autocorrelation is degenerate.
    static func levinson(_ r: [Double]) -> [Double] {
        let order = r.count - 1
        var a = [Double](repeating: 0, count: order + 1)
        a[0] = 1
        guard r[0] > 1e-9, r[0].isFinite else { return a }
        var error = r[0]
        for i in 1...order {
            var acc = r[i]
            for j in 1..<i { acc += a[j] * r[i - j] }
            let k = -acc / error
            guard abs(k) < 1 else { break }
            var next = a
            for j in 1..<i { next[j] = a[j] + k * a[i - j] }
            next[i] = k
            a = next
            error *= 1 - k * k
            if error <= 0 { break }
        }
        return a
    }
}
