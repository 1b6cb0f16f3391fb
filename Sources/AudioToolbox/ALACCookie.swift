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
