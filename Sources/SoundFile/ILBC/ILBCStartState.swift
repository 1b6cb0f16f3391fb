#if canImport(Glibc)
import Glibc
#endif

/// The start state (RFC 3951 §3.5): the 57 or 58 residual samples of the frame's
/// highest-energy sub-block pair that are coded without prediction — an all-pass-filtered,
/// scaled copy quantized sample by sample to 3 bits under noise shaping — from which the
/// adaptive codebook then codes the rest of the frame forwards and backwards.
enum ILBCStartState {
    /// Where the state lies: the pair of sub-blocks `start - 1` and `start`, and whether the
    /// state takes the pair's first samples (the 22/23 after it are then coded forwards) or
    /// its last (the ones before it coded backwards).
    struct Position {
        /// The second sub-block of the pair, 1 ... subblocks − 1.
        var start: Int
        /// The state starts the pair.
        var first: Bool
    }

    /// The coded state.
    struct Coded {
        /// Index of the largest magnitude's log10 in ``ILBCTables/stateScaleLog10``.
        var scale: Int
        /// 3-bit indices of the samples.
        var samples: [Int]
    }

    /// Per-pair weights favouring pairs near the frame's middle, for 20 and 30 ms frames.
    private static let pairWeights20 = [0.9, 1.0, 0.9]
    private static let pairWeights30 = [0.8, 0.9, 1.0, 0.9, 0.8]

    /// Picks the sub-block pair whose residual has the most (weighted) energy, and which end
    /// of it the state covers.
    static func position(residual: [Double], mode: ILBCMode) -> Position {
        let l = ILBCTables.subblock
        let weights = mode == .ms20 ? pairWeights20 : pairWeights30
        var best = 1, bestEnergy = -1.0
        for start in 1..<mode.subblocks {
            var energy = 0.0
            for n in 0..<(2 * l) {
                // The pair's first and last five samples count less: a state should not
                // hinge on an onset or a decay at its edge.
                let edge = min(n, 2 * l - 1 - n)
                let w = edge < 5 ? Double(edge + 1) / 6 : 1
                let v = residual[(start - 1) * l + n]
                energy += w * v * v
            }
            energy *= weights[start - 1]
            if energy > bestEnergy { bestEnergy = energy; best = start }
        }
        let pair = (best - 1) * l, len = mode.stateLength
        var head = 0.0, tail = 0.0
        for n in 0..<len {
            head += residual[pair + n] * residual[pair + n]
            tail += residual[pair + 2 * l - len + n] * residual[pair + 2 * l - len + n]
        }
        return Position(start: best, first: head >= tail)
    }

    /// Codes `target` (the state's residual samples). `synthesis` is A(z) of the pair's first
    /// sub-block; `weighting` holds the weighting filters of the pair's two sub-blocks, the
    /// second taking over at sample `switchAt`.
    static func encode(_ target: [Double], synthesis: [Double], weighting: [[Double]], switchAt: Int) -> Coded {
        let len = target.count
        // Circular convolution with the all-pass filter Ã(z)/A(z) (Ã: A reversed).
        let filtered = allPass(target + [Double](repeating: 0, count: len), synthesis)
        var x = (0..<len).map { filtered[$0] + filtered[$0 + len] }

        var peak = x.reduce(0) { max($0, abs($1)) }
        if !(peak >= 10) { peak = 10 }
        let scale = ILBCTables.nearest(log10(peak), in: ILBCTables.stateScaleLog10)
        let factor = 4.5 / pow(10, ILBCTables.stateScaleLog10[scale])
        for i in x.indices { x[i] *= factor }

        // Noise feedback: each sample is quantized so that the error, seen through the
        // weighting filter 1/Aw(z), stays small.
        var weightedError = [Double](repeating: 0, count: len)
        var indices = [Int](repeating: 0, count: len)
        for n in 0..<len {
            let aw = n < switchAt ? weighting[0] : weighting[1]
            var feedback = 0.0
            for k in 1..<aw.count where k <= n { feedback += aw[k] * weightedError[n - k] }
            let wanted = x[n] - feedback
            let index = ILBCTables.nearest(wanted, in: ILBCTables.stateLevels)
            indices[n] = index
            weightedError[n] = wanted - ILBCTables.stateLevels[index]
        }
        return Coded(scale: scale, samples: indices)
    }

    /// The residual samples a decoder makes of `coded`: the inverse of ``encode``.
    static func decode(_ coded: Coded, synthesis: [Double]) -> [Double] {
        let len = coded.samples.count
        let amplitude = pow(10, ILBCTables.stateScaleLog10[coded.scale]) / 4.5
        var reversed = [Double](repeating: 0, count: 2 * len)
        for k in 0..<len { reversed[k] = amplitude * ILBCTables.stateLevels[coded.samples[len - 1 - k]] }
        let y = allPass(reversed, synthesis)
        return (0..<len).map { y[len - 1 - $0] + y[2 * len - 1 - $0] }
    }

    private static func allPass(_ x: [Double], _ a: [Double]) -> [Double] {
        ILBCFilters.zeroPole(x, numerator: Array(a.reversed()), denominator: a)
    }
}
