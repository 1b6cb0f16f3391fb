// The answer to each property Soundstage gives, as the bytes AudioFormatGetProperty copies out.

/// A property's specifier: the bytes the caller passed, checked against their stated size.
struct Specifier {
    /// The specifier's bytes, or nil when there is none (size 0).
    let bytes: UnsafeRawBufferPointer?

    /// A size with a NULL pointer is `kAudio_ParamError`.
    init(size: UInt32, pointer: UnsafeRawPointer?) throws(FormatStatus) {
        if size == 0 {
            bytes = nil
        } else {
            guard let pointer else { throw .parameter }
            bytes = UnsafeRawBufferPointer(start: pointer, count: Int(size))
        }
    }

    /// The specifier as a `T` whose size it must have exactly (`kAudioFormatBadSpecifierSizeError`
    /// otherwise, `kAudio_ParamError` when absent).
    func value<T: BitwiseCopyable>(_ type: T.Type) throws(FormatStatus) -> T {
        guard let bytes else { throw .parameter }
        guard bytes.count == MemoryLayout<T>.size else { throw .badSpecifierSize }
        return bytes.loadUnaligned(as: T.self)
    }
}

/// A property's value: its bytes, and for a list the size of one item (a list given less room
/// is cut to whole items; a fixed-size value given less room is `kAudioFormatBadPropertySizeError`).
struct PropertyAnswer {
    let bytes: [UInt8]
    let itemSize: Int?

    /// One fixed-size value.
    static func value<T: BitwiseCopyable>(_ value: T) -> PropertyAnswer {
        PropertyAnswer(bytes: withUnsafeBytes(of: value) { Array($0) }, itemSize: nil)
    }

    /// A list of values.
    static func list<T: BitwiseCopyable>(_ items: [T]) -> PropertyAnswer {
        PropertyAnswer(bytes: items.withUnsafeBytes { Array($0) }, itemSize: MemoryLayout<T>.stride)
    }
}

enum FormatProperty {
    /// The answer to `property` for `specifier` (everything but FormatInfo, whose value is also
    /// its input: AudioFormatServices.swift).
    static func answer(_ property: AudioFormatPropertyID, _ specifier: Specifier) throws(FormatStatus) -> PropertyAnswer {
        switch property {
        case kAudioFormatProperty_FormatIsVBR:
            let asbd = try specifier.value(AudioStreamBasicDescription.self)
            return .value(UInt32(try FormatCatalog.traits(of: asbd.mFormatID).isVBR ? 1 : 0))
        case kAudioFormatProperty_FormatIsExternallyFramed:
            // Apple: "Any format that has variable-byte-sized packets requires packet descriptions."
            let asbd = try specifier.value(AudioStreamBasicDescription.self)
            return .value(UInt32(try FormatCatalog.traits(of: asbd.mFormatID).isVBR ? 1 : 0))
        case kAudioFormatProperty_FormatIsEncrypted:
            let asbd = try specifier.value(AudioStreamBasicDescription.self)
            return .value(UInt32(try FormatCatalog.traits(of: asbd.mFormatID).isEncrypted ? 1 : 0))
        case kAudioFormatProperty_EncodeFormatIDs:
            return .list(Codecs.encodeFormatIDs())
        case kAudioFormatProperty_DecodeFormatIDs:
            return .list(Codecs.decodeFormatIDs())
        case kAudioFormatProperty_Encoders, kAudioFormatProperty_Decoders:
            let formatID = try specifier.value(AudioFormatID.self)
            _ = try FormatCatalog.traits(of: formatID)
            let encoding = property == kAudioFormatProperty_Encoders
            let available = encoding ? Codecs.encodeFormatIDs() : Codecs.decodeFormatIDs()
            guard available.contains(formatID) else { return .list([AudioClassDescription]()) }
            return .list([AudioClassDescription(mType: encoding ? kAudioEncoderComponentType : kAudioDecoderComponentType,
                                                mSubType: formatID, mManufacturer: kAppleSoftwareAudioCodecManufacturer)])
        case kAudioFormatProperty_AvailableEncodeSampleRates:
            let formatID = try specifier.value(AudioFormatID.self)
            _ = try FormatCatalog.traits(of: formatID)
            guard let rates = Codecs.encodeSampleRates(formatID) else { throw .unsupportedDataFormat }
            return .list(rates)
        case kAudioFormatProperty_AvailableEncodeBitRates:
            let formatID = try specifier.value(AudioFormatID.self)
            _ = try FormatCatalog.traits(of: formatID)
            guard let rates = Codecs.encodeBitRates(formatID) else { throw .unsupportedDataFormat }
            return .list(rates)
        case kAudioFormatProperty_ChannelLayoutForTag:
            let tag = try specifier.value(AudioChannelLayoutTag.self)
            return PropertyAnswer(bytes: ChannelLayouts.bytes(labels: try ChannelLayouts.labels(forTag: tag)), itemSize: nil)
        case kAudioFormatProperty_ChannelLayoutForBitmap:
            let bitmap = try specifier.value(UInt32.self)
            return PropertyAnswer(bytes: ChannelLayouts.bytes(labels: try ChannelLayouts.labels(forBitmap: bitmap)), itemSize: nil)
        case kAudioFormatProperty_NumberOfChannelsForLayout:
            // The specifier is an AudioChannelLayout of any length from its fixed fields on.
            guard let bytes = specifier.bytes else { throw .parameter }
            guard bytes.count >= ChannelLayouts.size(descriptions: 0) else { throw .badSpecifierSize }
            let count = ChannelLayouts.channelCount(tag: bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self),
                                                    bitmap: bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self),
                                                    descriptions: bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
            return .value(count)
        case kAudioFormatProperty_TagForChannelLayout:
            guard let bytes = specifier.bytes else { throw .parameter }
            guard bytes.count >= ChannelLayouts.size(descriptions: 0) else { throw .badSpecifierSize }
            let tag = bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self)
            if tag != kAudioChannelLayoutTag_UseChannelDescriptions && tag != kAudioChannelLayoutTag_UseChannelBitmap {
                return .value(tag)   // a tag already
            }
            return .value(try ChannelLayouts.tag(for: try ChannelLayouts.labels(ofLayout: bytes)))
        case kAudioFormatProperty_BitmapForLayoutTag:
            return .value(try ChannelLayouts.bitmap(forTag: try specifier.value(AudioChannelLayoutTag.self)))
        case kAudioFormatProperty_TagsForNumberOfChannels:
            return .list(ChannelLayouts.tags(channels: try specifier.value(UInt32.self)))
        case kAudioFormatProperty_ValidateChannelLayout:
            // No value: the answer is the status (AudioFormatServices.swift).
            guard let bytes = specifier.bytes else { throw .parameter }
            try ChannelLayouts.validate(bytes)
            return PropertyAnswer(bytes: [], itemSize: nil)
        case kAudioFormatProperty_ASBDFromESDS:
            // The base layer of an MPEG-4 elementary stream descriptor: AAC here.
            guard let bytes = specifier.bytes else { throw .parameter }
            guard let config = MagicCookie.audioSpecificConfig(in: bytes) else { throw .unsupportedDataFormat }
            return .value(AudioStreamBasicDescription(mSampleRate: config.sampleRate, mFormatID: kAudioFormatMPEG4AAC,
                                                      mFormatFlags: config.objectType, mBytesPerPacket: 0,
                                                      mFramesPerPacket: config.framesPerPacket, mBytesPerFrame: 0,
                                                      mChannelsPerFrame: config.channels, mBitsPerChannel: 0, mReserved: 0))
        case kAudioFormatProperty_FormatList:
            // An AudioFormatInfo (or an ExtendedAudioFormatInfo, whose codec is not needed to say
            // this): the layers richest first (FormatLayers.swift); a format that is not layered
            // is one item, the description FormatInfo completes, as Apple documents.
            guard let bytes = specifier.bytes else { throw .parameter }
            guard bytes.count == MemoryLayout<AudioFormatInfo>.size || bytes.count == MemoryLayout<ExtendedAudioFormatInfo>.size else {
                throw .badSpecifierSize
            }
            let info = bytes.loadUnaligned(as: AudioFormatInfo.self)
            guard info.mMagicCookieSize == 0 || info.mMagicCookie != nil else { throw .parameter }
            let cookie = info.mMagicCookieSize > 0 ? UnsafeRawBufferPointer(start: info.mMagicCookie, count: Int(info.mMagicCookieSize)) : nil
            var completed = info.mASBD
            try FormatInfo.complete(&completed, cookie: cookie)
            let layers = FormatLayers.list(info.mASBD, cookie: cookie)
            return .list(FormatLayers.items(layers.count > 1 ? layers : [completed]))
        case kAudioFormatProperty_FirstPlayableFormatFromList:
            // The index of the first item this machine decodes (linear PCM, or a format of
            // DecodeFormatIDs); none is 'fmt?'.
            guard let bytes = specifier.bytes else { throw .parameter }
            let stride = MemoryLayout<AudioFormatListItem>.stride
            guard bytes.count >= stride, bytes.count % stride == 0 else { throw .badSpecifierSize }
            let decoded = Set(Codecs.decodeFormatIDs())
            for index in 0..<(bytes.count / stride) {
                let formatID = bytes.loadUnaligned(fromByteOffset: index * stride, as: AudioFormatListItem.self).mASBD.mFormatID
                if formatID == kAudioFormatLinearPCM || decoded.contains(formatID) { return .value(UInt32(index)) }
            }
            throw .unsupportedDataFormat
        case kAudioFormatProperty_HardwareCodecCapabilities:
            // How many of the listed codecs, taken in order, can be used: every codec here is
            // software, so a request for a hardware one ends the count there.
            guard let bytes = specifier.bytes else { throw .parameter }
            let stride = MemoryLayout<AudioClassDescription>.stride
            guard bytes.count % stride == 0 else { throw .badSpecifierSize }
            var usable: UInt32 = 0
            for index in 0..<(bytes.count / stride) {
                guard Codecs.isAvailable(bytes.loadUnaligned(fromByteOffset: index * stride, as: AudioClassDescription.self)) else { break }
                usable += 1
            }
            return .value(usable)
        default:
            throw .unsupportedProperty
        }
    }
}
