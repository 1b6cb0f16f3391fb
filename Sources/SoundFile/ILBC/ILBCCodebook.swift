/// The adaptive codebook of RFC 3951 §3.6.3, made from a memory of already decoded residual:
/// vectors at every lag from the memory's end (the base section), for 40-sample targets also
/// lags 20–39 repeated to length 40 with a 4-sample cross-fade (the augmented vectors), and
/// the same again from the memory passed through an 8-tap filter (the filtered section).
struct ILBCCodebook {
    /// Vector length: 40, or 22/23 for the start state's remainder.
    let length: Int
    /// Vectors of the base section (lags `length` ... memory count).
    let baseCount: Int
    /// Augmented vectors per section: 20 for 40-sample vectors, none otherwise.
    let augmentedCount: Int
    private let memory: [Double]
    private let filtered: [Double]

    /// A codebook of `length`-sample vectors over `memory`.
    init(memory: [Double], length: Int) {
        self.memory = memory
        self.length = length
        baseCount = memory.count - length + 1
        augmentedCount = length == ILBCTables.subblock ? ILBCTables.subblock / 2 : 0
        // f[p] = Σ h[t] m[p + 4 − t], the memory taken as zero outside itself.
        let h = ILBCTables.expansionFilter
        let count = memory.count
        filtered = (0..<count).map { p in
            var sum = 0.0
            for t in 0..<h.count {
                let i = p + 4 - t
                if i >= 0 && i < count { sum += h[t] * memory[i] }
            }
            return sum
        }
    }

    /// Vectors in the codebook: 256 for 40 samples over 147, 128 or 126 for the short target.
    var size: Int { 2 * (baseCount + augmentedCount) }

    /// Vector `index`.
    func vector(_ index: Int) -> [Double] {
        [Double](unsafeUninitializedCapacity: length) { buffer, count in
            write(index, to: buffer.baseAddress!)
            count = length
        }
    }

    /// Writes vector `index` (``length`` samples) to `out`.
    func write(_ index: Int, to out: UnsafeMutablePointer<Double>) {
        let section = baseCount + augmentedCount
        let source = index < section ? memory : filtered
        let i = index % section
        let end = source.count
        source.withUnsafeBufferPointer { m in
            if i < baseCount {
                for j in 0..<length { out[j] = m[end - length - i + j] }
                return
            }
            // Augmented: lag k in 20...39, its first k samples then repeated, with the four
            // samples before k faded from the lag-k copy into the samples ending the memory.
            let k = i - baseCount + ILBCTables.subblock / 2
            for j in 0..<k { out[j] = m[end - k + j] }
            for j in 0..<4 {
                let alpha = 0.2 * Double(j + 1)
                out[k - 4 + j] = alpha * m[end - k - 4 + j] + (1 - alpha) * m[end - 4 + j]
            }
            for j in k..<length { out[j] = m[end - k + (j - k)] }
        }
    }

    /// Whether `index` can be sent in 7 bits for the first 40-sample sub-block's second and
    /// third stages, and its 7-bit form (RFC 3951 §3.6.4.1: the base vectors within 44 lags,
    /// the augmented ones, and their filtered counterparts).
    static func shortForm(_ index: Int) -> Int? {
        switch index {
        case 0..<44: index
        case 108..<172: index - 64
        case 236..<256: index - 128
        default: nil
        }
    }
}
