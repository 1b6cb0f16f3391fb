// MPEG audio files (.mp3, .mp2, .mp1): an optional ID3v2 tag, then frames, each a packet with its
// header (as Audio Queue Services and the converters consume them). A Xing, Info or VBRI frame at
// the start is a header, not audio, and is skipped, as FFmpeg's demuxer does; its LAME tag gives the
// encoder's delay and padding. The frame index is built once, walking the headers through the source.

enum MPEGAudioParser {
    /// One frame header's facts.
    struct Header: Equatable {
        var layer: Int           // 1, 2, 3
        var version: Int         // 1: MPEG-1, 2: MPEG-2, 25: MPEG-2.5
        var sampleRate: Int
        var channels: Int
        var frameBytes: Int
        var framesPerPacket: Int

        /// The fields every frame of one stream shares.
        func sameStream(_ other: Header) -> Bool {
            layer == other.layer && version == other.version && sampleRate == other.sampleRate
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
        guard versionBits != 1, layerBits != 0, bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3 else { return nil }
        let version = versionBits == 3 ? 1 : versionBits == 2 ? 2 : 25
        let layer = 4 - layerBits
        let rates = [44_100, 48_000, 32_000]
        let sampleRate = rates[rateIndex] / (version == 1 ? 1 : version == 2 ? 2 : 4)
        let kbps: [Int]
        switch (version == 1, layer) {
        case (true, 1): kbps = [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448]
        case (true, 2): kbps = [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384]
        case (true, _): kbps = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
        case (false, 1): kbps = [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256]
        default: kbps = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
        }
        let bitrate = kbps[bitrateIndex] * 1000
        let frameBytes: Int
        let framesPerPacket: Int
        switch layer {
        case 1:
            frameBytes = (12 * bitrate / sampleRate + padding) * 4
            framesPerPacket = 384
        case 2:
            frameBytes = 144 * bitrate / sampleRate + padding
            framesPerPacket = 1152
        default:
            frameBytes = (version == 1 ? 144 : 72) * bitrate / sampleRate + padding
            framesPerPacket = version == 1 ? 1152 : 576
        }
        return Header(layer: layer, version: version, sampleRate: sampleRate, channels: mode == 3 ? 1 : 2,
                      frameBytes: frameBytes, framesPerPacket: framesPerPacket)
    }

    /// The size of an ID3v2 tag at the start of `head`, or 0.
    static func id3Size(_ head: [UInt8]) -> Int64 {
        guard head.count >= 10, head[0] == 0x49, head[1] == 0x44, head[2] == 0x33 else { return 0 }   // "ID3"
        let size = head[6..<10].reduce(Int64(0)) { $0 << 7 | Int64($1 & 0x7F) }
        return 10 + size + (head[5] & 0x10 != 0 ? 10 : 0)
    }

    /// Whether the file starts with an ID3v2 tag or two MPEG audio frames in a row.
    static func matches(_ source: ByteSource, head: [UInt8]) -> Bool {
        if id3Size(head) > 0 { return true }
        guard let first = header(head[...]) , first.frameBytes > 4,
              let next = try? source.bytes(at: Int64(first.frameBytes), count: 4), let second = header(next[...]) else { return false }
        return second.sameStream(first)
    }

    static func parse(_ source: ByteSource, size: Int64) throws(FileStatus) -> FileLayout {
        var position = id3Size(try source.bytes(at: 0, count: 10))
        // Up to 64 KB of junk may sit between the tag and the first frame; look for two frames in a row.
        let window = try source.bytes(at: position, count: 65_536 + 4)
        var first: Header?
        var skip = 0
        while skip + 4 <= window.count {
            if let candidate = header(window[skip...]), candidate.frameBytes > 4 {
                let nextAt = skip + candidate.frameBytes
                if nextAt + 4 > window.count || header(window[nextAt...]).map({ $0.sameStream(candidate) }) == true {
                    first = candidate
                    break
                }
            }
            skip += 1
        }
        guard let stream = first else { throw .invalidFile }
        position += Int64(skip)
        // A Xing/Info/VBRI header frame: skipped; LAME's delay and padding kept.
        var delay: Int64?
        var padding: Int64?
        let firstFrame = try source.bytes(at: position, count: stream.frameBytes)
        if firstFrame.count == stream.frameBytes {
            let sideInfo = stream.version == 1 ? (stream.channels == 1 ? 17 : 32) : (stream.channels == 1 ? 9 : 17)
            let xing = 4 + sideInfo
            let isXing = xing + 4 <= firstFrame.count
                && (firstFrame.fourCC(at: xing) == fourCC("Xing") || firstFrame.fourCC(at: xing) == fourCC("Info"))
            let isVBRI = 36 + 4 <= firstFrame.count && firstFrame.fourCC(at: 36) == fourCC("VBRI")
            if isXing || isVBRI {
                if isXing, let lame = lameOffset(firstFrame, xing: xing), lame + 24 <= firstFrame.count {
                    let packed = Int64(firstFrame[lame + 21]) << 16 | Int64(firstFrame[lame + 22]) << 8 | Int64(firstFrame[lame + 23])
                    delay = packed >> 12
                    padding = packed & 0xFFF
                }
                position += Int64(stream.frameBytes)
            }
        }
        let dataStart = position
        var packets: [AudioStreamPacketDescription] = []
        let blockSize = 1 << 16
        var block: [UInt8] = []
        var blockStart: Int64 = -1
        while position + 4 <= size {
            if blockStart < 0 || position + 4 > blockStart + Int64(block.count) {
                block = try source.bytes(at: position, count: blockSize)
                blockStart = position
            }
            let at = Int(position - blockStart)
            guard let frame = header(block[at...]), frame.sameStream(stream), frame.frameBytes > 4 else { break }   // the end, or a tag
            guard position + Int64(frame.frameBytes) <= size else { break }   // a truncated last frame
            packets.append(AudioStreamPacketDescription(mStartOffset: position - dataStart, mVariableFramesInPacket: 0,
                                                        mDataByteSize: UInt32(frame.frameBytes)))
            position += Int64(frame.frameBytes)
        }
        guard !packets.isEmpty else { throw .invalidFile }
        let formatID: AudioFormatID = stream.layer == 3 ? kAudioFormatMPEGLayer3 : stream.layer == 2 ? kAudioFormatMPEGLayer2 : kAudioFormatMPEGLayer1
        let asbd = AudioStreamBasicDescription(mSampleRate: Double(stream.sampleRate), mFormatID: formatID, mFormatFlags: 0,
                                               mBytesPerPacket: 0, mFramesPerPacket: UInt32(stream.framesPerPacket),
                                               mBytesPerFrame: 0, mChannelsPerFrame: UInt32(stream.channels),
                                               mBitsPerChannel: 0, mReserved: 0)
        let type = stream.layer == 3 ? kAudioFileMP3Type : stream.layer == 2 ? kAudioFileMP2Type : kAudioFileMP1Type
        var layout = FileLayout(fileType: type, format: asbd, dataOffset: dataStart, dataByteCount: position - dataStart,
                                packetCount: Int64(packets.count), packets: packets, magicCookie: nil, channelLayout: nil,
                                packetTable: nil, sourceBitDepth: nil)
        if let delay, let padding {
            // The decoder adds 529 frames of its own delay (LAME's documented figure) to the encoder's.
            let total = layout.totalFrames
            let priming = min(total, delay + 529)
            let remainder = min(total - priming, max(0, padding - 529))
            layout.packetTable = AudioFilePacketTableInfo(mNumberValidFrames: total - priming - remainder,
                                                          mPrimingFrames: Int32(priming), mRemainderFrames: Int32(remainder))
        }
        return layout
    }

    /// Where the LAME tag starts in a Xing frame: after the flags' optional fields.
    private static func lameOffset(_ frame: [UInt8], xing: Int) -> Int? {
        guard xing + 8 <= frame.count else { return nil }
        let flags = frame.bigEndian(UInt32.self, at: xing + 4)
        var at = xing + 8
        if flags & 1 != 0 { at += 4 }     // frames
        if flags & 2 != 0 { at += 4 }     // bytes
        if flags & 4 != 0 { at += 100 }   // table of contents
        if flags & 8 != 0 { at += 4 }     // quality
        guard at + 4 <= frame.count, frame.fourCC(at: at) == fourCC("LAME") || frame.fourCC(at: at) == fourCC("Lavc")
                || frame.fourCC(at: at) == fourCC("Lavf") else { return nil }
        return at
    }
}
