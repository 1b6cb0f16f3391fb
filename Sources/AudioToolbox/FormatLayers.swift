// Layered formats: HE-AAC over AAC, HE-AAC v2 over both. Core Audio describes such a stream by a
// list of the formats it decodes to, richest first (Apple's Technical Q&A QA1639): an HE-AAC file
// answers kAudioFilePropertyDataFormat with its base layer ('aac ', at the core's rate) and
// kAudioFilePropertyFormatList with 'aach' at the SBR rate before it; a program (and Extended Audio
// File Services) decodes the first layer it can. kAudioFilePropertyFormatList,
// kAudioFileStreamProperty_FormatList and kAudioFormatProperty_FormatList all answer from here.

enum FormatLayers {
    /// The formats a stream described by `format` (and `cookie`, when it has one) decodes to,
    /// richest first; `[format]` for a format that is not layered.
    ///
    /// AAC's layers come from the cookie's AudioSpecificConfig when it signals SBR (and PS)
    /// explicitly, or else from the description itself when it is 'aach' or 'aacp' (the core at
    /// half its rate, HE-AAC v2's core mono). Implicit signalling (an LC config whose packets carry
    /// SBR) is not seen here: as on Apple's systems, such a stream lists its base layer alone.
    static func list(_ format: AudioStreamBasicDescription, cookie: UnsafeRawBufferPointer?) -> [AudioStreamBasicDescription] {
        guard [kAudioFormatMPEG4AAC, kAudioFormatMPEG4AAC_HE, kAudioFormatMPEG4AAC_HE_V2].contains(format.mFormatID) else { return [format] }
        if let cookie, cookie.count > 0, let config = MagicCookie.audioSpecificConfig(in: cookie), config.sbrRate != nil {
            return config.layers
        }
        let rate = format.mSampleRate
        guard format.mFormatID != kAudioFormatMPEG4AAC, rate.isFinite, rate > 0 else { return [format] }
        let v2 = format.mFormatID == kAudioFormatMPEG4AAC_HE_V2
        let channels = v2 ? 1 : format.mChannelsPerFrame
        guard channels > 0 else { return [format] }
        return AudioSpecificConfig(objectType: 2, sampleRate: rate / 2, channels: channels, framesPerPacket: 1024, sbrRate: rate, hasPS: v2).layers
    }

    /// `list` as AudioFormatListItems, each with the channel layout tag `tag` gives for its
    /// channel count (`kAudioChannelLayoutTag_Unknown` with the count when it gives none).
    static func items(_ layers: [AudioStreamBasicDescription], tag: (UInt32) -> AudioChannelLayoutTag? = { _ in nil }) -> [AudioFormatListItem] {
        layers.map { AudioFormatListItem(mASBD: $0, mChannelLayoutTag: tag($0.mChannelsPerFrame) ?? (kAudioChannelLayoutTag_Unknown | $0.mChannelsPerFrame)) }
    }
}
