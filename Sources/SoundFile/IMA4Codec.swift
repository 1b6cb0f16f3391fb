/// Apple's IMA4 ADPCM (`ima4`): packets of 64 frames, each channel coded in 34 bytes —
/// a 2-byte header (9-bit predictor, 7-bit step index) and 32 bytes of 4-bit codes.
///
/// libsndfile 1.2 has no IMA4 in CAF, so Soundstage carries this codec itself (Audio Converter
/// Services' IMA4 encoder and decoder use it too, on 16-bit samples).
public enum IMA4 {
    /// Frames in one packet.
    public static let framesPerPacket = 64
    /// Bytes one channel takes in one packet.
    public static let bytesPerChannelPacket = 34

    static let indexTable: [Int] = [-1, -1, -1, -1, 2, 4, 6, 8, -1, -1, -1, -1, 2, 4, 6, 8]
    static let stepTable: [Int] = [
        7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 19, 21, 23, 25, 28, 31, 34, 37, 41, 45,
        50, 55, 60, 66, 73, 80, 88, 97, 107, 118, 130, 143, 157, 173, 190, 209, 230, 253, 279, 307,
        337, 371, 408, 449, 494, 544, 598, 658, 724, 796, 876, 963, 1060, 1166, 1282, 1411, 1552, 1707, 1878, 2066,
        2272, 2499, 2749, 3024, 3327, 3660, 4026, 4428, 4871, 5358, 5894, 6484, 7132, 7845, 8630, 9493, 10442, 11487, 12635, 13899,
        15289, 16818, 18500, 20350, 22385, 24623, 27086, 29794, 32767,
    ]

    /// The coder state of one channel.
    public struct ChannelState: Sendable {
        var predictor = 0
        var index = 0

        /// A channel's state before its first packet.
        public init() {}

        init(predictor: Int, index: Int) {
            self.predictor = predictor
            self.index = index
        }

        /// Applies one 4-bit code, returning the new sample.
        mutating func decode(_ code: Int) -> Int {
            let step = IMA4.stepTable[index]
            var delta = step >> 3
            if code & 4 != 0 { delta += step }
            if code & 2 != 0 { delta += step >> 1 }
            if code & 1 != 0 { delta += step >> 2 }
            predictor += (code & 8 != 0) ? -delta : delta
            predictor = min(32767, max(-32768, predictor))
            index = min(88, max(0, index + IMA4.indexTable[code]))
            return predictor
        }

        /// Chooses the code that best approximates `sample`, and applies it.
        mutating func encode(_ sample: Int) -> Int {
            var difference = sample - predictor
            var code = 0
            if difference < 0 { code = 8; difference = -difference }
            var step = IMA4.stepTable[index]
            if difference >= step { code |= 4; difference -= step }
            step >>= 1
            if difference >= step { code |= 2; difference -= step }
            step >>= 1
            if difference >= step { code |= 1 }
            _ = decode(code)
            return code
        }
    }

    /// Decodes one channel's 34-byte packet into 64 16-bit samples written with `stride`.
    public static func decodePacket(_ bytes: UnsafeRawBufferPointer, into out: UnsafeMutablePointer<Int16>, stride: Int) {
        let header = Int(bytes[0]) << 8 | Int(bytes[1])
        var state = ChannelState(predictor: Int(Int16(truncatingIfNeeded: header & 0xFF80)), index: min(88, header & 0x7F))
        for k in 0..<32 {
            let byte = Int(bytes[2 + k])
            out[(2 * k) * stride] = Int16(state.decode(byte & 0x0F))
            out[(2 * k + 1) * stride] = Int16(state.decode(byte >> 4))
        }
    }

    /// Encodes 64 16-bit samples (read with `stride`) of one channel into a 34-byte packet at `out`.
    public static func encodePacket(_ samples: UnsafePointer<Int16>, stride: Int, state: inout ChannelState,
                                    into out: UnsafeMutableRawPointer) {
        state.predictor = Int(Int16(truncatingIfNeeded: state.predictor & 0xFF80))
        let header = (state.predictor & 0xFF80) | state.index
        out.storeBytes(of: UInt8((header >> 8) & 0xFF), as: UInt8.self)
        out.storeBytes(of: UInt8(header & 0xFF), toByteOffset: 1, as: UInt8.self)
        for k in 0..<32 {
            let low = state.encode(Int(samples[(2 * k) * stride]))
            let high = state.encode(Int(samples[(2 * k + 1) * stride]))
            out.storeBytes(of: UInt8(low | high << 4), toByteOffset: 2 + k, as: UInt8.self)
        }
    }

    /// Decodes one channel's 34-byte packet into 64 samples written with `stride`.
    static func decodePacket(_ bytes: UnsafeRawBufferPointer, into out: UnsafeMutablePointer<Float>, stride: Int) {
        let header = Int(bytes[0]) << 8 | Int(bytes[1])
        var state = ChannelState(predictor: Int(Int16(truncatingIfNeeded: header & 0xFF80)),
                                 index: min(88, header & 0x7F))
        for k in 0..<32 {
            let byte = Int(bytes[2 + k])
            out[(2 * k) * stride] = Float(state.decode(byte & 0x0F)) / 32768
            out[(2 * k + 1) * stride] = Float(state.decode(byte >> 4)) / 32768
        }
    }

    /// Encodes 64 samples (read with `stride`) of one channel into a 34-byte packet.
    static func encodePacket(_ samples: UnsafePointer<Float>, stride: Int, state: inout ChannelState,
                             into out: inout [UInt8]) {
        state.predictor = Int(Int16(truncatingIfNeeded: state.predictor & 0xFF80))
        let header = (state.predictor & 0xFF80) | state.index
        out.append(UInt8((header >> 8) & 0xFF))
        out.append(UInt8(header & 0xFF))
        for k in 0..<32 {
            let low = state.encode(pcm16(samples[(2 * k) * stride]))
            let high = state.encode(pcm16(samples[(2 * k + 1) * stride]))
            out.append(UInt8(low | high << 4))
        }
    }

    private static func pcm16(_ value: Float) -> Int {
        Int(Int16(clampingToInt16: value))
    }
}
