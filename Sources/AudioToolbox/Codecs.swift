import SoundFile

// What this machine encodes and decodes, by Apple's format IDs. libsndfile (always linked) reads
// and writes PCM, µ-law, A-law, IMA ADPCM, GSM 6.10, ALAC in CAF, FLAC, Opus and MPEG audio;
// Soundstage's own codecs do IMA4 in CAF and encode iLBC; AAC (and decoding iLBC) goes through
// FFmpeg, loaded at run time, and counts only when this machine's FFmpeg has the codec.

enum Codecs {
    /// Formats Soundstage decodes without FFmpeg.
    static let alwaysDecoded: [AudioFormatID] = [
        kAudioFormatLinearPCM, kAudioFormatULaw, kAudioFormatALaw, kAudioFormatAppleIMA4,
        kAudioFormatDVIIntelIMA, kAudioFormatMicrosoftGSM, kAudioFormatAppleLossless, kAudioFormatFLAC,
        kAudioFormatOpus, kAudioFormatMPEGLayer1, kAudioFormatMPEGLayer2, kAudioFormatMPEGLayer3,
    ]

    /// Formats Soundstage encodes without FFmpeg.
    static let alwaysEncoded: [AudioFormatID] = [
        kAudioFormatLinearPCM, kAudioFormatULaw, kAudioFormatALaw, kAudioFormatAppleIMA4,
        kAudioFormatAppleLossless, kAudioFormatFLAC, kAudioFormatOpus, kAudioFormatMPEGLayer3, kAudioFormatiLBC,
    ]

    /// `kAudioFormatProperty_DecodeFormatIDs`: AAC, HE-AAC and HE-AAC v2 when FFmpeg decodes AAC,
    /// iLBC when it decodes iLBC.
    static func decodeFormatIDs() -> [AudioFormatID] {
        alwaysDecoded + (FFmpeg.hasDecoder(named: "aac")
            ? [kAudioFormatMPEG4AAC, kAudioFormatMPEG4AAC_HE, kAudioFormatMPEG4AAC_HE_V2] : [])
            + (FFmpeg.hasDecoder(named: "ilbc") ? [kAudioFormatiLBC] : [])
    }

    /// `kAudioFormatProperty_EncodeFormatIDs`: AAC (LC) when FFmpeg encodes it.
    static func encodeFormatIDs() -> [AudioFormatID] {
        alwaysEncoded + (FFmpeg.hasEncoder(named: "aac") ? [kAudioFormatMPEG4AAC] : [])
    }

    /// The sample rates an encoder takes (`kAudioFormatProperty_AvailableEncodeSampleRates`):
    /// nil when this machine does not encode the format.
    static func encodeSampleRates(_ formatID: AudioFormatID) -> [AudioValueRange]? {
        guard encodeFormatIDs().contains(formatID) else { return nil }
        func each(_ rates: [Double]) -> [AudioValueRange] { rates.map { AudioValueRange(mMinimum: $0, mMaximum: $0) } }
        switch formatID {
        case kAudioFormatMPEG4AAC:
            // FFmpeg's AAC encoder: the MPEG-4 sampling-frequency table.
            return each([7_350, 8_000, 11_025, 12_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000, 64_000, 88_200, 96_000])
        case kAudioFormatOpus:
            return each([8_000, 12_000, 16_000, 24_000, 48_000])
        case kAudioFormatiLBC:
            return each([8_000])
        case kAudioFormatMPEGLayer3:
            return each([8_000, 11_025, 12_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000])
        default:
            // PCM, µ-law, A-law, IMA4, ALAC, FLAC: any rate a file written by Soundstage takes.
            let rates = SampleRateLimits.conversion
            return [AudioValueRange(mMinimum: Double(rates.lowerBound), mMaximum: Double(rates.upperBound))]
        }
    }

    /// The bit rates an encoder takes (`kAudioFormatProperty_AvailableEncodeBitRates`): nil when
    /// this machine does not encode the format, empty when the format has no bit-rate setting.
    static func encodeBitRates(_ formatID: AudioFormatID) -> [AudioValueRange]? {
        guard encodeFormatIDs().contains(formatID) else { return nil }
        switch formatID {
        case kAudioFormatMPEG4AAC: return [AudioValueRange(mMinimum: 8_000, mMaximum: 512_000)]
        default: return []
        }
    }

    /// Whether this machine has the codec a class description asks for
    /// (`kAudioFormatProperty_HardwareCodecCapabilities`): never a hardware one.
    static func isAvailable(_ codec: AudioClassDescription) -> Bool {
        guard codec.mManufacturer == kAppleSoftwareAudioCodecManufacturer || codec.mManufacturer == 0 else { return false }
        switch codec.mType {
        case kAudioDecoderComponentType: return decodeFormatIDs().contains(codec.mSubType)
        case kAudioEncoderComponentType: return encodeFormatIDs().contains(codec.mSubType)
        default: return false
        }
    }
}
