/*
 * CoreAudio/CoreAudioTypes.h — Core Audio's data types, format identifiers and flags, for code
 * ported to Linux with Soundstage. Written from Apple's published documentation ("Core Audio
 * Types" on developer.apple.com); no Apple header was copied. Values are Apple's.
 *
 * Linux additions, marked where they are declared: FillOutASBDForLPCM and the other helpers that
 * Apple declares for C++ only (taking references) are here for C too, taking pointers.
 *
 * CA_PREFER_FIXED_POINT: define it as 1 before including (or with -DCA_PREFER_FIXED_POINT=1) for
 * what older iOS code expects: AudioSampleType is SInt16, AudioUnitSampleType is 8.24 fixed
 * point (SInt32), and the canonical flags describe them. It is 0 by default (Float32 both).
 */
#ifndef CoreAudioTypes_CoreAudioTypes_h
#define CoreAudioTypes_CoreAudioTypes_h

#include <TargetConditionals.h>
#include <MacTypes.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif
#include <string.h>

CA_HEADER_BEGIN

/* ---- General errors (kAudio_*) ------------------------------------------------------------ */

CA_ENUM(OSStatus) {
    kAudio_UnimplementedError    = -4,
    kAudio_FileNotFoundError     = -43,
    kAudio_FilePermissionError   = -54,
    kAudio_TooManyFilesOpenError = -42,
    kAudio_BadFilePathError      = (OSStatus)CA_FOURCC('!', 'p', 't', 'h'),   /* '!pth' */
    kAudio_ParamError            = -50,
    kAudio_MemFullError          = -108
};

/* ---- Value ranges, translations, class descriptions --------------------------------------- */

/** A range of Float64 values (sample rates, bit rates). */
struct AudioValueRange {
    Float64 mMinimum;
    Float64 mMaximum;
};
typedef struct AudioValueRange AudioValueRange;

/** Input and output buffers of a translation. */
struct AudioValueTranslation {
    void   *mInputData;
    UInt32  mInputDataSize;
    void   *mOutputData;
    UInt32  mOutputDataSize;
};
typedef struct AudioValueTranslation AudioValueTranslation;

/** What a codec or other component is: type, subtype, manufacturer. */
struct AudioClassDescription {
    OSType mType;
    OSType mSubType;
    OSType mManufacturer;
};
typedef struct AudioClassDescription AudioClassDescription;

/* ---- Buffers -------------------------------------------------------------------------------- */

/** One buffer of audio data. */
struct AudioBuffer {
    UInt32  mNumberChannels;
    UInt32  mDataByteSize;
    void   *mData;
};
typedef struct AudioBuffer AudioBuffer;

/** A variable-length list of buffers: allocate offsetof(AudioBufferList, mBuffers) + n * sizeof(AudioBuffer). */
struct AudioBufferList {
    UInt32      mNumberBuffers;
    AudioBuffer mBuffers[1];
};
typedef struct AudioBufferList AudioBufferList;

/* ---- Sample types --------------------------------------------------------------------------- */

#ifndef CA_PREFER_FIXED_POINT
#define CA_PREFER_FIXED_POINT 0
#endif

/** The number of fractional bits of AudioUnitSampleType when it is fixed point (8.24). */
#define kAudioUnitSampleFractionBits 24

#if CA_PREFER_FIXED_POINT
typedef SInt16 AudioSampleType;
typedef SInt32 AudioUnitSampleType;
#else
typedef Float32 AudioSampleType;
typedef Float32 AudioUnitSampleType;
#endif

/* ---- Stream descriptions -------------------------------------------------------------------- */

typedef UInt32 AudioFormatID;
typedef UInt32 AudioFormatFlags;

/** A stream's format: every field a UInt32 but the rate; 0 in a field means "unknown / variable". */
struct AudioStreamBasicDescription {
    Float64          mSampleRate;
    AudioFormatID    mFormatID;
    AudioFormatFlags mFormatFlags;
    UInt32           mBytesPerPacket;
    UInt32           mFramesPerPacket;
    UInt32           mBytesPerFrame;
    UInt32           mChannelsPerFrame;
    UInt32           mBitsPerChannel;
    UInt32           mReserved;
};
typedef struct AudioStreamBasicDescription AudioStreamBasicDescription;

/** Any sample rate, in a description used as a wildcard. */
static const Float64 kAudioStreamAnyRate = 0.0;

/** Where a packet lies in a buffer, and its frames when they vary. */
struct AudioStreamPacketDescription {
    SInt64 mStartOffset;
    UInt32 mVariableFramesInPacket;
    UInt32 mDataByteSize;
};
typedef struct AudioStreamPacketDescription AudioStreamPacketDescription;

/* ---- Format identifiers --------------------------------------------------------------------- */

CA_ENUM(AudioFormatID) {
    kAudioFormatLinearPCM            = CA_FOURCC('l', 'p', 'c', 'm'),   /* 'lpcm' */
    kAudioFormatAC3                  = CA_FOURCC('a', 'c', '-', '3'),   /* 'ac-3' */
    kAudioFormat60958AC3             = CA_FOURCC('c', 'a', 'c', '3'),   /* 'cac3' */
    kAudioFormatAppleIMA4            = CA_FOURCC('i', 'm', 'a', '4'),   /* 'ima4' */
    kAudioFormatMPEG4AAC             = CA_FOURCC('a', 'a', 'c', ' '),   /* 'aac ' */
    kAudioFormatMPEG4CELP            = CA_FOURCC('c', 'e', 'l', 'p'),   /* 'celp' */
    kAudioFormatMPEG4HVXC            = CA_FOURCC('h', 'v', 'x', 'c'),   /* 'hvxc' */
    kAudioFormatMPEG4TwinVQ          = CA_FOURCC('t', 'w', 'v', 'q'),   /* 'twvq' */
    kAudioFormatMACE3                = CA_FOURCC('M', 'A', 'C', '3'),   /* 'MAC3' */
    kAudioFormatMACE6                = CA_FOURCC('M', 'A', 'C', '6'),   /* 'MAC6' */
    kAudioFormatULaw                 = CA_FOURCC('u', 'l', 'a', 'w'),   /* 'ulaw' */
    kAudioFormatALaw                 = CA_FOURCC('a', 'l', 'a', 'w'),   /* 'alaw' */
    kAudioFormatQDesign              = CA_FOURCC('Q', 'D', 'M', 'C'),   /* 'QDMC' */
    kAudioFormatQDesign2             = CA_FOURCC('Q', 'D', 'M', '2'),   /* 'QDM2' */
    kAudioFormatQUALCOMM             = CA_FOURCC('Q', 'c', 'l', 'p'),   /* 'Qclp' */
    kAudioFormatMPEGLayer1           = CA_FOURCC('.', 'm', 'p', '1'),   /* '.mp1' */
    kAudioFormatMPEGLayer2           = CA_FOURCC('.', 'm', 'p', '2'),   /* '.mp2' */
    kAudioFormatMPEGLayer3           = CA_FOURCC('.', 'm', 'p', '3'),   /* '.mp3' */
    kAudioFormatTimeCode             = CA_FOURCC('t', 'i', 'm', 'e'),   /* 'time' */
    kAudioFormatMIDIStream           = CA_FOURCC('m', 'i', 'd', 'i'),   /* 'midi' */
    kAudioFormatParameterValueStream = CA_FOURCC('a', 'p', 'v', 's'),   /* 'apvs' */
    kAudioFormatAppleLossless        = CA_FOURCC('a', 'l', 'a', 'c'),   /* 'alac' */
    kAudioFormatMPEG4AAC_HE          = CA_FOURCC('a', 'a', 'c', 'h'),   /* 'aach' */
    kAudioFormatMPEG4AAC_LD          = CA_FOURCC('a', 'a', 'c', 'l'),   /* 'aacl' */
    kAudioFormatMPEG4AAC_ELD         = CA_FOURCC('a', 'a', 'c', 'e'),   /* 'aace' */
    kAudioFormatMPEG4AAC_ELD_SBR     = CA_FOURCC('a', 'a', 'c', 'f'),   /* 'aacf' */
    kAudioFormatMPEG4AAC_ELD_V2      = CA_FOURCC('a', 'a', 'c', 'g'),   /* 'aacg' */
    kAudioFormatMPEG4AAC_HE_V2       = CA_FOURCC('a', 'a', 'c', 'p'),   /* 'aacp' */
    kAudioFormatMPEG4AAC_Spatial     = CA_FOURCC('a', 'a', 'c', 's'),   /* 'aacs' */
    kAudioFormatMPEGD_USAC           = CA_FOURCC('u', 's', 'a', 'c'),   /* 'usac' */
    kAudioFormatAMR                  = CA_FOURCC('s', 'a', 'm', 'r'),   /* 'samr' */
    kAudioFormatAMR_WB               = CA_FOURCC('s', 'a', 'w', 'b'),   /* 'sawb' */
    kAudioFormatAudible              = CA_FOURCC('A', 'U', 'D', 'B'),   /* 'AUDB' */
    kAudioFormatiLBC                 = CA_FOURCC('i', 'l', 'b', 'c'),   /* 'ilbc' */
    kAudioFormatDVIIntelIMA          = 0x6D730011,
    kAudioFormatMicrosoftGSM         = 0x6D730031,
    kAudioFormatAES3                 = CA_FOURCC('a', 'e', 's', '3'),   /* 'aes3' */
    kAudioFormatEnhancedAC3          = CA_FOURCC('e', 'c', '-', '3'),   /* 'ec-3' */
    kAudioFormatFLAC                 = CA_FOURCC('f', 'l', 'a', 'c'),   /* 'flac' */
    kAudioFormatOpus                 = CA_FOURCC('o', 'p', 'u', 's'),   /* 'opus' */
    kAudioFormatAPAC                 = CA_FOURCC('a', 'p', 'a', 'c')    /* 'apac' */
};

/* ---- Format flags --------------------------------------------------------------------------- */

CA_ENUM(AudioFormatFlags) {
    kAudioFormatFlagIsFloat                  = (1U << 0),
    kAudioFormatFlagIsBigEndian              = (1U << 1),
    kAudioFormatFlagIsSignedInteger          = (1U << 2),
    kAudioFormatFlagIsPacked                 = (1U << 3),
    kAudioFormatFlagIsAlignedHigh            = (1U << 4),
    kAudioFormatFlagIsNonInterleaved         = (1U << 5),
    kAudioFormatFlagIsNonMixable             = (1U << 6),
    kAudioFormatFlagsAreAllClear             = 0x80000000U,

    kLinearPCMFormatFlagIsFloat              = kAudioFormatFlagIsFloat,
    kLinearPCMFormatFlagIsBigEndian          = kAudioFormatFlagIsBigEndian,
    kLinearPCMFormatFlagIsSignedInteger      = kAudioFormatFlagIsSignedInteger,
    kLinearPCMFormatFlagIsPacked             = kAudioFormatFlagIsPacked,
    kLinearPCMFormatFlagIsAlignedHigh        = kAudioFormatFlagIsAlignedHigh,
    kLinearPCMFormatFlagIsNonInterleaved     = kAudioFormatFlagIsNonInterleaved,
    kLinearPCMFormatFlagIsNonMixable         = kAudioFormatFlagIsNonMixable,
    kLinearPCMFormatFlagsSampleFractionShift = 7,
    kLinearPCMFormatFlagsSampleFractionMask  = (0x3FU << kLinearPCMFormatFlagsSampleFractionShift),
    kLinearPCMFormatFlagsAreAllClear         = kAudioFormatFlagsAreAllClear,

    kAppleLosslessFormatFlag_16BitSourceData = 1,
    kAppleLosslessFormatFlag_20BitSourceData = 2,
    kAppleLosslessFormatFlag_24BitSourceData = 3,
    kAppleLosslessFormatFlag_32BitSourceData = 4
};

/* The native byte order's flag (0 on a little-endian machine, as every Linux target Soundstage
   builds for is), and the canonical formats built on it. */
CA_ENUM(AudioFormatFlags) {
#if TARGET_RT_BIG_ENDIAN
    kAudioFormatFlagsNativeEndian = kAudioFormatFlagIsBigEndian,
#else
    kAudioFormatFlagsNativeEndian = 0,
#endif
#if CA_PREFER_FIXED_POINT
    kAudioFormatFlagsCanonical = kAudioFormatFlagIsSignedInteger | kAudioFormatFlagsNativeEndian | kAudioFormatFlagIsPacked,
    kAudioFormatFlagsAudioUnitCanonical = kAudioFormatFlagIsSignedInteger | kAudioFormatFlagsNativeEndian |
        kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved |
        (kAudioUnitSampleFractionBits << kLinearPCMFormatFlagsSampleFractionShift),
#else
    kAudioFormatFlagsCanonical = kAudioFormatFlagIsFloat | kAudioFormatFlagsNativeEndian | kAudioFormatFlagIsPacked,
    kAudioFormatFlagsAudioUnitCanonical = kAudioFormatFlagIsFloat | kAudioFormatFlagsNativeEndian |
        kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved,
#endif
    kAudioFormatFlagsNativeFloatPacked = kAudioFormatFlagIsFloat | kAudioFormatFlagsNativeEndian | kAudioFormatFlagIsPacked
};

/** Whether a description is linear PCM in the machine's byte order (a macro in C, as Apple's). */
#define TestAudioFormatNativeEndian(f) \
    (((f).mFormatID == kAudioFormatLinearPCM) && (((f).mFormatFlags & kAudioFormatFlagIsBigEndian) == kAudioFormatFlagsNativeEndian))

/* ---- MPEG-4 audio object types (the mFormatFlags of kAudioFormatMPEG4AAC and friends) -------- */

typedef CA_NAMED_ENUM(long, MPEG4ObjectID) {
    kMPEG4Object_AAC_Main     = 1,
    kMPEG4Object_AAC_LC       = 2,
    kMPEG4Object_AAC_SSR      = 3,
    kMPEG4Object_AAC_LTP      = 4,
    kMPEG4Object_AAC_SBR      = 5,
    kMPEG4Object_AAC_Scalable = 6,
    kMPEG4Object_TwinVQ       = 7,
    kMPEG4Object_CELP         = 8,
    kMPEG4Object_HVXC         = 9
};

/* ---- SMPTE time ----------------------------------------------------------------------------- */

typedef CA_NAMED_ENUM(UInt32, SMPTETimeType) {
    kSMPTETimeType24       = 0,
    kSMPTETimeType25       = 1,
    kSMPTETimeType30Drop   = 2,
    kSMPTETimeType30       = 3,
    kSMPTETimeType2997     = 4,
    kSMPTETimeType2997Drop = 5,
    kSMPTETimeType60       = 6,
    kSMPTETimeType5994     = 7,
    kSMPTETimeType60Drop   = 8,
    kSMPTETimeType5994Drop = 9,
    kSMPTETimeType50       = 10,
    kSMPTETimeType2398     = 11
};

typedef CA_OPTIONS(UInt32, SMPTETimeFlags) {
    kSMPTETimeUnknown = 0,
    kSMPTETimeValid   = (1U << 0),
    kSMPTETimeRunning = (1U << 1)
};

/** A SMPTE time: hours, minutes, seconds, frames and subframes. */
struct SMPTETime {
    SInt16         mSubframes;
    SInt16         mSubframeDivisor;
    UInt32         mCounter;
    SMPTETimeType  mType;
    SMPTETimeFlags mFlags;
    SInt16         mHours;
    SInt16         mMinutes;
    SInt16         mSeconds;
    SInt16         mFrames;
};
typedef struct SMPTETime SMPTETime;

/* ---- Time stamps ---------------------------------------------------------------------------- */

typedef CA_OPTIONS(UInt32, AudioTimeStampFlags) {
    kAudioTimeStampNothingValid         = 0,
    kAudioTimeStampSampleTimeValid      = (1U << 0),
    kAudioTimeStampHostTimeValid        = (1U << 1),
    kAudioTimeStampRateScalarValid      = (1U << 2),
    kAudioTimeStampWordClockTimeValid   = (1U << 3),
    kAudioTimeStampSMPTETimeValid       = (1U << 4),
    kAudioTimeStampSampleHostTimeValid  = (kAudioTimeStampSampleTimeValid | kAudioTimeStampHostTimeValid)
};

/** A moment in several representations; mFlags says which fields hold a value. */
struct AudioTimeStamp {
    Float64             mSampleTime;
    UInt64              mHostTime;
    Float64             mRateScalar;
    UInt64              mWordClockTime;
    SMPTETime           mSMPTETime;
    AudioTimeStampFlags mFlags;
    UInt32              mReserved;
};
typedef struct AudioTimeStamp AudioTimeStamp;

/* ---- Channel labels, layouts and bitmaps ---------------------------------------------------- */

typedef UInt32 AudioChannelLabel;
typedef UInt32 AudioChannelLayoutTag;

CA_ENUM(AudioChannelLabel) {
    kAudioChannelLabel_Unknown              = 0xFFFFFFFFU,
    kAudioChannelLabel_Unused               = 0,
    kAudioChannelLabel_UseCoordinates       = 100,
    kAudioChannelLabel_Left                 = 1,
    kAudioChannelLabel_Right                = 2,
    kAudioChannelLabel_Center               = 3,
    kAudioChannelLabel_LFEScreen            = 4,
    kAudioChannelLabel_LeftSurround         = 5,
    kAudioChannelLabel_RightSurround        = 6,
    kAudioChannelLabel_LeftCenter           = 7,
    kAudioChannelLabel_RightCenter          = 8,
    kAudioChannelLabel_CenterSurround       = 9,
    kAudioChannelLabel_LeftSurroundDirect   = 10,
    kAudioChannelLabel_RightSurroundDirect  = 11,
    kAudioChannelLabel_TopCenterSurround    = 12,
    kAudioChannelLabel_VerticalHeightLeft   = 13,
    kAudioChannelLabel_VerticalHeightCenter = 14,
    kAudioChannelLabel_VerticalHeightRight  = 15,
    kAudioChannelLabel_TopBackLeft          = 16,
    kAudioChannelLabel_TopBackCenter        = 17,
    kAudioChannelLabel_TopBackRight         = 18,
    kAudioChannelLabel_RearSurroundLeft     = 33,
    kAudioChannelLabel_RearSurroundRight    = 34,
    kAudioChannelLabel_LeftWide             = 35,
    kAudioChannelLabel_RightWide            = 36,
    kAudioChannelLabel_LFE2                 = 37,
    kAudioChannelLabel_LeftTotal            = 38,
    kAudioChannelLabel_RightTotal           = 39,
    kAudioChannelLabel_HearingImpaired      = 40,
    kAudioChannelLabel_Narration            = 41,
    kAudioChannelLabel_Mono                 = 42,
    kAudioChannelLabel_DialogCentricMix     = 43,
    kAudioChannelLabel_CenterSurroundDirect = 44,
    kAudioChannelLabel_Haptic               = 45,
    kAudioChannelLabel_Ambisonic_W          = 200,
    kAudioChannelLabel_Ambisonic_X          = 201,
    kAudioChannelLabel_Ambisonic_Y          = 202,
    kAudioChannelLabel_Ambisonic_Z          = 203,
    kAudioChannelLabel_MS_Mid               = 204,
    kAudioChannelLabel_MS_Side              = 205,
    kAudioChannelLabel_XY_X                 = 206,
    kAudioChannelLabel_XY_Y                 = 207,
    kAudioChannelLabel_HeadphonesLeft       = 301,
    kAudioChannelLabel_HeadphonesRight      = 302,
    kAudioChannelLabel_ClickTrack           = 304,
    kAudioChannelLabel_ForeignLanguage      = 305,
    kAudioChannelLabel_Discrete             = 400,
    kAudioChannelLabel_Discrete_0           = (1U << 16) | 0,
    kAudioChannelLabel_Discrete_1           = (1U << 16) | 1,
    kAudioChannelLabel_Discrete_2           = (1U << 16) | 2,
    kAudioChannelLabel_Discrete_3           = (1U << 16) | 3,
    kAudioChannelLabel_Discrete_4           = (1U << 16) | 4,
    kAudioChannelLabel_Discrete_5           = (1U << 16) | 5,
    kAudioChannelLabel_Discrete_6           = (1U << 16) | 6,
    kAudioChannelLabel_Discrete_7           = (1U << 16) | 7,
    kAudioChannelLabel_Discrete_8           = (1U << 16) | 8,
    kAudioChannelLabel_Discrete_9           = (1U << 16) | 9,
    kAudioChannelLabel_Discrete_10          = (1U << 16) | 10,
    kAudioChannelLabel_Discrete_11          = (1U << 16) | 11,
    kAudioChannelLabel_Discrete_12          = (1U << 16) | 12,
    kAudioChannelLabel_Discrete_13          = (1U << 16) | 13,
    kAudioChannelLabel_Discrete_14          = (1U << 16) | 14,
    kAudioChannelLabel_Discrete_15          = (1U << 16) | 15,
    kAudioChannelLabel_Discrete_65535       = (1U << 16) | 65535
};

typedef CA_OPTIONS(UInt32, AudioChannelBitmap) {
    kAudioChannelBit_Left                 = (1U << 0),
    kAudioChannelBit_Right                = (1U << 1),
    kAudioChannelBit_Center               = (1U << 2),
    kAudioChannelBit_LFEScreen            = (1U << 3),
    kAudioChannelBit_LeftSurround         = (1U << 4),
    kAudioChannelBit_RightSurround        = (1U << 5),
    kAudioChannelBit_LeftCenter           = (1U << 6),
    kAudioChannelBit_RightCenter          = (1U << 7),
    kAudioChannelBit_CenterSurround       = (1U << 8),
    kAudioChannelBit_LeftSurroundDirect   = (1U << 9),
    kAudioChannelBit_RightSurroundDirect  = (1U << 10),
    kAudioChannelBit_TopCenterSurround    = (1U << 11),
    kAudioChannelBit_VerticalHeightLeft   = (1U << 12),
    kAudioChannelBit_VerticalHeightCenter = (1U << 13),
    kAudioChannelBit_VerticalHeightRight  = (1U << 14),
    kAudioChannelBit_TopBackLeft          = (1U << 15),
    kAudioChannelBit_TopBackCenter        = (1U << 16),
    kAudioChannelBit_TopBackRight         = (1U << 17)
};

typedef CA_OPTIONS(UInt32, AudioChannelFlags) {
    kAudioChannelFlags_AllOff                 = 0,
    kAudioChannelFlags_RectangularCoordinates = (1U << 0),
    kAudioChannelFlags_SphericalCoordinates   = (1U << 1),
    kAudioChannelFlags_Meters                 = (1U << 2)
};

typedef CA_NAMED_ENUM(UInt32, AudioChannelCoordinateIndex) {
    kAudioChannelCoordinates_LeftRight = 0,
    kAudioChannelCoordinates_BackFront = 1,
    kAudioChannelCoordinates_DownUp    = 2,
    kAudioChannelCoordinates_Azimuth   = 0,
    kAudioChannelCoordinates_Elevation = 1,
    kAudioChannelCoordinates_Distance  = 2
};

/** The number of channels a layout tag stands for: its low 16 bits. */
static inline UInt32 AudioChannelLayoutTag_GetNumberOfChannels(AudioChannelLayoutTag inLayoutTag) {
    return (UInt32)(inLayoutTag & 0x0000FFFFU);
}

/* A tag is (index << 16) | number of channels. The aliases follow Apple's documentation. */
CA_ENUM(AudioChannelLayoutTag) {
    kAudioChannelLayoutTag_UseChannelDescriptions = (0U << 16) | 0,
    kAudioChannelLayoutTag_UseChannelBitmap       = (1U << 16) | 0,

    kAudioChannelLayoutTag_Mono               = (100U << 16) | 1,   /* C */
    kAudioChannelLayoutTag_Stereo             = (101U << 16) | 2,   /* L R */
    kAudioChannelLayoutTag_StereoHeadphones   = (102U << 16) | 2,   /* headphones L R */
    kAudioChannelLayoutTag_MatrixStereo       = (103U << 16) | 2,   /* Lt Rt */
    kAudioChannelLayoutTag_MidSide            = (104U << 16) | 2,   /* mid, side */
    kAudioChannelLayoutTag_XY                 = (105U << 16) | 2,   /* X Y */
    kAudioChannelLayoutTag_Binaural           = (106U << 16) | 2,   /* left ear, right ear */
    kAudioChannelLayoutTag_Ambisonic_B_Format = (107U << 16) | 4,   /* W X Y Z */
    kAudioChannelLayoutTag_Quadraphonic       = (108U << 16) | 4,   /* L R Ls Rs */
    kAudioChannelLayoutTag_Pentagonal         = (109U << 16) | 5,   /* L R Rls Rrs C */
    kAudioChannelLayoutTag_Hexagonal          = (110U << 16) | 6,   /* L R Rls Rrs C Cs */
    kAudioChannelLayoutTag_Octagonal          = (111U << 16) | 8,   /* L R Rls Rrs C Cs Lw Rw */
    kAudioChannelLayoutTag_Cube               = (112U << 16) | 8,   /* L R Rls Rrs Vhl Vhr Tbl Tbr */

    kAudioChannelLayoutTag_MPEG_1_0   = kAudioChannelLayoutTag_Mono,
    kAudioChannelLayoutTag_MPEG_2_0   = kAudioChannelLayoutTag_Stereo,
    kAudioChannelLayoutTag_MPEG_3_0_A = (113U << 16) | 3,   /* L R C */
    kAudioChannelLayoutTag_MPEG_3_0_B = (114U << 16) | 3,   /* C L R */
    kAudioChannelLayoutTag_MPEG_4_0_A = (115U << 16) | 4,   /* L R C Cs */
    kAudioChannelLayoutTag_MPEG_4_0_B = (116U << 16) | 4,   /* C L R Cs */
    kAudioChannelLayoutTag_MPEG_5_0_A = (117U << 16) | 5,   /* L R C Ls Rs */
    kAudioChannelLayoutTag_MPEG_5_0_B = (118U << 16) | 5,   /* L R Ls Rs C */
    kAudioChannelLayoutTag_MPEG_5_0_C = (119U << 16) | 5,   /* L C R Ls Rs */
    kAudioChannelLayoutTag_MPEG_5_0_D = (120U << 16) | 5,   /* C L R Ls Rs */
    kAudioChannelLayoutTag_MPEG_5_1_A = (121U << 16) | 6,   /* L R C LFE Ls Rs */
    kAudioChannelLayoutTag_MPEG_5_1_B = (122U << 16) | 6,   /* L R Ls Rs C LFE */
    kAudioChannelLayoutTag_MPEG_5_1_C = (123U << 16) | 6,   /* L C R Ls Rs LFE */
    kAudioChannelLayoutTag_MPEG_5_1_D = (124U << 16) | 6,   /* C L R Ls Rs LFE */
    kAudioChannelLayoutTag_MPEG_6_1_A = (125U << 16) | 7,   /* L R C LFE Ls Rs Cs */
    kAudioChannelLayoutTag_MPEG_7_1_A = (126U << 16) | 8,   /* L R C LFE Ls Rs Lc Rc */
    kAudioChannelLayoutTag_MPEG_7_1_B = (127U << 16) | 8,   /* C Lc Rc L R Ls Rs LFE */
    kAudioChannelLayoutTag_MPEG_7_1_C = (128U << 16) | 8,   /* L R C LFE Ls Rs Rls Rrs */
    kAudioChannelLayoutTag_Emagic_Default_7_1 = (129U << 16) | 8,
    kAudioChannelLayoutTag_SMPTE_DTV  = (130U << 16) | 8,

    kAudioChannelLayoutTag_ITU_1_0   = kAudioChannelLayoutTag_Mono,
    kAudioChannelLayoutTag_ITU_2_0   = kAudioChannelLayoutTag_Stereo,
    kAudioChannelLayoutTag_ITU_2_1   = (131U << 16) | 3,   /* L R Cs */
    kAudioChannelLayoutTag_ITU_2_2   = (132U << 16) | 4,   /* L R Ls Rs */
    kAudioChannelLayoutTag_ITU_3_0   = kAudioChannelLayoutTag_MPEG_3_0_A,
    kAudioChannelLayoutTag_ITU_3_1   = kAudioChannelLayoutTag_MPEG_4_0_A,
    kAudioChannelLayoutTag_ITU_3_2   = kAudioChannelLayoutTag_MPEG_5_0_A,
    kAudioChannelLayoutTag_ITU_3_2_1 = kAudioChannelLayoutTag_MPEG_5_1_A,
    kAudioChannelLayoutTag_ITU_3_4_1 = kAudioChannelLayoutTag_MPEG_7_1_C,

    kAudioChannelLayoutTag_DVD_0  = kAudioChannelLayoutTag_Mono,
    kAudioChannelLayoutTag_DVD_1  = kAudioChannelLayoutTag_Stereo,
    kAudioChannelLayoutTag_DVD_2  = kAudioChannelLayoutTag_ITU_2_1,
    kAudioChannelLayoutTag_DVD_3  = kAudioChannelLayoutTag_ITU_2_2,
    kAudioChannelLayoutTag_DVD_4  = (133U << 16) | 3,   /* L R LFE */
    kAudioChannelLayoutTag_DVD_5  = (134U << 16) | 4,   /* L R LFE Cs */
    kAudioChannelLayoutTag_DVD_6  = (135U << 16) | 5,   /* L R LFE Ls Rs */
    kAudioChannelLayoutTag_DVD_7  = kAudioChannelLayoutTag_MPEG_3_0_A,
    kAudioChannelLayoutTag_DVD_8  = kAudioChannelLayoutTag_MPEG_4_0_A,
    kAudioChannelLayoutTag_DVD_9  = kAudioChannelLayoutTag_MPEG_5_0_A,
    kAudioChannelLayoutTag_DVD_10 = (136U << 16) | 4,   /* L R C LFE */
    kAudioChannelLayoutTag_DVD_11 = (137U << 16) | 5,   /* L R C LFE Cs */
    kAudioChannelLayoutTag_DVD_12 = kAudioChannelLayoutTag_MPEG_5_1_A,
    kAudioChannelLayoutTag_DVD_13 = kAudioChannelLayoutTag_DVD_8,
    kAudioChannelLayoutTag_DVD_14 = kAudioChannelLayoutTag_DVD_9,
    kAudioChannelLayoutTag_DVD_15 = kAudioChannelLayoutTag_DVD_10,
    kAudioChannelLayoutTag_DVD_16 = kAudioChannelLayoutTag_DVD_11,
    kAudioChannelLayoutTag_DVD_17 = kAudioChannelLayoutTag_DVD_12,
    kAudioChannelLayoutTag_DVD_18 = (138U << 16) | 5,   /* L R Ls Rs LFE */
    kAudioChannelLayoutTag_DVD_19 = kAudioChannelLayoutTag_MPEG_5_0_B,
    kAudioChannelLayoutTag_DVD_20 = kAudioChannelLayoutTag_MPEG_5_1_B,

    kAudioChannelLayoutTag_AudioUnit_4       = kAudioChannelLayoutTag_Quadraphonic,
    kAudioChannelLayoutTag_AudioUnit_5       = kAudioChannelLayoutTag_Pentagonal,
    kAudioChannelLayoutTag_AudioUnit_6       = kAudioChannelLayoutTag_Hexagonal,
    kAudioChannelLayoutTag_AudioUnit_8       = kAudioChannelLayoutTag_Octagonal,
    kAudioChannelLayoutTag_AudioUnit_5_0     = kAudioChannelLayoutTag_MPEG_5_0_B,
    kAudioChannelLayoutTag_AudioUnit_6_0     = (139U << 16) | 6,   /* L R Ls Rs C Cs */
    kAudioChannelLayoutTag_AudioUnit_7_0     = (140U << 16) | 7,   /* L R Ls Rs C Rls Rrs */
    kAudioChannelLayoutTag_AudioUnit_7_0_Front = (148U << 16) | 7, /* L R Ls Rs C Lc Rc */
    kAudioChannelLayoutTag_AudioUnit_5_1     = kAudioChannelLayoutTag_MPEG_5_1_A,
    kAudioChannelLayoutTag_AudioUnit_6_1     = kAudioChannelLayoutTag_MPEG_6_1_A,
    kAudioChannelLayoutTag_AudioUnit_7_1     = kAudioChannelLayoutTag_MPEG_7_1_C,
    kAudioChannelLayoutTag_AudioUnit_7_1_Front = kAudioChannelLayoutTag_MPEG_7_1_A,

    kAudioChannelLayoutTag_AAC_3_0          = kAudioChannelLayoutTag_MPEG_3_0_B,
    kAudioChannelLayoutTag_AAC_Quadraphonic = kAudioChannelLayoutTag_Quadraphonic,
    kAudioChannelLayoutTag_AAC_4_0          = kAudioChannelLayoutTag_MPEG_4_0_B,
    kAudioChannelLayoutTag_AAC_5_0          = kAudioChannelLayoutTag_MPEG_5_0_D,
    kAudioChannelLayoutTag_AAC_5_1          = kAudioChannelLayoutTag_MPEG_5_1_D,
    kAudioChannelLayoutTag_AAC_6_0          = (141U << 16) | 6,   /* C L R Ls Rs Cs */
    kAudioChannelLayoutTag_AAC_6_1          = (142U << 16) | 7,   /* C L R Ls Rs Cs LFE */
    kAudioChannelLayoutTag_AAC_7_0          = (143U << 16) | 7,   /* C L R Ls Rs Rls Rrs */
    kAudioChannelLayoutTag_AAC_7_1          = kAudioChannelLayoutTag_MPEG_7_1_B,
    kAudioChannelLayoutTag_AAC_Octagonal    = (144U << 16) | 8,   /* C L R Ls Rs Rls Rrs Cs */

    kAudioChannelLayoutTag_TMH_10_2_std  = (145U << 16) | 16,
    kAudioChannelLayoutTag_TMH_10_2_full = (146U << 16) | 21,

    kAudioChannelLayoutTag_AC3_1_0_1 = (149U << 16) | 2,   /* C LFE */
    kAudioChannelLayoutTag_AC3_3_0   = (150U << 16) | 3,   /* L C R */
    kAudioChannelLayoutTag_AC3_3_1   = (151U << 16) | 4,   /* L C R Cs */
    kAudioChannelLayoutTag_AC3_3_0_1 = (152U << 16) | 4,   /* L C R LFE */
    kAudioChannelLayoutTag_AC3_2_1_1 = (153U << 16) | 4,   /* L R Cs LFE */
    kAudioChannelLayoutTag_AC3_3_1_1 = (154U << 16) | 5,   /* L C R Cs LFE */

    kAudioChannelLayoutTag_WAVE_2_1   = kAudioChannelLayoutTag_DVD_4,
    kAudioChannelLayoutTag_WAVE_3_0   = kAudioChannelLayoutTag_MPEG_3_0_A,
    kAudioChannelLayoutTag_WAVE_4_0_A = kAudioChannelLayoutTag_ITU_2_2,
    kAudioChannelLayoutTag_WAVE_4_0_B = (185U << 16) | 4,   /* L R Rls Rrs */
    kAudioChannelLayoutTag_WAVE_5_0_A = kAudioChannelLayoutTag_MPEG_5_0_A,
    kAudioChannelLayoutTag_WAVE_5_0_B = (186U << 16) | 5,   /* L R C Rls Rrs */
    kAudioChannelLayoutTag_WAVE_5_1_A = kAudioChannelLayoutTag_MPEG_5_1_A,
    kAudioChannelLayoutTag_WAVE_5_1_B = (187U << 16) | 6,   /* L R C LFE Rls Rrs */
    kAudioChannelLayoutTag_WAVE_6_1   = (188U << 16) | 7,   /* L R C LFE Cs Ls Rs */
    kAudioChannelLayoutTag_WAVE_7_1   = (189U << 16) | 8,   /* L R C LFE Rls Rrs Ls Rs */

    kAudioChannelLayoutTag_DiscreteInOrder = (147U << 16) | 0,   /* or in the number of channels */
    kAudioChannelLayoutTag_Unknown         = 0xFFFF0000U         /* or in the number of channels */
};

/** One channel of a layout: its label, and coordinates when the label is UseCoordinates. */
struct AudioChannelDescription {
    AudioChannelLabel mChannelLabel;
    AudioChannelFlags mChannelFlags;
    Float32           mCoordinates[3];
};
typedef struct AudioChannelDescription AudioChannelDescription;

/** A channel layout: a tag, a bitmap, or a variable-length array of channel descriptions
    (allocate offsetof(AudioChannelLayout, mChannelDescriptions) + n * sizeof(AudioChannelDescription)). */
struct AudioChannelLayout {
    AudioChannelLayoutTag   mChannelLayoutTag;
    AudioChannelBitmap      mChannelBitmap;
    UInt32                  mNumberChannelDescriptions;
    AudioChannelDescription mChannelDescriptions[1];
};
typedef struct AudioChannelLayout AudioChannelLayout;

/* ---- Inline helpers --------------------------------------------------------------------------
 * Apple declares these for C++ only, taking references; C++ code calls them as on Apple's systems.
 * Linux addition: the same helpers for C (and Swift), taking pointers. */

static inline AudioFormatFlags CalculateLPCMFlags(UInt32 inValidBitsPerChannel, UInt32 inTotalBitsPerChannel,
                                                  bool inIsFloat, bool inIsBigEndian
#ifdef __cplusplus
                                                  , bool inIsNonInterleaved = false
#else
                                                  , bool inIsNonInterleaved
#endif
                                                  ) {
    return (inIsFloat ? (AudioFormatFlags)kAudioFormatFlagIsFloat : (AudioFormatFlags)kAudioFormatFlagIsSignedInteger)
        | (inIsBigEndian ? (AudioFormatFlags)kAudioFormatFlagIsBigEndian : 0U)
        | ((inValidBitsPerChannel == inTotalBitsPerChannel) ? (AudioFormatFlags)kAudioFormatFlagIsPacked
                                                            : (AudioFormatFlags)kAudioFormatFlagIsAlignedHigh)
        | (inIsNonInterleaved ? (AudioFormatFlags)kAudioFormatFlagIsNonInterleaved : 0U);
}

/** Fills a linear PCM description (C and Swift: a pointer). */
static inline void FillOutASBDForLPCM(AudioStreamBasicDescription *outASBD, Float64 inSampleRate,
                                      UInt32 inChannelsPerFrame, UInt32 inValidBitsPerChannel,
                                      UInt32 inTotalBitsPerChannel, bool inIsFloat, bool inIsBigEndian
#ifdef __cplusplus
                                      , bool inIsNonInterleaved = false
#else
                                      , bool inIsNonInterleaved
#endif
                                      ) {
    UInt32 bytes = (inIsNonInterleaved ? 1U : inChannelsPerFrame) * (inTotalBitsPerChannel / 8U);
    outASBD->mSampleRate = inSampleRate;
    outASBD->mFormatID = kAudioFormatLinearPCM;
    outASBD->mFormatFlags = CalculateLPCMFlags(inValidBitsPerChannel, inTotalBitsPerChannel, inIsFloat,
                                               inIsBigEndian, inIsNonInterleaved);
    outASBD->mBytesPerPacket = bytes;
    outASBD->mFramesPerPacket = 1;
    outASBD->mBytesPerFrame = bytes;
    outASBD->mChannelsPerFrame = inChannelsPerFrame;
    outASBD->mBitsPerChannel = inValidBitsPerChannel;
    outASBD->mReserved = 0;
}

/** Whether a description is linear PCM in the machine's byte order (C: a pointer). */
static inline bool IsAudioFormatNativeEndian(const AudioStreamBasicDescription *f) {
    return f->mFormatID == (AudioFormatID)kAudioFormatLinearPCM &&
        (f->mFormatFlags & (AudioFormatFlags)kAudioFormatFlagIsBigEndian) == (AudioFormatFlags)kAudioFormatFlagsNativeEndian;
}

/** A time stamp holding a sample time only (C: a pointer). */
static inline void FillOutAudioTimeStampWithSampleTime(AudioTimeStamp *outATS, Float64 inSampleTime) {
    memset(outATS, 0, sizeof(*outATS));
    outATS->mSampleTime = inSampleTime;
    outATS->mFlags = kAudioTimeStampSampleTimeValid;
}

/** A time stamp holding a host time only (C: a pointer). */
static inline void FillOutAudioTimeStampWithHostTime(AudioTimeStamp *outATS, UInt64 inHostTime) {
    memset(outATS, 0, sizeof(*outATS));
    outATS->mHostTime = inHostTime;
    outATS->mFlags = kAudioTimeStampHostTimeValid;
}

/** A time stamp holding a sample time and a host time (C: a pointer). */
static inline void FillOutAudioTimeStampWithSampleAndHostTime(AudioTimeStamp *outATS, Float64 inSampleTime,
                                                              UInt64 inHostTime) {
    memset(outATS, 0, sizeof(*outATS));
    outATS->mSampleTime = inSampleTime;
    outATS->mHostTime = inHostTime;
    outATS->mFlags = kAudioTimeStampSampleHostTimeValid;
}

#ifdef __cplusplus
} /* extern "C": the reference forms below are C++ overloads, as Apple declares them */

inline void FillOutASBDForLPCM(AudioStreamBasicDescription &outASBD, Float64 inSampleRate,
                               UInt32 inChannelsPerFrame, UInt32 inValidBitsPerChannel,
                               UInt32 inTotalBitsPerChannel, bool inIsFloat, bool inIsBigEndian,
                               bool inIsNonInterleaved = false) {
    FillOutASBDForLPCM(&outASBD, inSampleRate, inChannelsPerFrame, inValidBitsPerChannel,
                       inTotalBitsPerChannel, inIsFloat, inIsBigEndian, inIsNonInterleaved);
}
inline bool IsAudioFormatNativeEndian(const AudioStreamBasicDescription &f) { return IsAudioFormatNativeEndian(&f); }
inline void FillOutAudioTimeStampWithSampleTime(AudioTimeStamp &outATS, Float64 inSampleTime) {
    FillOutAudioTimeStampWithSampleTime(&outATS, inSampleTime);
}
inline void FillOutAudioTimeStampWithHostTime(AudioTimeStamp &outATS, UInt64 inHostTime) {
    FillOutAudioTimeStampWithHostTime(&outATS, inHostTime);
}
inline void FillOutAudioTimeStampWithSampleAndHostTime(AudioTimeStamp &outATS, Float64 inSampleTime, UInt64 inHostTime) {
    FillOutAudioTimeStampWithSampleAndHostTime(&outATS, inSampleTime, inHostTime);
}

extern "C" {
#endif

CA_HEADER_END

#endif /* CoreAudioTypes_CoreAudioTypes_h */
