// Linear PCM as Audio Converter Services meets it: every layout an AudioStreamBasicDescription can
// state (integers of 1–32 bits, signed or unsigned, fixed point such as 8.24, 32- and 64-bit
// floats; either byte order; packed, or aligned high or low in a wider container; interleaved or
// one buffer a channel), read into and written from planes of Doubles. A Double holds every such
// sample exactly, so a conversion that can be exact is.

/// How one sample is stored.
struct PCMLayout: Equatable {
    enum Kind: Equatable {
        case float
        case signed
        case unsigned
    }

    let kind: Kind
    /// Valid bits of a sample (`mBitsPerChannel`).
    let bits: Int
    /// Bytes a sample takes in its buffer.
    let containerBytes: Int
    let bigEndian: Bool
    /// Valid bits at the top of the container (else at the bottom) when fewer than the container's.
    let alignedHigh: Bool
    /// Fraction bits of a fixed-point integer (24 for 8.24); 0 for a plain integer, whose full
    /// scale is 2^(bits−1).
    let fractionBits: Int
    let nonInterleaved: Bool
    let channels: Int
    let sampleRate: Double

    /// The buffers a buffer list of this layout has.
    var bufferCount: Int { nonInterleaved ? channels : 1 }
    /// Bytes a frame takes in each buffer.
    var bytesPerFrame: Int { nonInterleaved ? containerBytes : containerBytes * channels }
    /// 16-bit signed integers, little-endian (this machine's order), interleaved: read straight.
    var isNativeInt16: Bool {
        kind == .signed && bits == 16 && containerBytes == 2 && !bigEndian && fractionBits == 0 && !nonInterleaved
    }
    /// Whether every value a Float32 holds converts exactly (so Float32 loses nothing of it).
    var precision: Int { kind == .float ? (containerBytes == 4 ? 24 : 53) : bits }

    /// The layout `asbd` states, filling what it leaves 0 as Apple's converter does; nil for a
    /// description that is not linear PCM or cannot be (a 24-bit float, a sample wider than its
    /// container, packets of more than one frame).
    init?(_ asbd: AudioStreamBasicDescription) {
        guard asbd.mFormatID == kAudioFormatLinearPCM else { return nil }
        let flags = asbd.mFormatFlags
        let channels = Int(asbd.mChannelsPerFrame)
        guard (1...PCMLayout.maximumChannels).contains(channels) else { return nil }
        let nonInterleaved = flags & kAudioFormatFlagIsNonInterleaved != 0
        var bits = Int(asbd.mBitsPerChannel)
        var frameBytes = Int(asbd.mBytesPerFrame)
        if frameBytes == 0 { frameBytes = Int(asbd.mBytesPerPacket) }
        if bits == 0 && frameBytes > 0 { bits = 8 * frameBytes / (nonInterleaved ? 1 : channels) }
        guard bits > 0 else { return nil }
        if frameBytes == 0 { frameBytes = (bits + 7) / 8 * (nonInterleaved ? 1 : channels) }
        let perBuffer = nonInterleaved ? 1 : channels
        guard frameBytes % perBuffer == 0 else { return nil }
        let container = frameBytes / perBuffer
        guard asbd.mFramesPerPacket <= 1, asbd.mBytesPerPacket == 0 || Int(asbd.mBytesPerPacket) == frameBytes else { return nil }
        let kind: Kind = flags & kAudioFormatFlagIsFloat != 0 ? .float : (flags & kAudioFormatFlagIsSignedInteger != 0 ? .signed : .unsigned)
        if kind == .float {
            guard (bits == 32 || bits == 64), container == bits / 8 else { return nil }
        } else {
            guard bits <= 32, container >= (bits + 7) / 8, container <= 4 else { return nil }
        }
        let fraction = Int((flags & kLinearPCMFormatFlagsSampleFractionMask) >> kLinearPCMFormatFlagsSampleFractionShift)
        guard kind != .float || fraction == 0, fraction < bits || fraction == 0 else { return nil }
        guard asbd.mSampleRate.isFinite, asbd.mSampleRate >= 0 else { return nil }
        self.kind = kind
        self.bits = bits
        self.containerBytes = container
        // A byte has no order: 8-bit samples ignore the flag.
        self.bigEndian = container > 1 && flags & kAudioFormatFlagIsBigEndian != 0
        self.alignedHigh = flags & kAudioFormatFlagIsAlignedHigh != 0
        self.fractionBits = fraction
        self.nonInterleaved = nonInterleaved && channels > 1 ? true : nonInterleaved
        self.channels = channels
        self.sampleRate = asbd.mSampleRate
    }

    /// The description Apple's converter reports for it (`CurrentInputStreamDescription`).
    var description: AudioStreamBasicDescription {
        var flags: AudioFormatFlags = kind == .float ? kAudioFormatFlagIsFloat : (kind == .signed ? kAudioFormatFlagIsSignedInteger : 0)
        if bigEndian { flags |= kAudioFormatFlagIsBigEndian }
        if bits == containerBytes * 8 { flags |= kAudioFormatFlagIsPacked } else if alignedHigh { flags |= kAudioFormatFlagIsAlignedHigh }
        if nonInterleaved { flags |= kAudioFormatFlagIsNonInterleaved }
        flags |= AudioFormatFlags(fractionBits) << kLinearPCMFormatFlagsSampleFractionShift
        return AudioStreamBasicDescription(mSampleRate: sampleRate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: flags,
                                           mBytesPerPacket: UInt32(bytesPerFrame), mFramesPerPacket: 1, mBytesPerFrame: UInt32(bytesPerFrame),
                                           mChannelsPerFrame: UInt32(channels), mBitsPerChannel: UInt32(bits), mReserved: 0)
    }

    /// The most channels a converter takes (a hostile description must not ask for absurd work).
    static let maximumChannels = 1024

    // MARK: - Integers

    /// The divisor that maps an integer sample to -1...1 (a fixed-point sample to its value).
    private var scale: Double {
        fractionBits > 0 ? Double(sign: .plus, exponent: fractionBits, significand: 1)
                         : Double(sign: .plus, exponent: bits - 1, significand: 1)
    }

    /// The bits to shift the container's integer right to get the sample (aligned high).
    private var shift: Int { alignedHigh ? containerBytes * 8 - bits : 0 }

    private func loadContainer(_ p: UnsafeRawPointer) -> UInt32 {
        var value: UInt32 = 0
        switch containerBytes {
        case 1: value = UInt32(p.load(as: UInt8.self))
        case 2:
            let v = p.loadUnaligned(as: UInt16.self)
            value = UInt32(bigEndian ? UInt16(bigEndian: v) : UInt16(littleEndian: v))
        case 3:
            let b0 = UInt32(p.load(as: UInt8.self)), b1 = UInt32(p.load(fromByteOffset: 1, as: UInt8.self)), b2 = UInt32(p.load(fromByteOffset: 2, as: UInt8.self))
            value = bigEndian ? (b0 << 16 | b1 << 8 | b2) : (b2 << 16 | b1 << 8 | b0)
        default:
            let v = p.loadUnaligned(as: UInt32.self)
            value = bigEndian ? UInt32(bigEndian: v) : UInt32(littleEndian: v)
        }
        return value
    }

    private func storeContainer(_ value: UInt32, _ p: UnsafeMutableRawPointer) {
        switch containerBytes {
        case 1: p.storeBytes(of: UInt8(truncatingIfNeeded: value), as: UInt8.self)
        case 2:
            let v = UInt16(truncatingIfNeeded: value)
            p.storeBytes(of: bigEndian ? v.bigEndian : v.littleEndian, as: UInt16.self)
        case 3:
            let bytes = bigEndian ? [value >> 16, value >> 8, value] : [value, value >> 8, value >> 16]
            for (i, b) in bytes.enumerated() { p.storeBytes(of: UInt8(truncatingIfNeeded: b), toByteOffset: i, as: UInt8.self) }
        default:
            p.storeBytes(of: bigEndian ? value.bigEndian : value.littleEndian, as: UInt32.self)
        }
    }

    /// The integer a container holds, sign-extended (or offset, for unsigned) from its valid bits.
    private func integer(_ container: UInt32) -> Int64 {
        let raw = UInt64(container >> UInt32(shift)) & ((1 << UInt64(bits)) - 1)
        switch kind {
        case .unsigned: return Int64(raw) - (Int64(1) << Int64(bits - 1))
        default:
            let top = 64 - bits
            return Int64(bitPattern: raw << UInt64(top)) >> Int64(top)
        }
    }

    // MARK: - Reading and writing

    /// Reads `frames` frames of channel `channel` from the buffer that holds it (`base`: that
    /// buffer's start), as numbers where ±1 is full scale, into `out`. NaN reads as 0 and an
    /// infinity as ±1: nothing non-finite leaves a converter.
    func read(channel: Int, from base: UnsafeRawPointer, frames: Int, into out: UnsafeMutablePointer<Double>) {
        let stride = bytesPerFrame
        let first = base + (nonInterleaved ? 0 : channel * containerBytes)
        switch kind {
        case .float where containerBytes == 4:
            for i in 0..<frames {
                var bits = (first + i * stride).loadUnaligned(as: UInt32.self)
                bits = bigEndian ? UInt32(bigEndian: bits) : UInt32(littleEndian: bits)
                out[i] = PCMLayout.finite(Double(Float(bitPattern: bits)))
            }
        case .float:
            for i in 0..<frames {
                var bits = (first + i * stride).loadUnaligned(as: UInt64.self)
                bits = bigEndian ? UInt64(bigEndian: bits) : UInt64(littleEndian: bits)
                out[i] = PCMLayout.finite(Double(bitPattern: bits))
            }
        default:
            let divisor = scale
            if containerBytes == 2 && !bigEndian && bits == 16 && kind == .signed {
                for i in 0..<frames { out[i] = Double((first + i * stride).loadUnaligned(as: Int16.self)) / divisor }
            } else {
                for i in 0..<frames { out[i] = Double(integer(loadContainer(first + i * stride))) / divisor }
            }
        }
    }

    /// Writes `frames` frames of channel `channel` from `source` (±1 full scale) into the buffer
    /// that holds it: floats as they are (never non-finite), integers rounded to nearest and
    /// clipped to their range.
    func write(channel: Int, from source: UnsafePointer<Double>, frames: Int, to base: UnsafeMutableRawPointer) {
        let stride = bytesPerFrame
        let first = base + (nonInterleaved ? 0 : channel * containerBytes)
        switch kind {
        case .float where containerBytes == 4:
            for i in 0..<frames {
                var value = Float(source[i])
                // Rarely taken: NaN, an infinity, or a Double beyond Float's range.
                if !value.isFinite { value = Float(PCMLayout.finite(source[i]).clamped(-Double(Float.greatestFiniteMagnitude), Double(Float.greatestFiniteMagnitude))) }
                let bits = value.bitPattern
                (first + i * stride).storeBytes(of: bigEndian ? bits.bigEndian : bits.littleEndian, as: UInt32.self)
            }
        case .float:
            for i in 0..<frames {
                let bits = PCMLayout.finite(source[i]).bitPattern
                (first + i * stride).storeBytes(of: bigEndian ? bits.bigEndian : bits.littleEndian, as: UInt64.self)
            }
        default:
            let multiplier = scale
            let low: Double, high: Double
            switch kind {
            case .unsigned:
                low = -Double(sign: .plus, exponent: bits - 1, significand: 1)
                high = Double(sign: .plus, exponent: bits - 1, significand: 1) - 1
            default:
                low = -Double(sign: .plus, exponent: bits - 1, significand: 1)
                high = Double(sign: .plus, exponent: bits - 1, significand: 1) - 1
            }
            let offset: Int64 = kind == .unsigned ? Int64(1) << Int64(bits - 1) : 0
            let mask: UInt64 = (1 << UInt64(bits)) - 1
            // Rounding to nearest-even without a call to rint: 1.5 × 2^52 added to a value within
            // ±2^31 leaves it rounded (in the default rounding mode) as an integer in the low bits
            // of the sum's bit pattern. The value is clipped first (its bounds are integers).
            let magic = 6_755_399_441_055_744.0
            if containerBytes == 2 && !bigEndian && bits == 16 && kind == .signed && fractionBits == 0 {
                for i in 0..<frames {
                    var scaled = source[i] * 32_768
                    if scaled != scaled { scaled = 0 }   // NaN
                    scaled = scaled > 32_767 ? 32_767 : (scaled < -32_768 ? -32_768 : scaled)
                    (first + i * stride).storeBytes(of: Int16(truncatingIfNeeded: (scaled + magic).bitPattern), as: Int16.self)
                }
                return
            }
            for i in 0..<frames {
                let value = source[i]
                let scaled = value.isNaN ? 0 : (value * multiplier).clamped(low, high)
                let integer = Int64(Int32(truncatingIfNeeded: (scaled + magic).bitPattern)) + offset
                let container = UInt32(truncatingIfNeeded: (UInt64(bitPattern: integer) & mask) << UInt64(shift))
                storeContainer(container, first + i * stride)
            }
        }
    }

    /// NaN as 0 and an infinity as ±1.
    @inline(__always)
    static func finite(_ value: Double) -> Double {
        if value.isFinite { return value }
        return value.isNaN ? 0 : (value < 0 ? -1 : 1)
    }
}

extension Double {
    @inline(__always)
    func clamped(_ low: Double, _ high: Double) -> Double { self < low ? low : (self > high ? high : self) }
}

