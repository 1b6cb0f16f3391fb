/// The two frame lengths of iLBC (RFC 3951): 20 ms frames of 38 bytes (15.2 kbit/s) and
/// 30 ms frames of 50 bytes (13.33 kbit/s), both of 8 kHz mono audio.
public enum ILBCMode: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// 20 ms frames: 160 samples in 38 bytes.
    case ms20 = 20
    /// 30 ms frames: 240 samples in 50 bytes.
    case ms30 = 30

    /// The only sample rate iLBC codes.
    public static let sampleRate = 8000

    /// Samples in one frame (160 or 240): a CAF packet's `mFramesPerPacket`.
    public var samplesPerFrame: Int { self == .ms20 ? 160 : 240 }

    /// Bytes in one coded frame (38 or 50): a CAF packet's `mBytesPerPacket`.
    public var bytesPerFrame: Int { self == .ms20 ? 38 : 50 }

    /// The mode whose frames take `bytes` bytes, or nil for any other size.
    public init?(bytesPerFrame bytes: Int) {
        switch bytes {
        case 38: self = .ms20
        case 50: self = .ms30
        default: return nil
        }
    }

    /// The mode whose frames hold `samples` samples, or nil for any other count.
    public init?(samplesPerFrame samples: Int) {
        switch samples {
        case 160: self = .ms20
        case 240: self = .ms30
        default: return nil
        }
    }

    /// "20 ms" or "30 ms".
    public var description: String { "\(rawValue) ms" }

    /// 40-sample sub-blocks in a frame.
    var subblocks: Int { self == .ms20 ? 4 : 6 }
    /// LPC analyses (and quantized LSF vectors) in a frame.
    var lpcVectors: Int { self == .ms20 ? 1 : 2 }
    /// Samples of the scalar-coded start state.
    var stateLength: Int { self == .ms20 ? 57 : 58 }
    /// The bit allocation of a frame.
    var bits: ILBCTables.BitAllocation { self == .ms20 ? ILBCTables.bits20 : ILBCTables.bits30 }
}
