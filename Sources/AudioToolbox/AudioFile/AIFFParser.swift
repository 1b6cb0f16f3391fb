// AIFF and AIFF-C files (IFF 'FORM'): big-endian linear PCM; AIFF-C also little-endian ('sowt'),
// float ('fl32', 'fl64'), µ-law, A-law and Apple IMA4 ('ima4').

enum AIFFParser {
    /// Whether the first 12 bytes are an AIFF or AIFF-C header.
    static func matches(_ head: [UInt8]) -> Bool {
        head.count >= 12 && head.fourCC(at: 0) == fourCC("FORM")
            && (head.fourCC(at: 8) == fourCC("AIFF") || head.fourCC(at: 8) == fourCC("AIFC"))
    }

    /// The layout; `upToData`: a stream's header, read up to the sound chunk's data (a COMM chunk
    /// after it is `kAudioFileNotOptimizedError`).
    static func parse(_ source: ByteSource, size: Int64, upToData: Bool = false) throws(FileStatus) -> FileLayout {
        let head = try source.bytes(at: 0, count: 12)
        let isAIFC = head.fourCC(at: 8) == fourCC("AIFC")
        var comm: [UInt8]?
        var sound: (start: Int64, end: Int64)?
        var tags = TagList()
        var position: Int64 = 12
        var walked = 0
        while position <= size - 8, walked < FileLimits.chunks {
            walked += 1
            let header = try source.bytes(at: position, count: 8)
            guard header.count == 8 else { break }
            let id = header.fourCC(at: 0)
            let length = Int64(header.bigEndian(UInt32.self, at: 4))
            let body = position + 8
            if id == fourCC("COMM") {
                guard length >= 18, length <= 4096 else { throw .invalidFile }
                comm = try source.bytes(at: body, count: Int(length))
                guard comm!.count == Int(length) else { throw .invalidFile }
            } else if let key = Tags.aiffKey(id) {
                if length <= Int64(TagLimits.valueBytes) { tags.add(key, Tags.plainText(try source.bytes(at: body, count: Int(length))[...])) }
            } else if id == fourCC("ID3 ") || id == fourCC("id3 ") {
                if length <= Int64(TagLimits.regionBytes) { tags.add(ID3Tag.tags(try source.bytes(at: body, count: Int(length)))) }
            } else if id == fourCC("SSND") {
                guard length >= 8 else { throw .invalidFile }
                let offsets = try source.bytes(at: body, count: 8)
                guard offsets.count == 8 else { throw .invalidFile }
                let offset = Int64(offsets.bigEndian(UInt32.self, at: 0))
                sound = (body + 8 + offset, body + length)
                if upToData {
                    guard comm != nil else { throw .notOptimized }
                    break
                }
            }
            position = body + length + (length & 1)
        }
        guard let comm, let sound else { throw .invalidFile }
        let channels = UInt32(comm.bigEndian(UInt16.self, at: 0))
        let frames = Int64(comm.bigEndian(UInt32.self, at: 2))
        let bits = UInt32(comm.bigEndian(UInt16.self, at: 6))
        let rate = extended80(Array(comm[8..<18]))
        guard channels > 0, channels <= FileLimits.channels, FileLimits.validRate(rate) else { throw .invalidFile }
        var compression = fourCC("NONE")
        if isAIFC {
            guard comm.count >= 22 else { throw .invalidFile }
            compression = comm.fourCC(at: 18)
        }
        let type = isAIFC ? kAudioFileAIFCType : kAudioFileAIFFType
        let format: AudioStreamBasicDescription
        var sourceBits: Int32?
        switch compression {
        case fourCC("NONE"), fourCC("twos"), fourCC("sowt"), fourCC("in24"), fourCC("in32"):
            guard bits > 0, bits <= 32 else { throw .invalidFile }
            // AIFF's samples are signed at every size, 8 bits too.
            format = linearPCM(rate: rate, channels: channels, bits: bits, bytesPerSample: (bits + 7) / 8, float: false,
                               bigEndian: compression != fourCC("sowt"))
            sourceBits = Int32(bits)
        case fourCC("fl32"), fourCC("FL32"):
            format = linearPCM(rate: rate, channels: channels, bits: 32, bytesPerSample: 4, float: true, bigEndian: true)
            sourceBits = 32
        case fourCC("fl64"), fourCC("FL64"):
            format = linearPCM(rate: rate, channels: channels, bits: 64, bytesPerSample: 8, float: true, bigEndian: true)
            sourceBits = 64
        case fourCC("ulaw"), fourCC("ULAW"):
            format = companded(kAudioFormatULaw, rate: rate, channels: channels)
        case fourCC("alaw"), fourCC("ALAW"):
            format = companded(kAudioFormatALaw, rate: rate, channels: channels)
        case fourCC("ima4"):
            format = appleIMA4(rate: rate, channels: channels)
        default:
            throw .unsupportedDataFormat
        }
        // COMM counts sample frames (packets, for IMA4); the sound chunk may hold less (truncated).
        let end = min(sound.end, sound.start + frames * Int64(format.mBytesPerPacket))
        var layout = try FileLayout.constant(type: type, format: format, dataStart: sound.start, dataEnd: end, fileSize: size)
        layout.sourceBitDepth = sourceBits
        layout.tags = tags.tags
        return layout
    }

    /// An IEEE 754 80-bit extended float (big-endian), as COMM states the sample rate; NaN when absurd.
    static func extended80(_ bytes: [UInt8]) -> Double {
        let exponent = Int(bytes.bigEndian(UInt16.self, at: 0) & 0x7FFF)
        let negative = bytes[0] & 0x80 != 0
        let mantissa = bytes.bigEndian(UInt64.self, at: 2)
        if exponent == 0 && mantissa == 0 { return 0 }
        if exponent == 0x7FFF { return .nan }
        let value = Double(mantissa) * Double(sign: .plus, exponent: exponent - 16383 - 63, significand: 1)
        return negative ? -value : value
    }
}
