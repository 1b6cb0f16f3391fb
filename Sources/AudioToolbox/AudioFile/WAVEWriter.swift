// WAVE files as Audio File Services writes them: 'RIFF', 'WAVE', 'fmt ' and 'data', the sizes set
// at close. Little-endian linear PCM (8-bit unsigned, 16, 24 and 32-bit signed, 32 and 64-bit
// float), µ-law and A-law. WAVE_FORMAT_EXTENSIBLE for more than two channels or samples not
// filling their bytes, with the channel mask of a bitmap channel layout.

struct WAVEWriter: ContainerWriter {
    var storesChannelLayout: Bool { true }

    func check(_ format: AudioStreamBasicDescription) throws(FileStatus) {
        guard format.mChannelsPerFrame > 0, format.mChannelsPerFrame <= 0xFFFF, format.mSampleRate >= 1,
              format.mSampleRate <= Double(UInt32.max) else { throw .unsupportedDataFormat }
        switch format.mFormatID {
        case kAudioFormatLinearPCM:
            let flags = format.mFormatFlags
            let bytes = format.mChannelsPerFrame > 0 ? format.mBytesPerFrame / format.mChannelsPerFrame : 0
            let isFloat = flags & kAudioFormatFlagIsFloat != 0
            // nBlockAlign, the bytes of a frame, is 16 bits in WAVE.
            guard flags & kAudioFormatFlagIsBigEndian == 0, flags & kAudioFormatFlagIsNonInterleaved == 0,
                  format.mFramesPerPacket == 1, format.mBytesPerPacket == format.mBytesPerFrame, format.mBytesPerFrame <= 0xFFFF,
                  bytes * format.mChannelsPerFrame == format.mBytesPerFrame, format.mBitsPerChannel > 0,
                  format.mBitsPerChannel <= bytes * 8 else { throw .unsupportedDataFormat }
            if isFloat {
                guard format.mBitsPerChannel == bytes * 8, bytes == 4 || bytes == 8 else { throw .unsupportedDataFormat }
            } else {
                // WAVE's 8-bit samples are unsigned, the others signed.
                let signed = flags & kAudioFormatFlagIsSignedInteger != 0
                guard (1...4).contains(bytes), signed == (bytes > 1) else { throw .unsupportedDataFormat }
            }
        case kAudioFormatULaw, kAudioFormatALaw:
            guard format.mBytesPerPacket == format.mChannelsPerFrame, format.mFramesPerPacket == 1 else {
                throw .unsupportedDataFormat
            }
        default:
            throw .unsupportedDataFormat
        }
    }

    func header(_ layout: FileLayout, frozen: FileLayout?) throws(FileStatus) -> [UInt8] {
        let format = layout.format
        let channels = format.mChannelsPerFrame
        let blockAlign = format.mBytesPerPacket
        let containerBits = blockAlign / channels * 8
        var tag: UInt16
        switch format.mFormatID {
        case kAudioFormatULaw: tag = 7
        case kAudioFormatALaw: tag = 6
        default: tag = format.mFormatFlags & kAudioFormatFlagIsFloat != 0 ? 3 : 1
        }
        let mask = channelMask(layout.channelLayout)
        let extensible = tag <= 3 && (channels > 2 || format.mBitsPerChannel != containerBits || mask != nil)
        var fmt = ByteBuilder()
        fmt.little(extensible ? UInt16(0xFFFE) : tag)
        fmt.little(UInt16(channels))
        fmt.little(UInt32(format.mSampleRate.rounded()))
        fmt.little(UInt32(format.mSampleRate.rounded()) &* blockAlign)
        fmt.little(UInt16(blockAlign))
        fmt.little(UInt16(containerBits))
        if extensible {
            fmt.little(UInt16(22))
            fmt.little(UInt16(format.mBitsPerChannel))
            fmt.little(mask ?? 0)
            fmt.little(UInt32(tag))   // the sub-format GUID: the tag, then KSDATAFORMAT's fixed tail
            fmt.append([0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71])
        } else if tag != 1 {
            fmt.little(UInt16(0))     // cbSize, for the formats that are not plain PCM
        }
        var b = ByteBuilder()
        b.code("RIFF")
        let riffSize = 4 + 8 + fmt.bytes.count + 8 + Int(layout.dataByteCount) + Int(layout.dataByteCount & 1)
        b.little(UInt32(clamping: riffSize))
        b.code("WAVE")
        b.code("fmt ")
        b.little(UInt32(fmt.bytes.count))
        b.append(fmt.bytes)
        b.code("data")
        b.little(UInt32(clamping: layout.dataByteCount))
        return b.bytes
    }

    func trailer(_ layout: FileLayout, frozen: FileLayout?) throws(FileStatus) -> [UInt8] {
        layout.dataByteCount & 1 == 1 ? [0] : []   // RIFF pads a chunk to an even size
    }

    /// The channel mask of a layout stated as a bitmap, or nil.
    private func channelMask(_ channelLayout: [UInt8]?) -> UInt32? {
        guard let channelLayout, channelLayout.count >= 8 else { return nil }
        let tag = channelLayout.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        guard tag == kAudioChannelLayoutTag_UseChannelBitmap else { return nil }
        return channelLayout.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 4, as: UInt32.self) }
    }
}
