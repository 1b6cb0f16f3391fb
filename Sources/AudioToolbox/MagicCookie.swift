// Magic cookies Audio Format Services reads: AAC's, which is an MPEG-4 elementary-stream
// descriptor (what M4A and CAF files carry; ISO/IEC 14496-1) holding an AudioSpecificConfig
// (ISO/IEC 14496-3), or that AudioSpecificConfig alone.

/// What an AudioSpecificConfig says of a stream.
struct AudioSpecificConfig: Equatable {
    /// The MPEG-4 audio object type (`kMPEG4Object_AAC_LC` is 2); of the base layer.
    var objectType: UInt32
    /// The base layer's sample rate.
    var sampleRate: Double
    /// Channels (the channel configuration; 7 means 8 channels).
    var channels: UInt32
    /// 1024, or 960 when the frame-length flag is set.
    var framesPerPacket: UInt32
    /// The SBR layer's output rate, when the config signals SBR explicitly: audioObjectType 5 or
    /// 29 with its extension rate, or the backward-compatible sync extension (0x2b7, SBR present)
    /// after an LC config. Nil when it does not (which does not rule out implicit SBR: a decoder
    /// finds that in the packets).
    var sbrRate: Double? = nil
    /// Whether PS is signalled explicitly: audioObjectType 29, or the sync extension 0x548 with
    /// psPresentFlag set.
    var hasPS = false

    /// The formats the stream decodes to, richest first, as Apple's format lists give them
    /// (QA1639; kAudioFormatProperty_FormatList: "channel count taking the highest precedence,
    /// followed by sample rate"): HE-AAC v2 (two channels at the SBR rate) when PS is signalled,
    /// HE-AAC (the core's channels at the SBR rate) when SBR is, then the base layer itself, the
    /// description Audio Format Services' FormatInfo gives.
    var layers: [AudioStreamBasicDescription] {
        func description(_ formatID: AudioFormatID, _ rate: Double, _ channels: UInt32, _ frames: UInt32, flags: UInt32 = 0) -> AudioStreamBasicDescription {
            AudioStreamBasicDescription(mSampleRate: rate, mFormatID: formatID, mFormatFlags: flags, mBytesPerPacket: 0, mFramesPerPacket: frames,
                                        mBytesPerFrame: 0, mChannelsPerFrame: channels, mBitsPerChannel: 0, mReserved: 0)
        }
        let base = description(kAudioFormatMPEG4AAC, sampleRate, channels, framesPerPacket, flags: objectType)
        // SBR runs at twice the core's rate, or at the core's own (downsampled SBR, an extension
        // rate equal to the core's); its frames a packet scale with it (2,048, or 1,024). Any other
        // extension rate is not SBR's: the base layer alone.
        guard let sbrRate, sampleRate > 0, sbrRate == sampleRate || sbrRate == 2 * sampleRate else { return [base] }
        let frames = sbrRate == sampleRate ? framesPerPacket : 2 * framesPerPacket
        let he = description(kAudioFormatMPEG4AAC_HE, sbrRate, channels, frames)
        if hasPS && channels == 1 { return [description(kAudioFormatMPEG4AAC_HE_V2, sbrRate, 2, frames), he, base] }
        return [he, base]
    }
}

enum MagicCookie {
    /// The MPEG-4 sampling frequencies by index.
    static let sampleRates: [Double] = [96_000, 88_200, 64_000, 48_000, 44_100, 32_000, 24_000, 22_050,
                                        16_000, 12_000, 11_025, 8_000, 7_350]

    /// The AudioSpecificConfig in an AAC magic cookie: an ES descriptor (tag 3), an `esds` box, a
    /// bare DecoderConfigDescriptor (tag 4), or the config itself. Nil when it is none of them or
    /// is cut short.
    static func audioSpecificConfig(in cookie: UnsafeRawBufferPointer) -> AudioSpecificConfig? {
        audioSpecificConfigBytes(in: cookie).flatMap { parseConfig($0[...]) }
    }

    /// The AudioSpecificConfig's own bytes in an AAC magic cookie (the forms
    /// ``audioSpecificConfig(in:)`` reads): what a decoder is configured with.
    static func audioSpecificConfigBytes(in cookie: UnsafeRawBufferPointer) -> [UInt8]? {
        let bytes = [UInt8](cookie)
        if let config = descriptorConfigBytes(bytes), parseConfig(config[...]) != nil { return config }
        // An 'esds' box: size, 'esds', version and flags, then the ES descriptor.
        if bytes.count > 12, bytes[4...7].elementsEqual("esds".utf8), let config = descriptorConfigBytes(Array(bytes[12...])),
           parseConfig(config[...]) != nil {
            return config
        }
        return parseConfig(bytes[...]) != nil ? bytes : nil
    }

    /// The ES descriptor Apple's AAC encoder gives as its magic cookie (what M4A's `esds` and
    /// CAF's `kuki` carry): ES_Descriptor, DecoderConfigDescriptor (MPEG-4 audio, an audio
    /// stream, the buffer size and bit rates), DecoderSpecificInfo (the AudioSpecificConfig),
    /// SLConfigDescriptor.
    static func esDescriptor(audioSpecificConfig config: [UInt8], bitRate: Int, maximumPacketSize: Int) -> [UInt8] {
        func descriptor(_ tag: UInt8, _ body: [UInt8]) -> [UInt8] {
            // The four-byte length form, as Apple's cookies have it.
            let n = body.count
            return [tag, UInt8(0x80 | (n >> 21) & 0x7F), UInt8(0x80 | (n >> 14) & 0x7F), UInt8(0x80 | (n >> 7) & 0x7F), UInt8(n & 0x7F)] + body
        }
        func big(_ value: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let decoderConfig = descriptor(4, [0x40, 0x15] + big(maximumPacketSize, 3) + big(bitRate, 4) + big(bitRate, 4)
                                            + descriptor(5, config))
        return descriptor(3, [0, 0, 0] + decoderConfig + descriptor(6, [2]))
    }

    /// An AudioSpecificConfig for a stream a description states without a cookie: AAC-LC at the
    /// description's rate; HE-AAC and HE-AAC v2 signalled explicitly, as the description says
    /// (audioObjectType 5 or 29, the core at half the output rate, the extension at the output
    /// rate, HE-AAC v2's core mono), so a decoder runs SBR (and PS) from the first packet; nil for
    /// a rate or channel count MPEG-4 has no index for.
    static func audioSpecificConfig(formatID: AudioFormatID, sampleRate: Double, channels: UInt32) -> [UInt8]? {
        let he = formatID == kAudioFormatMPEG4AAC_HE || formatID == kAudioFormatMPEG4AAC_HE_V2
        let coreRate = he ? sampleRate / 2 : sampleRate
        guard let index = sampleRates.firstIndex(of: coreRate) else { return nil }
        let configuration: UInt32
        switch channels {
        case 1...6: configuration = formatID == kAudioFormatMPEG4AAC_HE_V2 ? 1 : channels
        case 8: configuration = 7
        default: return nil
        }
        var bits = BitWriter()
        if he {
            guard let extensionIndex = sampleRates.firstIndex(of: sampleRate) else { return nil }
            bits.write(formatID == kAudioFormatMPEG4AAC_HE_V2 ? 29 : 5, 5)
            bits.write(UInt32(index), 4)
            bits.write(configuration, 4)
            bits.write(UInt32(extensionIndex), 4)
            bits.write(2, 5)                       // the core: AAC LC
        } else {
            bits.write(2, 5)
            bits.write(UInt32(index), 4)
            bits.write(configuration, 4)
        }
        bits.write(0, 3)                           // GASpecificConfig: 1024 frames, no core coder, no extension
        return bits.bytes
    }

    /// Walks MPEG-4 descriptors to the DecoderSpecificInfo (tag 5) and returns its bytes.
    private static func descriptorConfigBytes(_ bytes: [UInt8]) -> [UInt8]? {
        var index = 0
        func length() -> Int? {
            var value = 0
            for _ in 0..<4 {
                guard index < bytes.count else { return nil }
                let byte = bytes[index]
                index += 1
                value = value << 7 | Int(byte & 0x7F)
                if byte & 0x80 == 0 { return value }
            }
            return value
        }
        guard let first = bytes.first, first == 3 || first == 4 else { return nil }
        while index < bytes.count {
            let tag = bytes[index]
            index += 1
            guard let size = length() else { return nil }
            switch tag {
            case 3:   // ES_Descriptor: ES_ID, flags, then optional fields, then its children
                guard index + 3 <= bytes.count else { return nil }
                let flags = bytes[index + 2]
                index += 3
                if flags & 0x80 != 0 { index += 2 }                                     // dependsOn_ES_ID
                if flags & 0x40 != 0 { guard index < bytes.count else { return nil }; index += 1 + Int(bytes[index]) }   // URL
                if flags & 0x20 != 0 { index += 2 }                                     // OCR_ES_Id
            case 4:   // DecoderConfigDescriptor: 13 bytes, then its children
                index += 13
            case 5:   // DecoderSpecificInfo: the AudioSpecificConfig
                guard size > 0, index + size <= bytes.count else { return nil }
                return Array(bytes[index..<(index + size)])
            default:
                index += size
            }
        }
        return nil
    }

    /// Parses an AudioSpecificConfig's opening fields.
    static func parseConfig(_ bytes: ArraySlice<UInt8>) -> AudioSpecificConfig? {
        var reader = BitReader(bytes: Array(bytes))
        func objectType() -> UInt32? {
            guard let type = reader.read(5) else { return nil }
            if type != 31 { return type }
            return reader.read(6).map { 32 + $0 }
        }
        func frequency() -> Double? {
            guard let index = reader.read(4) else { return nil }
            if index == 15 { return reader.read(24).map(Double.init) }
            return Int(index) < sampleRates.count ? sampleRates[Int(index)] : nil
        }
        guard var type = objectType(), type != 0, let rate = frequency(), let configuration = reader.read(4) else { return nil }
        var sbrRate: Double?
        var hasPS = false
        if type == 5 || type == 29 {
            // Explicit SBR (HE-AAC) or PS (HE-AAC v2), hierarchical signalling: the extension's
            // rate, then the core's type.
            guard let extensionRate = frequency(), let core = objectType(), core != 0 else { return nil }
            sbrRate = extensionRate
            hasPS = type == 29
            type = core
        }
        guard (1...4).contains(type) || type == 6 || type == 7 || (17...23).contains(type) else {
            return AudioSpecificConfig(objectType: type, sampleRate: rate, channels: channelCount(configuration), framesPerPacket: 1024,
                                       sbrRate: sbrRate, hasPS: hasPS)
        }
        // GASpecificConfig: frameLengthFlag, dependsOnCoreCoder (and its delay), extensionFlag.
        let frameLength = reader.read(1) ?? 0
        var config = AudioSpecificConfig(objectType: type, sampleRate: rate, channels: channelCount(configuration),
                                         framesPerPacket: frameLength == 1 ? 960 : 1024, sbrRate: sbrRate, hasPS: hasPS)
        // Backward-compatible signalling (14496-3 1.6.5.2): after an AAC config whose fields end
        // here (a channel configuration, no program config element; AAC Main, LC, SSR, LTP), the
        // sync extension 0x2b7 names SBR and its rate, and 0x548 after it PS.
        guard sbrRate == nil, (1...4).contains(type), configuration != 0,
              let dependsOnCore = reader.read(1), dependsOnCore == 0 || reader.read(14) != nil,
              let extensionFlag = reader.read(1), extensionFlag == 0 || reader.read(1) != nil,
              reader.remaining >= 16, reader.read(11) == 0x2B7, objectType() == 5, reader.read(1) == 1,
              let extensionRate = frequency() else { return config }
        config.sbrRate = extensionRate
        if reader.remaining >= 12, reader.read(11) == 0x548, reader.read(1) == 1 { config.hasPS = true }
        return config
    }

    /// Channels of an MPEG-4 channel configuration (0: given elsewhere, 7: 7.1).
    private static func channelCount(_ configuration: UInt32) -> UInt32 {
        switch configuration {
        case 7: 8
        case 1...6: configuration
        default: 0
        }
    }
}

/// Reads big-endian bit fields.
struct BitReader {
    let bytes: [UInt8]
    var position = 0

    /// The bits not read yet.
    var remaining: Int { bytes.count * 8 - position }

    /// The next `count` bits (at most 32), or nil past the end.
    mutating func read(_ count: Int) -> UInt32? {
        guard position + count <= bytes.count * 8 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<count {
            let bit = (bytes[position / 8] >> (7 - UInt8(position % 8))) & 1
            value = value << 1 | UInt32(bit)
            position += 1
        }
        return value
    }
}
