// AAC in ADTS (.aac, .adts): frames of one raw AAC access unit each behind a 7- or 9-byte header.
// The packets are the access units without their headers, as an Audio Queue or a converter given
// 'aac ' consumes them; the magic cookie is the AudioSpecificConfig the headers describe.

enum ADTSParser {
    /// One ADTS header's facts.
    struct Header {
        var objectType: UInt8
        var rateIndex: UInt8
        var channelConfiguration: UInt8
        var headerBytes: Int
        var frameBytes: Int
        var blocks: Int
    }

    static let rates = [96_000, 88_200, 64_000, 48_000, 44_100, 32_000, 24_000, 22_050, 16_000, 12_000, 11_025, 8_000, 7_350]

    /// The header at the start of `b`, or nil.
    static func header(_ b: ArraySlice<UInt8>) -> Header? {
        guard b.count >= 7 else { return nil }
        let s = b.startIndex
        guard b[s] == 0xFF, b[s + 1] & 0xF6 == 0xF0 else { return nil }   // sync, layer 0
        let headerBytes = b[s + 1] & 1 == 1 ? 7 : 9
        let rateIndex = (b[s + 2] >> 2) & 0xF
        let frameBytes = Int(b[s + 3] & 3) << 11 | Int(b[s + 4]) << 3 | Int(b[s + 5] >> 5)
        guard Int(rateIndex) < rates.count, frameBytes > headerBytes else { return nil }
        return Header(objectType: (b[s + 2] >> 6) + 1, rateIndex: rateIndex,
                      channelConfiguration: (b[s + 2] & 1) << 2 | b[s + 3] >> 6, headerBytes: headerBytes,
                      frameBytes: frameBytes, blocks: Int(b[s + 6] & 3) + 1)
    }

    /// Whether the file (after an ID3v2 tag, if any) starts with an ADTS header.
    static func matches(_ source: ByteSource, head: [UInt8]) -> Bool {
        let start = MPEGAudioParser.id3Size(head)
        guard let bytes = try? source.bytes(at: start, count: 7) else { return false }
        return header(bytes[...]) != nil
    }

    static func parse(_ source: ByteSource, size: Int64) throws(FileStatus) -> FileLayout {
        let dataStart = MPEGAudioParser.id3Size(try source.bytes(at: 0, count: 10))
        guard let first = header(try source.bytes(at: dataStart, count: 9)[...]) else { throw .invalidFile }
        guard first.blocks == 1 else { throw .unsupportedDataFormat }   // several access units a frame: not yet
        var packets: [AudioStreamPacketDescription] = []
        var position = dataStart
        var block: [UInt8] = []
        var blockStart: Int64 = -1
        while position + 7 <= size {
            if blockStart < 0 || position + 9 > blockStart + Int64(block.count) {
                block = try source.bytes(at: position, count: 1 << 16)
                blockStart = position
            }
            guard let frame = header(block[Int(position - blockStart)...]), frame.rateIndex == first.rateIndex,
                  frame.blocks == 1 else { break }   // the end, or a tag
            guard position + Int64(frame.frameBytes) <= size else { break }   // a truncated last frame
            packets.append(AudioStreamPacketDescription(mStartOffset: position + Int64(frame.headerBytes) - dataStart,
                                                        mVariableFramesInPacket: 0,
                                                        mDataByteSize: UInt32(frame.frameBytes - frame.headerBytes)))
            position += Int64(frame.frameBytes)
        }
        guard !packets.isEmpty else { throw .invalidFile }
        // AudioSpecificConfig: object type (5 bits), rate index (4), channel configuration (4), 3 zero bits.
        let config = UInt16(first.objectType) << 11 | UInt16(first.rateIndex) << 7 | UInt16(first.channelConfiguration) << 3
        let cookie = [UInt8(config >> 8), UInt8(config & 0xFF)]
        var asbd = AudioStreamBasicDescription()
        asbd.mFormatID = kAudioFormatMPEG4AAC
        let completed = cookie.withUnsafeBytes { raw in
            Result { () throws(FormatStatus) -> AudioStreamBasicDescription in
                var filled = asbd
                try FormatInfo.complete(&filled, cookie: raw)
                return filled
            }
        }
        guard case .success(let described) = completed, described.mChannelsPerFrame > 0 else { throw .unsupportedDataFormat }
        asbd = described
        return FileLayout(fileType: kAudioFileAAC_ADTSType, format: asbd, dataOffset: dataStart, dataByteCount: position - dataStart,
                          packetCount: Int64(packets.count), packets: packets, magicCookie: cookie, channelLayout: nil,
                          packetTable: nil, sourceBitDepth: nil)
    }
}
