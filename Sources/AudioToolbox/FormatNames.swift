// The names Audio Format Services gives formats, channel layouts and channels
// (kAudioFormatProperty_FormatName, ChannelLayoutName, ChannelLayoutSimpleName, ChannelName,
// ChannelShortName), each answered as a new CFStringRef the caller releases. The wording is
// Soundstage's, modelled on what Core Audio shows (docs/audiotoolbox.md): a program compares the
// names with nothing, it shows them.

enum FormatNames {
    /// Whether `property` is one of the name properties.
    static func isNameProperty(_ property: AudioFormatPropertyID) -> Bool {
        [kAudioFormatProperty_FormatName, kAudioFormatProperty_ChannelLayoutName, kAudioFormatProperty_ChannelLayoutSimpleName,
         kAudioFormatProperty_ChannelName, kAudioFormatProperty_ChannelShortName].contains(property)
    }

    /// The name `property` gives for `specifier`.
    static func name(_ property: AudioFormatPropertyID, _ specifier: Specifier) throws(FormatStatus) -> String {
        switch property {
        case kAudioFormatProperty_FormatName:
            return formatName(try specifier.value(AudioStreamBasicDescription.self))
        case kAudioFormatProperty_ChannelLayoutName, kAudioFormatProperty_ChannelLayoutSimpleName:
            guard let bytes = specifier.bytes else { throw .parameter }
            let labels = try ChannelLayouts.labels(ofLayout: bytes)
            let tag = bytes.count >= 4 ? bytes.loadUnaligned(as: AudioChannelLayoutTag.self) : 0
            let simple = simpleName(tag, channels: labels.count)
            guard property == kAudioFormatProperty_ChannelLayoutName, labels.count > 1 else { return simple }
            return simple + " (" + labels.map { channelNames($0).short }.joined(separator: " ") + ")"
        case kAudioFormatProperty_ChannelName:
            guard let specifier = specifier.bytes, specifier.count >= 4 else { throw .badSpecifierSize }
            return channelNames(specifier.loadUnaligned(as: AudioChannelLabel.self)).long
        case kAudioFormatProperty_ChannelShortName:
            guard let specifier = specifier.bytes, specifier.count >= 4 else { throw .badSpecifierSize }
            return channelNames(specifier.loadUnaligned(as: AudioChannelLabel.self)).short
        default:
            throw .unsupportedProperty
        }
    }

    /// "Linear PCM, 16-bit little-endian signed integer, 2 channels, 44100 Hz", "MPEG-4 AAC, 2 channels, 44100 Hz".
    static func formatName(_ d: AudioStreamBasicDescription) -> String {
        var parts = [codecName(d.mFormatID)]
        if d.mFormatID == kAudioFormatLinearPCM {
            let flags = d.mFormatFlags
            let bytes = d.mChannelsPerFrame > 0 ? d.mBytesPerFrame / (flags & kAudioFormatFlagIsNonInterleaved != 0 ? 1 : d.mChannelsPerFrame) : 0
            var sample = "\(d.mBitsPerChannel)-bit"
            if bytes > 1 { sample += flags & kAudioFormatFlagIsBigEndian != 0 ? " big-endian" : " little-endian" }
            sample += flags & kAudioFormatFlagIsFloat != 0 ? " float"
                : flags & kAudioFormatFlagIsSignedInteger != 0 ? " signed integer" : " unsigned integer"
            if flags & kAudioFormatFlagIsNonInterleaved != 0 { sample += ", deinterleaved" }
            parts.append(sample)
        }
        if d.mChannelsPerFrame > 0 { parts.append(d.mChannelsPerFrame == 1 ? "1 channel" : "\(d.mChannelsPerFrame) channels") }
        if d.mSampleRate > 0, d.mSampleRate.isFinite {
            let rate = d.mSampleRate == d.mSampleRate.rounded() && d.mSampleRate < 1e12 ? String(Int64(d.mSampleRate)) : String(d.mSampleRate)
            parts.append(rate + " Hz")
        }
        return parts.joined(separator: ", ")
    }

    /// A format ID's name.
    static func codecName(_ id: AudioFormatID) -> String {
        switch id {
        case kAudioFormatLinearPCM: "Linear PCM"
        case kAudioFormatMPEG4AAC: "MPEG-4 AAC"
        case kAudioFormatMPEG4AAC_HE: "MPEG-4 HE AAC"
        case kAudioFormatMPEG4AAC_HE_V2: "MPEG-4 HE AAC V2"
        case kAudioFormatMPEG4AAC_LD: "MPEG-4 AAC Low Delay"
        case kAudioFormatMPEG4AAC_ELD: "MPEG-4 AAC Enhanced Low Delay"
        case kAudioFormatAppleLossless: "Apple Lossless"
        case kAudioFormatAppleIMA4: "IMA 4:1"
        case kAudioFormatDVIIntelIMA: "IMA ADPCM"
        case kAudioFormatULaw: "\u{B5}-law 2:1"
        case kAudioFormatALaw: "A-law 2:1"
        case kAudioFormatMPEGLayer1: "MPEG Layer 1"
        case kAudioFormatMPEGLayer2: "MPEG Layer 2"
        case kAudioFormatMPEGLayer3: "MPEG Layer 3"
        case kAudioFormatFLAC: "FLAC"
        case kAudioFormatOpus: "Opus"
        case kAudioFormatiLBC: "iLBC"
        case kAudioFormatMicrosoftGSM: "GSM 6.10"
        case kAudioFormatAMR: "AMR Narrowband"
        case kAudioFormatAC3: "AC-3"
        default:
            withUnsafeBytes(of: id.bigEndian) { raw in
                raw.allSatisfy { (0x20...0x7E).contains($0) } ? "'" + String(decoding: raw, as: UTF8.self) + "'" : String(id)
            }
        }
    }

    /// A layout's simple name: "Mono", "Stereo", "5.1", or "N channels".
    static func simpleName(_ tag: AudioChannelLayoutTag, channels: Int) -> String {
        switch tag {
        case kAudioChannelLayoutTag_Mono: "Mono"
        case kAudioChannelLayoutTag_Stereo: "Stereo"
        case kAudioChannelLayoutTag_StereoHeadphones: "Stereo Headphones"
        case kAudioChannelLayoutTag_MatrixStereo: "Matrix Stereo"
        case kAudioChannelLayoutTag_Binaural: "Binaural"
        case kAudioChannelLayoutTag_Quadraphonic: "Quadraphonic"
        case kAudioChannelLayoutTag_MPEG_3_0_A, kAudioChannelLayoutTag_MPEG_3_0_B: "3.0"
        case kAudioChannelLayoutTag_MPEG_4_0_A, kAudioChannelLayoutTag_MPEG_4_0_B: "4.0"
        case kAudioChannelLayoutTag_MPEG_5_0_A, kAudioChannelLayoutTag_MPEG_5_0_B, kAudioChannelLayoutTag_MPEG_5_0_C,
             kAudioChannelLayoutTag_MPEG_5_0_D: "5.0"
        case kAudioChannelLayoutTag_MPEG_5_1_A, kAudioChannelLayoutTag_MPEG_5_1_B, kAudioChannelLayoutTag_MPEG_5_1_C,
             kAudioChannelLayoutTag_MPEG_5_1_D: "5.1"
        case kAudioChannelLayoutTag_MPEG_6_1_A: "6.1"
        case kAudioChannelLayoutTag_MPEG_7_1_A, kAudioChannelLayoutTag_MPEG_7_1_B, kAudioChannelLayoutTag_MPEG_7_1_C: "7.1"
        default: channels == 1 ? "1 channel" : "\(channels) channels"
        }
    }

    /// A channel's long and short names.
    static func channelNames(_ label: AudioChannelLabel) -> (long: String, short: String) {
        switch label {
        case kAudioChannelLabel_Left: ("Left", "L")
        case kAudioChannelLabel_Right: ("Right", "R")
        case kAudioChannelLabel_Center: ("Center", "C")
        case kAudioChannelLabel_LFEScreen: ("LFE Screen", "LFE")
        case kAudioChannelLabel_LeftSurround: ("Left Surround", "Ls")
        case kAudioChannelLabel_RightSurround: ("Right Surround", "Rs")
        case kAudioChannelLabel_LeftCenter: ("Left Center", "Lc")
        case kAudioChannelLabel_RightCenter: ("Right Center", "Rc")
        case kAudioChannelLabel_CenterSurround: ("Center Surround", "Cs")
        case kAudioChannelLabel_LeftSurroundDirect: ("Left Surround Direct", "Lsd")
        case kAudioChannelLabel_RightSurroundDirect: ("Right Surround Direct", "Rsd")
        case kAudioChannelLabel_TopCenterSurround: ("Top Center Surround", "Ts")
        case kAudioChannelLabel_VerticalHeightLeft: ("Vertical Height Left", "Vhl")
        case kAudioChannelLabel_VerticalHeightCenter: ("Vertical Height Center", "Vhc")
        case kAudioChannelLabel_VerticalHeightRight: ("Vertical Height Right", "Vhr")
        case kAudioChannelLabel_TopBackLeft: ("Top Back Left", "Ltb")
        case kAudioChannelLabel_TopBackCenter: ("Top Back Center", "Ctb")
        case kAudioChannelLabel_TopBackRight: ("Top Back Right", "Rtb")
        case kAudioChannelLabel_RearSurroundLeft: ("Rear Surround Left", "Rls")
        case kAudioChannelLabel_RearSurroundRight: ("Rear Surround Right", "Rrs")
        case kAudioChannelLabel_LeftWide: ("Left Wide", "Lw")
        case kAudioChannelLabel_RightWide: ("Right Wide", "Rw")
        case kAudioChannelLabel_LFE2: ("LFE 2", "LFE2")
        case kAudioChannelLabel_LeftTotal: ("Left Total", "Lt")
        case kAudioChannelLabel_RightTotal: ("Right Total", "Rt")
        case kAudioChannelLabel_Mono: ("Mono", "M")
        case kAudioChannelLabel_Unused: ("Unused", "-")
        case kAudioChannelLabel_Unknown: ("Unknown", "?")
        default: label >> 16 == 1 ? ("Discrete \(label & 0xFFFF)", "D\(label & 0xFFFF)") : ("Channel \(label)", "\(label)")
        }
    }
}
