// MPEG-4 files (M4A, MP4, M4B, 3GP): the first sound track's packets from its sample tables
// (stsz sizes, stsc and stco/co64 places, stts durations), its magic cookie (the ES descriptor of
// 'esds' for AAC, the ALACSpecificConfig for Apple Lossless), and its priming from the edit list.
// Only 'moov' is read into memory; the packets stay in the file.

enum MPEG4Parser {
    /// Whether the file starts with an 'ftyp' box.
    static func matches(_ head: [UInt8]) -> Bool {
        head.count >= 12 && head.fourCC(at: 4) == fourCC("ftyp")
    }

    /// A box: its type and its payload's range in `bytes` (or in the file, for top-level boxes).
    private struct Box {
        let type: UInt32
        let body: Range<Int>
    }

    /// The boxes in `bytes[range]`; a box running past its parent ends the walk (kept if whole).
    private static func boxes(_ bytes: [UInt8], in range: Range<Int>) throws(FileStatus) -> [Box] {
        var out: [Box] = []
        var at = range.lowerBound
        while at + 8 <= range.upperBound, out.count < FileLimits.chunks {
            var size = Int(bytes.bigEndian(UInt32.self, at: at))
            let type = bytes.fourCC(at: at + 4)
            var header = 8
            if size == 1 {
                guard at + 16 <= range.upperBound else { throw .invalidFile }
                let large = bytes.bigEndian(UInt64.self, at: at + 8)
                guard large <= UInt64(range.upperBound - at) else { throw .invalidFile }
                size = Int(large)
                header = 16
            } else if size == 0 {
                size = range.upperBound - at
            }
            guard size >= header, size <= range.upperBound - at else { throw .invalidFile }
            out.append(Box(type: type, body: (at + header)..<(at + size)))
            at += size
        }
        return out
    }

    private static func child(_ bytes: [UInt8], _ parent: Box, _ type: StaticString) throws(FileStatus) -> Box? {
        try boxes(bytes, in: parent.body).first { $0.type == fourCC(type) }
    }

    /// The layout; `upToData`: a stream's header, which must hold 'moov' before 'mdat'
    /// (`kAudioFileNotOptimizedError` when the sample tables come after the data).
    static func parse(_ source: ByteSource, size: Int64, upToData: Bool = false) throws(FileStatus) -> FileLayout {
        // The top level, walked through the source: find 'ftyp''s brand and 'moov'.
        var brand: UInt32 = 0
        var moov: [UInt8]?
        var position: Int64 = 0
        var walked = 0
        while position <= size - 8, walked < FileLimits.chunks {
            walked += 1
            let header = try source.bytes(at: position, count: 16)
            guard header.count >= 8 else { break }
            var boxSize = Int64(header.bigEndian(UInt32.self, at: 0))
            let type = header.fourCC(at: 4)
            var headerSize: Int64 = 8
            if boxSize == 1 {
                guard header.count == 16 else { throw .invalidFile }
                boxSize = Int64(clamping: header.bigEndian(UInt64.self, at: 8))
                headerSize = 16
            } else if boxSize == 0 {
                boxSize = size - position
            }
            guard boxSize >= headerSize else { throw .invalidFile }
            if type == fourCC("ftyp") && header.count >= 12 { brand = header.fourCC(at: 8) }
            if type == fourCC("mdat") && upToData { throw .notOptimized }
            if type == fourCC("moov") {
                let length = boxSize - headerSize
                guard length <= FileLimits.chunkBytes, boxSize <= size - position else { throw .invalidFile }
                let body = try source.bytes(at: position + headerSize, count: Int(length))
                guard body.count == Int(length) else { throw .invalidFile }
                moov = body
                break
            }
            guard boxSize <= Int64.max - position else { break }
            position += boxSize
        }
        guard let moov else { throw .invalidFile }
        let top = Box(type: fourCC("moov"), body: 0..<moov.count)
        var movieTimescale: UInt32 = 0
        if let mvhd = try child(moov, top, "mvhd"), mvhd.body.count >= 20 {
            movieTimescale = moov.bigEndian(UInt32.self, at: mvhd.body.lowerBound + (moov[mvhd.body.lowerBound] == 1 ? 20 : 12))
        }
        // The first sound track.
        for trak in try boxes(moov, in: top.body) where trak.type == fourCC("trak") {
            guard let mdia = try child(moov, trak, "mdia"), let hdlr = try child(moov, mdia, "hdlr"),
                  hdlr.body.count >= 12, moov.fourCC(at: hdlr.body.lowerBound + 8) == fourCC("soun") else { continue }
            var layout = try track(moov, mdia: mdia, trak: trak, movieTimescale: movieTimescale, fileSize: size)
            layout.fileType = fileType(brand)
            layout.tags = (try? tags(moov, top)) ?? []   // tags that do not parse are no reason to refuse the file
            return layout
        }
        throw .unsupportedDataFormat   // an MPEG-4 file with no sound track
    }

    /// The tags of moov/udta/meta/ilst (meta a full box, as iTunes and FFmpeg write it, or QuickTime's
    /// plain box whose first child is 'hdlr').
    private static func tags(_ m: [UInt8], _ moov: Box) throws(FileStatus) -> [(key: String, value: String)] {
        guard let udta = try child(m, moov, "udta"), let meta = try child(m, udta, "meta") else { return [] }
        var body = meta.body
        if body.count >= 8, m.fourCC(at: body.lowerBound + 4) != fourCC("hdlr") { body = (body.lowerBound + 4)..<body.upperBound }
        guard let ilst = try boxes(m, in: body).first(where: { $0.type == fourCC("ilst") }) else { return [] }
        return Tags.ilst(m, ilst.body)
    }

    /// The file type a brand names.
    private static func fileType(_ brand: UInt32) -> AudioFileTypeID {
        switch brand {
        case fourCC("M4A "), fourCC("M4P "): return kAudioFileM4AType
        case fourCC("M4B "): return kAudioFileM4BType
        case fourCC("3gp4"), fourCC("3gp5"), fourCC("3gp6"), fourCC("3ge6"), fourCC("3ge7"): return kAudioFile3GPType
        case fourCC("3g2a"), fourCC("3g2b"), fourCC("3g2c"): return kAudioFile3GP2Type
        default: return kAudioFileMPEG4Type
        }
    }

    private static func track(_ m: [UInt8], mdia: Box, trak: Box, movieTimescale: UInt32,
                              fileSize: Int64) throws(FileStatus) -> FileLayout {
        guard let mdhd = try child(m, mdia, "mdhd"), mdhd.body.count >= 24,
              let minf = try child(m, mdia, "minf"), let stbl = try child(m, minf, "stbl"),
              let stsd = try child(m, stbl, "stsd"), let stsz = try child(m, stbl, "stsz"),
              let stsc = try child(m, stbl, "stsc") else { throw .invalidFile }
        let mediaTimescale = m.bigEndian(UInt32.self, at: mdhd.body.lowerBound + (m[mdhd.body.lowerBound] == 1 ? 20 : 12))
        let chunkOffsets = try offsets(m, stbl)

        // The sample description: mp4a (with esds) or alac (with its 'alac' box).
        guard stsd.body.count >= 8 + 36 else { throw .invalidFile }
        let entry = stsd.body.lowerBound + 8
        let entrySize = Int(m.bigEndian(UInt32.self, at: entry))
        let format = m.fourCC(at: entry + 4)
        guard entrySize >= 36, entry + entrySize <= stsd.body.upperBound else { throw .invalidFile }
        let soundVersion = m.bigEndian(UInt16.self, at: entry + 16)
        let channels = UInt32(m.bigEndian(UInt16.self, at: entry + 24))
        let rate = Double(m.bigEndian(UInt32.self, at: entry + 32)) / 65536
        let extra = soundVersion == 1 ? 16 : soundVersion == 2 ? 36 : 0
        guard entry + 36 + extra <= entry + entrySize else { throw .invalidFile }
        let children = try boxes(m, in: (entry + 36 + extra)..<(entry + entrySize))
        var asbd = AudioStreamBasicDescription()
        asbd.mSampleRate = rate
        asbd.mChannelsPerFrame = channels
        var cookie: [UInt8]
        switch format {
        case fourCC("mp4a"):
            guard let esds = children.first(where: { $0.type == fourCC("esds") }), esds.body.count > 4 else { throw .invalidFile }
            cookie = Array(m[(esds.body.lowerBound + 4)..<esds.body.upperBound])   // the ES descriptor
            asbd.mFormatID = kAudioFormatMPEG4AAC
        case fourCC("alac"):
            guard let config = children.first(where: { $0.type == fourCC("alac") }), config.body.count >= 4 + 24 else {
                throw .invalidFile
            }
            cookie = Array(m[(config.body.lowerBound + 4)..<config.body.upperBound])   // the ALACSpecificConfig
            asbd.mFormatID = kAudioFormatAppleLossless
        default:
            throw .unsupportedDataFormat
        }
        let completed = cookie.withUnsafeBytes { raw in
            Result { () throws(FormatStatus) -> AudioStreamBasicDescription in
                var filled = asbd
                try FormatInfo.complete(&filled, cookie: raw)
                return filled
            }
        }
        guard case .success(let described) = completed else { throw .invalidFile }
        asbd = described
        guard FileLimits.validRate(asbd.mSampleRate), asbd.mChannelsPerFrame > 0,
              asbd.mChannelsPerFrame <= FileLimits.channels else { throw .invalidFile }

        // Sizes.
        let sb = stsz.body.lowerBound
        guard stsz.body.count >= 12 else { throw .invalidFile }
        let constantSize = m.bigEndian(UInt32.self, at: sb + 4)
        let count = Int(m.bigEndian(UInt32.self, at: sb + 8))
        guard count <= FileLimits.tablePackets else { throw .invalidFile }
        if constantSize == 0 {
            guard count <= (stsz.body.count - 12) / 4 else { throw .invalidFile }
        } else {
            guard constantSize <= FileLimits.packetBytes, Int64(count) <= fileSize / Int64(constantSize) else { throw .invalidFile }
        }
        func sampleSize(_ index: Int) -> UInt32 {
            constantSize != 0 ? constantSize : m.bigEndian(UInt32.self, at: sb + 12 + 4 * index)
        }
        // Places: stsc runs of samples per chunk, over the chunk offsets.
        guard stsc.body.count >= 8 else { throw .invalidFile }
        let runs = Int(m.bigEndian(UInt32.self, at: stsc.body.lowerBound + 4))
        guard runs <= (stsc.body.count - 8) / 12 else { throw .invalidFile }
        var packets: [AudioStreamPacketDescription] = []
        packets.reserveCapacity(count)
        var sample = 0
        var chunk = 0
        for run in 0..<runs where sample < count {
            let base = stsc.body.lowerBound + 8 + 12 * run
            let first = Int(m.bigEndian(UInt32.self, at: base)) - 1
            let perChunk = Int(m.bigEndian(UInt32.self, at: base + 4))
            let next = run + 1 < runs ? Int(m.bigEndian(UInt32.self, at: base + 12)) - 1 : chunkOffsets.count
            guard first >= chunk, next >= first, next <= chunkOffsets.count, perChunk <= count else { throw .invalidFile }
            chunk = first
            while chunk < next && sample < count {
                var offset = chunkOffsets[chunk]
                for _ in 0..<perChunk where sample < count {
                    let bytes = sampleSize(sample)
                    guard bytes <= FileLimits.packetBytes else { throw .invalidFile }
                    packets.append(AudioStreamPacketDescription(mStartOffset: offset, mVariableFramesInPacket: 0, mDataByteSize: bytes))
                    offset += Int64(bytes)
                    sample += 1
                }
                chunk += 1
            }
        }
        // A truncated file: the packets that are whole in it.
        while let last = packets.last, last.mStartOffset + Int64(last.mDataByteSize) > fileSize { packets.removeLast() }
        let dataStart = packets.map(\.mStartOffset).min() ?? 0
        for index in packets.indices { packets[index].mStartOffset -= dataStart }
        let dataBytes = packets.map { $0.mStartOffset + Int64($0.mDataByteSize) }.max() ?? 0

        var layout = FileLayout(fileType: kAudioFileMPEG4Type, format: asbd, dataOffset: dataStart, dataByteCount: dataBytes,
                                packetCount: Int64(packets.count), packets: packets, magicCookie: cookie, channelLayout: nil,
                                packetTable: nil, sourceBitDepth: nil)
        // Priming and remainder from the edit list: the media time is where the audio starts, in
        // the media's timescale, and the segment's duration its length, in the movie's. Both are
        // counted here in the data format's frames, whose rate may not be the timescale: an HE-AAC
        // track's timescale is its output rate (2,048 frames a packet), its data format the base
        // layer at half that (1,024).
        let total = layout.totalFrames
        var priming: Int64 = 0
        var valid = total
        if let edts = try child(m, trak, "edts"), let elst = try child(m, edts, "elst"), elst.body.count >= 8,
           m.bigEndian(UInt32.self, at: elst.body.lowerBound + 4) >= 1 {
            let v1 = m[elst.body.lowerBound] == 1
            let e = elst.body.lowerBound + 8
            if elst.body.count >= 8 + (v1 ? 20 : 12) {
                let segment = v1 ? Int64(clamping: m.bigEndian(UInt64.self, at: e)) : Int64(m.bigEndian(UInt32.self, at: e))
                let mediaTime = v1 ? m.bigEndian(Int64.self, at: e + 8) : Int64(m.bigEndian(Int32.self, at: e + 4))
                let framesPerTick = mediaTimescale > 0 ? asbd.mSampleRate / Double(mediaTimescale) : 1
                let start = (Double(mediaTime) * framesPerTick).rounded()
                if mediaTime >= 0, start <= Double(total) { priming = Int64(start) }
                if movieTimescale > 0, mediaTimescale > 0, segment > 0 {
                    let frames = Double(segment) * asbd.mSampleRate / Double(movieTimescale)
                    valid = frames < Double(total - priming) ? Int64(frames.rounded()) : total - priming
                } else {
                    valid = total - priming
                }
            }
        }
        if valid < 0 { valid = 0 }
        layout.packetTable = AudioFilePacketTableInfo(mNumberValidFrames: valid, mPrimingFrames: Int32(clamping: priming),
                                                      mRemainderFrames: Int32(clamping: total - priming - valid))
        return layout
    }

    /// The chunk offsets of 'stco' or 'co64'.
    private static func offsets(_ m: [UInt8], _ stbl: Box) throws(FileStatus) -> [Int64] {
        if let stco = try child(m, stbl, "stco"), stco.body.count >= 8 {
            let count = Int(m.bigEndian(UInt32.self, at: stco.body.lowerBound + 4))
            guard count <= (stco.body.count - 8) / 4 else { throw .invalidFile }
            return (0..<count).map { Int64(m.bigEndian(UInt32.self, at: stco.body.lowerBound + 8 + 4 * $0)) }
        }
        if let co64 = try child(m, stbl, "co64"), co64.body.count >= 8 {
            let count = Int(m.bigEndian(UInt32.self, at: co64.body.lowerBound + 4))
            guard count <= (co64.body.count - 8) / 8 else { throw .invalidFile }
            return try (0..<count).map { (index) throws(FileStatus) -> Int64 in
                let value = m.bigEndian(UInt64.self, at: co64.body.lowerBound + 8 + 8 * index)
                guard value <= UInt64(Int64.max / 2) else { throw .invalidFile }
                return Int64(value)
            }
        }
        throw .invalidFile
    }
}
