import AudioToolbox
import Testing

/// `kAudioFormatProperty_FormatInfo` as iOS code asks it: a description with mFormatID set,
/// completed with what Apple documents for each format.
@Suite struct FormatInfoTests {
    /// `AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &size, &asbd)`, as the
    /// Core Audio books write it.
    func formatInfo(_ asbd: inout AudioStreamBasicDescription) -> OSStatus {
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        return AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &size, &asbd)
    }

    @Test func linearPCMGetsItsBytesPerFrame() {
        var asbd = AudioStreamBasicDescription()
        asbd.mFormatID = kAudioFormatLinearPCM
        asbd.mFormatFlags = kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked
        asbd.mSampleRate = 44_100
        asbd.mChannelsPerFrame = 2
        asbd.mBitsPerChannel = 16
        #expect(formatInfo(&asbd) == noErr)
        #expect(asbd.mBytesPerFrame == 4 && asbd.mBytesPerPacket == 4 && asbd.mFramesPerPacket == 1)

        var planar = AudioStreamBasicDescription(mSampleRate: 48_000, mFormatID: kAudioFormatLinearPCM,
                                                 mFormatFlags: kAudioFormatFlagsNativeFloatPacked | kAudioFormatFlagIsNonInterleaved,
                                                 mBytesPerPacket: 0, mFramesPerPacket: 0, mBytesPerFrame: 0,
                                                 mChannelsPerFrame: 6, mBitsPerChannel: 32, mReserved: 0)
        #expect(formatInfo(&planar) == noErr)
        #expect(planar.mBytesPerFrame == 4 && planar.mBytesPerPacket == 4)

        var odd = AudioStreamBasicDescription()
        odd.mFormatID = kAudioFormatLinearPCM
        odd.mFormatFlags = kAudioFormatFlagIsFloat
        odd.mChannelsPerFrame = 1
        odd.mBitsPerChannel = 24
        #expect(formatInfo(&odd) == kAudioFormatUnsupportedDataFormatError)
    }

    /// A channel count whose packet or frame size a UInt32 cannot hold is
    /// kAudioFormatUnsupportedDataFormatError (fuzz-capi: 34 × channels of IMA4, and bytes × channels
    /// of linear PCM, trapped on overflow; so did the bits rounded up to bytes).
    @Test func sizesPastAUInt32AreErrors() {
        var ima4 = AudioStreamBasicDescription(mSampleRate: 44_100, mFormatID: kAudioFormatAppleIMA4, mFormatFlags: 0, mBytesPerPacket: 0,
                                               mFramesPerPacket: 0, mBytesPerFrame: 0, mChannelsPerFrame: .max, mBitsPerChannel: 0, mReserved: 0)
        #expect(formatInfo(&ima4) == kAudioFormatUnsupportedDataFormatError)
        var pcm = AudioStreamBasicDescription(mSampleRate: 44_100, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagIsSignedInteger,
                                              mBytesPerPacket: 0, mFramesPerPacket: 0, mBytesPerFrame: 0, mChannelsPerFrame: 0x4000_0000,
                                              mBitsPerChannel: 32, mReserved: 0)
        #expect(formatInfo(&pcm) == kAudioFormatUnsupportedDataFormatError)
        pcm.mChannelsPerFrame = 1
        pcm.mBitsPerChannel = .max
        #expect(formatInfo(&pcm) == noErr)
        #expect(pcm.mBytesPerFrame == 0x2000_0000)
    }

    @Test func compressedFormatsGetTheirPacketSizes() {
        func info(_ id: AudioFormatID, rate: Double = 44_100, channels: UInt32 = 2) -> AudioStreamBasicDescription {
            var asbd = AudioStreamBasicDescription()
            asbd.mFormatID = id
            asbd.mSampleRate = rate
            asbd.mChannelsPerFrame = channels
            #expect(formatInfo(&asbd) == noErr, "\(fourCharacters(id))")
            return asbd
        }
        let aac = info(kAudioFormatMPEG4AAC)
        #expect(aac.mFramesPerPacket == 1024 && aac.mBytesPerPacket == 0 && aac.mSampleRate == 44_100 && aac.mChannelsPerFrame == 2)
        #expect(info(kAudioFormatMPEG4AAC_HE).mFramesPerPacket == 2048)
        #expect(info(kAudioFormatMPEG4AAC_HE_V2).mFramesPerPacket == 2048)
        #expect(info(kAudioFormatMPEG4AAC_LD).mFramesPerPacket == 512)
        let ima4 = info(kAudioFormatAppleIMA4)
        #expect(ima4.mFramesPerPacket == 64 && ima4.mBytesPerPacket == 68)
        #expect(info(kAudioFormatAppleIMA4, channels: 1).mBytesPerPacket == 34)
        let ulaw = info(kAudioFormatULaw, rate: 8_000, channels: 1)
        #expect(ulaw.mBytesPerFrame == 1 && ulaw.mBytesPerPacket == 1 && ulaw.mFramesPerPacket == 1 && ulaw.mBitsPerChannel == 8)
        #expect(info(kAudioFormatALaw).mBytesPerPacket == 2)
        #expect(info(kAudioFormatAppleLossless).mFramesPerPacket == 4096)
        #expect(info(kAudioFormatMPEGLayer3).mFramesPerPacket == 1152)
        #expect(info(kAudioFormatMPEGLayer3, rate: 22_050).mFramesPerPacket == 576)
        #expect(info(kAudioFormatMPEGLayer1).mFramesPerPacket == 384)
        let ilbc = info(kAudioFormatiLBC, rate: 0, channels: 0)
        #expect(ilbc.mSampleRate == 8_000 && ilbc.mChannelsPerFrame == 1)
        var thirty = AudioStreamBasicDescription()
        thirty.mFormatID = kAudioFormatiLBC
        thirty.mBytesPerPacket = 50
        #expect(formatInfo(&thirty) == noErr && thirty.mFramesPerPacket == 240)
        let amr = info(kAudioFormatAMR)
        #expect(amr.mSampleRate == 8_000 && amr.mFramesPerPacket == 160)
    }

    @Test func anAACCookieGivesRateAndChannels() {
        // An ES descriptor as an M4A's or CAF's magic cookie holds it: AAC LC, 44.1 kHz, stereo
        // (AudioSpecificConfig 0x12 0x10).
        let cookie: [UInt8] = [0x03, 0x1D, 0x00, 0x00, 0x00,
                               0x04, 0x11, 0x40, 0x15, 0x00, 0x00, 0x00, 0x00, 0x01, 0xF4, 0x00, 0x00, 0x01, 0xF4, 0x00,
                               0x05, 0x02, 0x12, 0x10,
                               0x06, 0x01, 0x02]
        var asbd = AudioStreamBasicDescription()
        asbd.mFormatID = kAudioFormatMPEG4AAC
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        let status = cookie.withUnsafeBytes {
            AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, UInt32($0.count), $0.baseAddress, &size, &asbd)
        }
        #expect(status == noErr)
        #expect(asbd.mSampleRate == 44_100 && asbd.mChannelsPerFrame == 2 && asbd.mFramesPerPacket == 1024)
        #expect(asbd.mFormatFlags == UInt32(MPEG4ObjectID.AAC_LC.rawValue))

        // The AudioSpecificConfig alone: explicit HE-AAC (SBR) over a 24 kHz mono AAC LC core.
        let heConfig: [UInt8] = [0x2B, 0x09, 0x88, 0x00]   // type 5, 24 kHz, mono, ext 48 kHz, core type 2
        var he = AudioStreamBasicDescription()
        he.mFormatID = kAudioFormatMPEG4AAC_HE
        let heStatus = heConfig.withUnsafeBytes {
            AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, UInt32($0.count), $0.baseAddress, &size, &he)
        }
        #expect(heStatus == noErr)
        #expect(he.mFormatID == kAudioFormatMPEG4AAC && he.mSampleRate == 24_000 && he.mChannelsPerFrame == 1)

        // The cookie FFmpeg 5.1 writes into an M4A (22.05 kHz mono AAC LC), with its four-byte lengths.
        let ffmpeg: [UInt8] = [0x03, 0x80, 0x80, 0x80, 0x25, 0x00, 0x01, 0x00, 0x04, 0x80, 0x80, 0x80, 0x17, 0x40, 0x15,
                               0x00, 0x00, 0x00, 0x00, 0x00, 0xFA, 0x00, 0x00, 0x00, 0xE3, 0xE2, 0x05, 0x80, 0x80, 0x80,
                               0x05, 0x13, 0x88, 0x56, 0xE5, 0x00, 0x06, 0x80, 0x80, 0x80, 0x01, 0x02]
        var fromFile = AudioStreamBasicDescription()
        fromFile.mFormatID = kAudioFormatMPEG4AAC
        let fileStatus = ffmpeg.withUnsafeBytes {
            AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, UInt32($0.count), $0.baseAddress, &size, &fromFile)
        }
        #expect(fileStatus == noErr)
        #expect(fromFile.mSampleRate == 22_050 && fromFile.mChannelsPerFrame == 1 && fromFile.mFramesPerPacket == 1024)

        let garbage: [UInt8] = [0x03, 0xFF]
        var bad = AudioStreamBasicDescription()
        bad.mFormatID = kAudioFormatMPEG4AAC
        let badStatus = garbage.withUnsafeBytes {
            AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, UInt32($0.count), $0.baseAddress, &size, &bad)
        }
        #expect(badStatus == kAudioFormatUnsupportedDataFormatError)
    }

    @Test func anALACCookieGivesDepthRateAndChannels() {
        // ALACSpecificConfig: 4096 frames, version 0, 24 bits, pb 40, mb 10, kb 14, 2 channels,
        // maxRun 255, max frame bytes 0, average bit rate 0, 96000 Hz; first as M4A carries it,
        // then after the 'frma' and 'alac' atoms.
        let config: [UInt8] = [0x00, 0x00, 0x10, 0x00, 0x00, 24, 40, 10, 14, 2, 0x00, 0xFF,
                               0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x01, 0x77, 0x00]
        let wrapped: [UInt8] = [0, 0, 0, 12] + Array("frma".utf8) + Array("alac".utf8)
            + [0, 0, 0, 36] + Array("alac".utf8) + [0, 0, 0, 0] + config
        for cookie in [config, wrapped] {
            var asbd = AudioStreamBasicDescription()
            asbd.mFormatID = kAudioFormatAppleLossless
            var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
            let status = cookie.withUnsafeBytes {
                AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, UInt32($0.count), $0.baseAddress, &size, &asbd)
            }
            #expect(status == noErr)
            #expect(asbd.mSampleRate == 96_000 && asbd.mChannelsPerFrame == 2 && asbd.mFramesPerPacket == 4096)
            #expect(asbd.mFormatFlags == kAppleLosslessFormatFlag_24BitSourceData)
        }
        let short: [UInt8] = Array(config.prefix(20))
        var asbd = AudioStreamBasicDescription()
        asbd.mFormatID = kAudioFormatAppleLossless
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        let status = short.withUnsafeBytes {
            AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, UInt32($0.count), $0.baseAddress, &size, &asbd)
        }
        #expect(status == kAudioFormatUnsupportedDataFormatError)
    }

    @Test func unknownAndUndescribedFormatsAreErrors() {
        var unknown = AudioStreamBasicDescription()
        unknown.mFormatID = 0x7878_7878   // 'xxxx'
        #expect(formatInfo(&unknown) == kAudioFormatUnknownFormatError)
        var ac3 = AudioStreamBasicDescription()
        ac3.mFormatID = kAudioFormatAC3
        #expect(formatInfo(&ac3) == kAudioFormatUnsupportedDataFormatError)
    }

    @Test func propertyInfoGivesTheDescriptionsSize() {
        var size: UInt32 = 0
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_FormatInfo, 0, nil, &size) == noErr)
        #expect(size == 40)
    }
}
