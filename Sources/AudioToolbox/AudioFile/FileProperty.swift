// The answer to each property of an open file, as the bytes AudioFileGetProperty copies out.

/// The value as its bytes.
private func bytes<T: BitwiseCopyable>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value) { Array($0) }
}

enum FileProperty {
    /// The size of `id`'s value for `layout`: `kAudioFileUnsupportedPropertyError` for a property the
    /// file does not have.
    static func size(_ id: AudioFilePropertyID, of layout: FileLayout, optimized: Bool) throws(FileStatus) -> Int {
        switch id {
        case kAudioFilePropertyFrameToPacket, kAudioFilePropertyPacketToFrame:
            return MemoryLayout<AudioFramePacketTranslation>.size
        case kAudioFilePropertyByteToPacket, kAudioFilePropertyPacketToByte:
            return MemoryLayout<AudioBytePacketTranslation>.size
        case kAudioFilePropertyPacketRangeByteCountUpperBound:
            return MemoryLayout<AudioPacketRangeByteCountTranslation>.size
        case kAudioFilePropertyInfoDictionary:
            return MemoryLayout<UnsafeRawPointer>.size   // a CFDictionaryRef (AudioFileGetProperty makes it)
        default:
            return try value(id, of: layout, optimized: optimized, question: UnsafeRawBufferPointer(start: nil, count: 0)).count
        }
    }

    /// The value of `id`. The translations read their question from `question` (the caller's buffer);
    /// `optimized` says whether a file being written is up to date on disk.
    static func value(_ id: AudioFilePropertyID, of layout: FileLayout, optimized: Bool,
                      question: UnsafeRawBufferPointer) throws(FileStatus) -> [UInt8] {
        switch id {
        case kAudioFilePropertyFileFormat:
            return bytes(layout.fileType)
        case kAudioFilePropertyDataFormat:
            return bytes(layout.format)
        case kAudioFilePropertyIsOptimized:
            return bytes(UInt32(optimized ? 1 : 0))
        case kAudioFilePropertyMagicCookieData:
            guard let cookie = layout.magicCookie else { throw .unsupportedProperty }
            return cookie
        case kAudioFilePropertyAudioDataByteCount:
            return bytes(UInt64(layout.dataByteCount))
        case kAudioFilePropertyAudioDataPacketCount:
            return bytes(UInt64(layout.packetCount))
        case kAudioFilePropertyMaximumPacketSize, kAudioFilePropertyPacketSizeUpperBound:
            return bytes(layout.maximumPacketSize)
        case kAudioFilePropertyDataOffset:
            return bytes(layout.dataOffset)
        case kAudioFilePropertyChannelLayout:
            guard let channelLayout = layout.channelLayout else { throw .unsupportedProperty }
            return channelLayout
        case kAudioFilePropertyPacketTableInfo:
            guard let table = layout.packetTable else { throw .unsupportedProperty }
            return bytes(table)
        case kAudioFilePropertyFormatList:
            // The layers, richest first (HE-AAC's above its base layer), the data format itself
            // among them; each with the file's layout tag when it has the file's channel count.
            var stated: AudioChannelLayoutTag?
            if let channelLayout = layout.channelLayout, channelLayout.count >= 4 {
                let tag = channelLayout.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
                if tag != kAudioChannelLayoutTag_UseChannelBitmap && tag != kAudioChannelLayoutTag_UseChannelDescriptions { stated = tag }
            }
            let format = layout.format
            let listed = layout.magicCookie.map { cookie in cookie.withUnsafeBytes { FormatLayers.list(format, cookie: $0) } }
                ?? FormatLayers.list(format, cookie: nil)
            let layers = listed.map { $0.mFormatID == format.mFormatID ? format : $0 }
            let items = FormatLayers.items(layers) { channels in channels == format.mChannelsPerFrame ? stated : nil }
            return items.withUnsafeBytes { Array($0) }
        case kAudioFilePropertyEstimatedDuration:
            return bytes(Float64(layout.duration))
        case kAudioFilePropertyBitRate:
            let duration = layout.duration
            let rate = duration > 0 ? Double(layout.dataByteCount) * 8 / duration : 0
            return bytes(UInt32(clamping: Int64(rate.isFinite ? min(rate, Double(UInt32.max)).rounded() : 0)))
        case kAudioFilePropertySourceBitDepth:
            guard let depth = layout.sourceBitDepth else { throw .unsupportedProperty }
            return bytes(depth)
        case kAudioFilePropertyAudioTrackCount:
            return bytes(UInt32(1))
        case kAudioFilePropertyRestrictsRandomAccess:
            return bytes(UInt32(0))
        case kAudioFilePropertyFrameToPacket:
            var translation = try read(AudioFramePacketTranslation.self, from: question)
            guard translation.mFrame >= 0 else { throw .parameter }
            (translation.mPacket, translation.mFrameOffsetInPacket) = try packet(forFrame: translation.mFrame, in: layout)
            return bytes(translation)
        case kAudioFilePropertyPacketToFrame:
            var translation = try read(AudioFramePacketTranslation.self, from: question)
            guard translation.mPacket >= 0 else { throw .invalidPacketOffset }
            translation.mFrame = try frame(forPacket: translation.mPacket, in: layout)
            translation.mFrameOffsetInPacket = 0
            return bytes(translation)
        case kAudioFilePropertyByteToPacket:
            var translation = try read(AudioBytePacketTranslation.self, from: question)
            guard translation.mByte >= 0 else { throw .position }
            (translation.mPacket, translation.mByteOffsetInPacket) = try packet(forByte: translation.mByte, in: layout)
            translation.mFlags = []
            return bytes(translation)
        case kAudioFilePropertyPacketToByte:
            var translation = try read(AudioBytePacketTranslation.self, from: question)
            guard translation.mPacket >= 0 else { throw .invalidPacketOffset }
            if translation.mPacket < layout.packetCount {
                translation.mByte = layout.packet(translation.mPacket).offset
            } else {
                let (past, overflow) = (translation.mPacket - layout.packetCount).multipliedReportingOverflow(by: Int64(layout.maximumPacketSize))
                guard !overflow, past <= Int64.max - layout.dataByteCount else { throw .invalidPacketOffset }
                translation.mByte = layout.dataByteCount + past
            }
            translation.mByteOffsetInPacket = 0
            translation.mFlags = translation.mPacket < layout.packetCount ? [] : .isEstimate
            return bytes(translation)
        case kAudioFilePropertyPacketRangeByteCountUpperBound:
            var translation = try read(AudioPacketRangeByteCountTranslation.self, from: question)
            guard translation.mPacket >= 0, translation.mPacketCount >= 0 else { throw .invalidPacketOffset }
            let end = min(layout.packetCount, translation.mPacket + min(translation.mPacketCount, layout.packetCount))
            var total: Int64 = 0
            if translation.mPacket < end {
                for index in translation.mPacket..<end { total += Int64(layout.packet(index).size) }
            }
            translation.mByteCountUpperBound = total
            return bytes(translation)
        default:
            throw .unsupportedProperty
        }
    }

    /// A translation's question from the caller's buffer, which must hold it whole.
    private static func read<T: BitwiseCopyable>(_ type: T.Type, from question: UnsafeRawBufferPointer) throws(FileStatus) -> T {
        guard question.count >= MemoryLayout<T>.size, question.baseAddress != nil else { throw .badPropertySize }
        return question.loadUnaligned(as: T.self)
    }

    /// The packet holding `frame` (counted from the first packet's first frame, priming included).
    private static func packet(forFrame frame: Int64, in layout: FileLayout) throws(FileStatus) -> (Int64, UInt32) {
        if layout.format.mFramesPerPacket > 0 {
            let per = Int64(layout.format.mFramesPerPacket)
            return (frame / per, UInt32(frame % per))
        }
        var start: Int64 = 0
        for (index, packet) in (layout.packets ?? []).enumerated() {
            let frames = Int64(packet.mVariableFramesInPacket)
            if frame < start + frames { return (Int64(index), UInt32(frame - start)) }
            start += frames
        }
        throw .endOfFile
    }

    /// The first frame of `packet`.
    private static func frame(forPacket packet: Int64, in layout: FileLayout) throws(FileStatus) -> Int64 {
        if layout.format.mFramesPerPacket > 0 {
            let (frame, overflow) = packet.multipliedReportingOverflow(by: Int64(layout.format.mFramesPerPacket))
            guard !overflow else { throw .invalidPacketOffset }
            return frame
        }
        guard let packets = layout.packets, packet <= Int64(packets.count) else { throw .invalidPacketOffset }
        return packets[..<Int(packet)].reduce(0) { $0 + Int64($1.mVariableFramesInPacket) }
    }

    /// The packet holding data byte `byte`, and where in it.
    private static func packet(forByte byte: Int64, in layout: FileLayout) throws(FileStatus) -> (Int64, UInt32) {
        guard let packets = layout.packets else {
            let per = Int64(max(layout.format.mBytesPerPacket, 1))
            return (byte / per, UInt32(byte % per))
        }
        guard byte < layout.dataByteCount else { throw .endOfFile }
        var low = 0, high = packets.count - 1
        while low < high {   // the last packet starting at or before `byte`
            let middle = (low + high + 1) / 2
            if packets[middle].mStartOffset <= byte { low = middle } else { high = middle - 1 }
        }
        return (Int64(low), UInt32(byte - packets[low].mStartOffset))
    }
}
