// Extended Audio File Services' failures as OSStatus codes: its own (kExtAudioFileError_…) and
// those of Audio File and Audio Converter Services it passes on, thrown inside this module and
// returned at the C boundary (ExtAudioFileServices.swift).

/// An OSStatus on its way out of an Extended Audio File Services call.
struct ExtStatus: StatusError, Equatable {
    /// The code the C function returns.
    let status: OSStatus

    init(_ status: OSStatus) { self.status = status }

    /// `kAudio_ParamError` (−50): NULL where a pointer is needed, a stale handle, a value out of range.
    static let parameter = ExtStatus(kAudio_ParamError)
    /// `kExtAudioFileError_InvalidProperty` (−66561): a property Apple does not name, or a read-only one set.
    static let invalidProperty = ExtStatus(kExtAudioFileError_InvalidProperty)
    /// `kExtAudioFileError_InvalidPropertySize` (−66562).
    static let invalidPropertySize = ExtStatus(kExtAudioFileError_InvalidPropertySize)
    /// `kExtAudioFileError_NonPCMClientFormat` (−66563): a client format that is not linear PCM.
    static let nonPCMClientFormat = ExtStatus(kExtAudioFileError_NonPCMClientFormat)
    /// `kExtAudioFileError_InvalidChannelMap` (−66564): a channel layout of another channel count.
    static let invalidChannelMap = ExtStatus(kExtAudioFileError_InvalidChannelMap)
    /// `kExtAudioFileError_InvalidOperationOrder` (−66565): reading a file being written (or the
    /// reverse), a new client format once data is written.
    static let invalidOperationOrder = ExtStatus(kExtAudioFileError_InvalidOperationOrder)
    /// `kExtAudioFileError_InvalidDataFormat` (−66566): a linear PCM description that cannot be.
    static let invalidDataFormat = ExtStatus(kExtAudioFileError_InvalidDataFormat)
    /// `kExtAudioFileError_MaxPacketSizeUnknown` (−66567).
    static let maxPacketSizeUnknown = ExtStatus(kExtAudioFileError_MaxPacketSizeUnknown)
    /// `kExtAudioFileError_InvalidSeek` (−66568): a frame before the start or past the end.
    static let invalidSeek = ExtStatus(kExtAudioFileError_InvalidSeek)
    /// `kExtAudioFileError_AsyncWriteTooLarge` (−66569).
    static let asyncWriteTooLarge = ExtStatus(kExtAudioFileError_AsyncWriteTooLarge)
    /// `kExtAudioFileError_AsyncWriteBufferOverflow` (−66570).
    static let asyncWriteBufferOverflow = ExtStatus(kExtAudioFileError_AsyncWriteBufferOverflow)
    /// `kAudioFilePermissionsError` ('prm?'): an AudioFileID opened to read, wrapped for writing.
    static let permissions = ExtStatus(kAudioFilePermissionsError)
    /// `kAudioFileUnsupportedPropertyError` ('pty?'): a packet table asked of a file without one.
    static let unsupportedProperty = ExtStatus(kAudioFileUnsupportedPropertyError)
    /// `kAudioFileOperationNotSupportedError` ('op??').
    static let operationNotSupported = ExtStatus(kAudioFileOperationNotSupportedError)
}


/// Throws the status of another service's call unless it is noErr.
@inline(__always)
func check(_ status: OSStatus) throws(ExtStatus) {
    if status != noErr { throw ExtStatus(status) }
}

/// What a converter's input procedure returns when the frames of one ExtAudioFileWrite are all
/// taken: the converter hands back what it made with this code and keeps the rest for the next call
/// (never returned to a caller).
let extAudioFileInputTaken = OSStatus(bitPattern: 0x6561_662E)   // 'eaf.'
