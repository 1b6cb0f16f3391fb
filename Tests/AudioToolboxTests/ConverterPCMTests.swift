import AudioToolbox
import Foundation
import Testing

/// Linear PCM to linear PCM through Audio Converter Services, as iOS code drives a converter:
/// every sample format pair that can be exact is, both ways, through AudioConverterFillComplexBuffer
/// with an input procedure, and through AudioConverterConvertBuffer and ConvertComplexBuffer.
@Suite struct ConverterPCMTests {
    /// A sample format of the matrix: its description (2 channels) and how many bits it keeps.
    struct Format: CustomStringConvertible {
        let name: String
        let asbd: AudioStreamBasicDescription
        /// Bits below full scale it holds exactly (a float's mantissa).
        let precision: Int
        let isFloat: Bool
        var description: String { name }
    }

    static let formats: [Format] = [
        Format(name: "Int8", asbd: pcmFormat(bits: 8), precision: 8, isFloat: false),
        Format(name: "UInt8", asbd: pcmFormat(bits: 8, signed: false), precision: 8, isFloat: false),
        Format(name: "Int16", asbd: pcmFormat(bits: 16), precision: 16, isFloat: false),
        Format(name: "Int16 big-endian", asbd: pcmFormat(bits: 16, bigEndian: true), precision: 16, isFloat: false),
        Format(name: "Int16 non-interleaved", asbd: pcmFormat(bits: 16, nonInterleaved: true), precision: 16, isFloat: false),
        Format(name: "Int24 packed", asbd: pcmFormat(bits: 24), precision: 24, isFloat: false),
        Format(name: "Int24 packed big-endian", asbd: pcmFormat(bits: 24, bigEndian: true), precision: 24, isFloat: false),
        Format(name: "Int24 in 32, aligned high", asbd: pcmFormat(bits: 24, container: 32, alignedHigh: true), precision: 24, isFloat: false),
        Format(name: "Int24 in 32, aligned low", asbd: pcmFormat(bits: 24, container: 32), precision: 24, isFloat: false),
        Format(name: "Int20 in 24, aligned high, big-endian", asbd: pcmFormat(bits: 20, container: 24, bigEndian: true, alignedHigh: true),
               precision: 20, isFloat: false),
        Format(name: "Int32", asbd: pcmFormat(bits: 32), precision: 32, isFloat: false),
        Format(name: "Int32 big-endian", asbd: pcmFormat(bits: 32, bigEndian: true), precision: 32, isFloat: false),
        Format(name: "8.24 fixed point, non-interleaved (AudioUnitCanonical, CA_PREFER_FIXED_POINT)",
               asbd: pcmFormat(bits: 32, nonInterleaved: true, fractionBits: 24), precision: 25, isFloat: false),
        Format(name: "Float32", asbd: pcmFormat(bits: 32, float: true), precision: 24, isFloat: true),
        Format(name: "Float32 big-endian", asbd: pcmFormat(bits: 32, float: true, bigEndian: true), precision: 24, isFloat: true),
        Format(name: "Float32 non-interleaved", asbd: pcmFormat(bits: 32, float: true, nonInterleaved: true), precision: 24, isFloat: true),
        Format(name: "Float64", asbd: pcmFormat(bits: 64, float: true), precision: 53, isFloat: true),
        Format(name: "Float64 big-endian non-interleaved", asbd: pcmFormat(bits: 64, float: true, bigEndian: true, nonInterleaved: true),
               precision: 53, isFloat: true),
    ]

    /// Random samples of `format`, as its buffers' bytes: every bit pattern of an integer format
    /// (unused container bits zero), floats in -1...1.
    static func samples(_ format: Format, frames: Int, seed: UInt64) -> [[UInt8]] {
        var state = seed
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let asbd = format.asbd
        let nonInterleaved = asbd.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0
        let buffers = nonInterleaved ? Int(asbd.mChannelsPerFrame) : 1
        let perBuffer = nonInterleaved ? 1 : Int(asbd.mChannelsPerFrame)
        let container = Int(asbd.mBytesPerFrame) / perBuffer
        let big = asbd.mFormatFlags & kAudioFormatFlagIsBigEndian != 0
        let bits = Int(asbd.mBitsPerChannel)
        let fraction = Int((asbd.mFormatFlags & kLinearPCMFormatFlagsSampleFractionMask) >> kLinearPCMFormatFlagsSampleFractionShift)
        return (0..<buffers).map { _ in
            var out: [UInt8] = []
            for _ in 0..<(frames * perBuffer) {
                var value: UInt64
                if format.isFloat {
                    let x = Double(Int64(bitPattern: next()) >> 11) / Double(1 << 52)   // -1...1
                    value = container == 4 ? UInt64(Float(x).bitPattern) : x.bitPattern
                } else if fraction > 0 {
                    value = UInt64(bitPattern: Int64(Int32(truncatingIfNeeded: next()) >> 7))   // ±2^24: -1...1 in 8.24
                } else {
                    value = next() & ((1 << UInt64(bits)) - 1)
                    if container * 8 > bits && asbd.mFormatFlags & kAudioFormatFlagIsAlignedHigh != 0 { value <<= UInt64(container * 8 - bits) }
                }
                let bytes = (0..<container).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
                out += big ? bytes.reversed() : bytes
            }
            return out
        }
    }

    @Test(arguments: formats)
    func everyLosslessPairRoundTripsExactly(from format: Format) throws {
        let frames = 1_537   // odd, and more than one call's worth at the chunk below
        let original = Self.samples(format, frames: frames, seed: UInt64(format.name.utf8.reduce(0) { $0 &* 31 &+ Int($1) } & 0xFFFF))
        var checked = 0
        for other in Self.formats where other.name != format.name {
            // Lossless when the other keeps every bit (an integer's bits never fit a float exactly
            // the other way round: floats are finer near zero).
            guard other.precision >= format.precision, !format.isFloat || other.isFloat else { continue }
            let there = convertPCM(original, from: format.asbd, to: other.asbd, chunk: 500)
            #expect(there.status == noErr, "\(format) → \(other)")
            let back = convertPCM(there.output, from: other.asbd, to: format.asbd, chunk: 700)
            #expect(back.status == noErr, "\(other) → \(format)")
            #expect(back.output == original, "\(format) → \(other) → \(format) is not exact")
            checked += 1
        }
        #expect(checked > 0 || format.precision == 53)
    }

    @Test func int16ToFloat32IsExactAndFloatClipsToInt16() throws {
        let values: [Int16] = [0, 1, -1, 32_767, -32_768, 12_345, -23_456]
        let floatsOut = convertPCM([bytes(of: values)], from: pcmFormat(channels: 1, bits: 16), to: pcmFormat(channels: 1, bits: 32, float: true))
        #expect(floats(of: floatsOut.output[0]) == values.map { Float($0) / 32_768 })
        // Out of range, and not numbers at all: clipped, and 0.
        let wild: [Float] = [1.5, -2, 0.999_999, .nan, .infinity, -.infinity, 1e30]
        let clipped = convertPCM([bytes(of: wild)], from: pcmFormat(channels: 1, bits: 32, float: true), to: pcmFormat(channels: 1, bits: 16))
        #expect(int16s(of: clipped.output[0]) == [32_767, -32_768, 32_767, 0, 32_767, -32_768, 32_767])
        // A float output never carries NaN or an infinity either.
        let cleaned = convertPCM([bytes(of: wild)], from: pcmFormat(channels: 1, bits: 32, float: true), to: pcmFormat(channels: 1, bits: 64, float: true))
        let doubles = cleaned.output[0].withUnsafeBytes { Array($0.bindMemory(to: Double.self)) }
        #expect(doubles.allSatisfy { $0.isFinite })
        #expect(doubles[3] == 0 && doubles[4] == 1 && doubles[5] == -1)
    }

    @Test func eightTwentyFourIsSixteenBitsShiftedByNine() throws {
        let values: [Int16] = [0, 1, -1, 32_767, -32_768, 1_000]
        let fixed = convertPCM([bytes(of: values)], from: pcmFormat(channels: 1, bits: 16), to: pcmFormat(channels: 1, bits: 32, fractionBits: 24))
        let words = fixed.output[0].withUnsafeBytes { Array($0.bindMemory(to: Int32.self)) }
        #expect(words == values.map { Int32($0) << 9 })
    }

    @Test func nonInterleavedIsOneBufferAChannel() throws {
        // Left 1, 2, 3; right -1, -2, -3, interleaved Int16 → non-interleaved Float32.
        let interleaved: [Int16] = [1, -1, 2, -2, 3, -3]
        let out = convertPCM([bytes(of: interleaved)], from: pcmFormat(bits: 16), to: pcmFormat(bits: 32, float: true, nonInterleaved: true))
        #expect(out.output.count == 2)
        #expect(floats(of: out.output[0]) == [1, 2, 3].map { Float($0) / 32_768 })
        #expect(floats(of: out.output[1]) == [-1, -2, -3].map { Float($0) / 32_768 })
    }

    @Test func convertBufferAndConvertComplexBufferAtOneRate() throws {
        var from = pcmFormat(bits: 16), to = pcmFormat(bits: 32, float: true)
        var converter: AudioConverterRef?
        #expect(AudioConverterNew(&from, &to, &converter) == noErr)
        defer { AudioConverterDispose(converter!) }
        var input: [Int16] = [100, -100, 200, -200]
        var output = [Float](repeating: 0, count: 4)
        var size = UInt32(output.count * 4)
        #expect(AudioConverterConvertBuffer(converter!, UInt32(input.count * 2), &input, &size, &output) == noErr)
        #expect(size == 16)
        #expect(output == [100, -100, 200, -200].map { Float($0) / 32_768 })
        // Not whole frames in, or too little room out: Apple's codes.
        #expect(AudioConverterConvertBuffer(converter!, 6, &input, &size, &output) == kAudioConverterErr_InvalidInputSize)
        size = 8
        #expect(AudioConverterConvertBuffer(converter!, 8, &input, &size, &output) == kAudioConverterErr_InvalidOutputSize)

        // ConvertComplexBuffer, with buffer lists (the iOS overlay's helpers).
        let inList = AudioBufferList.allocate(maximumBuffers: 1), outList = AudioBufferList.allocate(maximumBuffers: 1)
        defer { free(inList.unsafeMutablePointer); free(outList.unsafeMutablePointer) }
        input.withUnsafeMutableBufferPointer { inList[0] = AudioBuffer($0, numberOfChannels: 2) }
        output.withUnsafeMutableBufferPointer { outList[0] = AudioBuffer($0, numberOfChannels: 2) }
        #expect(AudioConverterConvertComplexBuffer(converter!, 2, inList.unsafePointer, outList.unsafeMutablePointer) == noErr)
        #expect(outList[0].mDataByteSize == 16)
        #expect(Array(UnsafeBufferPointer<Float>(outList[0])) == [100, -100, 200, -200].map { Float($0) / 32_768 })

        // A converter that resamples cannot convert a buffer at a time.
        var resampling = pcmFormat(rate: 48_000, bits: 32, float: true)
        var other: AudioConverterRef?
        #expect(AudioConverterNew(&from, &resampling, &other) == noErr)
        defer { AudioConverterDispose(other!) }
        size = 16
        #expect(AudioConverterConvertBuffer(other!, 8, &input, &size, &output) == kAudioConverterErr_OperationNotSupported)
    }

    @Test func currentStreamDescriptionsAreCompleted() throws {
        // Apple's converter fills what a description leaves 0.
        var from = AudioStreamBasicDescription(mSampleRate: 44_100, mFormatID: kAudioFormatLinearPCM,
                                               mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
                                               mBytesPerPacket: 0, mFramesPerPacket: 0, mBytesPerFrame: 0, mChannelsPerFrame: 2,
                                               mBitsPerChannel: 16, mReserved: 0)
        var to = pcmFormat(bits: 32, float: true)
        var converter: AudioConverterRef?
        #expect(AudioConverterNew(&from, &to, &converter) == noErr)
        defer { AudioConverterDispose(converter!) }
        var current = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioConverterGetProperty(converter!, kAudioConverterCurrentInputStreamDescription, &size, &current) == noErr)
        #expect(current.mBytesPerFrame == 4 && current.mBytesPerPacket == 4 && current.mFramesPerPacket == 1)
    }
}
