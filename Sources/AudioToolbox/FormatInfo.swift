// kAudioFormatProperty_FormatInfo: an AudioStreamBasicDescription with at least mFormatID set,
// completed "as much as possible" from what the format itself fixes (Apple's words).

enum FormatInfo {
    /// Completes `asbd` in place. Fields the caller set are kept unless the format fixes them.
    /// `cookie` (the specifier, a magic cookie) is read for AAC (MagicCookie.swift) and ALAC
    /// (ALACCookie.swift).
    static func complete(_ asbd: inout AudioStreamBasicDescription, cookie: UnsafeRawBufferPointer?) throws(FormatStatus) {
        let traits = try FormatCatalog.traits(of: asbd.mFormatID)
        guard traits.isDescribed else { throw .unsupportedDataFormat }
        let channels = asbd.mChannelsPerFrame
        switch asbd.mFormatID {
        case kAudioFormatLinearPCM:
            try completeLinearPCM(&asbd)
        case kAudioFormatAppleIMA4:
            // 64 frames in 34 bytes per channel (a 2-byte header and 32 bytes of 4-bit samples).
            asbd.mFramesPerPacket = 64
            let (bytes, overflow) = channels.multipliedReportingOverflow(by: 34)
            guard !overflow else { throw .unsupportedDataFormat }   // more channels than a packet size can count
            asbd.mBytesPerPacket = bytes
            asbd.mBytesPerFrame = 0
            asbd.mBitsPerChannel = 0
        case kAudioFormatULaw, kAudioFormatALaw:
            asbd.mFramesPerPacket = 1
            asbd.mBytesPerFrame = channels
            asbd.mBytesPerPacket = channels
            asbd.mBitsPerChannel = 8
        case kAudioFormatMPEG4AAC, kAudioFormatMPEG4AAC_HE, kAudioFormatMPEG4AAC_HE_V2,
             kAudioFormatMPEG4AAC_LD, kAudioFormatMPEG4AAC_ELD:
            if let cookie, cookie.count > 0 {
                guard let config = MagicCookie.audioSpecificConfig(in: cookie) else { throw .unsupportedDataFormat }
                // The base layer, as Apple's FormatInfo gives for a layered format.
                asbd.mFormatID = kAudioFormatMPEG4AAC
                asbd.mSampleRate = config.sampleRate
                asbd.mChannelsPerFrame = config.channels
                asbd.mFormatFlags = config.objectType
                asbd.mFramesPerPacket = config.framesPerPacket
            } else {
                asbd.mFramesPerPacket = switch asbd.mFormatID {
                case kAudioFormatMPEG4AAC_HE, kAudioFormatMPEG4AAC_HE_V2: 2048
                case kAudioFormatMPEG4AAC_LD, kAudioFormatMPEG4AAC_ELD: 512
                default: 1024
                }
            }
            asbd.mBytesPerPacket = 0
            asbd.mBytesPerFrame = 0
            asbd.mBitsPerChannel = 0
        case kAudioFormatAppleLossless:
            if let cookie, cookie.count > 0 {
                guard let config = ALACSpecificConfig(cookie: cookie) else { throw .unsupportedDataFormat }
                asbd.mSampleRate = Double(config.sampleRate)
                asbd.mChannelsPerFrame = UInt32(config.channels)
                asbd.mFramesPerPacket = config.frameLength
                asbd.mFormatFlags = config.formatFlags
            } else if asbd.mFramesPerPacket == 0 {
                asbd.mFramesPerPacket = 4096
            }
            asbd.mBytesPerPacket = 0
            asbd.mBytesPerFrame = 0
            asbd.mBitsPerChannel = 0
        case kAudioFormatMPEGLayer1:
            asbd.mFramesPerPacket = 384
            asbd.mBytesPerPacket = 0
            asbd.mBytesPerFrame = 0
        case kAudioFormatMPEGLayer2, kAudioFormatMPEGLayer3:
            // MPEG-2 and 2.5 Layer III (16, 22.05, 24 kHz and below) carry 576 frames a packet.
            let lowRate = asbd.mFormatID == kAudioFormatMPEGLayer3 && asbd.mSampleRate > 0 && asbd.mSampleRate < 32_000
            asbd.mFramesPerPacket = lowRate ? 576 : 1152
            asbd.mBytesPerPacket = 0
            asbd.mBytesPerFrame = 0
        case kAudioFormatiLBC:
            // 8 kHz mono; 20 ms frames are 160 samples in 38 bytes, 30 ms ones 240 in 50.
            asbd.mSampleRate = 8_000
            asbd.mChannelsPerFrame = 1
            switch (asbd.mFramesPerPacket, asbd.mBytesPerPacket) {
            case (160, _), (_, 38): (asbd.mFramesPerPacket, asbd.mBytesPerPacket) = (160, 38)
            case (240, _), (_, 50): (asbd.mFramesPerPacket, asbd.mBytesPerPacket) = (240, 50)
            default: break   // which mode is the stream's to say
            }
        case kAudioFormatAMR:
            asbd.mSampleRate = 8_000
            asbd.mChannelsPerFrame = 1
            asbd.mFramesPerPacket = 160
        case kAudioFormatAMR_WB:
            asbd.mSampleRate = 16_000
            asbd.mChannelsPerFrame = 1
            asbd.mFramesPerPacket = 320
        case kAudioFormatMicrosoftGSM:
            // GSM 6.10 as WAVE stores it: two 160-sample frames in 65 bytes, 8 kHz mono.
            asbd.mFramesPerPacket = 320
            asbd.mBytesPerPacket = 65
            asbd.mChannelsPerFrame = 1
        default:
            // FLAC, Opus and DVI/Intel IMA: packet sizes come from the stream (a block size, a
            // block alignment, a packet's TOC), so nothing more can be said without it.
            break
        }
    }

    /// Linear PCM: one frame a packet; bytes from the bits, channels and interleaving.
    private static func completeLinearPCM(_ asbd: inout AudioStreamBasicDescription) throws(FormatStatus) {
        let flags = asbd.mFormatFlags
        if flags & kAudioFormatFlagIsFloat != 0 && asbd.mBitsPerChannel != 0
            && asbd.mBitsPerChannel != 32 && asbd.mBitsPerChannel != 64 {
            throw .unsupportedDataFormat
        }
        asbd.mFramesPerPacket = 1
        if asbd.mBytesPerFrame == 0 && asbd.mBitsPerChannel > 0 && asbd.mChannelsPerFrame > 0 {
            let sampleBytes = asbd.mBitsPerChannel / 8 + (asbd.mBitsPerChannel % 8 == 0 ? 0 : 1)
            let nonInterleaved = flags & kAudioFormatFlagIsNonInterleaved != 0
            let (frameBytes, overflow) = sampleBytes.multipliedReportingOverflow(by: nonInterleaved ? 1 : asbd.mChannelsPerFrame)
            guard !overflow else { throw .unsupportedDataFormat }   // a frame larger than a UInt32 can count
            asbd.mBytesPerFrame = frameBytes
        }
        if asbd.mBytesPerPacket == 0 { asbd.mBytesPerPacket = asbd.mBytesPerFrame }
    }
}
