// Apple Lossless's magic cookie: the 24-byte ALACSpecificConfig (big-endian), as Apple's open
// source ALAC describes it, alone or after the 'frma' and 'alac' atoms older files put before it.

/// What an ALACSpecificConfig says of a stream.
struct ALACSpecificConfig: Equatable {
    /// Frames a packet (4096 by default).
    var frameLength: UInt32
    /// 16, 20, 24 or 32.
    var bitDepth: UInt8
    /// 1 to 8.
    var channels: UInt8
    /// Any integer rate.
    var sampleRate: UInt32

    /// The `kAppleLosslessFormatFlag_...BitSourceData` value of the bit depth (0 for another).
    var formatFlags: AudioFormatFlags {
        switch bitDepth {
        case 16: kAppleLosslessFormatFlag_16BitSourceData
        case 20: kAppleLosslessFormatFlag_20BitSourceData
        case 24: kAppleLosslessFormatFlag_24BitSourceData
        case 32: kAppleLosslessFormatFlag_32BitSourceData
        default: 0
        }
    }

    /// The 24 bytes of the ALACSpecificConfig inside a cookie (bare, or after `frma` and `alac`
    /// atoms), if it is one.
    static func configBytes(in cookie: UnsafeRawBufferPointer) -> [UInt8]? {
        guard ALACSpecificConfig(cookie: cookie) != nil else { return nil }
        var bytes = [UInt8](cookie)[...]
        func atom(_ name: String) -> Bool { bytes.count >= 12 && bytes.dropFirst(4).prefix(4).elementsEqual(name.utf8) }
        if atom("frma") { bytes = bytes.dropFirst(12) }
        if atom("alac") { bytes = bytes.dropFirst(12) }
        return Array(bytes.prefix(24))
    }

    /// FFmpeg's ALAC extradata for a cookie: the 36-byte `alac` atom (size, `alac`, version, config).
    static func ffmpegExtradata(cookie: UnsafeRawBufferPointer) -> [UInt8]? {
        configBytes(in: cookie).map { [0, 0, 0, 36] + Array("alac".utf8) + [0, 0, 0, 0] + $0 }
    }

    /// An ALACSpecificConfig for a stream a description states without a cookie.
    static func config(framesPerPacket: UInt32, bitDepth: Int, channels: Int, sampleRate: Int) -> [UInt8] {
        func big32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
        // frameLength, compatibleVersion, bitDepth, pb, mb, kb, numChannels, maxRun, maxFrameBytes, avgBitRate, sampleRate.
        return big32(framesPerPacket == 0 ? 4096 : framesPerPacket) + [0, UInt8(bitDepth), 40, 10, 14, UInt8(channels), 0, 255]
            + big32(0) + big32(0) + big32(UInt32(sampleRate))
    }

    /// The ALACChannelLayoutInfo Apple's encoder appends to its cookie beyond two channels:
    /// size 24, `chan`, version 0, the layout tag ALAC uses for that many channels, two reserved words.
    static func channelLayoutInfo(channels: Int) -> [UInt8] {
        let tags: [Int: AudioChannelLayoutTag] = [3: kAudioChannelLayoutTag_MPEG_3_0_B, 4: kAudioChannelLayoutTag_MPEG_4_0_B,
                                                   5: kAudioChannelLayoutTag_MPEG_5_0_D, 6: kAudioChannelLayoutTag_MPEG_5_1_D,
                                                   7: kAudioChannelLayoutTag_AAC_6_1, 8: kAudioChannelLayoutTag_MPEG_7_1_B]
        func big32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
        return big32(24) + Array("chan".utf8) + big32(0) + big32(tags[channels] ?? 0) + big32(0) + big32(0)
    }

    /// Parses a cookie; nil when it is too short or says what ALAC cannot be.
    init?(cookie: UnsafeRawBufferPointer) {
        var bytes = [UInt8](cookie)[...]
        func atom(_ name: String) -> Bool {
            bytes.count >= 12 && bytes.dropFirst(4).prefix(4).elementsEqual(name.utf8)
        }
        if atom("frma") { bytes = bytes.dropFirst(12) }
        if atom("alac") { bytes = bytes.dropFirst(12) }
        guard bytes.count >= 24 else { return nil }
        let config = Array(bytes.prefix(24))
        func big32(_ at: Int) -> UInt32 { config[at..<(at + 4)].reduce(0) { $0 << 8 | UInt32($1) } }
        frameLength = big32(0)
        bitDepth = config[5]
        channels = config[9]
        sampleRate = big32(20)
        guard (1...16_384).contains(frameLength), [16, 20, 24, 32].contains(bitDepth), (1...8).contains(channels) else { return nil }
    }
}
