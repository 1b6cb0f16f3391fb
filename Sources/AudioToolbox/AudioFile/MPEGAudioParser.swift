// MPEG audio files (.mp3, .mp2, .mp1): an optional ID3v2 tag, then frames, each a packet with its
// header (as Audio Queue Services and the converters consume them). A Xing, Info or VBRI frame at
// the start is a header, not audio, and is skipped, as FFmpeg's demuxer does; its LAME tag gives the
// encoder's delay and padding. The frames are cut by FrameScanner, the same decoder Audio File
// Stream Services runs over a stream's bytes; `start` is shared with it too.

enum MPEGAudioParser {
    /// One frame header's facts.
    struct Header: Equatable, Sendable {
        var layer: Int           // 1, 2, 3
        var version: Int         // 1: MPEG-1, 2: MPEG-2, 25: MPEG-2.5
        var sampleRate: Int
        var channels: Int
        /// The frame's size in bytes, header included (0 for free format: the header does not say).
        var frameBytes: Int
        var framesPerPacket: Int
        /// The bit rate in bits a second (0: free format).
        var bitRate: Int
        /// 1 when the frame carries a padding slot.
        var padding: Int

        /// A slot's size: 4 bytes in layer 1, 1 byte in layers 2 and 3.
        var slotBytes: Int { layer == 1 ? 4 : 1 }
        /// Whether the stream is free format (its frame size is found from the distance between headers).
        var isFreeFormat: Bool { bitRate == 0 }

        /// Whether this frame belongs to the stream `first` began: the same layer, version and rate,
        /// and free format only if that was.
        func continues(_ first: Header) -> Bool {
            layer == first.layer && version == first.version && sampleRate == first.sampleRate
                && isFreeFormat == first.isFreeFormat
        }

        /// The largest frame this stream can have (its highest bit rate, padded), for
        /// PacketSizeUpperBound before the frames are seen.
        func largestFrame(freeFormatBytes: Int?) -> Int {
            if isFreeFormat { return (freeFormatBytes ?? FrameScanner.freeFormatSearch) + slotBytes }
            let top = MPEGAudioParser.kilobits(version: version, layer: layer)[14] * 1000
            return MPEGAudioParser.frameBytes(layer: layer, version: version, bitRate: top, sampleRate: sampleRate, padding: 1)
        }
    }

    /// The bit rates (kbit/s) a header's index names, for a version and layer.
    static func kilobits(version: Int, layer: Int) -> [Int] {
        switch (version == 1, layer) {
        case (true, 1): [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448]
        case (true, 2): [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384]
        case (true, _): [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
        case (false, 1): [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256]
        default: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
        }
    }

    /// A frame's size from its bit rate.
    static func frameBytes(layer: Int, version: Int, bitRate: Int, sampleRate: Int, padding: Int) -> Int {
        switch layer {
        case 1: (12 * bitRate / sampleRate + padding) * 4
        case 2: 144 * bitRate / sampleRate + padding
        default: (version == 1 ? 144 : 72) * bitRate / sampleRate + padding
        }
    }

    /// The header at the start of `b`, or nil when it is not a valid MPEG audio frame header.
    static func header(_ b: ArraySlice<UInt8>) -> Header? {
        guard b.count >= 4 else { return nil }
        let s = b.startIndex
        guard b[s] == 0xFF, b[s + 1] & 0xE0 == 0xE0 else { return nil }
        let versionBits = Int(b[s + 1] >> 3) & 3
        let layerBits = Int(b[s + 1] >> 1) & 3
        let bitrateIndex = Int(b[s + 2] >> 4)
        let rateIndex = Int(b[s + 2] >> 2) & 3
        let padding = Int(b[s + 2] >> 1) & 1
        let mode = Int(b[s + 3] >> 6)
        guard versionBits != 1, layerBits != 0, bitrateIndex != 15, rateIndex != 3 else { return nil }
        let version = versionBits == 3 ? 1 : versionBits == 2 ? 2 : 25
        let layer = 4 - layerBits
        let rates = [44_100, 48_000, 32_000]
        let sampleRate = rates[rateIndex] / (version == 1 ? 1 : version == 2 ? 2 : 4)
        let bitRate = kilobits(version: version, layer: layer)[bitrateIndex] * 1000
        let framesPerPacket = layer == 1 ? 384 : layer == 2 || version == 1 ? 1152 : 576
        return Header(layer: layer, version: version, sampleRate: sampleRate, channels: mode == 3 ? 1 : 2,
                      frameBytes: bitRate == 0 ? 0 : frameBytes(layer: layer, version: version, bitRate: bitRate,
                                                                 sampleRate: sampleRate, padding: padding),
                      framesPerPacket: framesPerPacket, bitRate: bitRate, padding: padding)
    }

    /// The size of an ID3v2 tag at the start of `head`, or 0.
    static func id3Size(_ head: [UInt8]) -> Int64 {
        guard head.count >= 10, head[0] == 0x49, head[1] == 0x44, head[2] == 0x33 else { return 0 }   // "ID3"
        let size = head[6..<10].reduce(Int64(0)) { $0 << 7 | Int64($1 & 0x7F) }
        return 10 + size + (head[5] & 0x10 != 0 ? 10 : 0)
    }

    /// Whether the file starts with an ID3v2 tag or an MPEG audio frame that the next one confirms.
    static func matches(_ source: ByteSource, head: [UInt8]) throws(FileStatus) -> Bool {
        if id3Size(head) > 0 { return true }
        var scanner = FrameScanner(.mpeg)
        var reader = WindowedReader(source)
        var found = false
        do {
            try scanner.walk(&reader, from: 0, size: try source.size(), skipLimit: 0) { _, _, _ in
                found = true
                return false
            }
        } catch where error == .invalidFile {
            return false
        }
        return found
    }

    /// What a Xing, Info or VBRI frame says.
    struct XingHeader: Equatable, Sendable {
        /// The audio frames (the header frame not counted), when stated.
        var frames: Int64?
        /// The stream's bytes, the header frame counted (an ID3v2 tag not), when stated.
        var bytes: Int64?
        /// LAME's encoder delay and padding, in frames.
        var delay: Int64?
        var padding: Int64?
    }

    /// Where a stream's audio frames start, and what its first frames say.
    struct Start: Sendable {
        /// The first audio frame's place (after the header frame, when there is one).
        var dataStart: Int64
        /// The scanner, synced on the first frame.
        var scanner: FrameScanner
        /// The first frame's header.
        var first: Header
        /// The Xing, Info or VBRI frame, when the stream starts with one, and its size.
        var xing: XingHeader?
        var xingFrameBytes: Int
        /// The ID3v2 tag's tags.
        var tags: [(key: String, value: String)] = []

        /// The data's description.
        var format: AudioStreamBasicDescription {
            AudioStreamBasicDescription(mSampleRate: Double(first.sampleRate), mFormatID: first.layer == 3 ? kAudioFormatMPEGLayer3
                                            : first.layer == 2 ? kAudioFormatMPEGLayer2 : kAudioFormatMPEGLayer1,
                                        mFormatFlags: 0, mBytesPerPacket: 0, mFramesPerPacket: UInt32(first.framesPerPacket),
                                        mBytesPerFrame: 0, mChannelsPerFrame: UInt32(first.channels), mBitsPerChannel: 0, mReserved: 0)
        }

        /// The file type the layer names.
        var fileType: AudioFileTypeID { first.layer == 3 ? kAudioFileMP3Type : first.layer == 2 ? kAudioFileMP2Type : kAudioFileMP1Type }

        /// Priming and remainder from LAME's delay and padding, over `totalFrames`.
        func packetTable(totalFrames total: Int64) -> AudioFilePacketTableInfo? {
            guard let delay = xing?.delay, let padding = xing?.padding else { return nil }
            // The decoder adds 529 frames of its own delay (LAME's documented figure) to the encoder's.
            let priming = min(total, delay + 529)
            let remainder = min(total - priming, max(0, padding - 529))
            return AudioFilePacketTableInfo(mNumberValidFrames: total - priming - remainder, mPrimingFrames: Int32(priming),
                                            mRemainderFrames: Int32(remainder))
        }
    }

    /// Finds the first frame (after an ID3v2 tag and up to 64 KB of junk; two frames in a row) and
    /// reads a Xing, Info or VBRI header frame there.
    static func start(_ source: ByteSource, size: Int64) throws(FileStatus) -> Start {
        let id3 = try ID3Tag.read(source)
        let position = id3.size
        var scanner = FrameScanner(.mpeg)
        var reader = WindowedReader(source)
        var found: (at: Int64, length: Int)?
        try scanner.walk(&reader, from: position, size: size, skipLimit: 65_536) { at, length, _ in
            found = (at, length)
            return false
        }
        guard let found, case .mpeg(let first)? = scanner.reference else { throw .invalidFile }
        var start = Start(dataStart: found.at, scanner: scanner, first: first, xing: nil, xingFrameBytes: 0, tags: id3.tags)
        let frame = try source.bytes(at: found.at, count: found.length)
        if frame.count == found.length, let xing = xingHeader(frame, first) {
            start.xing = xing
            start.xingFrameBytes = found.length
            start.dataStart += Int64(found.length)
        }
        return start
    }

    static func parse(_ source: ByteSource, size: Int64) throws(FileStatus) -> FileLayout {
        var start = try start(source, size: size)
        var packets: [AudioStreamPacketDescription] = []
        var end = start.dataStart
        var reader = WindowedReader(source)
        try start.scanner.walk(&reader, from: start.dataStart, size: size) { at, length, _ in
            packets.append(AudioStreamPacketDescription(mStartOffset: at - start.dataStart, mVariableFramesInPacket: 0,
                                                        mDataByteSize: UInt32(length)))
            end = at + Int64(length)
            return true
        }
        guard !packets.isEmpty else { throw .invalidFile }
        var layout = FileLayout(fileType: start.fileType, format: start.format, dataOffset: start.dataStart,
                                dataByteCount: end - start.dataStart, packetCount: Int64(packets.count), packets: packets,
                                magicCookie: nil, channelLayout: nil, packetTable: nil, sourceBitDepth: nil)
        layout.packetTable = start.packetTable(totalFrames: layout.totalFrames)
        layout.tags = start.tags
        return layout
    }

    /// The Xing, Info or VBRI header in `frame` (a whole first frame), or nil when it is audio.
    static func xingHeader(_ frame: [UInt8], _ header: Header) -> XingHeader? {
        let sideInfo = header.version == 1 ? (header.channels == 1 ? 17 : 32) : (header.channels == 1 ? 9 : 17)
        let xing = 4 + sideInfo
        if xing + 4 <= frame.count, frame.fourCC(at: xing) == fourCC("Xing") || frame.fourCC(at: xing) == fourCC("Info") {
            var out = XingHeader()
            let flags = xing + 8 <= frame.count ? frame.bigEndian(UInt32.self, at: xing + 4) : 0
            var at = xing + 8
            if flags & 1 != 0, at + 4 <= frame.count {   // frames
                out.frames = Int64(frame.bigEndian(UInt32.self, at: at))
                at += 4
            }
            if flags & 2 != 0, at + 4 <= frame.count {   // bytes
                out.bytes = Int64(frame.bigEndian(UInt32.self, at: at))
                at += 4
            }
            if flags & 4 != 0 { at += 100 }   // table of contents
            if flags & 8 != 0 { at += 4 }     // quality
            if at + 24 <= frame.count, frame.fourCC(at: at) == fourCC("LAME") || frame.fourCC(at: at) == fourCC("Lavc")
                || frame.fourCC(at: at) == fourCC("Lavf") {
                let packed = Int64(frame[at + 21]) << 16 | Int64(frame[at + 22]) << 8 | Int64(frame[at + 23])
                out.delay = packed >> 12
                out.padding = packed & 0xFFF
            }
            return out
        }
        if 36 + 4 <= frame.count, frame.fourCC(at: 36) == fourCC("VBRI") {
            // VBRI: version, delay, quality (2 bytes each), then bytes and frames.
            guard 36 + 18 <= frame.count else { return XingHeader() }
            return XingHeader(frames: Int64(frame.bigEndian(UInt32.self, at: 36 + 14)),
                              bytes: Int64(frame.bigEndian(UInt32.self, at: 36 + 10)), delay: nil, padding: nil)
        }
        return nil
    }
}
