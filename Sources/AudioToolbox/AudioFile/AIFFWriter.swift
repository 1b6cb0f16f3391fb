// AIFF and AIFF-C files as Audio File Services writes them: 'FORM', then ('FVER' for AIFF-C)
// 'COMM' and 'SSND', the sizes and the frame count set at close. AIFF holds big-endian signed
// linear PCM; AIFF-C also little-endian 16-bit ('sowt'), big-endian float ('fl32', 'fl64'), µ-law,
// A-law and Apple IMA4 (whose COMM counts packets, as Apple's files do).

struct AIFFWriter: ContainerWriter {
    /// AIFF-C rather than AIFF.
    let compressed: Bool

    func check(_ format: AudioStreamBasicDescription) throws(FileStatus) {
        guard format.mChannelsPerFrame > 0, format.mChannelsPerFrame <= 0x7FFF, format.mSampleRate > 0,
              format.mSampleRate.isFinite else { throw .unsupportedDataFormat }
        _ = try compression(format)
    }

    /// AIFF-C's compression type and name for `format`, or `kAudioFileUnsupportedDataFormatError`.
    private func compression(_ format: AudioStreamBasicDescription) throws(FileStatus) -> (UInt32, String) {
        switch format.mFormatID {
        case kAudioFormatLinearPCM:
            let flags = format.mFormatFlags
            let bytes = format.mBytesPerFrame / format.mChannelsPerFrame
            guard flags & kAudioFormatFlagIsNonInterleaved == 0, format.mFramesPerPacket == 1,
                  format.mBytesPerPacket == format.mBytesPerFrame, bytes * format.mChannelsPerFrame == format.mBytesPerFrame,
                  format.mBitsPerChannel > 0, format.mBitsPerChannel <= bytes * 8 else { throw .unsupportedDataFormat }
            let big = flags & kAudioFormatFlagIsBigEndian != 0
            if flags & kAudioFormatFlagIsFloat != 0 {
                guard compressed, big, format.mBitsPerChannel == bytes * 8, bytes == 4 || bytes == 8 else { throw .unsupportedDataFormat }
                return bytes == 4 ? (fourCC("fl32"), "32-bit floating point") : (fourCC("fl64"), "64-bit floating point")
            }
            guard flags & kAudioFormatFlagIsSignedInteger != 0, (1...4).contains(bytes) else { throw .unsupportedDataFormat }
            if big || bytes == 1 { return (fourCC("NONE"), "not compressed") }
            guard compressed, bytes == 2 else { throw .unsupportedDataFormat }
            return (fourCC("sowt"), "")
        case kAudioFormatULaw where compressed:
            return (fourCC("ulaw"), "\u{B5}Law 2:1")
        case kAudioFormatALaw where compressed:
            return (fourCC("alaw"), "ALaw 2:1")
        case kAudioFormatAppleIMA4 where compressed:
            guard format.mBytesPerPacket == 34 * format.mChannelsPerFrame, format.mFramesPerPacket == 64 else {
                throw .unsupportedDataFormat
            }
            return (fourCC("ima4"), "IMA 4:1")
        default:
            throw .unsupportedDataFormat
        }
    }

    func header(_ layout: FileLayout, frozen: FileLayout?) throws(FileStatus) -> [UInt8] {
        let format = layout.format
        let (type, name) = try compression(format)
        var comm = ByteBuilder()
        comm.big(UInt16(format.mChannelsPerFrame))
        comm.big(UInt32(clamping: layout.packetCount))
        let bits = format.mFormatID == kAudioFormatLinearPCM ? format.mBitsPerChannel
            : format.mFormatID == kAudioFormatAppleIMA4 ? 16 : 8
        comm.big(UInt16(bits))
        comm.append(Self.extended80(format.mSampleRate))
        if compressed {
            comm.big(type)
            let text = Array(name.utf8.prefix(255))
            comm.append([UInt8(text.count)] + text)
            if (text.count + 1) & 1 == 1 { comm.append([0]) }   // a Pascal string padded to an even size
        }
        var b = ByteBuilder()
        b.code("FORM")
        let formSize = 4 + (compressed ? 12 : 0) + 8 + comm.bytes.count + 16 + Int(layout.dataByteCount) + Int(layout.dataByteCount & 1)
        b.big(UInt32(clamping: formSize))
        b.code(compressed ? "AIFC" : "AIFF")
        if compressed {
            b.code("FVER")
            b.big(UInt32(4))
            b.big(UInt32(0xA280_5140))   // AIFF-C version 1
        }
        b.code("COMM")
        b.big(UInt32(comm.bytes.count))
        b.append(comm.bytes)
        b.code("SSND")
        b.big(UInt32(clamping: 8 + layout.dataByteCount))
        b.big(UInt32(0))   // offset
        b.big(UInt32(0))   // block size
        return b.bytes
    }

    func trailer(_ layout: FileLayout, frozen: FileLayout?) throws(FileStatus) -> [UInt8] {
        layout.dataByteCount & 1 == 1 ? [0] : []   // IFF pads a chunk to an even size
    }

    /// `value` as an IEEE 754 80-bit extended float, big-endian (COMM's sample rate).
    static func extended80(_ value: Double) -> [UInt8] {
        var b = ByteBuilder()
        guard value > 0, value.isFinite else {
            b.zeros(10)
            return b.bytes
        }
        let exponent = Int(value.exponent)
        let mantissa = UInt64(value.significandBitPattern) << 11 | 1 << 63
        b.big(UInt16(exponent + 16383))
        b.big(mantissa)
        return b.bytes
    }
}
