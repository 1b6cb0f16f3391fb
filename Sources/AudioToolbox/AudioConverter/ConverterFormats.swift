import SoundFile

// Which formats a converter takes, and the codec each one needs.

enum ConverterFormats {
    /// Formats decoded to PCM, and FFmpeg's decoder for each (nil: Soundstage's own).
    static let decoded: [AudioFormatID: String?] = [
        kAudioFormatULaw: nil, kAudioFormatALaw: nil, kAudioFormatAppleIMA4: nil,
        kAudioFormatMPEG4AAC: "aac", kAudioFormatMPEG4AAC_HE: "aac", kAudioFormatMPEG4AAC_HE_V2: "aac",
        kAudioFormatMPEGLayer1: "mp1float", kAudioFormatMPEGLayer2: "mp2float", kAudioFormatMPEGLayer3: "mp3float",
        kAudioFormatAppleLossless: "alac", kAudioFormatiLBC: "ilbc", kAudioFormatMicrosoftGSM: "gsm_ms",
    ]

    /// Formats encoded from PCM.
    static let encoded: Set<AudioFormatID> = [kAudioFormatULaw, kAudioFormatALaw, kAudioFormatAppleIMA4, kAudioFormatMPEG4AAC,
                                              kAudioFormatAppleLossless, kAudioFormatiLBC]

    /// What a description is as one side of a conversion; nil when it is not converted here.
    static func side(_ asbd: AudioStreamBasicDescription, isSource: Bool) -> ConverterFormat? {
        if asbd.mFormatID == kAudioFormatLinearPCM { return PCMLayout(asbd).map(ConverterFormat.pcm) }
        guard isSource ? decoded.keys.contains(asbd.mFormatID) : encoded.contains(asbd.mFormatID) else { return nil }
        guard (1...8).contains(asbd.mChannelsPerFrame) || (asbd.mChannelsPerFrame == 0 && isSource && decoded[asbd.mFormatID]! != nil) else { return nil }
        // iLBC is mono speech: its encoder takes one channel (a converter mixes the source down).
        if !isSource && asbd.mFormatID == kAudioFormatiLBC && asbd.mChannelsPerFrame != 1 { return nil }
        var completed = asbd
        // Apple's converter completes what the description leaves 0 (Audio Format Services' FormatInfo).
        var cleared = asbd
        if cleared.mFramesPerPacket == 0 || cleared.mBytesPerPacket == 0 {
            if (try? FormatInfo.complete(&cleared, cookie: nil)) != nil {
                if completed.mFramesPerPacket == 0 { completed.mFramesPerPacket = cleared.mFramesPerPacket }
                if completed.mBytesPerPacket == 0 && ![kAudioFormatMPEG4AAC, kAudioFormatMPEG4AAC_HE, kAudioFormatMPEG4AAC_HE_V2,
                                                        kAudioFormatAppleLossless, kAudioFormatMPEGLayer1, kAudioFormatMPEGLayer2,
                                                        kAudioFormatMPEGLayer3].contains(asbd.mFormatID) {
                    completed.mBytesPerPacket = cleared.mBytesPerPacket
                }
            }
        }
        let channels = max(1, completed.mChannelsPerFrame)
        switch completed.mFormatID {
        case kAudioFormatULaw, kAudioFormatALaw:
            completed.mFramesPerPacket = 1
            completed.mBytesPerPacket = channels
            completed.mBytesPerFrame = channels
            completed.mBitsPerChannel = 8
        case kAudioFormatAppleIMA4:
            completed.mFramesPerPacket = 64
            completed.mBytesPerPacket = 34 * channels
            completed.mBytesPerFrame = 0
            completed.mBitsPerChannel = 0
        case kAudioFormatiLBC:
            if completed.mBytesPerPacket == 0 { completed.mBytesPerPacket = completed.mFramesPerPacket == 160 ? 38 : 50 }
            guard completed.mBytesPerPacket == 38 || completed.mBytesPerPacket == 50 else { return nil }
            completed.mFramesPerPacket = completed.mBytesPerPacket == 38 ? 160 : 240
        case kAudioFormatMicrosoftGSM:
            completed.mFramesPerPacket = 320
            completed.mBytesPerPacket = 65 * channels
        default:
            completed.mBytesPerPacket = 0   // variable
        }
        return .coded(completed)
    }

    /// The decoder for a source format, configured from its magic cookie when there is one.
    static func decoder(for asbd: AudioStreamBasicDescription, cookie: [UInt8]?) throws(ConverterStatus) -> PacketDecoder {
        let channels = Int(max(1, asbd.mChannelsPerFrame))
        switch asbd.mFormatID {
        case kAudioFormatULaw, kAudioFormatALaw:
            return G711Decoder(aLaw: asbd.mFormatID == kAudioFormatALaw, channels: channels, sampleRate: asbd.mSampleRate)
        case kAudioFormatAppleIMA4:
            return IMA4Decoder(channels: channels, sampleRate: asbd.mSampleRate)
        default:
            guard let entry = decoded[asbd.mFormatID], let name = entry else { throw .formatNotSupported }
            var extradata: [UInt8] = []
            var blockAlign = 0
            switch asbd.mFormatID {
            case kAudioFormatMPEG4AAC, kAudioFormatMPEG4AAC_HE, kAudioFormatMPEG4AAC_HE_V2:
                if let cookie {
                    guard let config = cookie.withUnsafeBytes({ MagicCookie.audioSpecificConfigBytes(in: $0) }) else { throw .parameter }
                    extradata = config
                } else if let config = MagicCookie.audioSpecificConfig(formatID: asbd.mFormatID, sampleRate: asbd.mSampleRate,
                                                                       channels: asbd.mChannelsPerFrame) {
                    extradata = config
                } else {
                    throw .formatNotSupported
                }
            case kAudioFormatAppleLossless:
                if let cookie {
                    guard let atom = cookie.withUnsafeBytes({ ALACSpecificConfig.ffmpegExtradata(cookie: $0) }) else { throw .parameter }
                    extradata = atom
                } else {
                    let depth = [kAppleLosslessFormatFlag_16BitSourceData: 16, kAppleLosslessFormatFlag_20BitSourceData: 20,
                                 kAppleLosslessFormatFlag_24BitSourceData: 24, kAppleLosslessFormatFlag_32BitSourceData: 32][asbd.mFormatFlags] ?? 16
                    let rate = asbd.mSampleRate.isFinite && asbd.mSampleRate >= 1 && asbd.mSampleRate < 4e9 ? Int(asbd.mSampleRate) : 44_100
                    let config = ALACSpecificConfig.config(framesPerPacket: asbd.mFramesPerPacket, bitDepth: depth, channels: channels, sampleRate: rate)
                    extradata = [0, 0, 0, 36] + Array("alac".utf8) + [0, 0, 0, 0] + config
                }
            case kAudioFormatiLBC, kAudioFormatMicrosoftGSM:
                blockAlign = Int(asbd.mBytesPerPacket)
            default:
                break
            }
            return try FFmpegConverterDecoder(codecName: name, extradata: extradata, channels: channels, sampleRate: asbd.mSampleRate,
                                              framesPerPacket: Int(asbd.mFramesPerPacket), blockAlign: blockAlign)
        }
    }

    /// The encoder for a destination format.
    static func encoder(for completed: AudioStreamBasicDescription, sourceBits: Int, asbd: AudioStreamBasicDescription) throws(ConverterStatus) -> PacketEncoder {
        let channels = Int(max(1, completed.mChannelsPerFrame))
        switch completed.mFormatID {
        case kAudioFormatULaw, kAudioFormatALaw:
            return G711Encoder(aLaw: completed.mFormatID == kAudioFormatALaw, channels: channels)
        case kAudioFormatAppleIMA4:
            return IMA4Encoder(channels: channels)
        case kAudioFormatMPEG4AAC:
            guard completed.mFormatFlags == 0 || completed.mFormatFlags == UInt32(MPEG4ObjectID.AAC_LC.rawValue) else { throw .formatNotSupported }
            guard let rate = Int(exactly: completed.mSampleRate), FFmpegAACRates.contains(rate) else { throw .outputRateOutOfRange }
            return try FFmpegConverterEncoder(codecName: "aac", channels: channels, sampleRate: rate,
                                              bitRate: ConverterProperties.defaultAACBitRate(channels: channels, sampleRate: rate), bitsPerSample: 16)
        case kAudioFormatAppleLossless:
            let depth = [kAppleLosslessFormatFlag_16BitSourceData: 16, kAppleLosslessFormatFlag_20BitSourceData: 20,
                         kAppleLosslessFormatFlag_24BitSourceData: 24, kAppleLosslessFormatFlag_32BitSourceData: 32][completed.mFormatFlags]
                ?? (sourceBits > 16 ? 24 : 16)
            guard let rate = Int(exactly: completed.mSampleRate), rate >= 1 else { throw .outputRateOutOfRange }
            return try FFmpegConverterEncoder(codecName: "alac", channels: channels, sampleRate: rate, bitRate: 0, bitsPerSample: depth)
        case kAudioFormatiLBC:
            // 8 kHz only: the converter resamples the source to it.
            guard completed.mSampleRate == Double(ILBCMode.sampleRate) else { throw .outputRateOutOfRange }
            return ILBCConverterEncoder(mode: completed.mBytesPerPacket == 38 ? .ms20 : .ms30)
        default:
            throw .formatNotSupported
        }
    }

    /// The rates AAC takes (the MPEG-4 sampling-frequency table).
    static let FFmpegAACRates: Set<Int> = [7_350, 8_000, 11_025, 12_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000, 64_000, 88_200, 96_000]

    /// The description a converter reports for its coded side (`CurrentInput/OutputStreamDescription`).
    static func completed(_ asbd: AudioStreamBasicDescription, encoder: PacketEncoder?) -> AudioStreamBasicDescription {
        var out = asbd
        if let encoder {
            out.mFramesPerPacket = UInt32(encoder.framesPerPacket)
            out.mBytesPerPacket = UInt32(encoder.bytesPerPacket)
            if out.mFormatID == kAudioFormatAppleLossless && out.mFormatFlags == 0 {
                out.mFormatFlags = kAppleLosslessFormatFlag_16BitSourceData
            }
            if out.mFormatID == kAudioFormatMPEG4AAC && out.mFormatFlags == 0 { out.mFormatFlags = UInt32(MPEG4ObjectID.AAC_LC.rawValue) }
        }
        return out
    }
}
