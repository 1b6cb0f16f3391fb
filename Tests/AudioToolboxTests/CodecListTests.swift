import AudioToolbox
import SoundFile
import Testing

/// What this machine encodes and decodes, asked as iOS code asks it: size first, then the list.
@Suite struct CodecListTests {
    /// The two-call pattern: `AudioFormatGetPropertyInfo` for the size, then the values.
    func list<T>(_ property: AudioFormatPropertyID, _ specifier: UInt32? = nil, as type: T.Type) -> (OSStatus, [T]) {
        var spec = specifier ?? 0
        let specSize = specifier == nil ? UInt32(0) : UInt32(MemoryLayout<UInt32>.size)
        var size: UInt32 = 0
        let info = withUnsafePointer(to: &spec) { pointer in
            AudioFormatGetPropertyInfo(property, specSize, specifier == nil ? nil : UnsafeRawPointer(pointer), &size)
        }
        guard info == noErr else { return (info, []) }
        let stride = MemoryLayout<T>.stride
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(Int(size), 1), alignment: 8)
        defer { buffer.deallocate() }
        let status = withUnsafePointer(to: &spec) { pointer in
            AudioFormatGetProperty(property, specSize, specifier == nil ? nil : UnsafeRawPointer(pointer), &size, buffer)
        }
        let items = (0..<(Int(size) / stride)).map { buffer.load(fromByteOffset: $0 * stride, as: T.self) }
        return (status, items)
    }

    @Test func decodeFormatIDsAreWhatThisMachineDecodes() {
        let (status, ids) = list(kAudioFormatProperty_DecodeFormatIDs, as: AudioFormatID.self)
        #expect(status == noErr)
        for id in [kAudioFormatLinearPCM, kAudioFormatULaw, kAudioFormatALaw, kAudioFormatAppleIMA4, kAudioFormatAppleLossless,
                   kAudioFormatFLAC, kAudioFormatOpus, kAudioFormatMPEGLayer3] {
            #expect(ids.contains(id), "\(fourCharacters(id))")
        }
        #expect(ids.contains(kAudioFormatMPEG4AAC) == FFmpeg.hasDecoder(named: "aac"))
        #expect(ids.contains(kAudioFormatMPEG4AAC_HE) == FFmpeg.hasDecoder(named: "aac"))
        #expect(ids.contains(kAudioFormatiLBC) == FFmpeg.hasDecoder(named: "ilbc"))
        #expect(!ids.contains(kAudioFormatAC3))
        #expect(Set(ids).count == ids.count)
    }

    @Test func encodeFormatIDsAreWhatThisMachineEncodes() {
        let (status, ids) = list(kAudioFormatProperty_EncodeFormatIDs, as: AudioFormatID.self)
        #expect(status == noErr)
        for id in [kAudioFormatLinearPCM, kAudioFormatULaw, kAudioFormatALaw, kAudioFormatAppleIMA4, kAudioFormatAppleLossless, kAudioFormatiLBC] {
            #expect(ids.contains(id), "\(fourCharacters(id))")
        }
        #expect(ids.contains(kAudioFormatMPEG4AAC) == FFmpeg.hasEncoder(named: "aac"))
        #expect(!ids.contains(kAudioFormatMPEG4AAC_HE))
    }

    @Test func aListGivenLessRoomIsCutToWholeItems() {
        var ids = [AudioFormatID](repeating: 0, count: 8)
        var size = UInt32(3 * MemoryLayout<AudioFormatID>.size + 2)
        #expect(AudioFormatGetProperty(kAudioFormatProperty_DecodeFormatIDs, 0, nil, &size, &ids) == noErr)
        #expect(size == 12)
        #expect(ids[0] == kAudioFormatLinearPCM && ids[3] == 0)
    }

    @Test func encodersAndDecodersAreSoftware() {
        let (status, decoders) = list(kAudioFormatProperty_Decoders, kAudioFormatAppleIMA4, as: AudioClassDescription.self)
        #expect(status == noErr && decoders.count == 1)
        #expect(decoders.first?.mType == kAudioDecoderComponentType && decoders.first?.mSubType == kAudioFormatAppleIMA4)
        #expect(decoders.first?.mManufacturer == kAppleSoftwareAudioCodecManufacturer)
        let (_, none) = list(kAudioFormatProperty_Encoders, kAudioFormatAC3, as: AudioClassDescription.self)
        #expect(none.isEmpty)
        #expect(list(kAudioFormatProperty_Encoders, 0x7878_7878, as: AudioClassDescription.self).0 == kAudioFormatUnknownFormatError)
    }

    @Test func encodeSampleAndBitRates() {
        let (status, pcm) = list(kAudioFormatProperty_AvailableEncodeSampleRates, kAudioFormatLinearPCM, as: AudioValueRange.self)
        #expect(status == noErr && pcm.count == 1 && pcm[0].mMinimum <= 8_000 && pcm[0].mMaximum >= 192_000)
        let (_, opus) = list(kAudioFormatProperty_AvailableEncodeSampleRates, kAudioFormatOpus, as: AudioValueRange.self)
        #expect(opus.map(\.mMinimum) == [8_000, 12_000, 16_000, 24_000, 48_000])
        #expect(list(kAudioFormatProperty_AvailableEncodeSampleRates, kAudioFormatAC3, as: AudioValueRange.self).0
                == kAudioFormatUnsupportedDataFormatError)
        if FFmpeg.hasEncoder(named: "aac") {
            let (_, aacRates) = list(kAudioFormatProperty_AvailableEncodeSampleRates, kAudioFormatMPEG4AAC, as: AudioValueRange.self)
            #expect(aacRates.contains { $0.mMinimum == 44_100 && $0.mMaximum == 44_100 })
            let (_, bitRates) = list(kAudioFormatProperty_AvailableEncodeBitRates, kAudioFormatMPEG4AAC, as: AudioValueRange.self)
            #expect(bitRates.count == 1 && bitRates[0].mMinimum == 8_000 && bitRates[0].mMaximum == 512_000)
        }
        let (lossless, none) = list(kAudioFormatProperty_AvailableEncodeBitRates, kAudioFormatAppleLossless, as: AudioValueRange.self)
        #expect(lossless == noErr && none.isEmpty)
    }

    @Test func formatQuestionsTakeADescription() {
        func ask(_ property: AudioFormatPropertyID, _ id: AudioFormatID) -> (OSStatus, UInt32) {
            var asbd = AudioStreamBasicDescription()
            asbd.mFormatID = id
            var answer: UInt32 = 99
            var size = UInt32(MemoryLayout<UInt32>.size)
            let status = AudioFormatGetProperty(property, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &asbd, &size, &answer)
            return (status, answer)
        }
        #expect(ask(kAudioFormatProperty_FormatIsVBR, kAudioFormatMPEG4AAC) == (noErr, 1))
        #expect(ask(kAudioFormatProperty_FormatIsVBR, kAudioFormatLinearPCM) == (noErr, 0))
        #expect(ask(kAudioFormatProperty_FormatIsVBR, kAudioFormatAppleIMA4) == (noErr, 0))
        #expect(ask(kAudioFormatProperty_FormatIsExternallyFramed, kAudioFormatAppleLossless) == (noErr, 1))
        #expect(ask(kAudioFormatProperty_FormatIsExternallyFramed, kAudioFormatULaw) == (noErr, 0))
        #expect(ask(kAudioFormatProperty_FormatIsEncrypted, kAudioFormatMPEG4AAC) == (noErr, 0))
        #expect(ask(kAudioFormatProperty_FormatIsEncrypted, kAudioFormatAudible) == (noErr, 1))
        #expect(ask(kAudioFormatProperty_FormatIsVBR, 0x7878_7878).0 == kAudioFormatUnknownFormatError)
    }

    @Test func everyCodecIsSoftware() {
        func capabilities(_ codecs: [AudioClassDescription]) -> (OSStatus, UInt32) {
            var usable: UInt32 = 99
            var size = UInt32(MemoryLayout<UInt32>.size)
            let status = AudioFormatGetProperty(kAudioFormatProperty_HardwareCodecCapabilities,
                                                UInt32(codecs.count * MemoryLayout<AudioClassDescription>.size), codecs,
                                                &size, &usable)
            return (status, usable)
        }
        let software = AudioClassDescription(mType: kAudioDecoderComponentType, mSubType: kAudioFormatAppleIMA4,
                                             mManufacturer: kAppleSoftwareAudioCodecManufacturer)
        let hardware = AudioClassDescription(mType: kAudioDecoderComponentType, mSubType: kAudioFormatMPEG4AAC,
                                             mManufacturer: kAppleHardwareAudioCodecManufacturer)
        #expect(capabilities([software, software]) == (noErr, 2))
        #expect(capabilities([software, hardware, software]) == (noErr, 1))
        #expect(capabilities([hardware]) == (noErr, 0))
    }
}
