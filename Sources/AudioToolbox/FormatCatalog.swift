// Every format ID Apple names, and what Audio Format Services says of each one's packets.

/// What Soundstage knows of one of Apple's format IDs.
struct FormatTraits {
    /// Packets of varying byte size (`kAudioFormatProperty_FormatIsVBR`).
    let isVBR: Bool
    /// Whether Soundstage can describe its packets (`kAudioFormatProperty_FormatInfo`); false
    /// for formats Apple names that Soundstage neither reads nor writes (AC-3, QDesign, MACE, ...).
    let isDescribed: Bool
    /// Encrypted (`kAudioFormatProperty_FormatIsEncrypted`): Audible's DRM format alone.
    let isEncrypted: Bool

    init(vbr: Bool, described: Bool = true, encrypted: Bool = false) {
        isVBR = vbr
        isDescribed = described
        isEncrypted = encrypted
    }
}

enum FormatCatalog {
    /// Apple's format IDs, each with its traits. A format ID not here is unknown
    /// (`kAudioFormatUnknownFormatError`).
    static let traits: [AudioFormatID: FormatTraits] = [
        kAudioFormatLinearPCM: FormatTraits(vbr: false),
        kAudioFormatAppleIMA4: FormatTraits(vbr: false),
        kAudioFormatULaw: FormatTraits(vbr: false),
        kAudioFormatALaw: FormatTraits(vbr: false),
        kAudioFormatMPEG4AAC: FormatTraits(vbr: true),
        kAudioFormatMPEG4AAC_HE: FormatTraits(vbr: true),
        kAudioFormatMPEG4AAC_HE_V2: FormatTraits(vbr: true),
        kAudioFormatMPEG4AAC_LD: FormatTraits(vbr: true),
        kAudioFormatMPEG4AAC_ELD: FormatTraits(vbr: true),
        kAudioFormatAppleLossless: FormatTraits(vbr: true),
        kAudioFormatMPEGLayer1: FormatTraits(vbr: true),
        kAudioFormatMPEGLayer2: FormatTraits(vbr: true),
        kAudioFormatMPEGLayer3: FormatTraits(vbr: true),
        kAudioFormatFLAC: FormatTraits(vbr: true),
        kAudioFormatOpus: FormatTraits(vbr: true),
        kAudioFormatiLBC: FormatTraits(vbr: false),
        kAudioFormatAMR: FormatTraits(vbr: true),
        kAudioFormatAMR_WB: FormatTraits(vbr: true),
        kAudioFormatDVIIntelIMA: FormatTraits(vbr: false),
        kAudioFormatMicrosoftGSM: FormatTraits(vbr: false),
        // Named by Apple, not described here (FormatInfo: kAudioFormatUnsupportedDataFormatError).
        kAudioFormatAC3: FormatTraits(vbr: false, described: false),
        kAudioFormat60958AC3: FormatTraits(vbr: false, described: false),
        kAudioFormatEnhancedAC3: FormatTraits(vbr: true, described: false),
        kAudioFormatMPEG4CELP: FormatTraits(vbr: true, described: false),
        kAudioFormatMPEG4HVXC: FormatTraits(vbr: true, described: false),
        kAudioFormatMPEG4TwinVQ: FormatTraits(vbr: true, described: false),
        kAudioFormatMPEG4AAC_ELD_SBR: FormatTraits(vbr: true, described: false),
        kAudioFormatMPEG4AAC_ELD_V2: FormatTraits(vbr: true, described: false),
        kAudioFormatMPEG4AAC_Spatial: FormatTraits(vbr: true, described: false),
        kAudioFormatMPEGD_USAC: FormatTraits(vbr: true, described: false),
        kAudioFormatMACE3: FormatTraits(vbr: false, described: false),
        kAudioFormatMACE6: FormatTraits(vbr: false, described: false),
        kAudioFormatQDesign: FormatTraits(vbr: true, described: false),
        kAudioFormatQDesign2: FormatTraits(vbr: true, described: false),
        kAudioFormatQUALCOMM: FormatTraits(vbr: true, described: false),
        kAudioFormatTimeCode: FormatTraits(vbr: false, described: false),
        kAudioFormatMIDIStream: FormatTraits(vbr: true, described: false),
        kAudioFormatParameterValueStream: FormatTraits(vbr: false, described: false),
        kAudioFormatAudible: FormatTraits(vbr: true, described: false, encrypted: true),
        kAudioFormatAES3: FormatTraits(vbr: false, described: false),
        kAudioFormatAPAC: FormatTraits(vbr: true, described: false),
    ]

    /// The traits of `formatID`, or `kAudioFormatUnknownFormatError`.
    static func traits(of formatID: AudioFormatID) throws(FormatStatus) -> FormatTraits {
        guard let traits = traits[formatID] else { throw .unknownFormat }
        return traits
    }
}
