/// The three-stage search of the adaptive codebook (RFC 3951 §3.6.4) and its inverse: each
/// stage picks the vector and quantized gain that most reduce what remains of the target,
/// both seen through the perceptual weighting filter; each stage's gain is quantized relative
/// to the previous stage's.
enum ILBCCodebookSearch {
    /// A coded target: a codebook index and a gain index per stage.
    struct Coded {
        /// Codebook indices (full form).
        var indices: [Int]
        /// Gain indices into ``ILBCTables/gains``.
        var gains: [Int]
    }

    /// Codes `target` over `memory`. `weighting` is 1/Aw(z) of the target's sub-block;
    /// `restricted` limits the second and third stages to vectors with a 7-bit form.
    static func search(target: [Double], memory: [Double], weighting: [Double], restricted: Bool) -> Coded {
        var buffer = memory + target
        ILBCFilters.allPole(&buffer, weighting)
        let codebook = ILBCCodebook(memory: Array(buffer[0..<memory.count]), length: target.count)
        var remaining = Array(buffer[memory.count...])
        let vectors = (0..<codebook.size).map { codebook.vector($0) }
        let energies = vectors.map { v in v.reduce(0) { $0 + $1 * $1 } }

        var coded = Coded(indices: [], gains: [])
        var previousGain = 1.0
        for stage in 0..<ILBCTables.stages {
            let table = ILBCTables.gains[stage]
            let scale = max(abs(previousGain), 0.1)
            var best = (index: 0, gain: 0, reduction: -Double.infinity)
            for index in 0..<codebook.size {
                if restricted && stage > 0 && ILBCCodebook.shortForm(index) == nil { continue }
                let energy = energies[index]
                guard energy > 1e-12 else { continue }
                var cross = 0.0
                let v = vectors[index]
                for n in 0..<remaining.count { cross += remaining[n] * v[n] }
                let gainIndex = nearestGain(cross / energy, table: table, scale: scale)
                let g = scale * table[gainIndex]
                let reduction = 2 * g * cross - g * g * energy
                if reduction > best.reduction { best = (index, gainIndex, reduction) }
            }
            if best.reduction == -Double.infinity {
                // Nothing to predict from (a silent memory): the smallest gain on vector 0.
                best = (0, stage == 0 ? 0 : nearestGain(0, table: table, scale: scale), 0)
            }
            let g = scale * table[best.gain]
            let v = vectors[best.index]
            for n in 0..<remaining.count { remaining[n] -= g * v[n] }
            coded.indices.append(best.index)
            coded.gains.append(best.gain)
            previousGain = g
        }
        return coded
    }

    /// The decoded vector of `coded` over `memory` (no weighting): what a decoder makes.
    static func construct(_ coded: Coded, memory: [Double], length: Int) -> [Double] {
        let codebook = ILBCCodebook(memory: memory, length: length)
        var out = [Double](repeating: 0, count: length)
        var previousGain = 1.0
        for stage in 0..<ILBCTables.stages {
            let g = max(abs(previousGain), 0.1) * ILBCTables.gains[stage][coded.gains[stage]]
            let v = codebook.vector(coded.indices[stage])
            for n in 0..<length { out[n] += g * v[n] }
            previousGain = g
        }
        return out
    }

    private static func nearestGain(_ gain: Double, table: [Double], scale: Double) -> Int {
        var best = 0, bestDistance = Double.infinity
        for (i, level) in table.enumerated() {
            let d = abs(gain - scale * level)
            if d < bestDistance { bestDistance = d; best = i }
        }
        return best
    }
}
