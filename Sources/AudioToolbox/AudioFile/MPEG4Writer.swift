// MPEG-4 audio files (.m4a, .mp4, .m4b) as Audio File Services writes them: 'ftyp', then 'mdat'
// (with a 64-bit size, set at close) holding the packets one after another, then at close the movie
// box 'moov' describing one sound track: its sample entry ('mp4a' with an 'esds' built from the
// magic cookie, or 'alac' with its ALACSpecificConfig), its packets' sizes and durations, and an
// edit list stating the priming and remainder when they were set (kAudioFilePropertyPacketTableInfo),
// which is how readers learn them. AAC (LC, HE, HE v2) and Apple Lossless.

struct MPEG4Writer: ContainerWriter {
    /// kAudioFileM4AType, kAudioFileMPEG4Type or kAudioFileM4BType.
    let fileType: AudioFileTypeID
    var maximumDataBytes: Int64 { Int64.max / 2 }
    var storesCookie: Bool { true }

    func check(_ format: AudioStreamBasicDescription) throws(FileStatus) {
        guard [kAudioFormatMPEG4AAC, kAudioFormatMPEG4AAC_HE, kAudioFormatMPEG4AAC_HE_V2,
               kAudioFormatAppleLossless].contains(format.mFormatID),
              format.mChannelsPerFrame > 0, format.mChannelsPerFrame <= 8, format.mSampleRate >= 1,
              format.mSampleRate <= Double(UInt32.max) else { throw .unsupportedDataFormat }
    }

    func header(_ layout: FileLayout, frozen: FileLayout?) throws(FileStatus) -> [UInt8] {
        var b = ByteBuilder()
        try b.box("ftyp") { f in
            f.code(fileType == kAudioFileMPEG4Type ? "mp42" : fileType == kAudioFileM4BType ? "M4B " : "M4A ")
            f.big(UInt32(0))
            f.code(fileType == kAudioFileM4BType ? "M4B " : "M4A ")
            f.code("mp42")
            f.code("isom")
        }
        b.big(UInt32(1))               // the size is the 64-bit one after the type
        b.code("mdat")
        b.big(UInt64(16) + UInt64(layout.dataByteCount))
        return b.bytes
    }

    func trailer(_ layout: FileLayout, frozen: FileLayout?) throws(FileStatus) -> [UInt8] {
        let format = layout.format
        let timescale = UInt32(format.mSampleRate.rounded())
        let packets = layout.packets ?? []
        let totalFrames = layout.totalFrames
        let table = writtenPacketTable(layout)
        let stated = layout.packetTable != nil && (table.mPrimingFrames > 0 || table.mRemainderFrames > 0)
        let duration = stated ? table.mNumberValidFrames : totalFrames
        var b = ByteBuilder()
        try b.box("moov") { (moov: inout ByteBuilder) throws(FileStatus) in
            try moov.fullBox("mvhd", version: 1) { m in
                m.big(UInt64(0)); m.big(UInt64(0))           // creation and modification times
                m.big(timescale)
                m.big(UInt64(duration))
                m.big(UInt32(0x0001_0000))                    // rate 1.0
                m.big(UInt16(0x0100))                         // volume 1.0
                m.zeros(10)
                Self.identityMatrix(&m)
                m.zeros(24)
                m.big(UInt32(2))                              // the next track's ID
            }
            try moov.box("trak") { (trak: inout ByteBuilder) throws(FileStatus) in
                try trak.fullBox("tkhd", version: 1, flags: 7) { t in
                    t.big(UInt64(0)); t.big(UInt64(0))
                    t.big(UInt32(1))                          // track ID
                    t.zeros(4)
                    t.big(UInt64(duration))
                    t.zeros(8)
                    t.big(UInt16(0)); t.big(UInt16(0))        // layer, alternate group
                    t.big(UInt16(0x0100))                     // volume
                    t.zeros(2)
                    Self.identityMatrix(&t)
                    t.big(UInt32(0)); t.big(UInt32(0))        // width, height
                }
                if stated {
                    try trak.box("edts") { (e: inout ByteBuilder) throws(FileStatus) in
                        try e.fullBox("elst", version: 1) { l in
                            l.big(UInt32(1))
                            l.big(UInt64(table.mNumberValidFrames))      // in the movie's timescale
                            l.big(Int64(table.mPrimingFrames))          // in the media's
                            l.big(UInt32(0x0001_0000))
                        }
                    }
                }
                try trak.box("mdia") { (mdia: inout ByteBuilder) throws(FileStatus) in
                    try mdia.fullBox("mdhd", version: 1) { m in
                        m.big(UInt64(0)); m.big(UInt64(0))
                        m.big(timescale)
                        m.big(UInt64(totalFrames))
                        m.big(UInt16(0x55C4))                 // language 'und'
                        m.big(UInt16(0))
                    }
                    try mdia.fullBox("hdlr") { h in
                        h.big(UInt32(0))
                        h.code("soun")
                        h.zeros(12)
                        h.append(Array("SoundHandler".utf8) + [0])
                    }
                    try mdia.box("minf") { (minf: inout ByteBuilder) throws(FileStatus) in
                        try minf.fullBox("smhd") { $0.zeros(4) }
                        try minf.box("dinf") { (dinf: inout ByteBuilder) throws(FileStatus) in
                            try dinf.fullBox("dref") { (d: inout ByteBuilder) throws(FileStatus) in
                                d.big(UInt32(1))
                                try d.fullBox("url ", flags: 1) { _ in }
                            }
                        }
                        try minf.box("stbl") { (stbl: inout ByteBuilder) throws(FileStatus) in
                            try stbl.fullBox("stsd") { (s: inout ByteBuilder) throws(FileStatus) in
                                s.big(UInt32(1))
                                try sampleEntry(&s, layout)
                            }
                            try stbl.fullBox("stts") { s in
                                var runs: [(count: UInt32, delta: UInt32)] = []
                                for packet in packets {
                                    let frames = packet.mVariableFramesInPacket != 0 ? packet.mVariableFramesInPacket
                                        : format.mFramesPerPacket
                                    if let last = runs.last, last.delta == frames {
                                        runs[runs.count - 1].count += 1
                                    } else {
                                        runs.append((1, frames))
                                    }
                                }
                                s.big(UInt32(runs.count))
                                for run in runs { s.big(run.count); s.big(run.delta) }
                            }
                            try stbl.fullBox("stsc") { s in     // every packet in one chunk
                                s.big(UInt32(packets.isEmpty ? 0 : 1))
                                if !packets.isEmpty { s.big(UInt32(1)); s.big(UInt32(clamping: packets.count)); s.big(UInt32(1)) }
                            }
                            try stbl.fullBox("stsz") { s in
                                s.big(UInt32(0))
                                s.big(UInt32(clamping: packets.count))
                                for packet in packets { s.big(packet.mDataByteSize) }
                            }
                            try stbl.fullBox("co64") { s in
                                s.big(UInt32(packets.isEmpty ? 0 : 1))
                                if !packets.isEmpty { s.big(UInt64(layout.dataOffset)) }
                            }
                        }
                    }
                }
            }
        }
        return b.bytes
    }

    /// The track's sample entry: 'mp4a' with its 'esds', or 'alac' with its configuration.
    private func sampleEntry(_ s: inout ByteBuilder, _ layout: FileLayout) throws(FileStatus) {
        let format = layout.format
        let lossless = format.mFormatID == kAudioFormatAppleLossless
        let configuration = lossless ? Self.alacConfig(layout) : try Self.esDescriptor(layout)
        try s.box(lossless ? "alac" : "mp4a") { (e: inout ByteBuilder) throws(FileStatus) in
            e.zeros(6)
            e.big(UInt16(1))                                  // data reference index
            e.zeros(8)                                        // sound version 0 and reserved
            e.big(UInt16(format.mChannelsPerFrame))
            e.big(UInt16(lossless ? configuration[5] : 16))
            e.zeros(4)
            let rate = UInt32(format.mSampleRate.rounded())
            e.big(rate <= 0xFFFF ? rate << 16 : 0)
            try e.fullBox(lossless ? "alac" : "esds") { $0.append(configuration) }
        }
    }

    private static func identityMatrix(_ b: inout ByteBuilder) {
        for value: UInt32 in [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000] { b.big(value) }
    }

    /// The ES descriptor for AAC: the cookie when it is one (or an 'esds' box holding one), the
    /// cookie's AudioSpecificConfig wrapped in one, or one built from the format (AAC LC).
    static func esDescriptor(_ layout: FileLayout) throws(FileStatus) -> [UInt8] {
        if let cookie = layout.magicCookie {
            if cookie.first == 3 { return cookie }
            if cookie.count > 12, cookie[4..<8].elementsEqual("esds".utf8), cookie[12] == 3 { return Array(cookie[12...]) }
        }
        let config: [UInt8]
        if let cookie = layout.magicCookie, !cookie.isEmpty,
           cookie.withUnsafeBytes({ MagicCookie.audioSpecificConfig(in: $0) }) != nil {
            config = cookie
        } else {
            guard let rateIndex = MagicCookie.sampleRates.firstIndex(of: layout.format.mSampleRate),
                  layout.format.mFormatID == kAudioFormatMPEG4AAC else { throw .unsupportedDataFormat }
            var bits = BitWriter()
            bits.write(2, 5)                                  // AAC LC
            bits.write(UInt32(rateIndex), 4)
            bits.write(layout.format.mChannelsPerFrame == 8 ? 7 : layout.format.mChannelsPerFrame, 4)
            bits.write(0, 3)                                  // 1024 frames, no core coder, no extension
            config = bits.bytes
        }
        func descriptor(_ tag: UInt8, _ body: [UInt8]) -> [UInt8] {
            let n = body.count
            return [tag, UInt8(0x80 | (n >> 21) & 0x7F), UInt8(0x80 | (n >> 14) & 0x7F), UInt8(0x80 | (n >> 7) & 0x7F),
                    UInt8(n & 0x7F)] + body
        }
        let maximum = layout.packets?.map(\.mDataByteSize).max() ?? 0
        var decoderConfig = ByteBuilder()
        decoderConfig.append([0x40, 0x15])                    // MPEG-4 audio; an audio stream
        decoderConfig.append([UInt8(maximum >> 16 & 0xFF), UInt8(maximum >> 8 & 0xFF), UInt8(maximum & 0xFF)])
        let seconds = layout.duration
        let average = seconds > 0 ? UInt32(clamping: Int64((Double(layout.dataByteCount) * 8 / seconds).rounded())) : 0
        decoderConfig.big(average)                            // maximum bit rate (not measured: the average)
        decoderConfig.big(average)
        let es = [0, 0, 0] + descriptor(4, decoderConfig.bytes + descriptor(5, config)) + descriptor(6, [2])
        return descriptor(3, es)
    }

    /// The 24-byte ALACSpecificConfig: from the cookie, or built from the format.
    static func alacConfig(_ layout: FileLayout) -> [UInt8] {
        if let cookie = layout.magicCookie, cookie.withUnsafeBytes({ ALACSpecificConfig(cookie: $0) }) != nil {
            var bytes = cookie[...]
            func atom(_ name: String) -> Bool { bytes.count >= 12 && bytes.dropFirst(4).prefix(4).elementsEqual(name.utf8) }
            if atom("frma") { bytes = bytes.dropFirst(12) }
            if atom("alac") { bytes = bytes.dropFirst(12) }
            return Array(bytes.prefix(24))
        }
        let format = layout.format
        let depth: UInt8 = switch format.mFormatFlags {
        case kAppleLosslessFormatFlag_20BitSourceData: 20
        case kAppleLosslessFormatFlag_24BitSourceData: 24
        case kAppleLosslessFormatFlag_32BitSourceData: 32
        default: 16
        }
        var b = ByteBuilder()
        b.big(format.mFramesPerPacket == 0 ? UInt32(4096) : format.mFramesPerPacket)
        b.append([0, depth, 40, 10, 14, UInt8(format.mChannelsPerFrame)])   // version, depth, pb, mb, kb, channels
        b.big(UInt16(255))                                    // maximum run
        b.big(UInt32(0))                                      // maximum frame bytes (unknown)
        b.big(UInt32(0))                                      // average bit rate (unknown)
        b.big(UInt32(format.mSampleRate.rounded()))
        return b.bytes
    }
}
