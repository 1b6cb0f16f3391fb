// Core Audio Format files as Audio File Services writes them: 'caff', 'desc', the channel layout
// ('chan') and magic cookie ('kuki') when set, then 'data' (its size -1 while the file is being
// written, as CAF allows, so a file cut off by a crash still reads); at close the data's size, and
// after the data the packet table ('pakt') for variable packets or a stated priming and remainder.
// Any format goes in a CAF file.

struct CAFWriter: ContainerWriter {
    var maximumDataBytes: Int64 { Int64.max / 2 }
    var storesCookie: Bool { true }
    var storesChannelLayout: Bool { true }

    /// Any format, as a description CAF states and CAFParser reads back (its `describe`): a rate,
    /// 1–1024 channels, packets of at most 16 MB and 16 M frames; linear PCM interleaved, 1–64 bits
    /// (floats 32 or 64) in whole bytes a sample; G.711 a byte a sample; IMA4 its 34-byte packets.
    func check(_ format: AudioStreamBasicDescription) throws(FileStatus) {
        let channels = format.mChannelsPerFrame, bytesPerPacket = format.mBytesPerPacket, bits = format.mBitsPerChannel
        guard FileLimits.validRate(format.mSampleRate), channels > 0, channels <= FileLimits.channels,
              bytesPerPacket <= FileLimits.packetBytes, format.mFramesPerPacket <= FileLimits.packetBytes else { throw .unsupportedDataFormat }
        switch format.mFormatID {
        case kAudioFormatLinearPCM:
            let isFloat = format.mFormatFlags & kAudioFormatFlagIsFloat != 0
            guard format.mFramesPerPacket == 1, bits > 0, bits <= 64, bytesPerPacket > 0, bytesPerPacket % channels == 0,
                  bits <= bytesPerPacket / channels * 8, !isFloat || bits == 32 || bits == 64 else { throw .unsupportedDataFormat }
        case kAudioFormatULaw, kAudioFormatALaw:
            guard bytesPerPacket == channels, format.mFramesPerPacket == 1 else { throw .unsupportedDataFormat }
        case kAudioFormatAppleIMA4:
            guard bytesPerPacket == 34 * channels, format.mFramesPerPacket == 64 else { throw .unsupportedDataFormat }
        default:
            break
        }
    }

    func header(_ layout: FileLayout, frozen: FileLayout?) throws(FileStatus) -> [UInt8] {
        var b = ByteBuilder()
        b.code("caff")
        b.big(UInt16(1))
        b.big(UInt16(0))
        let format = layout.format
        chunk(&b, "desc") { d in
            d.big(format.mSampleRate.bitPattern)
            d.big(format.mFormatID)
            d.big(cafFlags(format))
            d.big(format.mBytesPerPacket)
            d.big(format.mFramesPerPacket)
            d.big(format.mChannelsPerFrame)
            d.big(format.mBitsPerChannel)
        }
        // Once data is written the header keeps its size: the channel layout and cookie it holds are
        // the ones it held then; one changed later goes after the data, and its old chunk here
        // becomes 'free' (a chunk every reader skips).
        let channelLayout = frozen.map(\.channelLayout) ?? layout.channelLayout
        if let channelLayout {
            let stale = frozen != nil && layout.channelLayout != channelLayout
            chunk(&b, stale ? "free" : "chan") { $0.append(bigEndianChannelLayout(channelLayout)) }
        }
        let cookie = frozen.map(\.magicCookie) ?? layout.magicCookie
        if let cookie {
            let stale = frozen != nil && layout.magicCookie != cookie
            chunk(&b, stale ? "free" : "kuki") { $0.append(cookie) }
        }
        b.code("data")
        b.big(frozen == nil ? Int64(-1) : 4 + layout.dataByteCount)
        b.big(UInt32(0))   // the edit count
        return b.bytes
    }

    func trailer(_ layout: FileLayout, frozen: FileLayout?) throws(FileStatus) -> [UInt8] {
        var b = ByteBuilder()
        if let frozen {
            if let channelLayout = layout.channelLayout, channelLayout != frozen.channelLayout {
                chunk(&b, "chan") { $0.append(bigEndianChannelLayout(channelLayout)) }
            }
            if let cookie = layout.magicCookie, cookie != frozen.magicCookie {
                chunk(&b, "kuki") { $0.append(cookie) }
            }
        }
        let format = layout.format
        let variable = format.mBytesPerPacket == 0 || format.mFramesPerPacket == 0
        guard variable || layout.packetTable != nil else { return b.bytes }
        let table = writtenPacketTable(layout)
        chunk(&b, "pakt") { p in
            p.big(variable ? layout.packetCount : 0)
            p.big(table.mNumberValidFrames)
            p.big(table.mPrimingFrames)
            p.big(table.mRemainderFrames)
            guard variable, let packets = layout.packets else { return }
            for packet in packets {
                if format.mBytesPerPacket == 0 { varint(&p, UInt64(packet.mDataByteSize)) }
                if format.mFramesPerPacket == 0 { varint(&p, UInt64(packet.mVariableFramesInPacket)) }
            }
        }
        return b.bytes
    }

    /// A chunk: its type, its 64-bit size, its body.
    private func chunk(_ b: inout ByteBuilder, _ type: StaticString, _ body: (inout ByteBuilder) -> Void) {
        var inner = ByteBuilder()
        body(&inner)
        b.code(type)
        b.big(Int64(inner.bytes.count))
        b.append(inner.bytes)
    }

    /// CAF's flags for linear PCM (bit 0 float, bit 1 little-endian); other formats' flags as they are.
    private func cafFlags(_ format: AudioStreamBasicDescription) -> UInt32 {
        guard format.mFormatID == kAudioFormatLinearPCM else { return format.mFormatFlags }
        return (format.mFormatFlags & kAudioFormatFlagIsFloat != 0 ? 1 : 0)
            | (format.mFormatFlags & kAudioFormatFlagIsBigEndian == 0 ? 2 : 0)
    }

    /// A packet table entry: 7 bits a byte, most significant first, the high bit set on all but the last.
    private func varint(_ b: inout ByteBuilder, _ value: UInt64) {
        var groups: [UInt8] = [UInt8(value & 0x7F)]
        var rest = value >> 7
        while rest > 0 {
            groups.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        b.append(groups.reversed())
    }
}

/// The priming and remainder a file states: what the caller set, made to add up to the frames
/// written (the remainder gives way, then the priming), or none of either.
func writtenPacketTable(_ layout: FileLayout) -> AudioFilePacketTableInfo {
    let total = layout.totalFrames
    guard let set = layout.packetTable else {
        return AudioFilePacketTableInfo(mNumberValidFrames: total, mPrimingFrames: 0, mRemainderFrames: 0)
    }
    let priming = min(Int64(max(set.mPrimingFrames, 0)), total)
    let remainder = min(Int64(max(set.mRemainderFrames, 0)), total - priming)
    return AudioFilePacketTableInfo(mNumberValidFrames: total - priming - remainder, mPrimingFrames: Int32(clamping: priming),
                                    mRemainderFrames: Int32(clamping: remainder))
}

/// A channel layout as Core Audio holds it in memory (native order) turned big-endian, as CAF and
/// MPEG-4 store it: the tag, the bitmap, the count, then each description's label, flags and three
/// coordinates.
func bigEndianChannelLayout(_ native: [UInt8]) -> [UInt8] {
    var b = ByteBuilder()
    let words = native.count / 4
    for index in 0..<words {
        let word = native.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self) }
        b.big(word)
    }
    return b.bytes
}
