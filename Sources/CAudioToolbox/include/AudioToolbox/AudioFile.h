/*
 * AudioToolbox/AudioFile.h — Audio File Services: an audio file's packets and properties, by file
 * type (WAVE, AIFF, AIFC, CAF, ...). Written for Soundstage from Apple's published documentation;
 * no Apple header was copied. Values are Apple's.
 *
 * What Soundstage reads so far, and how Linux differs: docs/audiotoolbox.md. In short: files are
 * opened for reading: WAVE, AIFF and AIFC (linear PCM, IMA4, µ-law, A-law), CAF (any format, with its
 * packet table: AAC, Apple Lossless, ...), MPEG-4/M4A (AAC, Apple Lossless), MP3/MP2/MP1 and AAC in
 * ADTS. Files are created and written as CAF (any format), WAVE and AIFF (linear PCM; WAVE also
 * µ-law and A-law), AIFC (also float, µ-law, A-law and IMA4), M4A/MPEG-4 (AAC, Apple Lossless) and
 * ADTS (AAC); MP3 is read only, as on iOS, and an existing file is not yet reopened to be written
 * (kAudioFileOperationNotSupportedError). A bad argument, a closed file or a truncated or hostile
 * file is one of Apple's error codes, never a crash.
 *
 * Nullability (soundstage_coreaudio_base.h's CA_NONNULL, CA_NULLABLE, CA_NULL_UNSPECIFIED; clang
 * and Swift read them, gcc sees nothing): the callbacks' pointers and what Apple marks nullable are
 * as in Apple's header, so Swift imports the callback types with iOS's signatures; the pointers
 * Apple marks non-null in the functions are unspecified here, so C's NULL stays kAudio_ParamError.
 */
#ifndef AudioToolbox_AudioFile_h
#define AudioToolbox_AudioFile_h

#include <CoreAudio/CoreAudioTypes.h>
#include <CoreFoundation/CoreFoundation.h>

CA_HEADER_BEGIN

/** An open audio file. */
typedef struct OpaqueAudioFileID *AudioFileID;
typedef UInt32 AudioFileTypeID;
typedef UInt32 AudioFilePropertyID;

/* File types. */
CA_ENUM(AudioFileTypeID) {
    kAudioFileAIFFType            = CA_FOURCC('A', 'I', 'F', 'F'),   /* 'AIFF' read */
    kAudioFileAIFCType            = CA_FOURCC('A', 'I', 'F', 'C'),   /* 'AIFC' read */
    kAudioFileWAVEType            = CA_FOURCC('W', 'A', 'V', 'E'),   /* 'WAVE' read */
    kAudioFileRF64Type            = CA_FOURCC('R', 'F', '6', '4'),   /* 'RF64' not yet */
    kAudioFileBW64Type            = CA_FOURCC('B', 'W', '6', '4'),   /* 'BW64' not yet */
    kAudioFileWave64Type          = CA_FOURCC('W', '6', '4', 'f'),   /* 'W64f' not yet */
    kAudioFileSoundDesigner2Type  = CA_FOURCC('S', 'd', '2', 'f'),   /* 'Sd2f' not yet */
    kAudioFileNextType            = CA_FOURCC('N', 'e', 'X', 'T'),   /* 'NeXT' not yet */
    kAudioFileMP3Type             = CA_FOURCC('M', 'P', 'G', '3'),   /* 'MPG3' read */
    kAudioFileMP2Type             = CA_FOURCC('M', 'P', 'G', '2'),   /* 'MPG2' read */
    kAudioFileMP1Type             = CA_FOURCC('M', 'P', 'G', '1'),   /* 'MPG1' read */
    kAudioFileAC3Type             = CA_FOURCC('a', 'c', '-', '3'),   /* 'ac-3' not yet */
    kAudioFileAAC_ADTSType        = CA_FOURCC('a', 'd', 't', 's'),   /* 'adts' read */
    kAudioFileMPEG4Type           = CA_FOURCC('m', 'p', '4', 'f'),   /* 'mp4f' read */
    kAudioFileM4AType             = CA_FOURCC('m', '4', 'a', 'f'),   /* 'm4af' read */
    kAudioFileM4BType             = CA_FOURCC('m', '4', 'b', 'f'),   /* 'm4bf' read */
    kAudioFileCAFType             = CA_FOURCC('c', 'a', 'f', 'f'),   /* 'caff' read */
    kAudioFile3GPType             = CA_FOURCC('3', 'g', 'p', 'p'),   /* '3gpp' read */
    kAudioFile3GP2Type            = CA_FOURCC('3', 'g', 'p', '2'),   /* '3gp2' read */
    kAudioFileAMRType             = CA_FOURCC('a', 'm', 'r', 'f'),   /* 'amrf' not yet */
    kAudioFileFLACType            = CA_FOURCC('f', 'l', 'a', 'c'),   /* 'flac' not yet */
    kAudioFileLATMInLOASType      = CA_FOURCC('l', 'o', 'a', 's')    /* 'loas' not yet */
};

/* Audio File Services' result codes. */
CA_ENUM(OSStatus) {
    kAudioFileUnspecifiedError               = (OSStatus)CA_FOURCC('w', 'h', 't', '?'),   /* 'wht?' */
    kAudioFileUnsupportedFileTypeError       = (OSStatus)CA_FOURCC('t', 'y', 'p', '?'),   /* 'typ?' */
    kAudioFileUnsupportedDataFormatError     = (OSStatus)CA_FOURCC('f', 'm', 't', '?'),   /* 'fmt?' */
    kAudioFileUnsupportedPropertyError       = (OSStatus)CA_FOURCC('p', 't', 'y', '?'),   /* 'pty?' */
    kAudioFileBadPropertySizeError           = (OSStatus)CA_FOURCC('!', 's', 'i', 'z'),   /* '!siz' */
    kAudioFilePermissionsError               = (OSStatus)CA_FOURCC('p', 'r', 'm', '?'),   /* 'prm?' */
    kAudioFileNotOptimizedError              = (OSStatus)CA_FOURCC('o', 'p', 't', 'm'),   /* 'optm' */
    kAudioFileInvalidChunkError              = (OSStatus)CA_FOURCC('c', 'h', 'k', '?'),   /* 'chk?' */
    kAudioFileDoesNotAllow64BitDataSizeError = (OSStatus)CA_FOURCC('o', 'f', 'f', '?'),   /* 'off?' */
    kAudioFileInvalidPacketOffsetError       = (OSStatus)CA_FOURCC('p', 'c', 'k', '?'),   /* 'pck?' */
    kAudioFileInvalidPacketDependencyError   = (OSStatus)CA_FOURCC('d', 'e', 'p', '?'),   /* 'dep?' */
    kAudioFileInvalidFileError               = (OSStatus)CA_FOURCC('d', 't', 'a', '?'),   /* 'dta?' */
    kAudioFileOperationNotSupportedError     = 0x6F703F3F,                                /* 'op??' */
    kAudioFileNotOpenError                   = -38,
    kAudioFileEndOfFileError                 = -39,
    kAudioFilePositionError                  = -40,
    kAudioFileFileNotFoundError              = -43
};

/** How a file is opened (Swift: .readPermission, .writePermission, .readWritePermission). */
typedef CA_NAMED_ENUM(SInt8, AudioFilePermissions) {
    kAudioFileReadPermission CA_SWIFT_NAME(readPermission)           = 0x01,
    kAudioFileWritePermission CA_SWIFT_NAME(writePermission)         = 0x02,
    kAudioFileReadWritePermission CA_SWIFT_NAME(readWritePermission) = 0x03
};

/** Flags for creating a file (Swift: .eraseFile, .dontPageAlignAudioData). */
typedef CA_OPTIONS(UInt32, AudioFileFlags) {
    kAudioFileFlags_EraseFile CA_SWIFT_NAME(eraseFile)                           = 1,
    kAudioFileFlags_DontPageAlignAudioData CA_SWIFT_NAME(dontPageAlignAudioData) = 2
};

/**
 * The callbacks of AudioFileOpenWithCallbacks and AudioFileInitializeWithCallbacks, with Apple's
 * nullability: in Swift inClientData is an UnsafeMutableRawPointer (not an optional), so iOS code's
 * `Unmanaged<Player>.fromOpaque(inClientData)` compiles unchanged. A file opened with NULL client
 * data passes NULL all the same (C code may); Swift code that opens so must not unwrap it.
 */
typedef OSStatus (*AudioFile_ReadProc)(void *CA_NONNULL inClientData, SInt64 inPosition, UInt32 requestCount,
                                       void *CA_NONNULL buffer, UInt32 *CA_NONNULL actualCount);
typedef OSStatus (*AudioFile_WriteProc)(void *CA_NONNULL inClientData, SInt64 inPosition, UInt32 requestCount,
                                        const void *CA_NONNULL buffer, UInt32 *CA_NONNULL actualCount);
typedef SInt64 (*AudioFile_GetSizeProc)(void *CA_NONNULL inClientData);
typedef OSStatus (*AudioFile_SetSizeProc)(void *CA_NONNULL inClientData, SInt64 inSize);

/* Markers and regions (declared for the types; the properties are not answered yet). */
typedef struct AudioFile_SMPTE_Time {
    SInt8  mHours;
    UInt8  mMinutes;
    UInt8  mSeconds;
    UInt8  mFrames;
    UInt32 mSubFrameSampleOffset;
} AudioFile_SMPTE_Time;

CA_ENUM(UInt32) {
    kAudioFileMarkerType_Generic = 0
};

typedef struct AudioFileMarker {
    Float64              mFramePosition;
    CFStringRef CA_NULLABLE mName;
    SInt32               mMarkerID;
    AudioFile_SMPTE_Time mSMPTETime;
    UInt32               mType;
    UInt16               mReserved;
    UInt16               mChannel;
} AudioFileMarker;

typedef struct AudioFileMarkerList {
    UInt32          mSMPTE_TimeType;
    UInt32          mNumberMarkers;
    AudioFileMarker mMarkers[1];
} AudioFileMarkerList;

typedef CA_OPTIONS(UInt32, AudioFileRegionFlags) {
    kAudioFileRegionFlag_LoopEnable CA_SWIFT_NAME(loopEnable)     = 1,
    kAudioFileRegionFlag_PlayForward CA_SWIFT_NAME(playForward)   = 2,
    kAudioFileRegionFlag_PlayBackward CA_SWIFT_NAME(playBackward) = 4
};

typedef struct AudioFileRegion {
    UInt32               mRegionID;
    CFStringRef CA_NULLABLE mName;
    AudioFileRegionFlags mFlags;
    UInt32               mNumberMarkers;
    AudioFileMarker      mMarkers[1];
} AudioFileRegion;

typedef struct AudioFileRegionList {
    UInt32          mSMPTE_TimeType;
    UInt32          mNumberRegions;
    AudioFileRegion mRegions[1];
} AudioFileRegionList;

/** Priming and remainder frames (kAudioFilePropertyPacketTableInfo). */
typedef struct AudioFilePacketTableInfo {
    SInt64 mNumberValidFrames;
    SInt32 mPrimingFrames;
    SInt32 mRemainderFrames;
} AudioFilePacketTableInfo;

/** kAudioFilePropertyFrameToPacket and kAudioFilePropertyPacketToFrame. */
typedef struct AudioFramePacketTranslation {
    SInt64 mFrame;
    SInt64 mPacket;
    UInt32 mFrameOffsetInPacket;
} AudioFramePacketTranslation;

typedef CA_OPTIONS(UInt32, AudioBytePacketTranslationFlags) {
    kBytePacketTranslationFlag_IsEstimate CA_SWIFT_NAME(isEstimate) = 1
};

/** kAudioFilePropertyByteToPacket and kAudioFilePropertyPacketToByte. */
typedef struct AudioBytePacketTranslation {
    SInt64                          mByte;
    SInt64                          mPacket;
    UInt32                          mByteOffsetInPacket;
    AudioBytePacketTranslationFlags mFlags;
} AudioBytePacketTranslation;

/** kAudioFilePropertyPacketRangeByteCountUpperBound. */
typedef struct AudioPacketRangeByteCountTranslation {
    SInt64 mPacket;
    SInt64 mPacketCount;
    SInt64 mByteCountUpperBound;
} AudioPacketRangeByteCountTranslation;

/** kAudioFilePropertyPacketToRollDistance. */
typedef struct AudioPacketRollDistanceTranslation {
    SInt64 mPacket;
    SInt64 mRollDistance;
} AudioPacketRollDistanceTranslation;

/** kAudioFilePropertyPreviousIndependentPacket and kAudioFilePropertyNextIndependentPacket. */
typedef struct AudioIndependentPacketTranslation {
    SInt64 mPacket;
    SInt64 mIndependentlyDecodablePacket;
} AudioIndependentPacketTranslation;

/** kAudioFilePropertyPacketToDependencyInfo. */
typedef struct AudioPacketDependencyInfoTranslation {
    SInt64 mPacket;
    UInt32 mIsIndependentlyDecodable;
    UInt32 mPrerollPacketCount;
} AudioPacketDependencyInfoTranslation;

/** The specifier of kAudioFileGlobalInfo_AvailableStreamDescriptionsForFormat. */
typedef struct AudioFileTypeAndFormatID {
    AudioFileTypeID mFileType;
    UInt32          mFormatID;
} AudioFileTypeAndFormatID;

/* A file's properties. The comment after each says what Soundstage answers (docs/audiotoolbox.md). */
CA_ENUM(AudioFilePropertyID) {
    kAudioFilePropertyFileFormat                  = CA_FOURCC('f', 'f', 'm', 't'),   /* 'ffmt' answered */
    kAudioFilePropertyDataFormat                  = CA_FOURCC('d', 'f', 'm', 't'),   /* 'dfmt' answered */
    kAudioFilePropertyIsOptimized                 = CA_FOURCC('o', 'p', 't', 'm'),   /* 'optm' answered */
    kAudioFilePropertyMagicCookieData             = CA_FOURCC('m', 'g', 'i', 'c'),   /* 'mgic' answered */
    kAudioFilePropertyAudioDataByteCount          = CA_FOURCC('b', 'c', 'n', 't'),   /* 'bcnt' answered */
    kAudioFilePropertyAudioDataPacketCount        = CA_FOURCC('p', 'c', 'n', 't'),   /* 'pcnt' answered */
    kAudioFilePropertyMaximumPacketSize           = CA_FOURCC('p', 's', 'z', 'e'),   /* 'psze' answered */
    kAudioFilePropertyDataOffset                  = CA_FOURCC('d', 'o', 'f', 'f'),   /* 'doff' answered */
    kAudioFilePropertyChannelLayout               = CA_FOURCC('c', 'm', 'a', 'p'),   /* 'cmap' answered */
    kAudioFilePropertyDeferSizeUpdates            = CA_FOURCC('d', 's', 'z', 'u'),   /* 'dszu' not yet */
    kAudioFilePropertyDataFormatName              = CA_FOURCC('f', 'n', 'm', 'e'),   /* 'fnme' not yet */
    kAudioFilePropertyMarkerList                  = CA_FOURCC('m', 'k', 'l', 's'),   /* 'mkls' not yet */
    kAudioFilePropertyRegionList                  = CA_FOURCC('r', 'g', 'l', 's'),   /* 'rgls' not yet */
    kAudioFilePropertyChunkIDs                    = CA_FOURCC('c', 'h', 'i', 'd'),   /* 'chid' not yet */
    kAudioFilePropertyInfoDictionary              = CA_FOURCC('i', 'n', 'f', 'o'),   /* 'info' answered: a new CFDictionaryRef */
    kAudioFilePropertyPacketTableInfo             = CA_FOURCC('p', 'n', 'f', 'o'),   /* 'pnfo' answered (CAF) */
    kAudioFilePropertyFormatList                  = CA_FOURCC('f', 'l', 's', 't'),   /* 'flst' answered */
    kAudioFilePropertyPacketSizeUpperBound        = CA_FOURCC('p', 'k', 'u', 'b'),   /* 'pkub' answered */
    kAudioFilePropertyPacketRangeByteCountUpperBound = CA_FOURCC('p', 'r', 'u', 'b'), /* 'prub' answered */
    kAudioFilePropertyReserveDuration             = CA_FOURCC('r', 's', 'r', 'v'),   /* 'rsrv' not yet */
    kAudioFilePropertyEstimatedDuration           = CA_FOURCC('e', 'd', 'u', 'r'),   /* 'edur' answered */
    kAudioFilePropertyBitRate                     = CA_FOURCC('b', 'r', 'a', 't'),   /* 'brat' answered */
    kAudioFilePropertyID3Tag                      = CA_FOURCC('i', 'd', '3', 't'),   /* 'id3t' not yet */
    kAudioFilePropertyID3TagOffset                = CA_FOURCC('i', 'd', '3', 'o'),   /* 'id3o' not yet */
    kAudioFilePropertySourceBitDepth              = CA_FOURCC('s', 'b', 't', 'd'),   /* 'sbtd' answered (linear PCM) */
    kAudioFilePropertyAlbumArtwork                = CA_FOURCC('a', 'a', 'r', 't'),   /* 'aart' not yet */
    kAudioFilePropertyAudioTrackCount             = CA_FOURCC('a', 't', 'c', 't'),   /* 'atct' answered: 1 */
    kAudioFilePropertyUseAudioTrack               = CA_FOURCC('u', 'a', 't', 'k'),   /* 'uatk' not yet */
    kAudioFilePropertyFrameToPacket               = CA_FOURCC('f', 'r', 'p', 'k'),   /* 'frpk' answered */
    kAudioFilePropertyPacketToFrame               = CA_FOURCC('p', 'k', 'f', 'r'),   /* 'pkfr' answered */
    kAudioFilePropertyRestrictsRandomAccess       = CA_FOURCC('r', 'r', 'a', 'p'),   /* 'rrap' answered: 0 */
    kAudioFilePropertyPacketToRollDistance        = CA_FOURCC('p', 'k', 'r', 'l'),   /* 'pkrl' not yet */
    kAudioFilePropertyPreviousIndependentPacket   = CA_FOURCC('p', 'i', 'n', 'd'),   /* 'pind' not yet */
    kAudioFilePropertyNextIndependentPacket       = CA_FOURCC('n', 'i', 'n', 'd'),   /* 'nind' not yet */
    kAudioFilePropertyPacketToDependencyInfo      = CA_FOURCC('p', 'k', 'd', 'p'),   /* 'pkdp' not yet */
    kAudioFilePropertyPacketToByte                = CA_FOURCC('p', 'k', 'b', 'y'),   /* 'pkby' answered */
    kAudioFilePropertyByteToPacket                = CA_FOURCC('b', 'y', 'p', 'k')    /* 'bypk' answered */
};

/* Global information (AudioFileGetGlobalInfo). */
CA_ENUM(AudioFilePropertyID) {
    kAudioFileGlobalInfo_ReadableTypes            = CA_FOURCC('a', 'f', 'r', 'f'),   /* 'afrf' answered */
    kAudioFileGlobalInfo_WritableTypes            = CA_FOURCC('a', 'f', 'w', 'f'),   /* 'afwf' answered: none yet */
    kAudioFileGlobalInfo_FileTypeName             = CA_FOURCC('f', 't', 'n', 'm'),   /* 'ftnm' answered */
    kAudioFileGlobalInfo_AvailableStreamDescriptionsForFormat = CA_FOURCC('s', 'd', 'i', 'd'), /* 'sdid' not yet */
    kAudioFileGlobalInfo_AvailableFormatIDs       = CA_FOURCC('f', 'm', 'i', 'd'),   /* 'fmid' answered (read) */
    kAudioFileGlobalInfo_AllExtensions            = CA_FOURCC('a', 'l', 'x', 't'),   /* 'alxt' answered */
    kAudioFileGlobalInfo_AllHFSTypeCodes          = CA_FOURCC('a', 'h', 'f', 's'),   /* 'ahfs' not yet */
    kAudioFileGlobalInfo_AllUTIs                  = CA_FOURCC('a', 'u', 't', 'i'),   /* 'auti' not yet */
    kAudioFileGlobalInfo_AllMIMETypes             = CA_FOURCC('a', 'm', 'i', 'm'),   /* 'amim' not yet */
    kAudioFileGlobalInfo_ExtensionsForType        = CA_FOURCC('f', 'e', 'x', 't'),   /* 'fext' answered */
    kAudioFileGlobalInfo_HFSTypeCodesForType      = CA_FOURCC('f', 'h', 'f', 's'),   /* 'fhfs' not yet */
    kAudioFileGlobalInfo_UTIsForType              = CA_FOURCC('f', 'u', 't', 'i'),   /* 'futi' not yet */
    kAudioFileGlobalInfo_MIMETypesForType         = CA_FOURCC('f', 'm', 'i', 'm'),   /* 'fmim' not yet */
    kAudioFileGlobalInfo_TypesForMIMEType         = CA_FOURCC('t', 'm', 'i', 'm'),   /* 'tmim' not yet */
    kAudioFileGlobalInfo_TypesForUTI              = CA_FOURCC('t', 'u', 't', 'i'),   /* 'tuti' not yet */
    kAudioFileGlobalInfo_TypesForHFSTypeCode      = CA_FOURCC('t', 'h', 'f', 's'),   /* 'thfs' not yet */
    kAudioFileGlobalInfo_TypesForExtension        = CA_FOURCC('t', 'e', 'x', 't')    /* 'text' answered */
};

/** The keys of kAudioFilePropertyInfoDictionary (C strings; CFSTR(kAFInfoDictionary_Title) makes the
    CFString key). Every value is a CFString. Soundstage fills ApproximateDurationInSeconds always
    (three decimals), the others from the file's tags when it has them. */
#define kAFInfoDictionary_Artist                       "artist"
#define kAFInfoDictionary_Album                        "album"
#define kAFInfoDictionary_Tempo                        "tempo"
#define kAFInfoDictionary_KeySignature                 "key signature"
#define kAFInfoDictionary_TimeSignature                "time signature"
#define kAFInfoDictionary_TrackNumber                  "track number"
#define kAFInfoDictionary_Year                         "year"
#define kAFInfoDictionary_Composer                     "composer"
#define kAFInfoDictionary_Lyricist                     "lyricist"
#define kAFInfoDictionary_Genre                        "genre"
#define kAFInfoDictionary_Title                        "title"
#define kAFInfoDictionary_RecordedDate                 "recorded date"
#define kAFInfoDictionary_Comments                     "comments"
#define kAFInfoDictionary_Copyright                    "copyright"
#define kAFInfoDictionary_SourceEncoder                "source encoder"
#define kAFInfoDictionary_EncodingApplication          "encoding application"
#define kAFInfoDictionary_NominalBitRate               "nominal bit rate"
#define kAFInfoDictionary_ChannelLayout                "channel layout"
#define kAFInfoDictionary_ApproximateDurationInSeconds "approximate duration in seconds"
#define kAFInfoDictionary_SourceBitDepth               "source bit depth"
#define kAFInfoDictionary_ISRC                         "ISRC"
#define kAFInfoDictionary_SubTitle                     "subtitle"

/**
 * Creates a file of inFileType for data of inFormat at a file URL, open to be written and read
 * back. Without kAudioFileFlags_EraseFile an existing file is left alone and the call returns -48
 * (dupFNErr, as iOS does). kAudioFileUnsupportedFileTypeError for a type not written (MP3, ...),
 * kAudioFileUnsupportedDataFormatError for a format the type cannot hold (checked before the file
 * is touched), kAudioFileFileNotFoundError for a missing directory, kAudioFilePermissionsError.
 * The header's sizes, CAF's packet table and MPEG-4's movie box are written at AudioFileClose or
 * AudioFileOptimize.
 */
OSStatus AudioFileCreateWithURL(CFURLRef CA_NULL_UNSPECIFIED inFileRef, AudioFileTypeID inFileType,
                                const AudioStreamBasicDescription *CA_NULL_UNSPECIFIED inFormat, AudioFileFlags inFlags,
                                AudioFileID CA_NULLABLE *CA_NULL_UNSPECIFIED outAudioFile);

/**
 * Opens the file at a URL for reading. The type is found from the file's bytes (the hint is not
 * needed). kAudio_ParamError for NULL arguments or a permission other than the three named;
 * kAudioFileFileNotFoundError, kAudioFilePermissionsError (the file cannot be read),
 * kAudioFileOperationNotSupportedError (write permission: reopening a file to write it is not
 * offered yet; create a new one), kAudioFileUnsupportedFileTypeError,
 * kAudioFileUnsupportedDataFormatError, kAudioFileInvalidFileError (truncated or malformed).
 */
OSStatus AudioFileOpenURL(CFURLRef CA_NULL_UNSPECIFIED inFileRef, AudioFilePermissions inPermissions, AudioFileTypeID inFileTypeHint,
                          AudioFileID CA_NULLABLE *CA_NULL_UNSPECIFIED outAudioFile);

/**
 * Creates a file in storage the caller's callbacks keep: inWriteFunc and inSetSizeFunc are
 * required, inReadFunc and inGetSizeFunc (may be NULL) let the file be read back while open.
 * Types, formats and errors as AudioFileCreateWithURL's; a callback's own error is returned as it is.
 */
OSStatus AudioFileInitializeWithCallbacks(void *CA_NULL_UNSPECIFIED inClientData, AudioFile_ReadProc CA_NULL_UNSPECIFIED inReadFunc,
                                          AudioFile_WriteProc CA_NULL_UNSPECIFIED inWriteFunc, AudioFile_GetSizeProc CA_NULL_UNSPECIFIED inGetSizeFunc,
                                          AudioFile_SetSizeProc CA_NULL_UNSPECIFIED inSetSizeFunc, AudioFileTypeID inFileType,
                                          const AudioStreamBasicDescription *CA_NULL_UNSPECIFIED inFormat, AudioFileFlags inFlags,
                                          AudioFileID CA_NULLABLE *CA_NULL_UNSPECIFIED outAudioFile);

/**
 * Opens a file whose bytes the caller serves: inReadFunc and inGetSizeFunc are required (the write
 * callbacks may be NULL: the file is read only). The callbacks are called on the caller's thread,
 * during this call and the reads, until AudioFileClose. Errors as AudioFileOpenURL's; a read
 * callback's own error is returned as it is.
 */
OSStatus AudioFileOpenWithCallbacks(void *CA_NULL_UNSPECIFIED inClientData, AudioFile_ReadProc CA_NULL_UNSPECIFIED inReadFunc,
                                    AudioFile_WriteProc CA_NULLABLE inWriteFunc, AudioFile_GetSizeProc CA_NULL_UNSPECIFIED inGetSizeFunc,
                                    AudioFile_SetSizeProc CA_NULLABLE inSetSizeFunc, AudioFileTypeID inFileTypeHint,
                                    AudioFileID CA_NULLABLE *CA_NULL_UNSPECIFIED outAudioFile);

/**
 * Closes the file; its AudioFileID is then invalid (kAudioFileNotOpenError in every call). A file
 * being written gets its header's sizes and its trailer first; their write's error is returned,
 * and the file is closed all the same.
 */
OSStatus AudioFileClose(AudioFileID CA_NULL_UNSPECIFIED inAudioFile);

/** Writes a file being written's header sizes and trailer now (as at close); kAudioFilePermissionsError for a file opened to read. */
OSStatus AudioFileOptimize(AudioFileID CA_NULL_UNSPECIFIED inAudioFile);

/**
 * Reads bytes of audio data, inStartingByte counted from the data's start. *ioNumBytes is the
 * room on entry and the bytes read on return; reading past the data's end reads what there is
 * and returns kAudioFileEndOfFileError. A negative position is kAudioFilePositionError.
 */
OSStatus AudioFileReadBytes(AudioFileID CA_NULL_UNSPECIFIED inAudioFile, Boolean inUseCache, SInt64 inStartingByte,
                            UInt32 *CA_NULL_UNSPECIFIED ioNumBytes, void *CA_NULL_UNSPECIFIED outBuffer);

/**
 * Writes bytes of audio data at inStartingByte (from the data's start, at most its end:
 * kAudioFilePositionError past it); formats of constant-size packets only
 * (kAudioFileOperationNotSupportedError for AAC, ALAC, ...). kAudioFilePermissionsError for a file
 * opened to read.
 */
OSStatus AudioFileWriteBytes(AudioFileID CA_NULL_UNSPECIFIED inAudioFile, Boolean inUseCache, SInt64 inStartingByte,
                             UInt32 *CA_NULL_UNSPECIFIED ioNumBytes, const void *CA_NULL_UNSPECIFIED inBuffer);

/**
 * Reads whole packets: as many of *ioNumPackets as fit in *ioNumBytes (both updated to what was
 * read), with their descriptions when the format has variable packets (outPacketDescriptions may
 * be NULL for constant-size ones, such as linear PCM and IMA4). Fewer packets than asked at the end
 * of the data is noErr; none, because inStartingPacket is at or past the end, is
 * kAudioFileEndOfFileError. A negative inStartingPacket is kAudioFileInvalidPacketOffsetError;
 * room for not even one packet is kAudio_ParamError.
 */
OSStatus AudioFileReadPacketData(AudioFileID CA_NULL_UNSPECIFIED inAudioFile, Boolean inUseCache, UInt32 *CA_NULL_UNSPECIFIED ioNumBytes,
                                 AudioStreamPacketDescription *CA_NULLABLE outPacketDescriptions, SInt64 inStartingPacket,
                                 UInt32 *CA_NULL_UNSPECIFIED ioNumPackets, void *CA_NULLABLE outBuffer);

/**
 * Deprecated by Apple, still used: reads *ioNumPackets packets into outBuffer, which must hold
 * that many packets of the maximum packet size. At the end of the data *ioNumPackets comes back
 * smaller, or 0, with noErr. A negative inStartingPacket is kAudioFileInvalidPacketOffsetError.
 */
OSStatus AudioFileReadPackets(AudioFileID CA_NULL_UNSPECIFIED inAudioFile, Boolean inUseCache, UInt32 *CA_NULL_UNSPECIFIED outNumBytes,
                              AudioStreamPacketDescription *CA_NULLABLE outPacketDescriptions, SInt64 inStartingPacket,
                              UInt32 *CA_NULL_UNSPECIFIED ioNumPackets, void *CA_NULLABLE outBuffer);

/**
 * Writes *ioNumPackets packets from inBuffer (inNumBytes bytes): constant-size packets at any
 * inStartingPacket up to the end, variable ones (AAC, ALAC: inPacketDescriptions required, else
 * kAudio_ParamError) appended at the end only (else kAudioFileInvalidPacketOffsetError). A
 * description reaching outside inBuffer is kAudio_ParamError. *ioNumPackets is what was written.
 */
OSStatus AudioFileWritePackets(AudioFileID CA_NULL_UNSPECIFIED inAudioFile, Boolean inUseCache, UInt32 inNumBytes,
                               const AudioStreamPacketDescription *CA_NULLABLE inPacketDescriptions, SInt64 inStartingPacket,
                               UInt32 *CA_NULL_UNSPECIFIED ioNumPackets, const void *CA_NULL_UNSPECIFIED inBuffer);

/**
 * A property's size and whether it can be set (a file being written: MagicCookieData, and for the
 * types storing them ChannelLayout and PacketTableInfo, and DataFormat before any data); either
 * output may be NULL. kAudioFileUnsupportedPropertyError for a property the file does not have.
 */
OSStatus AudioFileGetPropertyInfo(AudioFileID CA_NULL_UNSPECIFIED inAudioFile, AudioFilePropertyID inPropertyID,
                                  UInt32 *CA_NULLABLE outDataSize, UInt32 *CA_NULLABLE isWritable);

/**
 * A property's value. *ioDataSize is the room on entry and the bytes written on return. A
 * fixed-size value given less room is kAudioFileBadPropertySizeError (nothing is written); a
 * variable-size one (a magic cookie, a channel layout, a format list) too when cut. The
 * translations (FrameToPacket, PacketToFrame, ByteToPacket, PacketToByte,
 * PacketRangeByteCountUpperBound) read their question from outPropertyData and answer in place.
 */
OSStatus AudioFileGetProperty(AudioFileID CA_NULL_UNSPECIFIED inAudioFile, AudioFilePropertyID inPropertyID, UInt32 *CA_NULL_UNSPECIFIED ioDataSize,
                              void *CA_NULL_UNSPECIFIED outPropertyData);

/**
 * Sets a property of a file being written: MagicCookieData (CAF, M4A, ADTS), ChannelLayout (CAF,
 * WAVE), PacketTableInfo (priming and remainder: CAF, M4A; with the valid frames they must add up
 * to the frames written, else kAudio_ParamError), DataFormat (before any data, else
 * kAudioFileOperationNotSupportedError). kAudioFileBadPropertySizeError for a wrong size,
 * kAudioFileUnsupportedPropertyError for another property; a file opened to read:
 * kAudioFilePermissionsError.
 */
OSStatus AudioFileSetProperty(AudioFileID CA_NULL_UNSPECIFIED inAudioFile, AudioFilePropertyID inPropertyID, UInt32 inDataSize,
                              const void *CA_NULL_UNSPECIFIED inPropertyData);

/** The size of a global property's value for the specifier. */
OSStatus AudioFileGetGlobalInfoSize(AudioFilePropertyID inPropertyID, UInt32 inSpecifierSize, void *CA_NULLABLE inSpecifier,
                                    UInt32 *CA_NULL_UNSPECIFIED outDataSize);

/**
 * A global property's value. CFStringRef and CFArrayRef answers (FileTypeName, ExtensionsForType,
 * AllExtensions) are new objects the caller releases. Lists of type or format IDs are cut to the
 * whole items that fit.
 */
OSStatus AudioFileGetGlobalInfo(AudioFilePropertyID inPropertyID, UInt32 inSpecifierSize, void *CA_NULLABLE inSpecifier,
                                UInt32 *CA_NULL_UNSPECIFIED ioDataSize, void *CA_NULL_UNSPECIFIED outPropertyData);

CA_HEADER_END

#endif /* AudioToolbox_AudioFile_h */
