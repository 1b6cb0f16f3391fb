// Channel layouts: a tag's channels (ChannelLayoutForTag), a bitmap's (ChannelLayoutForBitmap),
// and the AudioChannelLayout bytes both answer with.

enum ChannelLayouts {
    private static let L = kAudioChannelLabel_Left, R = kAudioChannelLabel_Right, C = kAudioChannelLabel_Center
    private static let LFE = kAudioChannelLabel_LFEScreen
    private static let Ls = kAudioChannelLabel_LeftSurround, Rs = kAudioChannelLabel_RightSurround
    private static let Lc = kAudioChannelLabel_LeftCenter, Rc = kAudioChannelLabel_RightCenter
    private static let Cs = kAudioChannelLabel_CenterSurround
    private static let Rls = kAudioChannelLabel_RearSurroundLeft, Rrs = kAudioChannelLabel_RearSurroundRight
    private static let Lw = kAudioChannelLabel_LeftWide, Rw = kAudioChannelLabel_RightWide
    private static let Vhl = kAudioChannelLabel_VerticalHeightLeft, Vhr = kAudioChannelLabel_VerticalHeightRight
    private static let Tbl = kAudioChannelLabel_TopBackLeft, Tbr = kAudioChannelLabel_TopBackRight

    /// The channels of each layout tag Soundstage expands, in order (Apple's documented orders).
    static let labels: [AudioChannelLayoutTag: [AudioChannelLabel]] = [
        kAudioChannelLayoutTag_Mono: [kAudioChannelLabel_Mono],
        kAudioChannelLayoutTag_Stereo: [L, R],
        kAudioChannelLayoutTag_StereoHeadphones: [kAudioChannelLabel_HeadphonesLeft, kAudioChannelLabel_HeadphonesRight],
        kAudioChannelLayoutTag_MatrixStereo: [kAudioChannelLabel_LeftTotal, kAudioChannelLabel_RightTotal],
        kAudioChannelLayoutTag_MidSide: [kAudioChannelLabel_MS_Mid, kAudioChannelLabel_MS_Side],
        kAudioChannelLayoutTag_XY: [kAudioChannelLabel_XY_X, kAudioChannelLabel_XY_Y],
        kAudioChannelLayoutTag_Binaural: [kAudioChannelLabel_HeadphonesLeft, kAudioChannelLabel_HeadphonesRight],
        kAudioChannelLayoutTag_Ambisonic_B_Format: [kAudioChannelLabel_Ambisonic_W, kAudioChannelLabel_Ambisonic_X,
                                                    kAudioChannelLabel_Ambisonic_Y, kAudioChannelLabel_Ambisonic_Z],
        kAudioChannelLayoutTag_Quadraphonic: [L, R, Ls, Rs],
        kAudioChannelLayoutTag_Pentagonal: [L, R, Rls, Rrs, C],
        kAudioChannelLayoutTag_Hexagonal: [L, R, Rls, Rrs, C, Cs],
        kAudioChannelLayoutTag_Octagonal: [L, R, Rls, Rrs, C, Cs, Lw, Rw],
        kAudioChannelLayoutTag_Cube: [L, R, Rls, Rrs, Vhl, Vhr, Tbl, Tbr],
        kAudioChannelLayoutTag_MPEG_3_0_A: [L, R, C],
        kAudioChannelLayoutTag_MPEG_3_0_B: [C, L, R],
        kAudioChannelLayoutTag_MPEG_4_0_A: [L, R, C, Cs],
        kAudioChannelLayoutTag_MPEG_4_0_B: [C, L, R, Cs],
        kAudioChannelLayoutTag_MPEG_5_0_A: [L, R, C, Ls, Rs],
        kAudioChannelLayoutTag_MPEG_5_0_B: [L, R, Ls, Rs, C],
        kAudioChannelLayoutTag_MPEG_5_0_C: [L, C, R, Ls, Rs],
        kAudioChannelLayoutTag_MPEG_5_0_D: [C, L, R, Ls, Rs],
        kAudioChannelLayoutTag_MPEG_5_1_A: [L, R, C, LFE, Ls, Rs],
        kAudioChannelLayoutTag_MPEG_5_1_B: [L, R, Ls, Rs, C, LFE],
        kAudioChannelLayoutTag_MPEG_5_1_C: [L, C, R, Ls, Rs, LFE],
        kAudioChannelLayoutTag_MPEG_5_1_D: [C, L, R, Ls, Rs, LFE],
        kAudioChannelLayoutTag_MPEG_6_1_A: [L, R, C, LFE, Ls, Rs, Cs],
        kAudioChannelLayoutTag_MPEG_7_1_A: [L, R, C, LFE, Ls, Rs, Lc, Rc],
        kAudioChannelLayoutTag_MPEG_7_1_B: [C, Lc, Rc, L, R, Ls, Rs, LFE],
        kAudioChannelLayoutTag_MPEG_7_1_C: [L, R, C, LFE, Ls, Rs, Rls, Rrs],
        kAudioChannelLayoutTag_ITU_2_1: [L, R, Cs],
        kAudioChannelLayoutTag_ITU_2_2: [L, R, Ls, Rs],
        kAudioChannelLayoutTag_DVD_4: [L, R, LFE],
        kAudioChannelLayoutTag_DVD_5: [L, R, LFE, Cs],
        kAudioChannelLayoutTag_DVD_6: [L, R, LFE, Ls, Rs],
        kAudioChannelLayoutTag_DVD_10: [L, R, C, LFE],
        kAudioChannelLayoutTag_DVD_11: [L, R, C, LFE, Cs],
        kAudioChannelLayoutTag_DVD_18: [L, R, Ls, Rs, LFE],
        kAudioChannelLayoutTag_AudioUnit_6_0: [L, R, Ls, Rs, C, Cs],
        kAudioChannelLayoutTag_AudioUnit_7_0: [L, R, Ls, Rs, C, Rls, Rrs],
        kAudioChannelLayoutTag_AudioUnit_7_0_Front: [L, R, Ls, Rs, C, Lc, Rc],
        kAudioChannelLayoutTag_AAC_6_0: [C, L, R, Ls, Rs, Cs],
        kAudioChannelLayoutTag_AAC_6_1: [C, L, R, Ls, Rs, Cs, LFE],
        kAudioChannelLayoutTag_AAC_7_0: [C, L, R, Ls, Rs, Rls, Rrs],
        kAudioChannelLayoutTag_AAC_Octagonal: [C, L, R, Ls, Rs, Rls, Rrs, Cs],
        kAudioChannelLayoutTag_AC3_1_0_1: [C, LFE],
        kAudioChannelLayoutTag_AC3_3_0: [L, C, R],
        kAudioChannelLayoutTag_AC3_3_1: [L, C, R, Cs],
        kAudioChannelLayoutTag_AC3_3_0_1: [L, C, R, LFE],
        kAudioChannelLayoutTag_AC3_2_1_1: [L, R, Cs, LFE],
        kAudioChannelLayoutTag_AC3_3_1_1: [L, C, R, Cs, LFE],
        kAudioChannelLayoutTag_WAVE_4_0_B: [L, R, Rls, Rrs],
        kAudioChannelLayoutTag_WAVE_5_0_B: [L, R, C, Rls, Rrs],
        kAudioChannelLayoutTag_WAVE_5_1_B: [L, R, C, LFE, Rls, Rrs],
        kAudioChannelLayoutTag_WAVE_6_1: [L, R, C, LFE, Cs, Ls, Rs],
        kAudioChannelLayoutTag_WAVE_7_1: [L, R, C, LFE, Rls, Rrs, Ls, Rs],
    ]

    /// The labels of `tag`: a known tag's, or DiscreteInOrder's numbered channels. UseChannelBitmap,
    /// UseChannelDescriptions and a zero-channel tag are `kAudio_ParamError`; a tag Soundstage
    /// does not know is `kAudioFormatUnknownFormatError`.
    static func labels(forTag tag: AudioChannelLayoutTag) throws(FormatStatus) -> [AudioChannelLabel] {
        if tag == kAudioChannelLayoutTag_UseChannelBitmap || tag == kAudioChannelLayoutTag_UseChannelDescriptions {
            throw .parameter
        }
        if let labels = labels[tag] { return labels }
        let count = tag & 0xFFFF
        if tag & 0xFFFF_0000 == kAudioChannelLayoutTag_DiscreteInOrder {
            guard count > 0 else { throw .parameter }
            return (0..<count).map { kAudioChannelLabel_Discrete_0 + $0 }
        }
        throw .unknownFormat
    }

    /// The labels of a channel bitmap, lowest bit first (bit n is label n + 1). No bits, or a bit
    /// above kAudioChannelBit_TopBackRight, is an error.
    static func labels(forBitmap bitmap: UInt32) throws(FormatStatus) -> [AudioChannelLabel] {
        guard bitmap != 0 else { throw .parameter }
        guard bitmap >> 18 == 0 else { throw .unknownFormat }
        return (0..<18).filter { bitmap & (1 << $0) != 0 }.map { AudioChannelLabel($0 + 1) }
    }

    /// The labels an AudioChannelLayout specifier describes, whichever way it describes them:
    /// its descriptions (the specifier must hold them all: `kAudioFormatBadSpecifierSizeError`),
    /// its bitmap, or its tag.
    static func labels(ofLayout bytes: UnsafeRawBufferPointer) throws(FormatStatus) -> [AudioChannelLabel] {
        let fixed = size(descriptions: 0)
        guard bytes.count >= fixed else { throw .badSpecifierSize }
        let tag = bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self)
        switch tag {
        case kAudioChannelLayoutTag_UseChannelDescriptions:
            let count = Int(bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
            guard count <= (bytes.count - fixed) / MemoryLayout<AudioChannelDescription>.stride else { throw .badSpecifierSize }
            return (0..<count).map {
                bytes.loadUnaligned(fromByteOffset: fixed + $0 * MemoryLayout<AudioChannelDescription>.stride, as: UInt32.self)
            }
        case kAudioChannelLayoutTag_UseChannelBitmap:
            return try labels(forBitmap: bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        default:
            return try labels(forTag: tag)
        }
    }

    /// The lowest tag whose channels are `labels`, in that order (`kAudioFormatUnknownFormatError`
    /// when no tag Soundstage knows has them).
    static func tag(for labels: [AudioChannelLabel]) throws(FormatStatus) -> AudioChannelLayoutTag {
        guard let tag = self.labels.filter({ $0.value == labels }).map(\.key).min() else { throw .unknownFormat }
        return tag
    }

    /// The bitmap of a tag whose channels all have bits (`kAudioFormatUnknownFormatError` otherwise).
    static func bitmap(forTag tag: AudioChannelLayoutTag) throws(FormatStatus) -> UInt32 {
        var bitmap: UInt32 = 0
        for label in try labels(forTag: tag) {
            guard (1...18).contains(label) else { throw .unknownFormat }
            bitmap |= 1 << (label - 1)
        }
        return bitmap
    }

    /// The tags Soundstage knows with `count` channels, lowest first.
    static func tags(channels count: UInt32) -> [AudioChannelLayoutTag] {
        labels.keys.filter { $0 & 0xFFFF == count }.sorted()
    }

    /// ValidateChannelLayout: `kAudio_ParamError` for a layout that contradicts itself (a
    /// description count it does not hold, a tag whose channel count its descriptions do not
    /// match), `kAudioFormatUnknownFormatError` for a tag or label no one names.
    static func validate(_ bytes: UnsafeRawBufferPointer) throws(FormatStatus) {
        let fixed = size(descriptions: 0)
        guard bytes.count >= fixed else { throw .parameter }
        let tag = bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self)
        let count = Int(bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
        guard count <= (bytes.count - fixed) / MemoryLayout<AudioChannelDescription>.stride else { throw .parameter }
        switch tag {
        case kAudioChannelLayoutTag_UseChannelDescriptions:
            guard count > 0 else { throw .parameter }
            for index in 0..<count {
                let label = bytes.loadUnaligned(fromByteOffset: fixed + index * MemoryLayout<AudioChannelDescription>.stride,
                                                as: UInt32.self)
                guard isKnown(label) else { throw .unknownFormat }
            }
        case kAudioChannelLayoutTag_UseChannelBitmap:
            _ = try labels(forBitmap: bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        default:
            guard labels[tag] != nil || tag & 0xFFFF_0000 == kAudioChannelLayoutTag_DiscreteInOrder
                    || tag & 0xFFFF_0000 == kAudioChannelLayoutTag_Unknown else { throw .unknownFormat }
        }
    }

    /// Whether Apple names this channel label (the header's list, and any numbered discrete one).
    static func isKnown(_ label: AudioChannelLabel) -> Bool {
        switch label {
        case kAudioChannelLabel_Unknown, kAudioChannelLabel_Unused, kAudioChannelLabel_UseCoordinates,
             1...18, 33...45, 200...207, 301, 302, 304, 305, kAudioChannelLabel_Discrete:
            true
        default:
            label >> 16 == 1
        }
    }

    /// The size of an AudioChannelLayout holding `count` channel descriptions.
    static func size(descriptions count: Int) -> Int {
        MemoryLayout<AudioChannelLayout>.offset(of: \.mChannelDescriptions)! + count * MemoryLayout<AudioChannelDescription>.stride
    }

    /// An AudioChannelLayout's bytes: UseChannelDescriptions, one description per label.
    static func bytes(labels: [AudioChannelLabel]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(size(descriptions: labels.count), MemoryLayout<AudioChannelLayout>.size))
        bytes.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: kAudioChannelLayoutTag_UseChannelDescriptions, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: 0, toByteOffset: 4, as: UInt32.self)
            raw.storeBytes(of: UInt32(labels.count), toByteOffset: 8, as: UInt32.self)
            let first = MemoryLayout<AudioChannelLayout>.offset(of: \.mChannelDescriptions)!
            for (index, label) in labels.enumerated() {
                let description = AudioChannelDescription(mChannelLabel: label, mChannelFlags: [],
                                                          mCoordinates: (0, 0, 0))
                raw.storeBytes(of: description, toByteOffset: first + index * MemoryLayout<AudioChannelDescription>.stride,
                               as: AudioChannelDescription.self)
            }
        }
        return Array(bytes.prefix(size(descriptions: labels.count)))
    }

    /// The number of channels an AudioChannelLayout stands for (NumberOfChannelsForLayout).
    static func channelCount(tag: AudioChannelLayoutTag, bitmap: UInt32, descriptions: UInt32) -> UInt32 {
        switch tag {
        case kAudioChannelLayoutTag_UseChannelDescriptions: descriptions
        case kAudioChannelLayoutTag_UseChannelBitmap: UInt32(bitmap.nonzeroBitCount)
        default: tag & 0xFFFF
        }
    }
}
