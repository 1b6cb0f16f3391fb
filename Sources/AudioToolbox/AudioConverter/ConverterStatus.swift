// Audio Converter Services' failures as the OSStatus codes Apple documents, thrown inside this
// module and returned at the C boundary (AudioConverterServices.swift).

/// An OSStatus on its way out of an Audio Converter Services call.
struct ConverterStatus: StatusError, Equatable {
    /// The code the C function returns.
    let status: OSStatus

    /// `kAudio_ParamError` (−50): a NULL pointer, a stale converter, a value out of range.
    static let parameter = ConverterStatus(status: kAudio_ParamError)
    /// `kAudioConverterErr_FormatNotSupported` ('fmt?'): a format or pair not converted here.
    static let formatNotSupported = ConverterStatus(status: kAudioConverterErr_FormatNotSupported)
    /// `kAudioConverterErr_OperationNotSupported` ('op??'): a call this converter cannot make.
    static let operationNotSupported = ConverterStatus(status: kAudioConverterErr_OperationNotSupported)
    /// `kAudioConverterErr_PropertyNotSupported` ('prop').
    static let propertyNotSupported = ConverterStatus(status: kAudioConverterErr_PropertyNotSupported)
    /// `kAudioConverterErr_InvalidInputSize` ('insz'): input that is not whole frames or packets,
    /// or says it holds more than its buffer does.
    static let invalidInputSize = ConverterStatus(status: kAudioConverterErr_InvalidInputSize)
    /// `kAudioConverterErr_InvalidOutputSize` ('otsz'): output room that holds no whole packet.
    static let invalidOutputSize = ConverterStatus(status: kAudioConverterErr_InvalidOutputSize)
    /// `kAudioConverterErr_UnspecifiedError` ('what'): a codec failed.
    static let unspecified = ConverterStatus(status: kAudioConverterErr_UnspecifiedError)
    /// `kAudioConverterErr_BadPropertySizeError` ('!siz').
    static let badPropertySize = ConverterStatus(status: kAudioConverterErr_BadPropertySizeError)
    /// `kAudioConverterErr_RequiresPacketDescriptionsError` ('!pkd').
    static let requiresPacketDescriptions = ConverterStatus(status: kAudioConverterErr_RequiresPacketDescriptionsError)
    /// `kAudioConverterErr_InputSampleRateOutOfRange` ('!isr').
    static let inputRateOutOfRange = ConverterStatus(status: kAudioConverterErr_InputSampleRateOutOfRange)
    /// `kAudioConverterErr_OutputSampleRateOutOfRange` ('!osr').
    static let outputRateOutOfRange = ConverterStatus(status: kAudioConverterErr_OutputSampleRateOutOfRange)
}
