// The answer to each property of a stream parser, as the bytes AudioFileStreamGetProperty copies
// out. Most are a file's (the property IDs are Audio File Services' own four-character codes), and
// FileProperty answers them from the header's layout; what a stream knows differently (counts the
// header may not state, sizes and offsets of frames not seen yet) is answered here.

extension FileStatus {
    /// `kAudioFileStreamError_ValueUnknown` ('unk?'): the header does not state the property.
    static let valueUnknown = FileStatus(status: kAudioFileStreamError_ValueUnknown)
    /// `kAudioFileStreamError_IllegalOperation` ('nope').
    static let illegalOperation = FileStatus(status: kAudioFileStreamError_IllegalOperation)
    /// `kAudioFileStreamError_DiscontinuityCantRecover` ('dsc!').
    static let discontinuityCantRecover = FileStatus(status: kAudioFileStreamError_DiscontinuityCantRecover)
}

/// The value as its bytes.
private func bytes<T: BitwiseCopyable>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value) { Array($0) }
}

enum StreamProperty {
    /// The properties a parser answers (once its header is parsed; ReadyToProducePackets always).
    static let answered: Set<AudioFileStreamPropertyID> = [
        kAudioFileStreamProperty_ReadyToProducePackets, kAudioFileStreamProperty_FileFormat, kAudioFileStreamProperty_DataFormat,
        kAudioFileStreamProperty_FormatList, kAudioFileStreamProperty_MagicCookieData, kAudioFileStreamProperty_AudioDataByteCount,
        kAudioFileStreamProperty_AudioDataPacketCount, kAudioFileStreamProperty_MaximumPacketSize,
        kAudioFileStreamProperty_DataOffset, kAudioFileStreamProperty_ChannelLayout, kAudioFileStreamProperty_PacketToFrame,
        kAudioFileStreamProperty_FrameToPacket, kAudioFileStreamProperty_PacketToByte, kAudioFileStreamProperty_ByteToPacket,
        kAudioFileStreamProperty_PacketTableInfo, kAudioFileStreamProperty_PacketSizeUpperBound,
        kAudioFileStreamProperty_AverageBytesPerPacket, kAudioFileStreamProperty_BitRate, kAudioFileStreamProperty_InfoDictionary,
    ]

    /// The translations: their question is read from the caller's buffer.
    private static let translations: [AudioFileStreamPropertyID: Int] = [
        kAudioFileStreamProperty_PacketToFrame: MemoryLayout<AudioFramePacketTranslation>.size,
        kAudioFileStreamProperty_FrameToPacket: MemoryLayout<AudioFramePacketTranslation>.size,
        kAudioFileStreamProperty_PacketToByte: MemoryLayout<AudioBytePacketTranslation>.size,
        kAudioFileStreamProperty_ByteToPacket: MemoryLayout<AudioBytePacketTranslation>.size,
    ]

    /// The size of `id`'s value.
    static func size(_ id: AudioFileStreamPropertyID, of parser: StreamParser) throws(FileStatus) -> Int {
        if let size = translations[id] ?? (id == kAudioFileStreamProperty_InfoDictionary ? MemoryLayout<UnsafeRawPointer>.size : nil) {
            guard parser.header != nil else { throw .moreData }
            return size
        }
        return try value(id, of: parser, question: UnsafeRawBufferPointer(start: nil, count: 0)).count
    }

    /// The value of `id`; the translations read their question from `question`.
    static func value(_ id: AudioFileStreamPropertyID, of parser: StreamParser,
                      question: UnsafeRawBufferPointer) throws(FileStatus) -> [UInt8] {
        guard answered.contains(id) else { throw .unsupportedProperty }
        if id == kAudioFileStreamProperty_ReadyToProducePackets { return bytes(UInt32(parser.isReady ? 1 : 0)) }
        guard let header = parser.header else { throw .moreData }   // kAudioFileStreamError_DataUnavailable
        let layout = header.layout
        switch id {
        case kAudioFileStreamProperty_AudioDataByteCount:
            guard header.byteCountKnown else { throw .valueUnknown }
            return bytes(UInt64(layout.dataByteCount))
        case kAudioFileStreamProperty_AudioDataPacketCount:
            guard header.packetCountKnown else { throw .valueUnknown }
            return bytes(UInt64(layout.packetCount))
        case kAudioFileStreamProperty_MaximumPacketSize, kAudioFileStreamProperty_PacketSizeUpperBound:
            return bytes(header.packetSizeUpperBound)
        case kAudioFileStreamProperty_AverageBytesPerPacket:
            guard let average = parser.averagePacketBytes else { throw .valueUnknown }
            return bytes(Float64(average))
        case kAudioFileStreamProperty_BitRate:
            let format = layout.format
            if parser.cutsFrames || format.mBytesPerPacket > 0 {
                // Bytes a frame (header included) or a packet, over the frames a packet lasts.
                guard let average = parser.cutsFrames ? parser.averageFrameBytes : Double(format.mBytesPerPacket),
                      format.mFramesPerPacket > 0 else { throw .valueUnknown }
                let rate = average * 8 * format.mSampleRate / Double(format.mFramesPerPacket)
                return bytes(UInt32(clamping: Int64(rate.isFinite ? rate.rounded() : 0)))
            }
            return try fileValue(kAudioFilePropertyBitRate, layout, question)
        case kAudioFileStreamProperty_PacketToByte where parser.cutsFrames:
            var translation = try read(AudioBytePacketTranslation.self, from: question)
            let (offset, estimated) = try parser.offset(ofPacket: translation.mPacket)
            translation.mByte = offset
            translation.mByteOffsetInPacket = 0
            translation.mFlags = estimated ? .isEstimate : []
            return bytes(translation)
        case kAudioFileStreamProperty_ByteToPacket where parser.cutsFrames:
            var translation = try read(AudioBytePacketTranslation.self, from: question)
            guard translation.mByte >= 0 else { throw .invalidPacketOffset }
            guard let (packet, offset) = parser.estimatedPacket(forByte: translation.mByte) else { throw .valueUnknown }
            translation.mPacket = packet
            translation.mByteOffsetInPacket = offset
            translation.mFlags = .isEstimate
            return bytes(translation)
        case kAudioFileStreamProperty_MagicCookieData, kAudioFileStreamProperty_ChannelLayout,
             kAudioFileStreamProperty_PacketTableInfo:
            do throws(FileStatus) {
                return try fileValue(id, layout, question)
            } catch where error == .unsupportedProperty {
                throw .valueUnknown   // the file has none (before its data, at least)
            }
        default:
            // FileFormat, DataFormat, FormatList, DataOffset, and the translations of constant-size
            // packets and packet tables: as a file answers them.
            return try fileValue(id, layout, question)
        }
    }

    /// kAudioFileStreamProperty_InfoDictionary: a new CFDictionaryRef, retained for the caller, of
    /// the tags the header holds (tags after the audio data, an ID3v1 tag or a trailing chunk, are
    /// never seen by a stream), with the approximate duration when the header states the length.
    static func infoDictionary(of parser: StreamParser) throws(FileStatus) -> UnsafeRawPointer {
        guard let header = parser.header else { throw .moreData }
        return InfoDictionary.make(header.layout, withDuration: header.packetCountKnown)
    }

    /// A file's answer, its codes a stream's.
    private static func fileValue(_ id: AudioFilePropertyID, _ layout: FileLayout,
                                  _ question: UnsafeRawBufferPointer) throws(FileStatus) -> [UInt8] {
        do throws(FileStatus) {
            return try FileProperty.value(id, of: layout, optimized: true, question: question)
        } catch where error == .endOfFile || error == .position {
            throw .invalidPacketOffset
        }
    }

    /// A translation's question from the caller's buffer, which must hold it whole.
    private static func read<T: BitwiseCopyable>(_ type: T.Type, from question: UnsafeRawBufferPointer) throws(FileStatus) -> T {
        guard question.count >= MemoryLayout<T>.size, question.baseAddress != nil else { throw .badPropertySize }
        return question.loadUnaligned(as: T.self)
    }
}
