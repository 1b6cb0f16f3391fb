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
        for property in [kAudioFormatProperty_OutputFormatList,
                         kAudioFormatProperty_PanningMatrix, 0x7A7A_7A7A] {
            #expect(AudioFormatGetPropertyInfo(property, 0, nil, &size) == kAudioFormatUnsupportedPropertyError, "\(fourCharacters(property))")
        }
    }

    @Test func theFormatListsNeedTheirSpecifiers() {
        var size: UInt32 = 0
        for property in [kAudioFormatProperty_FormatList, kAudioFormatProperty_FirstPlayableFormatFromList] {
            #expect(AudioFormatGetPropertyInfo(property, 0, nil, &size) == kAudio_ParamError, "\(fourCharacters(property))")
            var short: UInt32 = 0
            #expect(AudioFormatGetPropertyInfo(property, 4, &short, &size) == kAudioFormatBadSpecifierSizeError, "\(fourCharacters(property))")
        }
        // A cookie size without a cookie.
        var info = AudioFormatInfo(mASBD: AudioStreamBasicDescription(mSampleRate: 44_100, mFormatID: kAudioFormatMPEG4AAC, mFormatFlags: 0,
                                                                      mBytesPerPacket: 0, mFramesPerPacket: 0, mBytesPerFrame: 0,
                                                                      mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0),
                                   mMagicCookie: nil, mMagicCookieSize: 5)
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_FormatList, UInt32(MemoryLayout<AudioFormatInfo>.size), &info, &size) == kAudio_ParamError)
        // No item this machine plays.
        var item = AudioFormatListItem(mASBD: AudioStreamBasicDescription(mSampleRate: 48_000, mFormatID: kAudioFormatAC3, mFormatFlags: 0,
                                                                          mBytesPerPacket: 0, mFramesPerPacket: 1536, mBytesPerFrame: 0,
                                                                          mChannelsPerFrame: 6, mBitsPerChannel: 0, mReserved: 0),
                                       mChannelLayoutTag: kAudioChannelLayoutTag_Unknown | 6)
        var index: UInt32 = 99
        size = 4
        #expect(AudioFormatGetProperty(kAudioFormatProperty_FirstPlayableFormatFromList, UInt32(MemoryLayout<AudioFormatListItem>.size), &item,
                                       &size, &index) == kAudioFormatUnsupportedDataFormatError)
        #expect(index == 99)
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
