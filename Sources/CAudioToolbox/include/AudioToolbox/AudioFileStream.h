/*
 * AudioToolbox/AudioFileStream.h — Audio File Stream Services: a parser fed a file's bytes as they
 * arrive (from a socket, in any split) that calls back with the file's properties as it learns them
 * and with whole audio packets. Written for Soundstage from Apple's published documentation; no
 * Apple header was copied. Values are Apple's.
 *
 * What Soundstage parses, and how Linux differs: docs/audiotoolbox.md. In short: MP3/MP2/MP1 (an
 * ID3v2 tag skipped, a Xing/Info/VBRI header's counts honoured, junk between frames resynced, free
 * format), AAC in ADTS, CAF (the packet table must come before the data for variable packets:
 * kAudioFileStreamError_NotOptimized otherwise, as Apple documents), WAVE, AIFF/AIFC and MPEG-4 with
 * its sample tables before the data. A bad argument, a closed stream or hostile bytes are one of
 * the codes below, never a crash.
 */
#ifndef AudioToolbox_AudioFileStream_h
#define AudioToolbox_AudioFileStream_h

#include <CoreAudio/CoreAudioTypes.h>
#include <AudioToolbox/AudioFile.h>

CA_HEADER_BEGIN

/** Flags of a property listener call (Swift: .propertyIsCached, .cacheProperty). Soundstage keeps
    every value it parses, so a listener is always called with PropertyIsCached set. */
typedef CA_OPTIONS(UInt32, AudioFileStreamPropertyFlags) {
    kAudioFileStreamPropertyFlag_PropertyIsCached CA_SWIFT_NAME(propertyIsCached) = 1,
    kAudioFileStreamPropertyFlag_CacheProperty CA_SWIFT_NAME(cacheProperty)       = 2
};

/** Flags of AudioFileStreamParseBytes (Swift: .discontinuity). */
typedef CA_OPTIONS(UInt32, AudioFileStreamParseFlags) {
    kAudioFileStreamParseFlag_Discontinuity CA_SWIFT_NAME(discontinuity) = 1
};

/** Flags AudioFileStreamSeek returns (Swift: .offsetIsEstimated). */
typedef CA_OPTIONS(UInt32, AudioFileStreamSeekFlags) {
    kAudioFileStreamSeekFlag_OffsetIsEstimated CA_SWIFT_NAME(offsetIsEstimated) = 1
};

typedef UInt32 AudioFileStreamPropertyID;

/** An open stream parser. Not a pointer to anything: a closed stream's ID is an error code in every
    call (kAudioFileNotOpenError), never a use after free. */
typedef struct OpaqueAudioFileStreamID *AudioFileStreamID;

/**
 * Called as the parser learns a property: FileFormat, DataFormat, MagicCookieData and
 * ChannelLayout (when the file has them), PacketTableInfo, DataOffset, AudioDataByteCount and
 * AudioDataPacketCount (when the header states them), and ReadyToProducePackets last, before the
 * first packets. The listener may call AudioFileStreamGetPropertyInfo and AudioFileStreamGetProperty.
 */
typedef void (*AudioFileStream_PropertyListenerProc)(void *CA_NONNULL inClientData,
                                                     AudioFileStreamID CA_NONNULL inAudioFileStream,
                                                     AudioFileStreamPropertyID inPropertyID,
                                                     AudioFileStreamPropertyFlags *CA_NONNULL ioFlags);

/**
 * Called with whole packets: a packet split between two AudioFileStreamParseBytes calls is held
 * until it is complete. Variable-size packets (MP3 frames, ADTS access units, a CAF's or MPEG-4
 * file's table) come with their descriptions, mStartOffset counted from inInputData; constant-size
 * ones (linear PCM, IMA4, µ-law, A-law) with NULL descriptions, inNumberBytes a whole number of
 * packets. The bytes are valid during the call only.
 */
typedef void (*AudioFileStream_PacketsProc)(void *CA_NONNULL inClientData, UInt32 inNumberBytes, UInt32 inNumberPackets,
                                            const void *CA_NONNULL inInputData,
                                            AudioStreamPacketDescription *CA_NULLABLE inPacketDescriptions);

/* The properties (AudioFileStreamGetProperty). The comment after each says what Soundstage answers
   (docs/audiotoolbox.md). */
CA_ENUM(AudioFileStreamPropertyID) {
    kAudioFileStreamProperty_ReadyToProducePackets     = CA_FOURCC('r', 'e', 'd', 'y'),   /* 'redy' UInt32, 1 once at the data */
    kAudioFileStreamProperty_FileFormat                = CA_FOURCC('f', 'f', 'm', 't'),   /* 'ffmt' AudioFileTypeID */
    kAudioFileStreamProperty_DataFormat                = CA_FOURCC('d', 'f', 'm', 't'),   /* 'dfmt' AudioStreamBasicDescription */
    kAudioFileStreamProperty_FormatList                = CA_FOURCC('f', 'l', 's', 't'),   /* 'flst' one AudioFormatListItem */
    kAudioFileStreamProperty_MagicCookieData           = CA_FOURCC('m', 'g', 'i', 'c'),   /* 'mgic' bytes */
    kAudioFileStreamProperty_AudioDataByteCount        = CA_FOURCC('b', 'c', 'n', 't'),   /* 'bcnt' UInt64, when stated */
    kAudioFileStreamProperty_AudioDataPacketCount      = CA_FOURCC('p', 'c', 'n', 't'),   /* 'pcnt' UInt64, when stated */
    kAudioFileStreamProperty_MaximumPacketSize         = CA_FOURCC('p', 's', 'z', 'e'),   /* 'psze' UInt32 */
    kAudioFileStreamProperty_DataOffset                = CA_FOURCC('d', 'o', 'f', 'f'),   /* 'doff' SInt64 */
    kAudioFileStreamProperty_ChannelLayout             = CA_FOURCC('c', 'm', 'a', 'p'),   /* 'cmap' AudioChannelLayout */
    kAudioFileStreamProperty_PacketToFrame             = CA_FOURCC('p', 'k', 'f', 'r'),   /* 'pkfr' AudioFramePacketTranslation */
    kAudioFileStreamProperty_FrameToPacket             = CA_FOURCC('f', 'r', 'p', 'k'),   /* 'frpk' AudioFramePacketTranslation */
    kAudioFileStreamProperty_RestrictsRandomAccess     = CA_FOURCC('r', 'r', 'a', 'p'),   /* 'rrap' not yet */
    kAudioFileStreamProperty_PacketToRollDistance      = CA_FOURCC('p', 'k', 'r', 'l'),   /* 'pkrl' not yet */
    kAudioFileStreamProperty_PreviousIndependentPacket = CA_FOURCC('p', 'i', 'n', 'd'),   /* 'pind' not yet */
    kAudioFileStreamProperty_NextIndependentPacket     = CA_FOURCC('n', 'i', 'n', 'd'),   /* 'nind' not yet */
    kAudioFileStreamProperty_PacketToDependencyInfo    = CA_FOURCC('p', 'k', 'd', 'p'),   /* 'pkdp' not yet */
    kAudioFileStreamProperty_PacketToByte              = CA_FOURCC('p', 'k', 'b', 'y'),   /* 'pkby' AudioBytePacketTranslation */
    kAudioFileStreamProperty_ByteToPacket              = CA_FOURCC('b', 'y', 'p', 'k'),   /* 'bypk' AudioBytePacketTranslation */
    kAudioFileStreamProperty_PacketTableInfo           = CA_FOURCC('p', 'n', 'f', 'o'),   /* 'pnfo' AudioFilePacketTableInfo */
    kAudioFileStreamProperty_PacketSizeUpperBound      = CA_FOURCC('p', 'k', 'u', 'b'),   /* 'pkub' UInt32 */
    kAudioFileStreamProperty_AverageBytesPerPacket     = CA_FOURCC('a', 'b', 'p', 'p'),   /* 'abpp' Float64 */
    kAudioFileStreamProperty_BitRate                   = CA_FOURCC('b', 'r', 'a', 't'),   /* 'brat' UInt32, bits a second */
    kAudioFileStreamProperty_InfoDictionary            = CA_FOURCC('i', 'n', 'f', 'o')    /* 'info' a new CFDictionaryRef: the tags before the data */
};

/* Audio File Stream Services' result codes. */
CA_ENUM(OSStatus) {
    kAudioFileStreamError_UnsupportedFileType      = (OSStatus)CA_FOURCC('t', 'y', 'p', '?'),   /* 'typ?' */
    kAudioFileStreamError_UnsupportedDataFormat    = (OSStatus)CA_FOURCC('f', 'm', 't', '?'),   /* 'fmt?' */
    kAudioFileStreamError_UnsupportedProperty      = (OSStatus)CA_FOURCC('p', 't', 'y', '?'),   /* 'pty?' */
    kAudioFileStreamError_BadPropertySize          = (OSStatus)CA_FOURCC('!', 's', 'i', 'z'),   /* '!siz' */
    kAudioFileStreamError_NotOptimized             = (OSStatus)CA_FOURCC('o', 'p', 't', 'm'),   /* 'optm' */
    kAudioFileStreamError_InvalidPacketOffset      = (OSStatus)CA_FOURCC('p', 'c', 'k', '?'),   /* 'pck?' */
    kAudioFileStreamError_InvalidFile              = (OSStatus)CA_FOURCC('d', 't', 'a', '?'),   /* 'dta?' */
    kAudioFileStreamError_ValueUnknown             = (OSStatus)CA_FOURCC('u', 'n', 'k', '?'),   /* 'unk?' */
    kAudioFileStreamError_DataUnavailable          = (OSStatus)CA_FOURCC('m', 'o', 'r', 'e'),   /* 'more' */
    kAudioFileStreamError_IllegalOperation         = (OSStatus)CA_FOURCC('n', 'o', 'p', 'e'),   /* 'nope' */
    kAudioFileStreamError_UnspecifiedError         = (OSStatus)CA_FOURCC('w', 'h', 't', '?'),   /* 'wht?' */
    kAudioFileStreamError_DiscontinuityCantRecover = (OSStatus)CA_FOURCC('d', 's', 'c', '!')    /* 'dsc!' */
};

/**
 * Opens a parser. inFileTypeHint (kAudioFileMP3Type, kAudioFileAAC_ADTSType, ... or 0) says what
 * the bytes are when they do not say it themselves: with an MP3 or ADTS hint the frames may follow
 * junk (a stream joined in the middle); WAVE, AIFF, CAF and MPEG-4 are known by their first bytes,
 * whatever the hint. The callbacks are called on the thread calling AudioFileStreamParseBytes,
 * during that call. kAudio_ParamError for a NULL callback or outAudioFileStream.
 */
OSStatus AudioFileStreamOpen(void *CA_NULLABLE inClientData,
                             AudioFileStream_PropertyListenerProc CA_NULL_UNSPECIFIED inPropertyListenerProc,
                             AudioFileStream_PacketsProc CA_NULL_UNSPECIFIED inPacketsProc, AudioFileTypeID inFileTypeHint,
                             AudioFileStreamID CA_NULLABLE *CA_NULL_UNSPECIFIED outAudioFileStream);

/**
 * Parses the next inDataByteSize bytes of the file, calling the callbacks for what they complete.
 * Call it once at the end with NULL and 0 to flush (a stream too short to be sure of its type, or a
 * last MP3 frame after junk, is decided then). kAudioFileStreamParseFlag_Discontinuity: the bytes
 * do not follow the last ones (after AudioFileStreamSeek, or a lost connection): a held partial
 * packet is dropped and MP3 and ADTS find the next frame. Errors: kAudioFileStreamError_
 * UnsupportedFileType, UnsupportedDataFormat, InvalidFile, NotOptimized (a variable-packet CAF
 * whose packet table follows its data), DiscontinuityCantRecover; a parse error sticks (later calls
 * return it). IllegalOperation from inside this stream's own callback (or while another thread
 * parses it).
 */
OSStatus AudioFileStreamParseBytes(AudioFileStreamID CA_NULL_UNSPECIFIED inAudioFileStream, UInt32 inDataByteSize,
                                   const void *CA_NULLABLE inData, AudioFileStreamParseFlags inFlags);

/**
 * The byte offset, counted from DataOffset, of packet inPacketOffset; the next bytes given to
 * AudioFileStreamParseBytes are taken to start there. Exact for constant-size packets and packet
 * tables; estimated for MP3 and ADTS (kAudioFileStreamSeekFlag_OffsetIsEstimated in *ioFlags).
 * kAudioFileStreamError_InvalidPacketOffset for a negative packet or one past a stated count;
 * kAudioFileStreamError_DataUnavailable before ReadyToProducePackets.
 */
OSStatus AudioFileStreamSeek(AudioFileStreamID CA_NULL_UNSPECIFIED inAudioFileStream, SInt64 inPacketOffset,
                             SInt64 *CA_NULL_UNSPECIFIED outDataByteOffset, AudioFileStreamSeekFlags *CA_NULL_UNSPECIFIED ioFlags);

/**
 * A property's size and whether it can be set (never: there are no settable properties); either
 * output may be NULL. kAudioFileStreamError_UnsupportedProperty for a property not answered,
 * kAudioFileStreamError_DataUnavailable before the header is parsed, kAudioFileStreamError_ValueUnknown
 * for one the file's header does not state.
 */
OSStatus AudioFileStreamGetPropertyInfo(AudioFileStreamID CA_NULL_UNSPECIFIED inAudioFileStream,
                                        AudioFileStreamPropertyID inPropertyID, UInt32 *CA_NULLABLE outPropertyDataSize,
                                        Boolean *CA_NULLABLE outWritable);

/**
 * A property's value: *ioPropertyDataSize is the room on entry and the bytes written on return. Less
 * room than the value needs is kAudioFileStreamError_BadPropertySize (nothing is written). The
 * translations (PacketToFrame, FrameToPacket, PacketToByte, ByteToPacket) read their question from
 * outPropertyData and answer in place. Errors otherwise as AudioFileStreamGetPropertyInfo's.
 */
OSStatus AudioFileStreamGetProperty(AudioFileStreamID CA_NULL_UNSPECIFIED inAudioFileStream,
                                    AudioFileStreamPropertyID inPropertyID, UInt32 *CA_NULL_UNSPECIFIED ioPropertyDataSize,
                                    void *CA_NULL_UNSPECIFIED outPropertyData);

/** There are no settable properties: kAudioFileStreamError_IllegalOperation for a property the
    parser answers, kAudioFileStreamError_UnsupportedProperty for others. */
OSStatus AudioFileStreamSetProperty(AudioFileStreamID CA_NULL_UNSPECIFIED inAudioFileStream,
                                    AudioFileStreamPropertyID inPropertyID, UInt32 inPropertyDataSize,
                                    const void *CA_NULL_UNSPECIFIED inPropertyData);

/** Closes the parser; its ID is then invalid (kAudioFileNotOpenError). From inside one of its own
    callbacks, no callback follows and the parse returns as soon as that one does. */
OSStatus AudioFileStreamClose(AudioFileStreamID CA_NULL_UNSPECIFIED inAudioFileStream);

CA_HEADER_END

#endif /* AudioToolbox_AudioFileStream_h */
