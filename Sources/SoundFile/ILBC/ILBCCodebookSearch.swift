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
        let length = target.count, size = codebook.size
        // Every vector in one flat array, and their energies.
        var vectors = [Double](repeating: 0, count: size * length)
        var energies = [Double](repeating: 0, count: size)
        vectors.withUnsafeMutableBufferPointer { all in
            for index in 0..<size {
                let v = all.baseAddress! + index * length
                codebook.write(index, to: v)
                var energy = 0.0
                for n in 0..<length { energy += v[n] * v[n] }
                energies[index] = energy
            }
        }

        var coded = Coded(indices: [], gains: [])
        var previousGain = 1.0
        for stage in 0..<ILBCTables.stages {
            let table = ILBCTables.gains[stage]
            let scale = max(abs(previousGain), 0.1)
            var best = (index: 0, gain: 0, reduction: -Double.infinity)
            vectors.withUnsafeBufferPointer { all in
                remaining.withUnsafeBufferPointer { t in
                    for index in 0..<size {
                        if restricted && stage > 0 && ILBCCodebook.shortForm(index) == nil { continue }
                        let energy = energies[index]
                        guard energy > 1e-12 else { continue }
                        var cross = 0.0
                        let base = index * length
                        for n in 0..<length { cross += t[n] * all[base + n] }
                        // For a given vector the error is quadratic in the gain: the nearest
                        // quantized gain to the best one is the best quantized gain.
                        let gainIndex = ILBCTables.nearest(cross / energy / scale, in: table)
                        let g = scale * table[gainIndex]
                        let reduction = 2 * g * cross - g * g * energy
                        if reduction > best.reduction { best = (index, gainIndex, reduction) }
                    }
                }
            }
            if best.reduction == -Double.infinity {
                // Nothing to predict from (a silent memory): the smallest gain on vector 0.
                best = (0, stage == 0 ? 0 : ILBCTables.nearest(0, in: table), 0)
            }
            let g = scale * table[best.gain]
            for n in 0..<length { remaining[n] -= g * vectors[best.index * length + n] }
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
}
