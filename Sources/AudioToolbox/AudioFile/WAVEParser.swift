// WAVE files (RIFF): linear PCM (integer 8–32 bits, float 32 and 64), µ-law and A-law, plain or
// WAVE_FORMAT_EXTENSIBLE. Chunks are walked through the byte source; nothing is read whole.

enum WAVEParser {
    /// Whether the first 12 bytes are a RIFF WAVE header.
    static func matches(_ head: [UInt8]) -> Bool {
        head.count >= 12 && head.fourCC(at: 0) == fourCC("RIFF") && head.fourCC(at: 8) == fourCC("WAVE")
    }

    /// The layout; `upToData`: a stream's header, read up to the data chunk's start.
    static func parse(_ source: ByteSource, size: Int64, upToData: Bool = false) throws(FileStatus) -> FileLayout {
        var format: AudioStreamBasicDescription?
        var channelMask: UInt32?
        var validBits: UInt32?
        var data: (start: Int64, end: Int64)?
        var tags = TagList()
        var position: Int64 = 12
        var walked = 0
        while position <= size - 8, walked < FileLimits.chunks {
            walked += 1
            let header = try source.bytes(at: position, count: 8)
            guard header.count == 8 else { break }
            let id = header.fourCC(at: 0)
            let length = Int64(header.littleEndian(UInt32.self, at: 4))
            let body = position + 8
            if id == fourCC("fmt ") {
                guard length >= 16, length <= 4096 else { throw .invalidFile }
                let fmt = try source.bytes(at: body, count: Int(length))
                guard fmt.count == Int(length) else { throw .invalidFile }
                (format, validBits, channelMask) = try describe(fmt)
            } else if id == fourCC("LIST") || id == fourCC("id3 ") || id == fourCC("ID3 ") {
                // Tags (LIST/INFO, or an ID3v2 tag) before the data; a larger chunk than a tag needs is skipped.
                if length <= Int64(TagLimits.regionBytes) {
                    let chunk = try source.bytes(at: body, count: Int(length))
                    tags.add(id == fourCC("LIST") ? Tags.riffInfo(chunk) : ID3Tag.tags(chunk))
                }
            } else if id == fourCC("data") {
                data = (body, body + length)
                break   // the data chunk is the last one read
            }
            position = body + length + (length & 1)
        }
        guard var asbd = format else { throw .invalidFile }
        guard let data else { throw .invalidFile }
        if let validBits, asbd.mFormatID == kAudioFormatLinearPCM, validBits > 0, validBits < asbd.mBitsPerChannel {
            asbd.mBitsPerChannel = validBits
            asbd.mFormatFlags = (asbd.mFormatFlags & ~kAudioFormatFlagIsPacked) | kAudioFormatFlagIsAlignedHigh
        }
        var layout = try FileLayout.constant(type: kAudioFileWAVEType, format: asbd, dataStart: data.start, dataEnd: data.end,
                                             fileSize: size)
        // A WAVE written to a pipe does not know its size: 0xFFFFFFFF (FFmpeg, among others).
        layout.dataSizeUnknown = upToData && data.end - data.start == 0xFFFF_FFFF
        if asbd.mFormatID == kAudioFormatLinearPCM { layout.sourceBitDepth = Int32(asbd.mBitsPerChannel) }
        layout.tags = tags.tags
        if let channelMask, channelMask != 0 {
            var channelLayout = AudioChannelLayout()
            channelLayout.mChannelLayoutTag = kAudioChannelLayoutTag_UseChannelBitmap
            channelLayout.mChannelBitmap = AudioChannelBitmap(rawValue: channelMask)
            layout.channelLayout = Array(withUnsafeBytes(of: channelLayout) { $0.prefix(12) })
        }
        return layout
    }

    /// The description a 'fmt ' chunk states, its valid bits and channel mask (EXTENSIBLE).
    private static func describe(_ fmt: [UInt8]) throws(FileStatus) -> (AudioStreamBasicDescription, UInt32?, UInt32?) {
        var tag = fmt.littleEndian(UInt16.self, at: 0)
        let channels = UInt32(fmt.littleEndian(UInt16.self, at: 2))
        let rate = Double(fmt.littleEndian(UInt32.self, at: 4))
        let blockAlign = UInt32(fmt.littleEndian(UInt16.self, at: 12))
        let bits = UInt32(fmt.littleEndian(UInt16.self, at: 14))
        var validBits: UInt32?
        var mask: UInt32?
        if tag == 0xFFFE {
            guard fmt.count >= 40 else { throw .invalidFile }
            validBits = UInt32(fmt.littleEndian(UInt16.self, at: 18))
            mask = fmt.littleEndian(UInt32.self, at: 20)
            tag = fmt.littleEndian(UInt16.self, at: 24)   // the sub-format GUID's first two bytes
        }
        guard channels > 0, channels <= FileLimits.channels, FileLimits.validRate(rate) else { throw .invalidFile }
        switch tag {
        case 1, 3:   // WAVE_FORMAT_PCM, WAVE_FORMAT_IEEE_FLOAT
            let bytesPerSample = (bits + 7) / 8
            let isFloat = tag == 3
            guard bits > 0, bits <= 64, !isFloat || bits == 32 || bits == 64,
                  blockAlign == bytesPerSample * channels else { throw .invalidFile }
            // WAVE's 8-bit samples are unsigned; wider ones signed.
            return (linearPCM(rate: rate, channels: channels, bits: bits, bytesPerSample: bytesPerSample, float: isFloat,
                              bigEndian: false, signed: bits > 8), validBits, mask)
        case 6, 7:   // WAVE_FORMAT_ALAW, WAVE_FORMAT_MULAW
            guard bits == 8, blockAlign == channels else { throw .invalidFile }
            return (companded(tag == 6 ? kAudioFormatALaw : kAudioFormatULaw, rate: rate, channels: channels), nil, mask)
        default:
            throw .unsupportedDataFormat
        }
    }
}
