// Audio File Services' failures as the OSStatus codes Apple documents, thrown inside this module
// and returned at the C boundary (AudioFileServices.swift).

/// An OSStatus on its way out of an Audio File Services call.
struct FileStatus: StatusError, Equatable {
    /// The code the C function returns.
    let status: OSStatus

    /// `kAudio_ParamError` (−50): a NULL pointer where one is needed, or a value out of range.
    static let parameter = FileStatus(status: kAudio_ParamError)
    /// `kAudio_UnimplementedError` (−4): a function Soundstage does not offer yet.
    static let unimplemented = FileStatus(status: kAudio_UnimplementedError)
    /// `kAudioFileNotOpenError` (−38): an AudioFileID that was closed, or never opened.
    static let notOpen = FileStatus(status: kAudioFileNotOpenError)
    /// `kAudioFileEndOfFileError` (−39).
    static let endOfFile = FileStatus(status: kAudioFileEndOfFileError)
    /// `kAudioFilePositionError` (−40): a negative byte position.
    static let position = FileStatus(status: kAudioFilePositionError)
    /// `kAudioFileFileNotFoundError` (−43).
    static let fileNotFound = FileStatus(status: kAudioFileFileNotFoundError)
    /// `kAudioFileUnsupportedFileTypeError` ('typ?').
    static let unsupportedFileType = FileStatus(status: kAudioFileUnsupportedFileTypeError)
    /// `kAudioFileUnsupportedDataFormatError` ('fmt?').
    static let unsupportedDataFormat = FileStatus(status: kAudioFileUnsupportedDataFormatError)
    /// `kAudioFileUnsupportedPropertyError` ('pty?').
    static let unsupportedProperty = FileStatus(status: kAudioFileUnsupportedPropertyError)
    /// `kAudioFileBadPropertySizeError` ('!siz').
    static let badPropertySize = FileStatus(status: kAudioFileBadPropertySizeError)
    /// `kAudioFilePermissionsError` ('prm?').
    static let permissions = FileStatus(status: kAudioFilePermissionsError)
    /// `kAudioFileInvalidPacketOffsetError` ('pck?').
    static let invalidPacketOffset = FileStatus(status: kAudioFileInvalidPacketOffsetError)
    /// `kAudioFileInvalidFileError` ('dta?'): truncated or malformed.
    static let invalidFile = FileStatus(status: kAudioFileInvalidFileError)
    /// `dupFNErr` (−48): AudioFileCreateWithURL without kAudioFileFlags_EraseFile, and the file
    /// exists (what iOS answers; the constant is Carbon's, not in Core Audio's headers).
    static let fileExists = FileStatus(status: -48)
    /// `kAudioFileOperationNotSupportedError` ('op??').
    static let operationNotSupported = FileStatus(status: kAudioFileOperationNotSupportedError)
    /// `kAudioFileDoesNotAllow64BitDataSizeError` ('off?'): more data than the container can state.
    static let dataTooLarge = FileStatus(status: kAudioFileDoesNotAllow64BitDataSizeError)
    /// `kAudio_BadFilePathError` ('!pth'): a URL that is not a file's.
    static let badFilePath = FileStatus(status: kAudio_BadFilePathError)
    /// `kAudioFileNotOptimizedError` ('optm', `kAudioFileStreamError_NotOptimized` too): a stream
    /// whose packet table or defining chunk comes after its audio data.
    static let notOptimized = FileStatus(status: kAudioFileNotOptimizedError)
    /// 'more' (`kAudioFileStreamError_DataUnavailable`): a stream has not delivered the bytes a
    /// parser asked for yet (StreamSource); never returned by Audio File Services.
    static let moreData = FileStatus(status: 0x6D6F_7265)
}
