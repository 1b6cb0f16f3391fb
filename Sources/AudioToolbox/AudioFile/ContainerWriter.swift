// How a file type lays out what Audio File Services writes: the bytes before the audio data (a
// header whose size is fixed once data is written), the bytes after it (written when the file is
// closed or optimized: CAF's packet table, MPEG-4's movie box) and any bytes before each packet
// (ADTS's headers). FileWriter drives them; one writer a container.

/// A container's writing rules.
protocol ContainerWriter: Sendable {
    /// Refuses a format the container cannot hold (`kAudioFileUnsupportedDataFormatError`).
    func check(_ format: AudioStreamBasicDescription) throws(FileStatus)
    /// The bytes before the audio data for `layout`. `frozen` is the layout when the first data was
    /// written (nil before): a header must keep its size from then on, so a container that puts a
    /// cookie or a channel layout in its header sizes them as `frozen` had them.
    func header(_ layout: FileLayout, frozen: FileLayout?) throws(FileStatus) -> [UInt8]
    /// The bytes after the audio data, at close.
    func trailer(_ layout: FileLayout, frozen: FileLayout?) throws(FileStatus) -> [UInt8]
    /// The bytes written before a packet of `size` bytes.
    func packetHeader(size: Int, _ layout: FileLayout) throws(FileStatus) -> [UInt8]
    /// The most audio data bytes the container can state.
    var maximumDataBytes: Int64 { get }
    /// Whether the container stores a magic cookie (AAC's, ALAC's).
    var storesCookie: Bool { get }
    /// Whether the container stores a channel layout.
    var storesChannelLayout: Bool { get }
}

extension ContainerWriter {
    func trailer(_ layout: FileLayout, frozen: FileLayout?) throws(FileStatus) -> [UInt8] { [] }
    func packetHeader(size: Int, _ layout: FileLayout) throws(FileStatus) -> [UInt8] { [] }
    var maximumDataBytes: Int64 { Int64(UInt32.max) - 1024 }
    var storesCookie: Bool { false }
    var storesChannelLayout: Bool { false }
}

/// The writer for a file type: nil for a type Audio File Services does not write (MP3 is read only,
/// as on iOS).
func containerWriter(for type: AudioFileTypeID) -> (any ContainerWriter)? {
    switch type {
    case kAudioFileCAFType: CAFWriter()
    case kAudioFileWAVEType: WAVEWriter()
    case kAudioFileAIFFType: AIFFWriter(compressed: false)
    case kAudioFileAIFCType: AIFFWriter(compressed: true)
    case kAudioFileM4AType, kAudioFileMPEG4Type, kAudioFileM4BType: MPEG4Writer(fileType: type)
    case kAudioFileAAC_ADTSType: ADTSWriter()
    default: nil
    }
}

/// Bytes being put together, in either byte order.
struct ByteBuilder {
    /// What has been put so far.
    var bytes: [UInt8] = []

    /// Appends an integer, big-endian.
    mutating func big<T: FixedWidthInteger>(_ value: T) {
        for k in (0..<MemoryLayout<T>.size).reversed() { bytes.append(UInt8(truncatingIfNeeded: value >> (k * 8))) }
    }

    /// Appends an integer, little-endian.
    mutating func little<T: FixedWidthInteger>(_ value: T) {
        for k in 0..<MemoryLayout<T>.size { bytes.append(UInt8(truncatingIfNeeded: value >> (k * 8))) }
    }

    /// Appends a four-character code.
    mutating func code(_ text: StaticString) { big(fourCC(text)) }

    /// Appends bytes.
    mutating func append(_ more: [UInt8]) { bytes += more }

    /// Appends `count` zero bytes.
    mutating func zeros(_ count: Int) { bytes += repeatElement(0, count: count) }

    /// Appends an MPEG-4 box: a 32-bit big-endian size, the type, then what `body` puts.
    mutating func box(_ type: StaticString, _ body: (inout ByteBuilder) throws(FileStatus) -> Void) throws(FileStatus) {
        var inner = ByteBuilder()
        try body(&inner)
        guard inner.bytes.count <= Int(UInt32.max) - 8 else { throw .dataTooLarge }
        big(UInt32(inner.bytes.count + 8))
        code(type)
        bytes += inner.bytes
    }

    /// Appends an MPEG-4 full box (a box with a version byte and 24 bits of flags).
    mutating func fullBox(_ type: StaticString, version: UInt8 = 0, flags: UInt32 = 0,
                          _ body: (inout ByteBuilder) throws(FileStatus) -> Void) throws(FileStatus) {
        try box(type) { (b: inout ByteBuilder) throws(FileStatus) in
            b.big(UInt32(version) << 24 | flags & 0xFF_FFFF)
            try body(&b)
        }
    }
}
