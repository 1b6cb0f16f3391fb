// Audio Converter Services' properties: what each answers and what setting it does
// (docs/audiotoolbox.md has the table).

enum ConverterProperties {
    /// A property's value: its bytes, and the size of one item when it is a list (cut to the
    /// whole items that fit, as Apple's lists are).
    struct Value {
        var bytes: [UInt8]
        var itemSize: Int?

        init<T: BitwiseCopyable>(_ value: T) {
            bytes = withUnsafeBytes(of: value) { Array($0) }
            itemSize = nil
        }

        init<T: BitwiseCopyable>(list: [T]) {
            bytes = list.withUnsafeBytes { Array($0) }
            itemSize = MemoryLayout<T>.stride
        }

        init(bytes: [UInt8]) {
            self.bytes = bytes
            itemSize = nil
        }
    }

    /// The bit rate AAC is encoded at unless set: 64 kb/s a channel, at most 320 kb/s in all.
    static func defaultAACBitRate(channels: Int, sampleRate: Int) -> Int {
        min(320_000, 64_000 * channels, maximumAACBitRate(channels: channels, sampleRate: sampleRate))
    }

    /// FFmpeg's AAC encoder's ceiling: 6144 bits a channel in an access unit of 1024 frames.
    static func maximumAACBitRate(channels: Int, sampleRate: Int) -> Int { 6144 * channels * sampleRate / 1024 }

    /// The bit rates an AAC encoder lists (Apple's lists are ranges of one value each).
    static let aacBitRates = [8_000, 12_000, 16_000, 20_000, 24_000, 32_000, 40_000, 48_000, 56_000, 64_000, 80_000, 96_000,
                              112_000, 128_000, 144_000, 160_000, 192_000, 224_000, 256_000, 288_000, 320_000]

    /// Those that suit the encoder's channels and rate.
    static func applicableAACBitRates(channels: Int, sampleRate: Int) -> [Int] {
        aacBitRates.filter { $0 >= 8_000 * channels && $0 <= min(maximumAACBitRate(channels: channels, sampleRate: sampleRate), 160_000 * channels) }
    }

    static func isWritable(_ id: AudioConverterPropertyID, of converter: AudioConverterObject) -> Bool {
        switch id {
        case kAudioConverterSampleRateConverterQuality, kAudioConverterSampleRateConverterComplexity,
             kAudioConverterSampleRateConverterInitialPhase, kAudioConverterCodecQuality, kAudioConverterPrimeMethod,
             kAudioConverterPrimeInfo, kAudioConverterChannelMap, kAudioConverterInputChannelLayout, kAudioConverterOutputChannelLayout,
             kAudioConverterPropertyBitDepthHint, kAudioConverterPropertyDithering:
            return true
        case kAudioConverterDecompressionMagicCookie: return converter.decoder != nil
        case kAudioConverterEncodeBitRate: return (converter.encoder as? FFmpegConverterEncoder)?.isAAC == true
        default: return false
        }
    }

    /// The value of `id`; `question` is the caller's buffer, for the properties asked in place.
    static func value(_ id: AudioConverterPropertyID, of converter: AudioConverterObject,
                      question: UnsafeRawBufferPointer?) throws(ConverterStatus) -> Value {
        let source = converter.source, destination = converter.destination
        switch id {
        case kAudioConverterPropertyMinimumInputBufferSize, kAudioConverterPropertyMaximumInputPacketSize,
             kAudioConverterPropertyMaximumInputBufferSize:
            return Value(UInt32(inputPacketSize(converter)))
        case kAudioConverterPropertyMinimumOutputBufferSize, kAudioConverterPropertyMaximumOutputPacketSize:
            switch destination {
            case .pcm(let layout): return Value(UInt32(layout.bytesPerFrame))
            case .coded: return Value(UInt32(converter.encoder?.maximumPacketSize ?? 0))
            }
        case kAudioConverterPropertyCalculateInputBufferSize, kAudioConverterPropertyCalculateOutputBufferSize:
            guard let question else { return Value(UInt32(0)) }
            guard question.count >= 4 else { throw .badPropertySize }
            let bytes = Int(question.loadUnaligned(as: UInt32.self))
            return Value(UInt32(clamping: try calculate(bytes, inputFromOutput: id == kAudioConverterPropertyCalculateInputBufferSize, converter)))
        case kAudioConverterSampleRateConverterQuality: return Value(converter.quality)
        case kAudioConverterSampleRateConverterComplexity: return Value(converter.complexity)
        case kAudioConverterSampleRateConverterInitialPhase: return Value(converter.initialPhase)
        case kAudioConverterCodecQuality: return Value(converter.codecQuality)
        case kAudioConverterPrimeMethod: return Value(converter.primeMethod)
        case kAudioConverterPrimeInfo:
            if let encoder = converter.encoder { return Value(encoder.primeInfo) }
            if case .coded(let asbd) = source, [kAudioFormatMPEG4AAC, kAudioFormatMPEG4AAC_HE, kAudioFormatMPEG4AAC_HE_V2].contains(asbd.mFormatID) {
                // The priming AAC streams carry by convention (their decoders' output starts with it).
                return Value(AudioConverterPrimeInfo(leadingFrames: UInt32(FFmpegConverterEncoder.aacPriming), trailingFrames: 0))
            }
            let frames = UInt32(converter.resamplerPrimeFrames)
            return Value(AudioConverterPrimeInfo(leadingFrames: UInt32(converter.primeLeadingFrames ?? Int(frames)), trailingFrames: frames))
        case kAudioConverterChannelMap:
            let inputs = converter.decoder?.channels ?? source.channels
            let map = converter.channelMap ?? converter.effectiveMap(inputChannels: inputs).map.map(Int32.init)
            return Value(list: map).whole
        case kAudioConverterDecompressionMagicCookie:
            guard converter.decoder != nil else { throw .propertyNotSupported }
            return Value(bytes: converter.decompressionCookie ?? [])
        case kAudioConverterCompressionMagicCookie:
            guard let encoder = converter.encoder else { throw .propertyNotSupported }
            guard let cookie = try encoder.magicCookie() else { throw .propertyNotSupported }
            return Value(bytes: cookie)
        case kAudioConverterEncodeBitRate:
            guard let encoder = converter.encoder as? FFmpegConverterEncoder, encoder.isAAC else { throw .propertyNotSupported }
            return Value(UInt32(encoder.bitRate))
        case kAudioConverterApplicableEncodeBitRates, kAudioConverterAvailableEncodeBitRates:
            guard let encoder = converter.encoder as? FFmpegConverterEncoder, encoder.isAAC else { throw .propertyNotSupported }
            let rates = id == kAudioConverterAvailableEncodeBitRates ? aacBitRates
                : applicableAACBitRates(channels: destination.channels, sampleRate: Int(converter.outputRate))
            return Value(list: rates.map { AudioValueRange(mMinimum: Double($0), mMaximum: Double($0)) })
        case kAudioConverterApplicableEncodeSampleRates, kAudioConverterAvailableEncodeSampleRates:
            guard case .coded(let asbd) = destination, let ranges = Codecs.encodeSampleRates(asbd.mFormatID) else { throw .propertyNotSupported }
            return Value(list: ranges)
        case kAudioConverterAvailableEncodeChannelLayoutTags:
            guard case .coded = destination else { throw .propertyNotSupported }
            let channels = UInt32(destination.channels)
            let tags: [AudioChannelLayoutTag] = switch channels {
            case 1: [kAudioChannelLayoutTag_Mono]
            case 2: [kAudioChannelLayoutTag_Stereo]
            default: [kAudioChannelLayoutTag_DiscreteInOrder | channels]
            }
            return Value(list: tags)
        case kAudioConverterInputChannelLayout:
            return Value(bytes: converter.inputLayout ?? defaultLayout(channels: source.channels))
        case kAudioConverterOutputChannelLayout:
            return Value(bytes: converter.outputLayout ?? defaultLayout(channels: destination.channels))
        case kAudioConverterCurrentInputStreamDescription:
            switch source {
            case .pcm(let layout): return Value(layout.description)
            case .coded(let asbd): return Value(asbd)
            }
        case kAudioConverterCurrentOutputStreamDescription:
            switch destination {
            case .pcm(let layout): return Value(layout.description)
            case .coded: return Value(ConverterFormats.completed(converter.destinationDescription, encoder: converter.encoder))
            }
        case kAudioConverterPropertyFormatList:
            var description = converter.destinationDescription
            if case .pcm(let layout) = destination { description = layout.description }
            let channels = UInt32(destination.channels)
            let tag = channels == 1 ? kAudioChannelLayoutTag_Mono : channels == 2 ? kAudioChannelLayoutTag_Stereo : kAudioChannelLayoutTag_Unknown | channels
            return Value(list: [AudioFormatListItem(mASBD: description, mChannelLayoutTag: tag)])
        case kAudioConverterPropertyBitDepthHint: return Value(converter.bitDepthHint)
        case kAudioConverterPropertyCanResumeFromInterruption: return Value(UInt32(1))
        case kAudioConverterPropertyDithering: return Value(UInt32(0))
        default:
            throw .propertyNotSupported
        }
    }

    /// Sets `id` from the caller's bytes.
    static func set(_ id: AudioConverterPropertyID, of converter: AudioConverterObject, _ data: UnsafeRawBufferPointer) throws(ConverterStatus) {
        func uint32() throws(ConverterStatus) -> UInt32 {
            guard data.count == 4 else { throw .badPropertySize }
            return data.loadUnaligned(as: UInt32.self)
        }
        switch id {
        case kAudioConverterSampleRateConverterQuality:
            let quality = try uint32()
            guard quality <= kAudioConverterQuality_Max else { throw .parameter }
            converter.quality = quality
            converter.reshape()
        case kAudioConverterSampleRateConverterComplexity:
            let complexity = try uint32()
            guard [kAudioConverterSampleRateConverterComplexity_Linear, kAudioConverterSampleRateConverterComplexity_Normal,
                   kAudioConverterSampleRateConverterComplexity_Mastering, kAudioConverterSampleRateConverterComplexity_MinimumPhase]
                .contains(complexity) else { throw .parameter }
            converter.complexity = complexity
            converter.reshape()
        case kAudioConverterSampleRateConverterInitialPhase:
            guard data.count == 8 else { throw .badPropertySize }
            let phase = data.loadUnaligned(as: Double.self)
            guard phase.isFinite, phase >= 0, phase < 1 else { throw .parameter }
            converter.initialPhase = phase
            converter.reshape()
        case kAudioConverterCodecQuality:
            let quality = try uint32()
            guard quality <= kAudioConverterQuality_Max else { throw .parameter }
            converter.codecQuality = quality
        case kAudioConverterPrimeMethod:
            let method = try uint32()
            guard method <= kConverterPrimeMethod_None else { throw .parameter }
            converter.primeMethod = method
            converter.reshape()
        case kAudioConverterPrimeInfo:
            guard data.count == MemoryLayout<AudioConverterPrimeInfo>.size else { throw .badPropertySize }
            let info = data.loadUnaligned(as: AudioConverterPrimeInfo.self)
            guard info.leadingFrames <= 1 << 20 else { throw .parameter }
            converter.primeLeadingFrames = Int(info.leadingFrames)
            converter.reshape()
        case kAudioConverterChannelMap:
            let outputs = converter.destination.channels
            guard data.count == 4 * outputs else { throw .badPropertySize }
            let map = (0..<outputs).map { data.loadUnaligned(fromByteOffset: 4 * $0, as: Int32.self) }
            let inputs = converter.decoder?.channels ?? converter.source.channels
            guard map.allSatisfy({ $0 >= -1 && Int($0) < inputs }) else { throw .parameter }
            converter.channelMap = map
        case kAudioConverterDecompressionMagicCookie:
            guard converter.decoder != nil, case .coded(let asbd) = converter.source else { throw .propertyNotSupported }
            guard data.count > 0, data.count <= 1 << 20 else { throw .badPropertySize }
            let cookie = Array(data)
            converter.decoder = try ConverterFormats.decoder(for: asbd, cookie: cookie)
            converter.decompressionCookie = cookie
            converter.reset()
        case kAudioConverterEncodeBitRate:
            guard let encoder = converter.encoder as? FFmpegConverterEncoder, encoder.isAAC else { throw .propertyNotSupported }
            let rate = Int(try uint32())
            guard rate >= 8_000, rate <= ConverterProperties.maximumAACBitRate(channels: converter.destination.channels,
                                                                              sampleRate: Int(converter.outputRate)) else { throw .parameter }
            encoder.setBitRate(rate)
        case kAudioConverterInputChannelLayout, kAudioConverterOutputChannelLayout:
            guard data.count >= 12 else { throw .badPropertySize }
            let count = Int(data.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
            guard count <= 1024, data.count >= 12 + count * MemoryLayout<AudioChannelDescription>.stride else { throw .badPropertySize }
            if id == kAudioConverterInputChannelLayout { converter.inputLayout = Array(data) } else { converter.outputLayout = Array(data) }
        case kAudioConverterPropertyBitDepthHint:
            guard data.count == 4 else { throw .badPropertySize }
            converter.bitDepthHint = data.loadUnaligned(as: Int32.self)
        case kAudioConverterPropertyDithering:
            guard try uint32() == 0 else { throw .parameter }   // no dither here
        default:
            _ = try value(id, of: converter, question: nil)   // a property it has: read only
            throw .propertyNotSupported
        }
    }

    /// The largest input packet: a PCM frame, a constant packet, or the format's worst case.
    private static func inputPacketSize(_ converter: AudioConverterObject) -> Int {
        switch converter.source {
        case .pcm(let layout): return layout.bytesPerFrame
        case .coded(let asbd):
            if asbd.mBytesPerPacket > 0 { return Int(asbd.mBytesPerPacket) }
            let channels = Int(max(1, asbd.mChannelsPerFrame))
            switch asbd.mFormatID {
            case kAudioFormatMPEGLayer1, kAudioFormatMPEGLayer2, kAudioFormatMPEGLayer3: return 2_881   // 448 kb/s layer 1 at 32 kHz... bounded by MPEG's largest frame
            case kAudioFormatAppleLossless:
                let frames = Int(max(1, asbd.mFramesPerPacket))
                return frames * channels * 4 + 8 * channels + 64
            default: return 768 * channels   // AAC: 6144 bits a channel
            }
        }
    }

    /// `CalculateInputBufferSize` / `CalculateOutputBufferSize` for PCM and constant packets.
    private static func calculate(_ bytes: Int, inputFromOutput: Bool, _ converter: AudioConverterObject) throws(ConverterStatus) -> Int {
        func frameTraits(_ side: ConverterFormat) -> (bytes: Int, frames: Int)? {
            switch side {
            case .pcm(let layout): return (layout.bytesPerFrame, 1)
            case .coded(let asbd):
                if converter.encoder != nil, case .coded = converter.destination, let encoder = converter.encoder, encoder.bytesPerPacket > 0 {
                    return (encoder.bytesPerPacket, encoder.framesPerPacket)
                }
                return asbd.mBytesPerPacket > 0 && asbd.mFramesPerPacket > 0 ? (Int(asbd.mBytesPerPacket), Int(asbd.mFramesPerPacket)) : nil
            }
        }
        guard let from = frameTraits(converter.source), let to = frameTraits(converter.destination) else { throw .propertyNotSupported }
        let inRate = converter.source.sampleRate > 0 ? converter.source.sampleRate : converter.outputRate
        let outRate = converter.outputRate
        if inputFromOutput {
            let frames = Double(bytes / to.bytes * to.frames) * inRate / outRate
            return Int((frames / Double(from.frames)).rounded(.up)) * from.bytes
        } else {
            let frames = Double(bytes / from.bytes * from.frames) * outRate / inRate
            return Int((frames / Double(to.frames)).rounded(.up)) * to.bytes
        }
    }

    /// A layout stating only the channel count: mono, stereo, or that many channels in order.
    private static func defaultLayout(channels: Int) -> [UInt8] {
        let tag: AudioChannelLayoutTag = channels == 1 ? kAudioChannelLayoutTag_Mono
            : channels == 2 ? kAudioChannelLayoutTag_Stereo : kAudioChannelLayoutTag_DiscreteInOrder | UInt32(channels)
        var layout = [UInt8](repeating: 0, count: 12)
        withUnsafeBytes(of: tag) { layout.replaceSubrange(0..<4, with: $0) }
        return layout
    }
}

extension ConverterProperties.Value {
    /// The list as one value: all of it or nothing (`kAudioConverterErr_BadPropertySizeError`).
    var whole: Self {
        var copy = self
        copy.itemSize = nil
        return copy
    }
}
