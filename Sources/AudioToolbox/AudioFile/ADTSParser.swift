// AAC in ADTS (.aac, .adts): frames of one raw AAC access unit each behind a 7- or 9-byte header.
// The packets are the access units without their headers, as an Audio Queue or a converter given
// 'aac ' consumes them; the magic cookie is the AudioSpecificConfig the headers describe. The frames
// are cut by FrameScanner, which Audio File Stream Services shares; so are `start` and `format`.

enum ADTSParser {
    /// One ADTS header's facts.
    struct Header: Equatable, Sendable {
        var objectType: UInt8
        var rateIndex: UInt8
        var channelConfiguration: UInt8
        var headerBytes: Int
        var frameBytes: Int
        var blocks: Int

        /// Whether this frame belongs to the stream `first` began (the same rate and access units a frame).
        func continues(_ first: Header) -> Bool { rateIndex == first.rateIndex && blocks == first.blocks }
    }

    static let rates = [96_000, 88_200, 64_000, 48_000, 44_100, 32_000, 24_000, 22_050, 16_000, 12_000, 11_025, 8_000, 7_350]

    /// The longest ADTS frame (its length field has 13 bits).
    static let largestFrame = (1 << 13) - 1

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
    static func matches(_ source: ByteSource, head: [UInt8]) throws(FileStatus) -> Bool {
        let start = MPEGAudioParser.id3Size(head)
        return header(try source.bytes(at: start, count: 7)[...]) != nil
    }

    /// Where a stream's frames start (after an ID3v2 tag and up to 64 KB of junk; two frames in a row).
    static func start(_ source: ByteSource, size: Int64) throws(FileStatus)
        -> (dataStart: Int64, first: Header, scanner: FrameScanner, tags: [(key: String, value: String)]) {
        let id3 = try ID3Tag.read(source)
        let position = id3.size
        var scanner = FrameScanner(.adts)
        var reader = WindowedReader(source)
        var found: Int64?
        try scanner.walk(&reader, from: position, size: size, skipLimit: 65_536) { at, _, _ in
            found = at
            return false
        }
        guard let found, case .adts(let first)? = scanner.reference else { throw .invalidFile }
        guard first.blocks == 1 else { throw .unsupportedDataFormat }   // several access units a frame: not yet
        return (found, first, scanner, id3.tags)
    }

    /// The description and magic cookie (the AudioSpecificConfig: object type, rate index, channel
    /// configuration) the first header states, completed by Audio Format Services' own reader.
    static func format(_ first: Header) throws(FileStatus) -> (AudioStreamBasicDescription, [UInt8]) {
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
        return (described, cookie)
    }

    static func parse(_ source: ByteSource, size: Int64) throws(FileStatus) -> FileLayout {
        var (dataStart, first, scanner, tags) = try start(source, size: size)
        let (asbd, cookie) = try format(first)
        var packets: [AudioStreamPacketDescription] = []
        var end = dataStart
        var reader = WindowedReader(source)
        try scanner.walk(&reader, from: dataStart, size: size) { at, length, packet in
            packets.append(AudioStreamPacketDescription(mStartOffset: at + Int64(packet.lowerBound) - dataStart,
                                                        mVariableFramesInPacket: 0, mDataByteSize: UInt32(packet.count)))
            end = at + Int64(length)
            return true
        }
        guard !packets.isEmpty else { throw .invalidFile }
        return FileLayout(fileType: kAudioFileAAC_ADTSType, format: asbd, dataOffset: dataStart, dataByteCount: end - dataStart,
                          packetCount: Int64(packets.count), packets: packets, magicCookie: cookie, channelLayout: nil,
                          packetTable: nil, sourceBitDepth: nil, tags: tags)
    }
}
