// Audio Format Services' failures as the OSStatus codes Apple documents, thrown inside this
// module and returned at the C boundary (AudioFormatServices.swift).

/// An OSStatus on its way out of an Audio Format Services call.
struct FormatStatus: StatusError, Equatable {
    /// The code the C function returns.
    let status: OSStatus

    /// `kAudio_ParamError` (−50): a NULL pointer where one is needed, or a value out of range.
    static let parameter = FormatStatus(status: kAudio_ParamError)
    /// `kAudioFormatUnsupportedPropertyError` ('prop'): a property Soundstage does not answer.
    static let unsupportedProperty = FormatStatus(status: kAudioFormatUnsupportedPropertyError)
    /// `kAudioFormatBadPropertySizeError` ('!siz'): too little room for the value.
    static let badPropertySize = FormatStatus(status: kAudioFormatBadPropertySizeError)
    /// `kAudioFormatBadSpecifierSizeError` ('!spc'): the specifier is not the property's size.
    static let badSpecifierSize = FormatStatus(status: kAudioFormatBadSpecifierSizeError)
    /// `kAudioFormatUnsupportedDataFormatError` ('fmt?'): a format Apple names that Soundstage
    /// cannot describe or encode.
    static let unsupportedDataFormat = FormatStatus(status: kAudioFormatUnsupportedDataFormatError)
    /// `kAudioFormatUnknownFormatError` ('!fmt'): a format ID, layout tag or bitmap no one names.
    static let unknownFormat = FormatStatus(status: kAudioFormatUnknownFormatError)
}
