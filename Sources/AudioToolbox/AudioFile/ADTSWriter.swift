// AAC in ADTS as Audio File Services writes it: each packet (one raw AAC access unit) behind a
// 7-byte ADTS header without CRC, whose profile, sampling index and channel configuration come from
// the magic cookie's AudioSpecificConfig when one is set, or else from the format (AAC LC).

struct ADTSWriter: ContainerWriter {
    var maximumDataBytes: Int64 { Int64.max / 2 }
    var storesCookie: Bool { true }

    func check(_ format: AudioStreamBasicDescription) throws(FileStatus) {
        guard format.mFormatID == kAudioFormatMPEG4AAC, (1...7).contains(format.mChannelsPerFrame) || format.mChannelsPerFrame == 8,
              MagicCookie.sampleRates.contains(format.mSampleRate) else { throw .unsupportedDataFormat }
    }

    func header(_ layout: FileLayout, frozen: FileLayout?) throws(FileStatus) -> [UInt8] { [] }

    func packetHeader(size: Int, _ layout: FileLayout) throws(FileStatus) -> [UInt8] {
        var objectType: UInt32 = 2
        var rate = layout.format.mSampleRate
        var channels = layout.format.mChannelsPerFrame
        if let cookie = layout.magicCookie,
           let config = cookie.withUnsafeBytes({ MagicCookie.audioSpecificConfig(in: $0) }) {
            (objectType, rate, channels) = (config.objectType, config.sampleRate, config.channels)
        }
        let frameBytes = size + 7
        guard (1...4).contains(objectType), let rateIndex = MagicCookie.sampleRates.firstIndex(of: rate),
              frameBytes < 1 << 13 else { throw .unsupportedDataFormat }
        let configuration = channels == 8 ? 7 : channels
        var bits = BitWriter()
        bits.write(0xFFF, 12)                        // syncword
        bits.write(0, 1)                             // MPEG-4
        bits.write(0, 2)                             // layer
        bits.write(1, 1)                             // no CRC
        bits.write(objectType - 1, 2)                // profile
        bits.write(UInt32(rateIndex), 4)
        bits.write(0, 1)                             // private
        bits.write(configuration, 3)
        bits.write(0, 4)                             // original, home, copyright bits
        bits.write(UInt32(frameBytes), 13)
        bits.write(0x7FF, 11)                        // buffer fullness: variable rate
        bits.write(0, 2)                             // one raw data block
        return bits.bytes
    }
}

/// Writes big-endian bit fields.
struct BitWriter {
    /// The bytes written, the last one padded with zeros.
    private(set) var bytes: [UInt8] = []
    private var used = 0

    /// Appends the low `count` bits of `value`, most significant first.
    mutating func write(_ value: UInt32, _ count: Int) {
        for shift in stride(from: count - 1, through: 0, by: -1) {
            if used % 8 == 0 { bytes.append(0) }
            bytes[bytes.count - 1] |= UInt8((value >> UInt32(shift)) & 1) << (7 - UInt8(used % 8))
            used += 1
        }
    }
}
