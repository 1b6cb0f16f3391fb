import SoundstageErrors

/// Everything one iLBC frame sends (RFC 3951 §3.8), and its packing into 38 or 50 bytes: the
/// bits of every parameter are split into three classes by the unequal-level-protection
/// allocation, each parameter's most significant bits first; all of class 1 goes out, then
/// class 2, then class 3, and a final zero bit (a one there marks the frame as lost).
struct ILBCFrameParameters: Equatable {
    /// Split-VQ indices of the LSF vectors (3 or 6).
    var lsf: [Int]
    /// The start state's pair (1 ... subblocks − 1).
    var start: Int
    /// The state starts the pair.
    var stateFirst: Bool
    /// The state's scale index (6 bits).
    var scale: Int
    /// The state's samples (3 bits each; 57 or 58).
    var state: [Int]
    /// Codebook indices of the 22/23-sample block, per stage.
    var extraIndices: [Int]
    /// Its gain indices, per stage.
    var extraGains: [Int]
    /// Codebook indices of the 40-sample sub-blocks in coding order, per stage, in the form
    /// they are sent (the first sub-block's later stages in their 7-bit form).
    var indices: [[Int]]
    /// Their gain indices.
    var gains: [[Int]]

    /// Each parameter with its bits per class, in the order the stream carries them.
    private func fields(_ bits: ILBCTables.BitAllocation) -> [(value: Int, classes: [Int])] {
        var out: [(Int, [Int])] = []
        for (i, value) in lsf.enumerated() { out.append((value, bits.lsf[i])) }
        out.append((start, bits.start))
        out.append((stateFirst ? 1 : 0, bits.stateFirst))
        out.append((scale, bits.scale))
        for value in state { out.append((value, bits.state)) }
        for (i, value) in extraIndices.enumerated() { out.append((value, bits.extraIndex[i])) }
        for (i, value) in extraGains.enumerated() { out.append((value, bits.extraGain[i])) }
        for (block, stages) in indices.enumerated() {
            for (i, value) in stages.enumerated() { out.append((value, bits.index[block][i])) }
        }
        for (block, stages) in gains.enumerated() {
            for (i, value) in stages.enumerated() { out.append((value, bits.gain[block][i])) }
        }
        return out
    }

    /// The frame's bytes in `mode`.
    func packed(_ mode: ILBCMode) -> [UInt8] {
        var writer = BitWriter(capacity: mode.bytesPerFrame)
        let fields = fields(mode.bits)
        for cls in 0..<3 {
            for field in fields {
                let total = field.classes.reduce(0, +)
                let sent = field.classes[..<cls].reduce(0, +)
                let count = field.classes[cls]
                guard count > 0 else { continue }
                let value = (field.value >> (total - sent - count)) & ((1 << count) - 1)
                writer.append(value, bits: count)
            }
        }
        writer.append(0, bits: 1)
        return writer.bytes
    }

    /// Reads a frame of `mode`, checking what a decoder relies on.
    ///
    /// - Throws: `.corruptData` when the size is not the mode's, the frame is marked lost, the
    ///   start pair is out of range, or the short block's codebook index is past its codebook.
    static func unpack(_ bytes: some Collection<UInt8>, mode: ILBCMode) throws -> ILBCFrameParameters {
        guard bytes.count == mode.bytesPerFrame else {
            throw SoundstageError(.corruptData, "an iLBC \(mode) frame is \(mode.bytesPerFrame) bytes, this packet has \(bytes.count)")
        }
        let bits = mode.bits
        let nasub = bits.index.count
        var frame = ILBCFrameParameters(
            lsf: [Int](repeating: 0, count: bits.lsf.count), start: 0, stateFirst: false, scale: 0,
            state: [Int](repeating: 0, count: mode.stateLength), extraIndices: [0, 0, 0], extraGains: [0, 0, 0],
            indices: [[Int]](repeating: [0, 0, 0], count: nasub), gains: [[Int]](repeating: [0, 0, 0], count: nasub))
        var reader = BitReader(bytes: Array(bytes))
        // Fill the fields class by class, in the order `fields` lists them.
        var values = [Int](repeating: 0, count: frame.fields(bits).count)
        let layout = frame.fields(bits).map(\.classes)
        for cls in 0..<3 {
            for (i, classes) in layout.enumerated() where classes[cls] > 0 {
                values[i] = values[i] << classes[cls] | reader.read(classes[cls])
            }
        }
        var cursor = 0
        func next() -> Int { defer { cursor += 1 }; return values[cursor] }
        for i in frame.lsf.indices { frame.lsf[i] = next() }
        frame.start = next()
        frame.stateFirst = next() == 1
        frame.scale = next()
        for i in frame.state.indices { frame.state[i] = next() }
        for i in 0..<3 { frame.extraIndices[i] = next() }
        for i in 0..<3 { frame.extraGains[i] = next() }
        for b in 0..<nasub { for i in 0..<3 { frame.indices[b][i] = next() } }
        for b in 0..<nasub { for i in 0..<3 { frame.gains[b][i] = next() } }
        if reader.read(1) != 0 {
            throw SoundstageError(.corruptData, "the iLBC frame is marked lost (its last bit is set)")
        }
        guard frame.start >= 1, frame.start < mode.subblocks else {
            throw SoundstageError(.corruptData, "the iLBC frame's start sub-block \(frame.start) is outside 1...\(mode.subblocks - 1)")
        }
        let shortCodebook = 2 * (ILBCTables.shortCodebookMemory - (2 * ILBCTables.subblock - mode.stateLength) + 1)
        if let bad = frame.extraIndices.first(where: { $0 >= shortCodebook }) {
            throw SoundstageError(.corruptData, "the iLBC frame's codebook index \(bad) is past its \(shortCodebook)-vector codebook")
        }
        return frame
    }
}

/// Appends bits most significant first.
struct BitWriter {
    private(set) var bytes: [UInt8]
    private var position = 0

    init(capacity: Int) { bytes = [UInt8](repeating: 0, count: capacity) }

    mutating func append(_ value: Int, bits: Int) {
        for b in stride(from: bits - 1, through: 0, by: -1) {
            if (value >> b) & 1 == 1 { bytes[position >> 3] |= 0x80 >> UInt8(position & 7) }
            position += 1
        }
    }
}

/// Reads bits most significant first; past the end it reads zeros.
struct BitReader {
    let bytes: [UInt8]
    private var position = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func read(_ bits: Int) -> Int {
        var value = 0
        for _ in 0..<bits {
            let byte = position >> 3
            let bit = byte < bytes.count ? Int(bytes[byte] >> UInt8(7 - position & 7)) & 1 : 0
            value = value << 1 | bit
            position += 1
        }
        return value
    }
}
