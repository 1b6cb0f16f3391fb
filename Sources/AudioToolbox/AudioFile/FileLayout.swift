// What a container parser learns about a file: its type, its data's format, where the data is,
// and how it is cut into packets. Everything Audio File Services answers comes from here.

/// An audio file's layout, as its header states it (checked against the file's real size).
struct FileLayout {
    /// kAudioFileWAVEType, kAudioFileAIFFType, ...
    var fileType: AudioFileTypeID
    /// The data's format, as kAudioFilePropertyDataFormat gives it.
    var format: AudioStreamBasicDescription
    /// Where the audio data starts, in bytes from the file's start.
    var dataOffset: Int64
    /// The audio data's size in bytes (whole packets).
    var dataByteCount: Int64
    /// The number of packets.
    var packetCount: Int64
    /// For variable-size packets: each one's place in the data, size and frames (0: the format's).
    var packets: [AudioStreamPacketDescription]?
    /// The codec's magic cookie, when the file has one.
    var magicCookie: [UInt8]?
    /// The channel layout as kAudioFilePropertyChannelLayout gives it, when the file states one.
    var channelLayout: [UInt8]?
    /// Priming and remainder frames, when the file states them (CAF's 'pakt').
    var packetTable: AudioFilePacketTableInfo?
    /// The source's bit depth, for linear PCM (kAudioFilePropertySourceBitDepth).
    var sourceBitDepth: Int32?
    /// The file's tags, by kAFInfoDictionary key (title, artist, ...), as the file states them.
    var tags: [(key: String, value: String)] = []
    /// A stream's header does not state how much data follows (CAF's data chunk of size -1, a
    /// WAVE data chunk of 0xFFFFFFFF bytes): the counts above are not to be believed.
    var dataSizeUnknown = false

    /// The largest packet, in bytes.
    var maximumPacketSize: UInt32 {
        if let packets { return packets.map(\.mDataByteSize).max() ?? 0 }
        return format.mBytesPerPacket
    }

    /// Frames in all packets (before priming and remainder are taken off).
    var totalFrames: Int64 {
        if let packets, format.mFramesPerPacket == 0 {
            return packets.reduce(0) { $0 + Int64($1.mVariableFramesInPacket) }
        }
        let (frames, overflow) = packetCount.multipliedReportingOverflow(by: Int64(format.mFramesPerPacket))
        return overflow ? Int64.max : frames   // a stream's unknown size counts as endless
    }

    /// The frames a listener hears.
    var validFrames: Int64 { packetTable?.mNumberValidFrames ?? totalFrames }

    /// The duration in seconds.
    var duration: Double {
        format.mSampleRate > 0 ? Double(validFrames) / format.mSampleRate : 0
    }

    /// Where packet `index` starts in the data and how long it is.
    func packet(_ index: Int64) -> (offset: Int64, size: Int) {
        if let packets {
            let packet = packets[Int(index)]
            return (packet.mStartOffset, Int(packet.mDataByteSize))
        }
        return (index * Int64(format.mBytesPerPacket), Int(format.mBytesPerPacket))
    }
}

/// A linear PCM description from its parts.
func linearPCM(rate: Double, channels: UInt32, bits: UInt32, bytesPerSample: UInt32, float: Bool, bigEndian: Bool,
               signed: Bool = true) -> AudioStreamBasicDescription {
    var flags: AudioFormatFlags = float ? kAudioFormatFlagIsFloat : (signed ? kAudioFormatFlagIsSignedInteger : 0)
    if bigEndian { flags |= kAudioFormatFlagIsBigEndian }
    if bits == bytesPerSample * 8 { flags |= kAudioFormatFlagIsPacked } else { flags |= kAudioFormatFlagIsAlignedHigh }
    return AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: flags,
                                       mBytesPerPacket: bytesPerSample * channels, mFramesPerPacket: 1,
                                       mBytesPerFrame: bytesPerSample * channels, mChannelsPerFrame: channels,
                                       mBitsPerChannel: bits, mReserved: 0)
}

/// A description of one-byte-a-sample µ-law or A-law.
func companded(_ formatID: AudioFormatID, rate: Double, channels: UInt32) -> AudioStreamBasicDescription {
    AudioStreamBasicDescription(mSampleRate: rate, mFormatID: formatID, mFormatFlags: 0, mBytesPerPacket: channels,
                                mFramesPerPacket: 1, mBytesPerFrame: channels, mChannelsPerFrame: channels,
                                mBitsPerChannel: 8, mReserved: 0)
}

/// Apple IMA4: 64 frames in 34 bytes a channel.
func appleIMA4(rate: Double, channels: UInt32) -> AudioStreamBasicDescription {
    AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatAppleIMA4, mFormatFlags: 0,
                                mBytesPerPacket: 34 * channels, mFramesPerPacket: 64, mBytesPerFrame: 0,
                                mChannelsPerFrame: channels, mBitsPerChannel: 0, mReserved: 0)
}

/// Limits that keep a hostile header from asking for absurd work.
enum FileLimits {
    /// The most channels a file may state.
    static let channels: UInt32 = 1024
    /// The largest constant packet, in bytes.
    static let packetBytes: UInt32 = 1 << 24
    /// The largest header chunk read into memory (a packet table, a cookie, a layout).
    static let chunkBytes: Int64 = 256 << 20
    /// The most chunks walked before giving up.
    static let chunks = 100_000
    /// The most packets an MPEG-4 sample table may describe (12 bytes of a constant-size 'stsz' can
    /// claim 4 billion; this is 100 hours of AAC at 44.1 kHz).
    static let tablePackets = 1 << 24
    /// What a stream's header may be before its audio data: the bytes a parser keeps of it (tags
    /// and chunks it skips are not kept).
    static let streamHeaderBytes = 64 << 20

    /// Whether a sample rate is one a file may state.
    static func validRate(_ rate: Double) -> Bool { rate.isFinite && rate > 0 && rate <= 10_000_000 }
}

extension FileLayout {
    /// The layout for constant-size packets in `range` of the file (cut to whole packets; a data
    /// chunk that claims more than the file holds is cut to what is there).
    static func constant(type: AudioFileTypeID, format: AudioStreamBasicDescription, dataStart: Int64, dataEnd: Int64,
                         fileSize: Int64) throws(FileStatus) -> FileLayout {
        let bytesPerPacket = Int64(format.mBytesPerPacket)
        guard bytesPerPacket > 0, format.mBytesPerPacket <= FileLimits.packetBytes, dataStart >= 0, dataStart <= fileSize else {
            throw .invalidFile
        }
        let end = min(dataEnd, fileSize)
        let packets = max(0, end - dataStart) / bytesPerPacket
        return FileLayout(fileType: type, format: format, dataOffset: dataStart, dataByteCount: packets * bytesPerPacket,
                          packetCount: packets, packets: nil, magicCookie: nil, channelLayout: nil, packetTable: nil,
                          sourceBitDepth: nil)
    }
}

extension Array where Element == UInt8 {
    /// A big-endian integer at `offset` (the caller has checked the bounds).
    func bigEndian<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) -> T {
        var value: T = 0
        for k in 0..<MemoryLayout<T>.size { value = value << 8 | T(truncatingIfNeeded: self[offset + k]) }
        return value
    }

    /// A little-endian integer at `offset` (the caller has checked the bounds).
    func littleEndian<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) -> T {
        var value: T = 0
        for k in (0..<MemoryLayout<T>.size).reversed() { value = value << 8 | T(truncatingIfNeeded: self[offset + k]) }
        return value
    }

    /// Four bytes at `offset` as a four-character code.
    func fourCC(at offset: Int) -> UInt32 { bigEndian(UInt32.self, at: offset) }
}

/// A four-character code from its text.
func fourCC(_ text: StaticString) -> UInt32 {
    text.withUTF8Buffer { $0.reduce(0) { $0 << 8 | UInt32($1) } }
}
