// Core Audio Format files: any format in 'desc', its packets sized by the format (linear PCM,
// IMA4, µ-law, A-law) or by the packet table in 'pakt' (AAC, Apple Lossless, ...), with its
// magic cookie ('kuki') and channel layout ('chan').

enum CAFParser {
    /// Whether the first 8 bytes are a CAF header (version 1).
    static func matches(_ head: [UInt8]) -> Bool {
        head.count >= 8 && head.fourCC(at: 0) == fourCC("caff") && head.bigEndian(UInt16.self, at: 4) == 1
    }

    /// The layout; `upToData`: a stream's header, read up to the data chunk (a packet table after
    /// it is not seen: `kAudioFileNotOptimizedError` for variable packets, as Audio File Stream
    /// Services documents).
    static func parse(_ source: ByteSource, size: Int64, upToData: Bool = false) throws(FileStatus) -> FileLayout {
        var desc: AudioStreamBasicDescription?
        var data: (start: Int64, end: Int64)?
        var pakt: [UInt8]?
        var cookie: [UInt8]?
        var chan: [UInt8]?
        var tags: [(key: String, value: String)] = []
        var position: Int64 = 8
        var walked = 0
        var dataToTheEnd = false
        walk: while position <= size - 12, walked < FileLimits.chunks {   // (a stream's size is Int64.max)
            walked += 1
            let header = try source.bytes(at: position, count: 12)
            guard header.count == 12 else { break }
            let id = header.fourCC(at: 0)
            let length = header.bigEndian(Int64.self, at: 4)
            let body = position + 12
            if length < 0 {
                // Only the data chunk may run to the end of the file (size -1, a file still being written).
                guard id == fourCC("data") else { throw .invalidFile }
                data = (body + 4, size)
                dataToTheEnd = true
                break
            }
            guard length <= size - body || id == fourCC("data") else { throw .invalidFile }
            func chunk() throws(FileStatus) -> [UInt8] {
                guard length <= FileLimits.chunkBytes else { throw .invalidFile }
                let bytes = try source.bytes(at: body, count: Int(length))
                guard bytes.count == Int(length) else { throw .invalidFile }
                return bytes
            }
            switch id {
            case fourCC("desc"):
                guard length >= 32 else { throw .invalidFile }
                desc = try describe(try chunk())
            case fourCC("data"):
                guard length >= 4 else { throw .invalidFile }
                data = (body + 4, body + min(length, Int64.max - body))   // after the edit count; cut to the file below
                if upToData { break walk }
            case fourCC("pakt"):
                guard length >= 24 else { throw .invalidFile }
                pakt = try chunk()
            case fourCC("kuki"):
                cookie = try chunk()
            case fourCC("info"):
                if length <= Int64(TagLimits.regionBytes) { tags = Tags.cafInfo(try chunk()) }
            case fourCC("chan"):
                guard length >= 12 else { throw .invalidFile }
                chan = try chunk()
            default:
                break
            }
            guard length <= Int64.max - body else { break }
            position = body + length
        }
        guard let desc, let data else { throw .invalidFile }
        var layout: FileLayout
        if desc.mBytesPerPacket > 0 && desc.mFramesPerPacket > 0 {
            layout = try FileLayout.constant(type: kAudioFileCAFType, format: desc, dataStart: data.start, dataEnd: data.end,
                                             fileSize: size)
        } else {
            guard let pakt else { throw upToData ? .notOptimized : .invalidFile }
            let dataEnd = min(data.end, size)
            layout = try variable(desc, pakt: pakt, dataStart: data.start, dataBytes: max(0, dataEnd - data.start))
        }
        if let pakt {
            let validFrames = pakt.bigEndian(Int64.self, at: 8)
            let priming = pakt.bigEndian(Int32.self, at: 16)
            let remainder = pakt.bigEndian(Int32.self, at: 20)
            let total = layout.totalFrames
            // A table that does not add up (a truncated file) is believed only as far as it can be.
            if validFrames >= 0, priming >= 0, remainder >= 0, validFrames <= total,
               Int64(priming) + Int64(remainder) == total - validFrames {
                layout.packetTable = AudioFilePacketTableInfo(mNumberValidFrames: validFrames, mPrimingFrames: priming,
                                                              mRemainderFrames: remainder)
            } else if validFrames >= 0, priming >= 0, validFrames <= total - Int64(priming) {
                layout.packetTable = AudioFilePacketTableInfo(mNumberValidFrames: validFrames, mPrimingFrames: priming,
                                                              mRemainderFrames: Int32(clamping: total - validFrames - Int64(priming)))
            } else {
                layout.packetTable = AudioFilePacketTableInfo(mNumberValidFrames: total, mPrimingFrames: 0, mRemainderFrames: 0)
            }
        }
        layout.magicCookie = cookie
        layout.tags = tags
        layout.dataSizeUnknown = upToData && dataToTheEnd
        if let chan { layout.channelLayout = try channelLayout(chan) }
        if desc.mFormatID == kAudioFormatLinearPCM { layout.sourceBitDepth = Int32(desc.mBitsPerChannel) }
        return layout
    }

    /// The description 'desc' states, in Core Audio's terms (CAF's linear PCM flags differ).
    private static func describe(_ bytes: [UInt8]) throws(FileStatus) -> AudioStreamBasicDescription {
        let rate = Double(bitPattern: bytes.bigEndian(UInt64.self, at: 0))
        let formatID = bytes.fourCC(at: 8)
        var flags = bytes.bigEndian(UInt32.self, at: 12)
        let bytesPerPacket = bytes.bigEndian(UInt32.self, at: 16)
        let framesPerPacket = bytes.bigEndian(UInt32.self, at: 20)
        let channels = bytes.bigEndian(UInt32.self, at: 24)
        let bits = bytes.bigEndian(UInt32.self, at: 28)
        guard FileLimits.validRate(rate), channels > 0, channels <= FileLimits.channels,
              bytesPerPacket <= FileLimits.packetBytes, framesPerPacket <= FileLimits.packetBytes else { throw .invalidFile }
        if formatID == kAudioFormatLinearPCM {
            // CAF: bit 0 float, bit 1 little-endian.
            let isFloat = flags & 1 != 0
            let little = flags & 2 != 0
            guard framesPerPacket == 1, bits > 0, bits <= 64, bytesPerPacket > 0, bytesPerPacket % channels == 0,
                  bits <= bytesPerPacket / channels * 8, !isFloat || bits == 32 || bits == 64 else { throw .invalidFile }
            return linearPCM(rate: rate, channels: channels, bits: bits, bytesPerSample: bytesPerPacket / channels,
                             float: isFloat, bigEndian: !little)
        }
        if formatID == kAudioFormatULaw || formatID == kAudioFormatALaw {
            guard bytesPerPacket == channels, framesPerPacket == 1 else { throw .invalidFile }
            flags = 0
        }
        if formatID == kAudioFormatAppleIMA4 {
            guard bytesPerPacket == 34 * channels, framesPerPacket == 64 else { throw .invalidFile }
        }
        return AudioStreamBasicDescription(mSampleRate: rate, mFormatID: formatID, mFormatFlags: flags,
                                           mBytesPerPacket: bytesPerPacket, mFramesPerPacket: framesPerPacket,
                                           mBytesPerFrame: bytesPerPacket > 0 && framesPerPacket == 1 ? bytesPerPacket : 0,
                                           mChannelsPerFrame: channels, mBitsPerChannel: bits, mReserved: 0)
    }

    /// The layout of variable-size packets from the packet table: each entry a variable-length
    /// integer (7 bits a byte, high bit "more"), the size, then the frames if they vary too.
    private static func variable(_ desc: AudioStreamBasicDescription, pakt: [UInt8], dataStart: Int64,
                                 dataBytes: Int64) throws(FileStatus) -> FileLayout {
        let stated = pakt.bigEndian(Int64.self, at: 0)
        guard stated >= 0, stated <= Int64(pakt.count - 24) else { throw .invalidFile }   // each entry takes a byte at least
        let framesVary = desc.mFramesPerPacket == 0
        var packets: [AudioStreamPacketDescription] = []
        packets.reserveCapacity(Int(stated))
        var at = 24
        var offset: Int64 = 0
        func number() throws(FileStatus) -> Int64 {
            var value: Int64 = 0
            for _ in 0..<5 {
                guard at < pakt.count else { throw .invalidFile }
                let byte = pakt[at]
                at += 1
                value = value << 7 | Int64(byte & 0x7F)
                if byte & 0x80 == 0 { return value }
            }
            throw .invalidFile
        }
        for _ in 0..<stated {
            let bytes = try number()
            let frames = framesVary ? try number() : 0
            guard bytes <= Int64(FileLimits.packetBytes), frames <= Int64(UInt32.max) else { throw .invalidFile }
            guard offset + bytes <= dataBytes else { break }   // truncated: the packets that are there
            packets.append(AudioStreamPacketDescription(mStartOffset: offset, mVariableFramesInPacket: UInt32(frames),
                                                        mDataByteSize: UInt32(bytes)))
            offset += bytes
        }
        return FileLayout(fileType: kAudioFileCAFType, format: desc, dataOffset: dataStart, dataByteCount: offset,
                          packetCount: Int64(packets.count), packets: packets, magicCookie: nil, channelLayout: nil,
                          packetTable: nil, sourceBitDepth: nil)
    }

    /// 'chan' (big-endian) as a native AudioChannelLayout's bytes.
    private static func channelLayout(_ chan: [UInt8]) throws(FileStatus) -> [UInt8] {
        let count = Int(chan.bigEndian(UInt32.self, at: 8))
        guard count <= Int(FileLimits.channels), chan.count >= 12 + 20 * count else { throw .invalidFile }
        var out: [UInt8] = []
        func append(_ value: UInt32) { withUnsafeBytes(of: value) { out.append(contentsOf: $0) } }
        append(chan.bigEndian(UInt32.self, at: 0))
        append(chan.bigEndian(UInt32.self, at: 4))
        append(UInt32(count))
        for index in 0..<count {
            let base = 12 + 20 * index
            for field in 0..<5 { append(chan.bigEndian(UInt32.self, at: base + 4 * field)) }   // label, flags, 3 floats' bits
        }
        return out
    }
}
