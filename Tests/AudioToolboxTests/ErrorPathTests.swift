import AudioToolbox
import Testing

/// Every way to call Audio Format Services wrongly is one of Apple's codes, never a crash.
@Suite struct ErrorPathTests {
    let asbdSize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)

    @Test func nullOutputsAreParameterErrors() {
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_DecodeFormatIDs, 0, nil, nil) == kAudio_ParamError)
        var size: UInt32 = 64
        #expect(AudioFormatGetProperty(kAudioFormatProperty_DecodeFormatIDs, 0, nil, &size, nil) == kAudio_ParamError)
        var ids = [AudioFormatID](repeating: 0, count: 4)
        #expect(AudioFormatGetProperty(kAudioFormatProperty_DecodeFormatIDs, 0, nil, nil, &ids) == kAudio_ParamError)
        var asbd = AudioStreamBasicDescription()
        #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, nil, &asbd) == kAudio_ParamError)
    }

    @Test func aSpecifierSizeWithoutASpecifierIsAParameterError() {
        var size: UInt32 = 0
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_FormatIsVBR, asbdSize, nil, &size) == kAudio_ParamError)
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_FormatIsVBR, 0, nil, &size) == kAudio_ParamError)
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_ChannelLayoutForTag, 0, nil, &size) == kAudio_ParamError)
    }

    @Test func tooLittleRoomForAFixedSizeValue() {
        var asbd = AudioStreamBasicDescription()
        asbd.mFormatID = kAudioFormatMPEG4AAC
        var size = asbdSize - 1
        #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &size, &asbd) == kAudioFormatBadPropertySizeError)
        #expect(asbd.mFramesPerPacket == 0)   // untouched
        var isVBR: UInt32 = 0
        var small: UInt32 = 2
        #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatIsVBR, asbdSize, &asbd, &small, &isVBR) == kAudioFormatBadPropertySizeError)
        var tag = kAudioChannelLayoutTag_Stereo
        var layout = AudioChannelLayout()
        var layoutSize = UInt32(MemoryLayout<AudioChannelLayout>.size)   // 32: one description's room, not two
        #expect(AudioFormatGetProperty(kAudioFormatProperty_ChannelLayoutForTag, 4, &tag, &layoutSize, &layout) == kAudioFormatBadPropertySizeError)
    }

    @Test func moreRoomThanNeededSaysHowMuchWasWritten() {
        var asbd = AudioStreamBasicDescription()
        asbd.mFormatID = kAudioFormatMPEG4AAC
        var isVBR: UInt32 = 0
        var size: UInt32 = 16
        #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatIsVBR, asbdSize, &asbd, &size, &isVBR) == noErr)
        #expect(size == 4 && isVBR == 1)
    }

    @Test func wrongSpecifierSizesAreSpecifierSizeErrors() {
        var asbd = AudioStreamBasicDescription()
        asbd.mFormatID = kAudioFormatLinearPCM
        var size: UInt32 = 0
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_FormatIsVBR, asbdSize - 8, &asbd, &size) == kAudioFormatBadSpecifierSizeError)
        var tag = kAudioChannelLayoutTag_Stereo
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_ChannelLayoutForTag, 2, &tag, &size) == kAudioFormatBadSpecifierSizeError)
        var formatID = kAudioFormatMPEG4AAC
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_AvailableEncodeSampleRates, 8, &formatID, &size) == kAudioFormatBadSpecifierSizeError)
        var codecs = [UInt8](repeating: 0, count: 13)
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_HardwareCodecCapabilities, 13, &codecs, &size) == kAudioFormatBadSpecifierSizeError)
        var layout = AudioChannelLayout()
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_NumberOfChannelsForLayout, 8, &layout, &size) == kAudioFormatBadSpecifierSizeError)
    }

    @Test func propertiesSoundstageDoesNotAnswer() {
        var size: UInt32 = 0
        for property in [kAudioFormatProperty_FormatList,
                         kAudioFormatProperty_PanningMatrix, 0x7A7A_7A7A] {
            #expect(AudioFormatGetPropertyInfo(property, 0, nil, &size) == kAudioFormatUnsupportedPropertyError, "\(fourCharacters(property))")
        }
    }

    @Test func unknownFormatsAreUnknownFormatErrors() {
        var formatID: AudioFormatID = 0x7878_7878
        var size: UInt32 = 0
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_AvailableEncodeSampleRates, 4, &formatID, &size) == kAudioFormatUnknownFormatError)
        var asbd = AudioStreamBasicDescription()
        var room = asbdSize
        #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &room, &asbd) == kAudioFormatUnknownFormatError)
    }
}
