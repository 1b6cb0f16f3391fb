import AudioToolbox
import Testing

/// The other channel-layout questions: a layout's tag, a tag's bitmap, the tags of a channel
/// count, whether a layout is valid, and an ESDS's description.
@Suite struct LayoutQueryTests {
    /// The one UInt32 a property gives for a specifier of `specifierSize` bytes at `specifier`.
    func uint32(_ property: AudioFormatPropertyID, _ specifier: UnsafeRawPointer, _ specifierSize: Int) -> (OSStatus, UInt32) {
        var value: UInt32 = 0
        var size = UInt32(MemoryLayout<UInt32>.size)
        let status = AudioFormatGetProperty(property, UInt32(specifierSize), specifier, &size, &value)
        return (status, value)
    }

    /// An AudioChannelLayout with these descriptions, as bytes.
    func layout(_ labels: [AudioChannelLabel]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 12 + 20 * labels.count)
        bytes.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: kAudioChannelLayoutTag_UseChannelDescriptions, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: UInt32(labels.count), toByteOffset: 8, as: UInt32.self)
            for (index, label) in labels.enumerated() { raw.storeBytes(of: label, toByteOffset: 12 + 20 * index, as: UInt32.self) }
        }
        return bytes
    }

    @Test func aLayoutsTagFromItsDescriptionsOrBitmap() {
        let fiveOne = layout([kAudioChannelLabel_Left, kAudioChannelLabel_Right, kAudioChannelLabel_Center,
                              kAudioChannelLabel_LFEScreen, kAudioChannelLabel_LeftSurround, kAudioChannelLabel_RightSurround])
        #expect(fiveOne.withUnsafeBytes { uint32(kAudioFormatProperty_TagForChannelLayout, $0.baseAddress!, $0.count) }
                == (noErr, kAudioChannelLayoutTag_MPEG_5_1_A))
        let stereo = layout([kAudioChannelLabel_Left, kAudioChannelLabel_Right])
        #expect(stereo.withUnsafeBytes { uint32(kAudioFormatProperty_TagForChannelLayout, $0.baseAddress!, $0.count) }
                == (noErr, kAudioChannelLayoutTag_Stereo))
        var bitmap = AudioChannelLayout()
        bitmap.mChannelLayoutTag = kAudioChannelLayoutTag_UseChannelBitmap
        bitmap.mChannelBitmap = [.bit_Left, .bit_Right, .bit_Center]
        #expect(uint32(kAudioFormatProperty_TagForChannelLayout, &bitmap, MemoryLayout<AudioChannelLayout>.size)
                == (noErr, kAudioChannelLayoutTag_MPEG_3_0_A))
        let odd = layout([kAudioChannelLabel_Right, kAudioChannelLabel_Left])
        #expect(odd.withUnsafeBytes { uint32(kAudioFormatProperty_TagForChannelLayout, $0.baseAddress!, $0.count) }.0
                == kAudioFormatUnknownFormatError)
        let cut = Array(fiveOne.prefix(40))   // six descriptions claimed, one and a bit held
        #expect(cut.withUnsafeBytes { uint32(kAudioFormatProperty_TagForChannelLayout, $0.baseAddress!, $0.count) }.0
                == kAudioFormatBadSpecifierSizeError)
    }

    @Test func aTagsBitmap() {
        var tag = kAudioChannelLayoutTag_MPEG_5_1_D
        #expect(uint32(kAudioFormatProperty_BitmapForLayoutTag, &tag, 4) == (noErr, 0x3F))
        tag = kAudioChannelLayoutTag_StereoHeadphones   // headphone labels have no bits
        #expect(uint32(kAudioFormatProperty_BitmapForLayoutTag, &tag, 4).0 == kAudioFormatUnknownFormatError)
    }

    @Test func theTagsOfAChannelCount() {
        var channels: UInt32 = 6
        var size: UInt32 = 0
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_TagsForNumberOfChannels, 4, &channels, &size) == noErr)
        var tags = [AudioChannelLayoutTag](repeating: 0, count: Int(size) / 4)
        #expect(AudioFormatGetProperty(kAudioFormatProperty_TagsForNumberOfChannels, 4, &channels, &size, &tags) == noErr)
        #expect(tags.contains(kAudioChannelLayoutTag_MPEG_5_1_A) && tags.contains(kAudioChannelLayoutTag_AAC_6_0))
        #expect(tags.allSatisfy { AudioChannelLayoutTag_GetNumberOfChannels($0) == 6 } && tags == tags.sorted())
    }

    @Test func validation() {
        func validate(_ bytes: [UInt8]) -> OSStatus {
            bytes.withUnsafeBytes { AudioFormatGetProperty(kAudioFormatProperty_ValidateChannelLayout, UInt32($0.count), $0.baseAddress, nil, nil) }
        }
        #expect(validate(layout([kAudioChannelLabel_Left, kAudioChannelLabel_Right])) == noErr)
        #expect(validate(layout([kAudioChannelLabel_Left, 9_999])) == kAudioFormatUnknownFormatError)
        #expect(validate(Array(layout([kAudioChannelLabel_Left, kAudioChannelLabel_Right]).prefix(32))) == kAudio_ParamError)
        var tagged = AudioChannelLayout()
        tagged.mChannelLayoutTag = kAudioChannelLayoutTag_Quadraphonic
        #expect(AudioFormatGetProperty(kAudioFormatProperty_ValidateChannelLayout, UInt32(MemoryLayout<AudioChannelLayout>.size),
                                       &tagged, nil, nil) == noErr)
        tagged.mChannelLayoutTag = 250 << 16 | 2
        #expect(AudioFormatGetProperty(kAudioFormatProperty_ValidateChannelLayout, UInt32(MemoryLayout<AudioChannelLayout>.size),
                                       &tagged, nil, nil) == kAudioFormatUnknownFormatError)
    }

    @Test func aDescriptionFromAnESDS() {
        // The ES descriptor FFmpeg 5.1 writes into an M4A: 22.05 kHz mono AAC LC.
        let esds: [UInt8] = [0x03, 0x80, 0x80, 0x80, 0x25, 0x00, 0x01, 0x00, 0x04, 0x80, 0x80, 0x80, 0x17, 0x40, 0x15,
                             0x00, 0x00, 0x00, 0x00, 0x00, 0xFA, 0x00, 0x00, 0x00, 0xE3, 0xE2, 0x05, 0x80, 0x80, 0x80,
                             0x05, 0x13, 0x88, 0x56, 0xE5, 0x00, 0x06, 0x80, 0x80, 0x80, 0x01, 0x02]
        var asbd = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        let status = esds.withUnsafeBytes {
            AudioFormatGetProperty(kAudioFormatProperty_ASBDFromESDS, UInt32($0.count), $0.baseAddress, &size, &asbd)
        }
        #expect(status == noErr)
        #expect(asbd.mFormatID == kAudioFormatMPEG4AAC && asbd.mSampleRate == 22_050 && asbd.mChannelsPerFrame == 1)
        #expect(asbd.mFramesPerPacket == 1024 && asbd.mFormatFlags == 2)
        let junk: [UInt8] = [0x03, 0x02, 0x00]
        let junkStatus = junk.withUnsafeBytes {
            AudioFormatGetProperty(kAudioFormatProperty_ASBDFromESDS, UInt32($0.count), $0.baseAddress, &size, &asbd)
        }
        #expect(junkStatus == kAudioFormatUnsupportedDataFormatError)
    }
}
