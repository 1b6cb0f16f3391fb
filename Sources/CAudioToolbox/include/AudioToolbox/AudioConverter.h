/*
 * AudioToolbox/AudioConverter.h — Audio Converter Services: linear PCM to linear PCM (sample
 * format, byte order, alignment, interleaving, channels, sample rate), decoding to PCM and
 * encoding from PCM. Written for Soundstage from Apple's published documentation; no Apple header
 * was copied. Values are Apple's.
 *
 * What Soundstage converts, and how Linux differs: docs/audiotoolbox.md. In short: every linear
 * PCM layout Apple lists, with a windowed-sinc sample-rate converter; µ-law, A-law and IMA4 both
 * ways; AAC (LC, HE, HE v2), MPEG layers 1-3, Apple Lossless and iLBC decoded through FFmpeg when it
 * is installed; AAC-LC and Apple Lossless encoded through it. Every codec is software. A bad
 * argument, a disposed converter or an input procedure that lies is one of Apple's error codes,
 * never a crash.
 *
 * Nullability: the input procedure's parameters carry Apple's annotations, so Swift closures are
 * written as on iOS; the functions' pointer parameters are all nullable here (a NULL one is
 * kAudio_ParamError), which accepts every call iOS code makes.
 */
#ifndef AudioToolbox_AudioConverter_h
#define AudioToolbox_AudioConverter_h

#include <CoreAudio/CoreAudioTypes.h>

#if defined(__clang__)
#  define CA_NULLABLE _Nullable
#  define CA_NONNULL _Nonnull
#else
#  define CA_NULLABLE
#  define CA_NONNULL
#endif

CA_HEADER_BEGIN

/** A converter. Not a pointer to anything here: a handle that a disposed converter leaves stale. */
typedef struct OpaqueAudioConverter *AudioConverterRef;
typedef UInt32 AudioConverterPropertyID;

/* The properties. The comment after each says what Soundstage answers (docs/audiotoolbox.md). */
CA_ENUM(AudioConverterPropertyID) {
    kAudioConverterPropertyMinimumInputBufferSize    = CA_FOURCC('m', 'i', 'b', 's'),   /* 'mibs' get */
    kAudioConverterPropertyMinimumOutputBufferSize   = CA_FOURCC('m', 'o', 'b', 's'),   /* 'mobs' get */
    kAudioConverterPropertyMaximumInputBufferSize    = CA_FOURCC('x', 'i', 'b', 's'),   /* 'xibs' get (deprecated by Apple) */
    kAudioConverterPropertyMaximumInputPacketSize    = CA_FOURCC('x', 'i', 'p', 's'),   /* 'xips' get */
    kAudioConverterPropertyMaximumOutputPacketSize   = CA_FOURCC('x', 'o', 'p', 's'),   /* 'xops' get */
    kAudioConverterPropertyCalculateInputBufferSize  = CA_FOURCC('c', 'i', 'b', 's'),   /* 'cibs' get (in place) */
    kAudioConverterPropertyCalculateOutputBufferSize = CA_FOURCC('c', 'o', 'b', 's'),   /* 'cobs' get (in place) */
    kAudioConverterPropertyInputCodecParameters      = CA_FOURCC('i', 'c', 'd', 'p'),   /* 'icdp' not supported */
    kAudioConverterPropertyOutputCodecParameters     = CA_FOURCC('o', 'c', 'd', 'p'),   /* 'ocdp' not supported */
    kAudioConverterSampleRateConverterAlgorithm      = CA_FOURCC('s', 'r', 'c', 'i'),   /* 'srci' not supported (deprecated) */
    kAudioConverterSampleRateConverterComplexity     = CA_FOURCC('s', 'r', 'c', 'a'),   /* 'srca' get, set */
    kAudioConverterSampleRateConverterQuality        = CA_FOURCC('s', 'r', 'c', 'q'),   /* 'srcq' get, set */
    kAudioConverterSampleRateConverterInitialPhase   = CA_FOURCC('s', 'r', 'c', 'p'),   /* 'srcp' get, set */
    kAudioConverterCodecQuality                      = CA_FOURCC('c', 'd', 'q', 'u'),   /* 'cdqu' get, set (accepted) */
    kAudioConverterPrimeMethod                       = CA_FOURCC('p', 'r', 'm', 'm'),   /* 'prmm' get, set */
    kAudioConverterPrimeInfo                         = CA_FOURCC('p', 'r', 'i', 'm'),   /* 'prim' get, set */
    kAudioConverterChannelMap                        = CA_FOURCC('c', 'h', 'm', 'p'),   /* 'chmp' get, set */
    kAudioConverterDecompressionMagicCookie          = CA_FOURCC('d', 'm', 'g', 'c'),   /* 'dmgc' get, set */
    kAudioConverterCompressionMagicCookie            = CA_FOURCC('c', 'm', 'g', 'c'),   /* 'cmgc' get */
    kAudioConverterEncodeBitRate                     = CA_FOURCC('b', 'r', 'a', 't'),   /* 'brat' get, set (AAC) */
    kAudioConverterEncodeAdjustableSampleRate        = CA_FOURCC('a', 'j', 's', 'r'),   /* 'ajsr' not supported */
    kAudioConverterInputChannelLayout                = CA_FOURCC('i', 'c', 'l', ' '),   /* 'icl ' get, set */
    kAudioConverterOutputChannelLayout               = CA_FOURCC('o', 'c', 'l', ' '),   /* 'ocl ' get, set */
    kAudioConverterApplicableEncodeBitRates          = CA_FOURCC('a', 'e', 'b', 'r'),   /* 'aebr' get (encoders) */
    kAudioConverterAvailableEncodeBitRates           = CA_FOURCC('v', 'e', 'b', 'r'),   /* 'vebr' get (encoders) */
    kAudioConverterApplicableEncodeSampleRates       = CA_FOURCC('a', 'e', 's', 'r'),   /* 'aesr' get (encoders) */
    kAudioConverterAvailableEncodeSampleRates        = CA_FOURCC('v', 'e', 's', 'r'),   /* 'vesr' get (encoders) */
    kAudioConverterAvailableEncodeChannelLayoutTags  = CA_FOURCC('a', 'e', 'c', 'l'),   /* 'aecl' get (encoders) */
    kAudioConverterCurrentOutputStreamDescription    = CA_FOURCC('a', 'c', 'o', 'd'),   /* 'acod' get */
    kAudioConverterCurrentInputStreamDescription     = CA_FOURCC('a', 'c', 'i', 'd'),   /* 'acid' get */
    kAudioConverterPropertySettings                  = CA_FOURCC('a', 'c', 'p', 's'),   /* 'acps' not supported (a CFArray) */
    kAudioConverterPropertyBitDepthHint              = CA_FOURCC('a', 'c', 'b', 'd'),   /* 'acbd' get, set */
    kAudioConverterPropertyFormatList                = CA_FOURCC('f', 'l', 's', 't'),   /* 'flst' get */
    kAudioConverterPropertyCanResumeFromInterruption = CA_FOURCC('c', 'r', 'f', 'i'),   /* 'crfi' get: 1 */
    kAudioConverterPropertyPerformDownmix            = CA_FOURCC('d', 'm', 'i', 'x'),   /* 'dmix' not supported */
    kAudioConverterPropertyChannelMixMap             = CA_FOURCC('m', 'm', 'a', 'p'),   /* 'mmap' not supported */
    kAudioConverterPropertyDithering                 = CA_FOURCC('d', 'i', 't', 'h'),   /* 'dith' get, set: 0 only (no dither) */
    kAudioConverterPropertyDitherBitDepth            = CA_FOURCC('d', 'b', 'i', 't')    /* 'dbit' not supported */
};

/* Dither algorithms (kAudioConverterPropertyDithering; macOS only on Apple's systems). */
CA_ENUM(UInt32) {
    kDitherAlgorithm_TPDF         = 1,
    kDitherAlgorithm_NoiseShaping = 2
};

/* Quality (kAudioConverterSampleRateConverterQuality, kAudioConverterCodecQuality). */
CA_ENUM(UInt32) {
    kAudioConverterQuality_Max    = 0x7F,
    kAudioConverterQuality_High   = 0x60,
    kAudioConverterQuality_Medium = 0x40,
    kAudioConverterQuality_Low    = 0x20,
    kAudioConverterQuality_Min    = 0
};

/* Sample-rate converter complexity (kAudioConverterSampleRateConverterComplexity). */
CA_ENUM(UInt32) {
    kAudioConverterSampleRateConverterComplexity_Linear       = CA_FOURCC('l', 'i', 'n', 'e'),   /* 'line' */
    kAudioConverterSampleRateConverterComplexity_Normal       = CA_FOURCC('n', 'o', 'r', 'm'),   /* 'norm' */
    kAudioConverterSampleRateConverterComplexity_Mastering    = CA_FOURCC('b', 'a', 't', 's'),   /* 'bats' */
    kAudioConverterSampleRateConverterComplexity_MinimumPhase = CA_FOURCC('m', 'i', 'n', 'p')    /* 'minp' */
};

/* Priming methods (kAudioConverterPrimeMethod). */
CA_ENUM(UInt32) {
    kConverterPrimeMethod_Pre    = 0,
    kConverterPrimeMethod_Normal = 1,
    kConverterPrimeMethod_None   = 2
};

/** The input frames a conversion wants before its start and after its end (kAudioConverterPrimeInfo). */
struct AudioConverterPrimeInfo {
    UInt32 leadingFrames;
    UInt32 trailingFrames;
};
typedef struct AudioConverterPrimeInfo AudioConverterPrimeInfo;

/* Audio Converter Services' own result codes. */
CA_ENUM(OSStatus) {
    kAudioConverterErr_FormatNotSupported              = (OSStatus)CA_FOURCC('f', 'm', 't', '?'),   /* 'fmt?' */
    kAudioConverterErr_OperationNotSupported           = (OSStatus)CA_FOURCC('o', 'p', '?', '?'),   /* 'op??' */
    kAudioConverterErr_PropertyNotSupported            = (OSStatus)CA_FOURCC('p', 'r', 'o', 'p'),   /* 'prop' */
    kAudioConverterErr_InvalidInputSize                = (OSStatus)CA_FOURCC('i', 'n', 's', 'z'),   /* 'insz' */
    kAudioConverterErr_InvalidOutputSize               = (OSStatus)CA_FOURCC('o', 't', 's', 'z'),   /* 'otsz' */
    kAudioConverterErr_UnspecifiedError                = (OSStatus)CA_FOURCC('w', 'h', 'a', 't'),   /* 'what' */
    kAudioConverterErr_BadPropertySizeError            = (OSStatus)CA_FOURCC('!', 's', 'i', 'z'),   /* '!siz' */
    kAudioConverterErr_RequiresPacketDescriptionsError = (OSStatus)CA_FOURCC('!', 'p', 'k', 'd'),   /* '!pkd' */
    kAudioConverterErr_InputSampleRateOutOfRange       = (OSStatus)CA_FOURCC('!', 'i', 's', 'r'),   /* '!isr' */
    kAudioConverterErr_OutputSampleRateOutOfRange      = (OSStatus)CA_FOURCC('!', 'o', 's', 'r'),   /* '!osr' */
    kAudioConverterErr_HardwareInUse                   = (OSStatus)CA_FOURCC('h', 'w', 'i', 'u'),   /* 'hwiu' never returned here */
    kAudioConverterErr_NoHardwarePermission            = (OSStatus)CA_FOURCC('p', 'e', 'r', 'm')    /* 'perm' never returned here */
};

/**
 * Supplies input to AudioConverterFillComplexBuffer. On entry *ioNumberDataPackets is the number
 * of packets the converter would like; on return, the number supplied (more is allowed: those
 * the converter does not need now are kept), or 0 at the end of the stream. ioData's buffers are
 * empty: point them at the data (one buffer, or one a channel for non-interleaved PCM), which must
 * stay valid until the next call. Variable packets come with one description each in
 * *outDataPacketDescription (the procedure may point it at its own array). An error ends the
 * current AudioConverterFillComplexBuffer call, which returns what it has converted and the code.
 */
typedef OSStatus (*AudioConverterComplexInputDataProc)(AudioConverterRef CA_NONNULL inAudioConverter,
                                                       UInt32 * CA_NONNULL ioNumberDataPackets,
                                                       AudioBufferList * CA_NONNULL ioData,
                                                       AudioStreamPacketDescription * CA_NULLABLE * CA_NULLABLE outDataPacketDescription,
                                                       void * CA_NULLABLE inUserData);

/**
 * A new converter from inSourceFormat to inDestinationFormat, in *outAudioConverter.
 * kAudioConverterErr_FormatNotSupported for a pair this machine cannot convert (a format it does
 * not decode or encode; compressed to compressed); kAudio_ParamError for a NULL pointer or an
 * inconsistent PCM description; kAudioConverterErr_InputSampleRateOutOfRange /
 * _OutputSampleRateOutOfRange for a rate outside 1–768000 Hz (or one an encoder does not take).
 */
OSStatus AudioConverterNew(const AudioStreamBasicDescription * CA_NULLABLE inSourceFormat,
                           const AudioStreamBasicDescription * CA_NULLABLE inDestinationFormat,
                           AudioConverterRef CA_NULLABLE * CA_NULLABLE outAudioConverter);

/** AudioConverterNew naming the codec: Soundstage's software codecs answer to Apple's class descriptions. */
OSStatus AudioConverterNewSpecific(const AudioStreamBasicDescription * CA_NULLABLE inSourceFormat,
                                   const AudioStreamBasicDescription * CA_NULLABLE inDestinationFormat,
                                   UInt32 inNumberClassDescriptions,
                                   const AudioClassDescription * CA_NULLABLE inClassDescriptions,
                                   AudioConverterRef CA_NULLABLE * CA_NULLABLE outAudioConverter);

/** Frees a converter; its handle is stale from then on (kAudio_ParamError in every call). */
OSStatus AudioConverterDispose(AudioConverterRef CA_NULLABLE inAudioConverter);

/** Forgets what the converter holds (a discontinuity in the input, or after the end of a stream). */
OSStatus AudioConverterReset(AudioConverterRef CA_NULLABLE inAudioConverter);

/** A property's size and whether it can be set. */
OSStatus AudioConverterGetPropertyInfo(AudioConverterRef CA_NULLABLE inAudioConverter, AudioConverterPropertyID inPropertyID,
                                       UInt32 * CA_NULLABLE outSize, Boolean * CA_NULLABLE outWritable);

/** A property's value: *ioPropertyDataSize is the room on entry and the bytes written on return. */
OSStatus AudioConverterGetProperty(AudioConverterRef CA_NULLABLE inAudioConverter, AudioConverterPropertyID inPropertyID,
                                   UInt32 * CA_NULLABLE ioPropertyDataSize, void * CA_NULLABLE outPropertyData);

/** Sets a property. */
OSStatus AudioConverterSetProperty(AudioConverterRef CA_NULLABLE inAudioConverter, AudioConverterPropertyID inPropertyID,
                                   UInt32 inPropertyDataSize, const void * CA_NULLABLE inPropertyData);

/**
 * Converts a buffer of linear PCM to linear PCM at the same rate (interleaved, or one channel).
 * kAudioConverterErr_OperationNotSupported for a converter that resamples, decodes or encodes.
 */
OSStatus AudioConverterConvertBuffer(AudioConverterRef CA_NULLABLE inAudioConverter, UInt32 inInputDataSize,
                                     const void * CA_NULLABLE inInputData, UInt32 * CA_NULLABLE ioOutputDataSize,
                                     void * CA_NULLABLE outOutputData);

/**
 * Fills outOutputData with up to *ioOutputDataPacketSize packets of the destination format,
 * calling inInputDataProc for input, and sets *ioOutputDataPacketSize (and each buffer's
 * mDataByteSize) to what was written. Variable output packets need outPacketDescription.
 */
OSStatus AudioConverterFillComplexBuffer(AudioConverterRef CA_NULLABLE inAudioConverter,
                                         AudioConverterComplexInputDataProc CA_NULLABLE inInputDataProc,
                                         void * CA_NULLABLE inInputDataProcUserData,
                                         UInt32 * CA_NULLABLE ioOutputDataPacketSize,
                                         AudioBufferList * CA_NULLABLE outOutputData,
                                         AudioStreamPacketDescription * CA_NULLABLE outPacketDescription);

/** Converts inNumberPCMFrames frames of linear PCM between buffer lists, at the same rate. */
OSStatus AudioConverterConvertComplexBuffer(AudioConverterRef CA_NULLABLE inAudioConverter, UInt32 inNumberPCMFrames,
                                            const AudioBufferList * CA_NULLABLE inInputData,
                                            AudioBufferList * CA_NULLABLE outOutputData);

CA_HEADER_END

#endif /* AudioToolbox_AudioConverter_h */
