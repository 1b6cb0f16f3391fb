/// The split vector quantizer of LSFs (RFC 3951 §3.2.4): three splits of 3, 3 and 4 LSFs
/// against codebooks of 64, 128 and 128 entries (20 bits a vector), nearest in squared error.
enum ILBCLSFQuantizer {
    /// The three split indices of `lsf` and the vector they decode to.
    static func quantize(_ lsf: [Double]) -> (indices: [Int], quantized: [Double]) {
        var indices: [Int] = []
        var quantized: [Double] = []
        var offset = 0, position = 0
        for split in 0..<ILBCTables.lsfSplitDimensions.count {
            let dim = ILBCTables.lsfSplitDimensions[split], size = ILBCTables.lsfSplitSizes[split]
            var best = 0, bestError = Double.infinity
            for entry in 0..<size {
                var error = 0.0
                for j in 0..<dim {
                    let d = lsf[position + j] - ILBCTables.lsfCodebook[offset + entry * dim + j]
                    error += d * d
                }
                if error < bestError { bestError = error; best = entry }
            }
            indices.append(best)
            quantized += ILBCTables.lsfCodebook[(offset + best * dim)..<(offset + (best + 1) * dim)]
            offset += size * dim
            position += dim
        }
        return (indices, quantized)
    }
}
