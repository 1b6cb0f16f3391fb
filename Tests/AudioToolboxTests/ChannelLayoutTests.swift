import AudioToolbox
import Testing

/// Channel layouts as iOS code expands them: GetPropertyInfo for the size, a buffer that big,
/// then the layout with one description per channel.
@Suite struct ChannelLayoutTests {
    /// The labels of the layout that `property` gives for `specifier`, or the error.
    func layout(_ property: AudioFormatPropertyID, _ specifier: UInt32) -> LayoutAnswer {
        var spec = specifier
        var size: UInt32 = 0
        var status = AudioFormatGetPropertyInfo(property, UInt32(MemoryLayout<UInt32>.size), &spec, &size)
        guard status == noErr else { return .failure(status) }
        let raw = UnsafeMutableRawPointer.allocate(byteCount: Int(size), alignment: MemoryLayout<AudioChannelLayout>.alignment)
        defer { raw.deallocate() }
        status = AudioFormatGetProperty(property, UInt32(MemoryLayout<UInt32>.size), &spec, &size, raw)
        guard status == noErr else { return .failure(status) }
        let layout = raw.assumingMemoryBound(to: AudioChannelLayout.self)
        #expect(layout.pointee.mChannelLayoutTag == kAudioChannelLayoutTag_UseChannelDescriptions)
        let count = Int(layout.pointee.mNumberChannelDescriptions)
        #expect(Int(size) == 12 + 20 * count)
        let descriptions = UnsafeMutableAudioChannelDescriptionPointer(layout)
        return .success((0..<count).map { descriptions[$0].mChannelLabel })
    }

    @Test func tagsExpandToTheirChannels() {
        #expect(layout(kAudioFormatProperty_ChannelLayoutForTag, kAudioChannelLayoutTag_Stereo) == .success([1, 2]))
        #expect(layout(kAudioFormatProperty_ChannelLayoutForTag, kAudioChannelLayoutTag_MPEG_5_1_A)
                == .success([kAudioChannelLabel_Left, kAudioChannelLabel_Right, kAudioChannelLabel_Center,
                             kAudioChannelLabel_LFEScreen, kAudioChannelLabel_LeftSurround, kAudioChannelLabel_RightSurround]))
        #expect(layout(kAudioFormatProperty_ChannelLayoutForTag, kAudioChannelLayoutTag_AAC_5_1)
                == .success([kAudioChannelLabel_Center, kAudioChannelLabel_Left, kAudioChannelLabel_Right,
                             kAudioChannelLabel_LeftSurround, kAudioChannelLabel_RightSurround, kAudioChannelLabel_LFEScreen]))
        #expect(layout(kAudioFormatProperty_ChannelLayoutForTag, kAudioChannelLayoutTag_DiscreteInOrder | 3)
                == .success([kAudioChannelLabel_Discrete_0, kAudioChannelLabel_Discrete_1, kAudioChannelLabel_Discrete_2]))
        for (tag, labels) in [(kAudioChannelLayoutTag_Quadraphonic, 4), (kAudioChannelLayoutTag_MPEG_7_1_C, 8),
                              (kAudioChannelLayoutTag_StereoHeadphones, 2), (kAudioChannelLayoutTag_Mono, 1)] {
            #expect(layout(kAudioFormatProperty_ChannelLayoutForTag, tag).labels?.count == labels)
        }
    }

    @Test func badTagsAreErrors() {
        #expect(layout(kAudioFormatProperty_ChannelLayoutForTag, kAudioChannelLayoutTag_UseChannelBitmap) == .failure(kAudio_ParamError))
        #expect(layout(kAudioFormatProperty_ChannelLayoutForTag, 250 << 16 | 2) == .failure(kAudioFormatUnknownFormatError))
        #expect(layout(kAudioFormatProperty_ChannelLayoutForTag, kAudioChannelLayoutTag_Unknown | 2) == .failure(kAudioFormatUnknownFormatError))
    }

    @Test func bitmapsExpandLowestBitFirst() {
        let bitmap: AudioChannelBitmap = [.bit_Left, .bit_Right, .bit_LFEScreen]
        #expect(layout(kAudioFormatProperty_ChannelLayoutForBitmap, bitmap.rawValue)
                == .success([kAudioChannelLabel_Left, kAudioChannelLabel_Right, kAudioChannelLabel_LFEScreen]))
        #expect(layout(kAudioFormatProperty_ChannelLayoutForBitmap, 0) == .failure(kAudio_ParamError))
        #expect(layout(kAudioFormatProperty_ChannelLayoutForBitmap, 1 << 30) == .failure(kAudioFormatUnknownFormatError))
    }

    @Test func numberOfChannelsForEachKindOfLayout() {
        func channels(_ layout: AudioChannelLayout) -> UInt32 {
            var layout = layout
            var count: UInt32 = 0
            var size = UInt32(MemoryLayout<UInt32>.size)
            #expect(AudioFormatGetProperty(kAudioFormatProperty_NumberOfChannelsForLayout,
                                           UInt32(MemoryLayout<AudioChannelLayout>.size), &layout, &size, &count) == noErr)
            return count
        }
        var layout = AudioChannelLayout()
        layout.mChannelLayoutTag = kAudioChannelLayoutTag_MPEG_5_1_A
        #expect(channels(layout) == 6)
        layout.mChannelLayoutTag = kAudioChannelLayoutTag_UseChannelBitmap
        layout.mChannelBitmap = [.bit_Left, .bit_Right, .bit_Center]
        #expect(channels(layout) == 3)
        layout.mChannelLayoutTag = kAudioChannelLayoutTag_UseChannelDescriptions
        layout.mNumberChannelDescriptions = 1
        #expect(channels(layout) == 1)
        #expect(AudioChannelLayoutTag_GetNumberOfChannels(kAudioChannelLayoutTag_MPEG_7_1_A) == 8)
    }
}

/// The descriptions after an AudioChannelLayout's fixed fields (Apple's C++ header offers a helper
/// for this; Swift code on iOS reads them through a pointer the same way).
func UnsafeMutableAudioChannelDescriptionPointer(_ layout: UnsafeMutablePointer<AudioChannelLayout>) -> UnsafeMutablePointer<AudioChannelDescription> {
    UnsafeMutableRawPointer(layout).advanced(by: MemoryLayout<AudioChannelLayout>.offset(of: \.mChannelDescriptions)!)
        .assumingMemoryBound(to: AudioChannelDescription.self)
}

/// A layout's labels, or the status that refused it.
enum LayoutAnswer: Equatable {
    case success([AudioChannelLabel])
    case failure(OSStatus)

    /// The labels, when there are some.
    var labels: [AudioChannelLabel]? {
        if case .success(let labels) = self { return labels }
        return nil
    }
}
