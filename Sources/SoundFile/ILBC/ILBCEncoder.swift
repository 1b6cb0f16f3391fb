import SoundstageErrors

/// An iLBC encoder (RFC 3951), written from the RFC's description of the algorithm: 8 kHz mono
/// audio in, 38-byte (20 ms) or 50-byte (30 ms) frames out, each frame coded on its own.
///
/// Per frame: a DC blocker; LPC analysis and split-VQ quantization of LSFs
/// (``ILBCLPCAnalysis``, ``ILBCLSFQuantizer``), interpolated per 40-sample sub-block; the LPC
/// residual; the start state — the highest-energy sub-block pair's 57/58 samples, scalar-coded
/// (``ILBCStartState``); the rest of the frame coded forwards and backwards from it by a
/// three-stage adaptive codebook search under perceptual weighting (``ILBCCodebookSearch``);
/// the bits packed in their protection classes (``ILBCFrameParameters``).
///
/// Feed samples with ``encode(_:)`` (any number; whole frames come back as bytes) and call
/// ``flush()`` at the end: the last partial frame is padded with silence. Samples outside
/// ±1 are clipped, NaN counts as silence.
public struct ILBCEncoder: Sendable {
    /// The frame length coded.
    public let mode: ILBCMode
    /// Samples waiting for a whole frame.
    public var pendingSamples: Int { pending.count }

    private var pending: [Double] = []
    private var dcBlocker = DCBlocker()
    private var lpcBuffer: [Double]
    private var lsfOld = ILBCTables.lsfMean
    private var lsfQuantizedOld = ILBCTables.lsfMean
    private var history = [Double](repeating: 0, count: ILBCTables.order)

    /// An encoder of `mode` frames (by default 30 ms ones of 50 bytes: the lower bit rate).
    public init(mode: ILBCMode = .ms30) {
        self.mode = mode
        lpcBuffer = [Double](repeating: 0, count: ILBCLPCAnalysis.lookback + ILBCLPCAnalysis.windowLength)
    }

    /// Appends samples in −1 ... 1 and returns the frames they complete, concatenated
    /// (``ILBCMode/bytesPerFrame`` bytes each).
    public mutating func encode(_ samples: some Collection<Float>) -> [UInt8] {
        pending.reserveCapacity(pending.count + samples.count)
        for s in samples { pending.append(Self.scaled(Double(s))) }
        return drain()
    }

    /// Appends 16-bit samples and returns the frames they complete.
    public mutating func encode(int16 samples: some Collection<Int16>) -> [UInt8] {
        pending.reserveCapacity(pending.count + samples.count)
        for s in samples { pending.append(Double(s)) }
        return drain()
    }

    /// Pads what is pending with silence to a whole frame and returns it coded; empty when
    /// nothing is pending.
    public mutating func flush() -> [UInt8] {
        guard !pending.isEmpty else { return [] }
        pending += [Double](repeating: 0, count: mode.samplesPerFrame - pending.count)
        return drain()
    }

    /// Codes one frame of exactly ``ILBCMode/samplesPerFrame`` samples (nothing may be pending).
    ///
    /// - Throws: `.invalidArgument` for another count.
    public mutating func encodeFrame(_ samples: some Collection<Float>) throws -> [UInt8] {
        guard samples.count == mode.samplesPerFrame, pending.isEmpty else {
            throw SoundstageError(.invalidArgument, "an iLBC \(mode) frame takes \(mode.samplesPerFrame) samples, not \(samples.count)"
                                  + (pending.isEmpty ? "" : " after \(pending.count) pending ones"))
        }
        return encode(samples)
    }

    private static func scaled(_ s: Double) -> Double {
        guard !s.isNaN else { return 0 }
        return min(max(s, -1), 1) * 32767
    }

    private mutating func drain() -> [UInt8] {
        let n = mode.samplesPerFrame
        let frames = pending.count / n
        var out: [UInt8] = []
        out.reserveCapacity(frames * mode.bytesPerFrame)
        for f in 0..<frames {
            out += encodeFrame(scaled: Array(pending[(f * n)..<((f + 1) * n)])).parameters.packed(mode)
        }
        pending.removeFirst(frames * n)
        return out
    }

    /// One coded frame and what the encoder knows of it.
    struct Frame {
        /// What is sent.
        var parameters: ILBCFrameParameters
        /// The residual a decoder reconstructs.
        var decoded: [Double]
        /// The decoder's synthesis filter A(z) per sub-block.
        var synthesis: [[Double]]
    }

    /// Codes one frame of samples in 16-bit scale.
    mutating func encodeFrame(scaled input: [Double]) -> Frame {
        let l = ILBCTables.subblock, nsub = mode.subblocks, blockLength = mode.samplesPerFrame
        let x = input.map { dcBlocker.filter($0) }

        // LPC analysis: the 30 ms frame's first window centred on its second sub-block, the
        // last window ending with the frame.
        lpcBuffer.removeFirst(blockLength)
        lpcBuffer += x
        var lsfs: [[Double]] = []
        if mode == .ms30 { lsfs.append(analyze(lpcBuffer[0..<ILBCLPCAnalysis.windowLength], ILBCLPCAnalysis.centredWindow)) }
        lsfs.append(analyze(lpcBuffer[ILBCLPCAnalysis.lookback...], ILBCLPCAnalysis.endWindow))

        var lsfIndices: [Int] = []
        var quantized: [[Double]] = []
        for lsf in lsfs {
            let q = ILBCLSFQuantizer.quantize(lsf)
            lsfIndices += q.indices
            var stable = q.quantized
            ILBCLineSpectrum.stabilize(&stable)
            quantized.append(stable)
        }

        // Per sub-block filters: the synthesis filter from interpolated quantized LSFs (as the
        // decoder has it), the weighting filter from interpolated unquantized ones.
        var synthesis: [[Double]] = [], weighting: [[Double]] = []
        for i in 0..<nsub {
            let q: [Double], u: [Double]
            if mode == .ms30 {
                let w = ILBCTables.lsfWeights30[i]
                q = i == 0 ? ILBCLineSpectrum.interpolate(lsfQuantizedOld, quantized[0], weight: w)
                    : ILBCLineSpectrum.interpolate(quantized[0], quantized[1], weight: w)
                u = i == 0 ? ILBCLineSpectrum.interpolate(lsfOld, lsfs[0], weight: w)
                    : ILBCLineSpectrum.interpolate(lsfs[0], lsfs[1], weight: w)
            } else {
                let w = ILBCTables.lsfWeights20[i]
                q = ILBCLineSpectrum.interpolate(lsfQuantizedOld, quantized[0], weight: w)
                u = ILBCLineSpectrum.interpolate(lsfOld, lsfs[0], weight: w)
            }
            synthesis.append(ILBCLineSpectrum.polynomial(q))
            weighting.append(ILBCFilters.chirp(ILBCLineSpectrum.polynomial(u), ILBCTables.weightingChirp))
        }
        lsfOld = lsfs[lsfs.count - 1]
        lsfQuantizedOld = quantized[quantized.count - 1]

        // The residual, through each sub-block's A(z).
        var residual: [Double] = []
        residual.reserveCapacity(blockLength)
        for i in 0..<nsub {
            let before = i == 0 ? history : Array(x[(i * l - ILBCTables.order)..<(i * l)])
            residual += ILBCFilters.analysis(x[(i * l)..<((i + 1) * l)], synthesis[i], history: before)
        }
        history = Array(x.suffix(ILBCTables.order))

        // The start state.
        let position = ILBCStartState.position(residual: residual, mode: mode)
        let start = position.start, len = mode.stateLength, diff = 2 * l - len
        let statePosition = (start - 1) * l + (position.first ? 0 : diff)
        let state = ILBCStartState.encode(Array(residual[statePosition..<(statePosition + len)]),
                                          synthesis: synthesis[start - 1],
                                          weighting: [weighting[start - 1], weighting[start]],
                                          switchAt: position.first ? l : len - l)
        var decoded = [Double](repeating: 0, count: blockLength)
        decoded.replaceSubrange(statePosition..<(statePosition + len), with: ILBCStartState.decode(state, synthesis: synthesis[start - 1]))

        // The 22/23 samples that complete the pair: after the state, or before it backwards.
        let short = ILBCTables.shortCodebookMemory
        let extra: ILBCCodebookSearch.Coded
        if position.first {
            let memory = [Double](repeating: 0, count: short - len) + decoded[statePosition..<(statePosition + len)]
            let target = Array(residual[(statePosition + len)..<(statePosition + len + diff)])
            extra = ILBCCodebookSearch.search(target: target, memory: memory, weighting: weighting[start], restricted: false)
            decoded.replaceSubrange((statePosition + len)..<(statePosition + len + diff),
                                    with: ILBCCodebookSearch.construct(extra, memory: memory, length: diff))
        } else {
            var memory = [Double](repeating: 0, count: short)
            for k in 0..<len { memory[short - 1 - k] = decoded[statePosition + k] }
            let target = (0..<diff).map { residual[statePosition - 1 - $0] }
            extra = ILBCCodebookSearch.search(target: target, memory: memory, weighting: weighting[start - 1], restricted: false)
            let out = ILBCCodebookSearch.construct(extra, memory: memory, length: diff)
            for k in 0..<diff { decoded[statePosition - 1 - k] = out[k] }
        }

        // The 40-sample sub-blocks after the pair, then those before it (backwards in time).
        let long = ILBCTables.codebookMemory
        var blocks: [ILBCCodebookSearch.Coded] = []
        let forward = nsub - start - 1
        if forward > 0 {
            var memory = [Double](repeating: 0, count: long - 2 * l) + decoded[((start - 1) * l)..<((start + 1) * l)]
            for block in 0..<forward {
                let at = (start + 1 + block) * l
                let coded = ILBCCodebookSearch.search(target: Array(residual[at..<(at + l)]), memory: memory,
                                                      weighting: weighting[start + 1 + block], restricted: blocks.isEmpty)
                let out = ILBCCodebookSearch.construct(coded, memory: memory, length: l)
                decoded.replaceSubrange(at..<(at + l), with: out)
                memory = Array(memory.dropFirst(l)) + out
                blocks.append(coded)
            }
        }
        let backward = start - 1
        if backward > 0 {
            let origin = (start - 1) * l
            var memory = [Double](repeating: 0, count: long)
            for k in 0..<min(l * (nsub + 1 - start), long) { memory[long - 1 - k] = decoded[origin + k] }
            for block in 0..<backward {
                let target = (0..<l).map { residual[origin - 1 - (block * l + $0)] }
                let coded = ILBCCodebookSearch.search(target: target, memory: memory,
                                                      weighting: weighting[start - 2 - block], restricted: blocks.isEmpty)
                let out = ILBCCodebookSearch.construct(coded, memory: memory, length: l)
                for k in 0..<l { decoded[origin - 1 - (block * l + k)] = out[k] }
                memory = Array(memory.dropFirst(l)) + out
                blocks.append(coded)
            }
        }

        var indices = blocks.map(\.indices)
        if !indices.isEmpty {
            for stage in 1..<ILBCTables.stages { indices[0][stage] = ILBCCodebook.shortForm(indices[0][stage]) ?? 0 }
        }
        let parameters = ILBCFrameParameters(
            lsf: lsfIndices, start: start, stateFirst: position.first, scale: state.scale, state: state.samples,
            extraIndices: extra.indices, extraGains: extra.gains, indices: indices, gains: blocks.map(\.gains))
        return Frame(parameters: parameters, decoded: decoded, synthesis: synthesis)
    }

    private func analyze(_ samples: ArraySlice<Double>, _ window: [Double]) -> [Double] {
        ILBCLineSpectrum.frequencies(of: ILBCLPCAnalysis.polynomial(samples, window: window)) ?? lsfOld
    }

    /// The input filter: a one-pole DC blocker (−3 dB at about 2.5 Hz).
    ///
    /// RFC 3951 §3.1 high-passes the input at 90 Hz. The decoder high-passes its output as
    /// well, and the two filters' phase shifts at a voice's fundamental alone hold the
    /// waveform SNR of espeak-ng's speech to 5 dB; this encoder only removes DC, which the
    /// LPC analysis needs gone, and leaves hum removal to the decoder's filter.
    struct DCBlocker: Sendable {
        private var x1 = 0.0, y1 = 0.0

        mutating func filter(_ x: Double) -> Double {
            let y = x - x1 + 0.998 * y1
            x1 = x
            y1 = y
            return y
        }
    }
}
