import AudioToolbox
import Testing

/// Core Audio's types and constants as iOS Swift code spells them, with Apple's values and layouts.
@Suite struct CoreAudioTypesTests {
    @Test func constantsHaveTheirTypesAsOnIOS() {
        let format: AudioFormatID = kAudioFormatLinearPCM
        let flags: AudioFormatFlags = kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked
        let asbd = AudioStreamBasicDescription(mSampleRate: 44100, mFormatID: kAudioFormatLinearPCM,
                                               mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
                                               mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4,
                                               mChannelsPerFrame: 2, mBitsPerChannel: 16, mReserved: 0)
        let status: OSStatus = noErr
        let tag: AudioChannelLayoutTag = kAudioChannelLayoutTag_Stereo
        let label: AudioChannelLabel = kAudioChannelLabel_Left
        let property: AudioFormatPropertyID = kAudioFormatProperty_FormatInfo
        #expect(format == 0x6C70_636D)
        #expect(flags == 0b1100)
        #expect(asbd.mFormatFlags == flags)
        #expect(status == 0)
        #expect(tag == (101 << 16 | 2))
        #expect(label == 1)
        #expect(property == 0x666D_7469)
        #expect(kAudio_ParamError == -50)
        #expect(MPEG4ObjectID.AAC_LC.rawValue == 2)
        #expect(AudioTimeStampFlags.sampleHostTimeValid == [.sampleTimeValid, .hostTimeValid])
        #expect(SMPTETimeType.type2997Drop.rawValue == 5)
        #expect(AudioChannelBitmap.bit_LFEScreen.rawValue == 8)
        #expect(AudioChannelFlags.rectangularCoordinates.rawValue == 1)
    }

    @Test func formatIDsAreApplesFourCharacterCodes() {
        let codes: [(AudioFormatID, String)] = [
            (kAudioFormatLinearPCM, "lpcm"), (kAudioFormatAC3, "ac-3"), (kAudioFormat60958AC3, "cac3"),
            (kAudioFormatAppleIMA4, "ima4"), (kAudioFormatMPEG4AAC, "aac "), (kAudioFormatMPEG4CELP, "celp"),
            (kAudioFormatMPEG4HVXC, "hvxc"), (kAudioFormatMPEG4TwinVQ, "twvq"), (kAudioFormatMACE3, "MAC3"),
            (kAudioFormatMACE6, "MAC6"), (kAudioFormatULaw, "ulaw"), (kAudioFormatALaw, "alaw"),
            (kAudioFormatQDesign, "QDMC"), (kAudioFormatQDesign2, "QDM2"), (kAudioFormatQUALCOMM, "Qclp"),
            (kAudioFormatMPEGLayer1, ".mp1"), (kAudioFormatMPEGLayer2, ".mp2"), (kAudioFormatMPEGLayer3, ".mp3"),
            (kAudioFormatTimeCode, "time"), (kAudioFormatMIDIStream, "midi"), (kAudioFormatParameterValueStream, "apvs"),
            (kAudioFormatAppleLossless, "alac"), (kAudioFormatMPEG4AAC_HE, "aach"), (kAudioFormatMPEG4AAC_LD, "aacl"),
            (kAudioFormatMPEG4AAC_ELD, "aace"), (kAudioFormatMPEG4AAC_ELD_SBR, "aacf"), (kAudioFormatMPEG4AAC_ELD_V2, "aacg"),
            (kAudioFormatMPEG4AAC_HE_V2, "aacp"), (kAudioFormatMPEG4AAC_Spatial, "aacs"), (kAudioFormatMPEGD_USAC, "usac"),
            (kAudioFormatAMR, "samr"), (kAudioFormatAMR_WB, "sawb"), (kAudioFormatAudible, "AUDB"),
            (kAudioFormatiLBC, "ilbc"), (kAudioFormatAES3, "aes3"), (kAudioFormatEnhancedAC3, "ec-3"),
            (kAudioFormatFLAC, "flac"), (kAudioFormatOpus, "opus"), (kAudioFormatAPAC, "apac"),
            (UInt32(bitPattern: kAudioFormatUnspecifiedError), "what"), (UInt32(bitPattern: kAudioFormatUnsupportedPropertyError), "prop"),
            (UInt32(bitPattern: kAudioFormatBadPropertySizeError), "!siz"), (UInt32(bitPattern: kAudioFormatBadSpecifierSizeError), "!spc"),
            (UInt32(bitPattern: kAudioFormatUnsupportedDataFormatError), "fmt?"), (UInt32(bitPattern: kAudioFormatUnknownFormatError), "!fmt"),
            (UInt32(bitPattern: kAudio_BadFilePathError), "!pth"),
        ]
        for (code, text) in codes {
            #expect(fourCharacters(code) == text)
        }
        #expect(kAudioFormatDVIIntelIMA == 0x6D73_0011)
        #expect(kAudioFormatMicrosoftGSM == 0x6D73_0031)
    }

    @Test func flagsHaveApplesValues() {
        #expect(kAudioFormatFlagIsFloat == 1 && kAudioFormatFlagIsBigEndian == 2 && kAudioFormatFlagIsSignedInteger == 4)
        #expect(kAudioFormatFlagIsPacked == 8 && kAudioFormatFlagIsAlignedHigh == 16 && kAudioFormatFlagIsNonInterleaved == 32)
        #expect(kAudioFormatFlagIsNonMixable == 64 && kAudioFormatFlagsAreAllClear == 0x8000_0000)
        #expect(kLinearPCMFormatFlagsSampleFractionShift == 7 && kLinearPCMFormatFlagsSampleFractionMask == 0x1F80)
        #expect(kAudioFormatFlagsNativeEndian == 0)   // every Linux target Soundstage builds for is little-endian
        #expect(kAudioFormatFlagsNativeFloatPacked == kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked)
        // CA_PREFER_FIXED_POINT is 0 unless a port defines it: the float canonical formats.
        #expect(kAudioFormatFlagsCanonical == kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked)
        #expect(kAudioFormatFlagsAudioUnitCanonical == kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved)
        #expect(MemoryLayout<AudioSampleType>.size == 4 && MemoryLayout<AudioUnitSampleType>.size == 4)
        #expect(kAppleLosslessFormatFlag_16BitSourceData == 1 && kAppleLosslessFormatFlag_32BitSourceData == 4)
        #expect(kAudio_UnimplementedError == -4 && kAudio_FileNotFoundError == -43 && kAudio_FilePermissionError == -54)
        #expect(kAudio_TooManyFilesOpenError == -42 && kAudio_MemFullError == -108)
    }

    @Test func structuresHaveApplesLayouts() {
        #expect(MemoryLayout<AudioStreamBasicDescription>.size == 40)
        #expect(MemoryLayout<AudioStreamPacketDescription>.size == 16)
        #expect(MemoryLayout<AudioBuffer>.size == 16)
        #expect(MemoryLayout<AudioBufferList>.size == 24)
        #expect(MemoryLayout<AudioValueRange>.size == 16)
        #expect(MemoryLayout<AudioClassDescription>.size == 12)
        #expect(MemoryLayout<SMPTETime>.size == 24)
        #expect(MemoryLayout<AudioTimeStamp>.size == 64)
        #expect(MemoryLayout<AudioChannelDescription>.size == 20)
        #expect(MemoryLayout<AudioChannelLayout>.size == 32)
        #expect(MemoryLayout<AudioChannelLayout>.offset(of: \.mChannelDescriptions) == 12)
        #expect(MemoryLayout<AudioFormatInfo>.size == 56)
        #expect(MemoryLayout<AudioFormatListItem>.size == 48)
    }

    @Test func layoutTagsCarryTheirChannelCounts() {
        #expect(kAudioChannelLayoutTag_UseChannelDescriptions == 0 && kAudioChannelLayoutTag_UseChannelBitmap == 0x1_0000)
        #expect(kAudioChannelLayoutTag_Mono == (100 << 16 | 1) && kAudioChannelLayoutTag_Quadraphonic == (108 << 16 | 4))
        #expect(kAudioChannelLayoutTag_MPEG_5_1_A == (121 << 16 | 6) && kAudioChannelLayoutTag_MPEG_7_1_C == (128 << 16 | 8))
        #expect(kAudioChannelLayoutTag_AAC_5_1 == kAudioChannelLayoutTag_MPEG_5_1_D)
        #expect(kAudioChannelLayoutTag_Unknown == 0xFFFF_0000)
        #expect(kAudioChannelLayoutTag_DiscreteInOrder == 147 << 16)
    }

    @Test func inlineHelpersFillLinearPCM() {
        var asbd = AudioStreamBasicDescription()
        FillOutASBDForLPCM(&asbd, 48_000, 2, 24, 32, false, false, false)
        #expect(asbd.mFormatID == kAudioFormatLinearPCM)
        #expect(asbd.mFormatFlags == kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsAlignedHigh)
        #expect(asbd.mBytesPerFrame == 8 && asbd.mBytesPerPacket == 8 && asbd.mFramesPerPacket == 1)
        #expect(asbd.mBitsPerChannel == 24 && asbd.mChannelsPerFrame == 2)
        FillOutASBDForLPCM(&asbd, 44_100, 2, 32, 32, true, false, true)
        #expect(asbd.mFormatFlags == kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved)
        #expect(asbd.mBytesPerFrame == 4)
        #expect(IsAudioFormatNativeEndian(&asbd))
        #expect(CalculateLPCMFlags(16, 16, false, true, false) == kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsBigEndian | kAudioFormatFlagIsPacked)
        var stamp = AudioTimeStamp()
        FillOutAudioTimeStampWithSampleAndHostTime(&stamp, 512, 99)
        #expect(stamp.mSampleTime == 512 && stamp.mHostTime == 99 && stamp.mFlags == .sampleHostTimeValid)
    }
}

/// 'lpcm' from 0x6C70636D.
func fourCharacters(_ code: UInt32) -> String {
    String(decoding: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: code >> $0) }, as: UTF8.self)
}
