/*
 * AudioToolbox/ExtendedAudioFile.h — Extended Audio File Services: an audio file read and written
 * in the program's own linear PCM format (the client format), an audio converter turning it into
 * the file's format and back (decoding on read, encoding on write). Written for Soundstage from
 * Apple's published documentation; no Apple header was copied. Values are Apple's.
 *
 * Built on Audio File Services and Audio Converter Services (AudioFile.h, AudioConverter.h), as
 * Apple's is. What Soundstage reads and writes, and how Linux differs: docs/audiotoolbox.md. In
 * short: reading gives exactly the file's valid frames (its priming and remainder trimmed, also
 * across a client rate that resamples) and seeks to the frame; writing encodes AAC-LC, Apple
 * Lossless, IMA4, µ-law, A-law and any linear PCM the container takes, and at ExtAudioFileDispose
 * flushes the encoder and sets the magic cookie and the packet table, so the file reads back to
 * exactly the frames written. A disposed or never-given ExtAudioFileRef is kAudio_ParamError in
 * every function, never a crash.
 *
 * Nullability: every pointer parameter is nullable here (a NULL one is kAudio_ParamError, where
 * Apple's documentation does not give NULL a meaning), which accepts every call iOS code makes.
 */
#ifndef AudioToolbox_ExtendedAudioFile_h
#define AudioToolbox_ExtendedAudioFile_h

#include <CoreFoundation/CoreFoundation.h>
#include <AudioToolbox/AudioFile.h>
#include <AudioToolbox/AudioConverter.h>

CA_HEADER_BEGIN

/** An extended audio file. Not a pointer to anything here: a handle that ExtAudioFileDispose
    leaves stale. */
typedef struct OpaqueExtAudioFile *ExtAudioFileRef;

/** What kExtAudioFileProperty_PacketTable's priming and remainder may say instead of a count. */
typedef SInt32 ExtAudioFilePacketTableInfoOverride;
CA_ENUM(ExtAudioFilePacketTableInfoOverride) {
    kExtAudioFilePacketTableInfoOverride_UseFileValue        = -1,   /* the file's value */
    kExtAudioFilePacketTableInfoOverride_UseFileValueIfValid = -2    /* the file's value when it fits the packets, else 0 */
};

/* An extended audio file's properties. The comment after each says what Soundstage answers. */
typedef UInt32 ExtAudioFilePropertyID;
CA_ENUM(ExtAudioFilePropertyID) {
    kExtAudioFileProperty_FileDataFormat      = CA_FOURCC('f', 'f', 'm', 't'),   /* 'ffmt' AudioStreamBasicDescription: get */
    kExtAudioFileProperty_FileChannelLayout   = CA_FOURCC('f', 'c', 'l', 'o'),   /* 'fclo' AudioChannelLayout: get; set while writing, before the data */
    kExtAudioFileProperty_ClientDataFormat    = CA_FOURCC('c', 'f', 'm', 't'),   /* 'cfmt' AudioStreamBasicDescription (linear PCM): get, set */
    kExtAudioFileProperty_ClientChannelLayout = CA_FOURCC('c', 'c', 'l', 'o'),   /* 'cclo' AudioChannelLayout: get, set (channels matched by label) */
    kExtAudioFileProperty_CodecManufacturer   = CA_FOURCC('c', 'm', 'a', 'n'),   /* 'cman' UInt32: get, set (every codec is software) */
    kExtAudioFileProperty_AudioConverter      = CA_FOURCC('a', 'c', 'n', 'v'),   /* 'acnv' AudioConverterRef: get (NULL without one) */
    kExtAudioFileProperty_AudioFile           = CA_FOURCC('a', 'f', 'i', 'l'),   /* 'afil' AudioFileID: get */
    kExtAudioFileProperty_FileMaxPacketSize   = CA_FOURCC('f', 'm', 'p', 's'),   /* 'fmps' UInt32: get */
    kExtAudioFileProperty_ClientMaxPacketSize = CA_FOURCC('c', 'm', 'p', 's'),   /* 'cmps' UInt32: get */
    kExtAudioFileProperty_FileLengthFrames    = CA_FOURCC('#', 'f', 'r', 'm'),   /* '#frm' SInt64: get (valid frames, in the file's rate) */
    kExtAudioFileProperty_ConverterConfig     = CA_FOURCC('a', 'c', 'c', 'f'),   /* 'accf' CFPropertyListRef: get (NULL), set NULL to apply the converter's settings */
    kExtAudioFileProperty_IOBufferSizeBytes   = CA_FOURCC('i', 'o', 'b', 's'),   /* 'iobs' UInt32: get, set */
    kExtAudioFileProperty_IOBuffer            = CA_FOURCC('i', 'o', 'b', 'f'),   /* 'iobf' void *: get, set (the caller's memory, IOBufferSizeBytes long) */
    kExtAudioFileProperty_PacketTable         = CA_FOURCC('x', 'p', 't', 'i')    /* 'xpti' AudioFilePacketTableInfo: get, set */
};

/* Extended Audio File Services' own result codes (besides Audio File's and Audio Converter's). */
CA_ENUM(OSStatus) {
    kExtAudioFileError_CodecUnavailableInputConsumed    = -66559,   /* iOS: a hardware codec lost to an interruption (never here) */
    kExtAudioFileError_CodecUnavailableInputNotConsumed = -66560,   /* likewise */
    kExtAudioFileError_InvalidProperty                  = -66561,
    kExtAudioFileError_InvalidPropertySize              = -66562,
    kExtAudioFileError_NonPCMClientFormat               = -66563,
    kExtAudioFileError_InvalidChannelMap                = -66564,
    kExtAudioFileError_InvalidOperationOrder            = -66565,
    kExtAudioFileError_InvalidDataFormat                = -66566,
    kExtAudioFileError_MaxPacketSizeUnknown             = -66567,
    kExtAudioFileError_InvalidSeek                      = -66568,
    kExtAudioFileError_AsyncWriteTooLarge               = -66569,
    kExtAudioFileError_AsyncWriteBufferOverflow         = -66570
};

/**
 * Opens a file to read. Its client format starts as the file's format: set
 * kExtAudioFileProperty_ClientDataFormat to a linear PCM one to read a compressed file (reading
 * without one is kExtAudioFileError_NonPCMClientFormat). Errors as AudioFileOpenURL's.
 */
OSStatus ExtAudioFileOpenURL(CFURLRef CA_NULLABLE inURL, ExtAudioFileRef CA_NULLABLE * CA_NULLABLE outExtAudioFile);

/**
 * Wraps an AudioFileID opened to read (inForWriting false) or created to write (true; an
 * AudioFileID opened to read is then kAudioFilePermissionsError). The caller closes the
 * AudioFileID after ExtAudioFileDispose.
 */
OSStatus ExtAudioFileWrapAudioFileID(AudioFileID CA_NULLABLE inFileID, Boolean inForWriting,
                                     ExtAudioFileRef CA_NULLABLE * CA_NULLABLE outExtAudioFile);

/**
 * Creates a file of inFileType to write, with data of inStreamDesc: a compressed format may give
 * only its ID, rate and channels (Audio Format Services' FormatInfo completes the rest), and an
 * optional channel layout. inFlags as AudioFileCreateWithURL's (kAudioFileFlags_EraseFile; without
 * it an existing file is -48). Set the client format before writing to a compressed file.
 */
OSStatus ExtAudioFileCreateWithURL(CFURLRef CA_NULLABLE inURL, AudioFileTypeID inFileType,
                                   const AudioStreamBasicDescription * CA_NULLABLE inStreamDesc,
                                   const AudioChannelLayout * CA_NULLABLE inChannelLayout, UInt32 inFlags,
                                   ExtAudioFileRef CA_NULLABLE * CA_NULLABLE outExtAudioFile);

/**
 * Finishes and frees the object: a file being written gets what an asynchronous write still
 * holds, the encoder's last packets, its magic cookie and its packet table (priming and remainder,
 * adding up to the frames written), and is closed if this object opened or created it. The handle
 * is stale from then on; the first error met is returned, and the object is freed all the same.
 */
OSStatus ExtAudioFileDispose(ExtAudioFileRef CA_NULLABLE inExtAudioFile);

/**
 * Reads up to *ioNumberFrames frames in the client format into ioData, whose buffers (one, or one
 * a channel for a non-interleaved client format) give their room in mDataByteSize; on return
 * *ioNumberFrames and each mDataByteSize say what was read. At the end of the file: 0 frames and
 * noErr.
 */
OSStatus ExtAudioFileRead(ExtAudioFileRef CA_NULLABLE inExtAudioFile, UInt32 * CA_NULLABLE ioNumberFrames,
                          AudioBufferList * CA_NULLABLE ioData);

/** Writes inNumberFrames frames in the client format from ioData, encoding them into the file. */
OSStatus ExtAudioFileWrite(ExtAudioFileRef CA_NULLABLE inExtAudioFile, UInt32 inNumberFrames,
                           const AudioBufferList * CA_NULLABLE ioData);

/**
 * Queues frames to be written on a thread of the object's own and returns. Call it once with 0
 * frames and NULL first (from an ordinary thread): that makes the queue and starts the thread, so
 * that later calls, from an audio callback, allocate nothing, take no lock a writer holds and never
 * wait (docs/audiotoolbox.md says exactly what they do). kExtAudioFileError_AsyncWriteTooLarge for
 * more frames than the queue holds, kExtAudioFileError_AsyncWriteBufferOverflow when the thread has
 * not kept up (the frames are dropped); an error the thread met is returned by the next call.
 */
OSStatus ExtAudioFileWriteAsync(ExtAudioFileRef CA_NULLABLE inExtAudioFile, UInt32 inNumberFrames,
                                const AudioBufferList * CA_NULLABLE ioData);

/**
 * Moves the read position to a frame, counted in the file's frames at the file's rate (not the
 * client's: Apple's Technical Q&A QA1609) from the first valid frame. The next read returns frames
 * from exactly there, inside a packet or across a client rate. kExtAudioFileError_InvalidSeek
 * before the start or past the end; kExtAudioFileError_InvalidOperationOrder for a file being
 * written.
 */
OSStatus ExtAudioFileSeek(ExtAudioFileRef CA_NULLABLE inExtAudioFile, SInt64 inFrameOffset);

/** The read or write position, in the file's frames at the file's rate (as ExtAudioFileSeek's). */
OSStatus ExtAudioFileTell(ExtAudioFileRef CA_NULLABLE inExtAudioFile, SInt64 * CA_NULLABLE outFrameOffset);

/** A property's size and whether it can be set now. */
OSStatus ExtAudioFileGetPropertyInfo(ExtAudioFileRef CA_NULLABLE inExtAudioFile, ExtAudioFilePropertyID inPropertyID,
                                     UInt32 * CA_NULLABLE outSize, Boolean * CA_NULLABLE outWritable);

/**
 * A property's value: *ioPropertyDataSize is the room on entry and the bytes written on return
 * (kExtAudioFileError_InvalidPropertySize when the value does not fit).
 */
OSStatus ExtAudioFileGetProperty(ExtAudioFileRef CA_NULLABLE inExtAudioFile, ExtAudioFilePropertyID inPropertyID,
                                 UInt32 * CA_NULLABLE ioPropertyDataSize, void * CA_NULLABLE outPropertyData);

/** Sets a property (kExtAudioFileError_InvalidPropertySize for a value of the wrong size). */
OSStatus ExtAudioFileSetProperty(ExtAudioFileRef CA_NULLABLE inExtAudioFile, ExtAudioFilePropertyID inPropertyID,
                                 UInt32 inPropertyDataSize, const void * CA_NULLABLE inPropertyData);

CA_HEADER_END

#endif /* AudioToolbox_ExtendedAudioFile_h */
