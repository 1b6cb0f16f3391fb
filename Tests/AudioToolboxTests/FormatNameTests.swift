import AudioToolbox
import Testing

/// The names Audio Format Services gives, as iOS Swift code asks for them: `var name: CFString?`
/// passed as `&name` (a `String` here).
@Suite struct FormatNameTests {
    func name(_ property: AudioFormatPropertyID, _ specifier: UnsafeRawBufferPointer) -> (OSStatus, String?) {
        var name: CFString? = nil
        var size = UInt32(MemoryLayout<CFString?>.size)
        let status = AudioFormatGetProperty(property, UInt32(specifier.count), specifier.baseAddress, &size, &name)
        return (status, name)
    }

    @Test func formatNames() {
        var pcm = AudioStreamBasicDescription()
        FillOutASBDForLPCM(&pcm, 44_100, 2, 16, 16, false, false, false)
        #expect(withUnsafeBytes(of: &pcm) { name(kAudioFormatProperty_FormatName, $0) }
                == (noErr, "Linear PCM, 16-bit little-endian signed integer, 2 channels, 44100 Hz"))
        var aac = AudioStreamBasicDescription(mSampleRate: 48_000, mFormatID: kAudioFormatMPEG4AAC, mFormatFlags: 0, mBytesPerPacket: 0,
                                              mFramesPerPacket: 1024, mBytesPerFrame: 0, mChannelsPerFrame: 1, mBitsPerChannel: 0, mReserved: 0)
        #expect(withUnsafeBytes(of: &aac) { name(kAudioFormatProperty_FormatName, $0) } == (noErr, "MPEG-4 AAC, 1 channel, 48000 Hz"))
        // The size is a CFStringRef's; a specifier that is not a description is refused.
        var size: UInt32 = 0
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_FormatName, UInt32(MemoryLayout<AudioStreamBasicDescription>.size),
                                           &aac, &size) == noErr && size == UInt32(MemoryLayout<UnsafeRawPointer>.size))
        var four: UInt32 = 0
        #expect(withUnsafeBytes(of: &four) { name(kAudioFormatProperty_FormatName, $0) }.0 == kAudioFormatBadSpecifierSizeError)
    }

    @Test func layoutAndChannelNames() {
        var stereo = AudioChannelLayout()
        stereo.mChannelLayoutTag = kAudioChannelLayoutTag_Stereo
        #expect(withUnsafeBytes(of: &stereo) { name(kAudioFormatProperty_ChannelLayoutName, $0) } == (noErr, "Stereo (L R)"))
        #expect(withUnsafeBytes(of: &stereo) { name(kAudioFormatProperty_ChannelLayoutSimpleName, $0) } == (noErr, "Stereo"))
        var surround = AudioChannelLayout()
        surround.mChannelLayoutTag = kAudioChannelLayoutTag_MPEG_5_1_A
        #expect(withUnsafeBytes(of: &surround) { name(kAudioFormatProperty_ChannelLayoutName, $0) } == (noErr, "5.1 (L R C LFE Ls Rs)"))
        var label = kAudioChannelLabel_LeftSurround
        #expect(withUnsafeBytes(of: &label) { name(kAudioFormatProperty_ChannelName, $0) } == (noErr, "Left Surround"))
        #expect(withUnsafeBytes(of: &label) { name(kAudioFormatProperty_ChannelShortName, $0) } == (noErr, "Ls"))
        var unknownTag = AudioChannelLayout()
        unknownTag.mChannelLayoutTag = 250 << 16 | 2
        #expect(withUnsafeBytes(of: &unknownTag) { name(kAudioFormatProperty_ChannelLayoutName, $0) }.0 == kAudioFormatUnknownFormatError)
    }
}
