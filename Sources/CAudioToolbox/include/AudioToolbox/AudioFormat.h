/*
 * AudioToolbox/AudioFormat.h — Audio Format Services: what Core Audio knows about formats,
 * codecs and channel layouts, asked through two functions. Written for Soundstage from Apple's
 * published documentation; no Apple header was copied. Values are Apple's.
 *
 * What Soundstage answers, and how Linux differs: docs/audiotoolbox.md. A property it does not
 * answer returns kAudioFormatUnsupportedPropertyError; nothing here crashes on bad arguments.
 */
#ifndef AudioToolbox_AudioFormat_h
#define AudioToolbox_AudioFormat_h

#include <CoreAudio/CoreAudioTypes.h>

CA_HEADER_BEGIN

typedef UInt32 AudioFormatPropertyID;

/** The specifier of kAudioFormatProperty_FormatInfo with a magic cookie, and of the format lists. */
struct AudioFormatInfo {
    AudioStreamBasicDescription mASBD;
    const void                 *mMagicCookie;
    UInt32                      mMagicCookieSize;
};
typedef struct AudioFormatInfo AudioFormatInfo;

/** AudioFormatInfo with the codec to ask (kAudioFormatProperty_FormatList). */
struct ExtendedAudioFormatInfo {
    AudioStreamBasicDescription mASBD;
    const void                 *mMagicCookie;
    UInt32                      mMagicCookieSize;
    AudioClassDescription       mClassDescription;
};
typedef struct ExtendedAudioFormatInfo ExtendedAudioFormatInfo;

/** One layer of a layered format (kAudioFormatProperty_FormatList). */
struct AudioFormatListItem {
    AudioStreamBasicDescription mASBD;
    AudioChannelLayoutTag       mChannelLayoutTag;
};
typedef struct AudioFormatListItem AudioFormatListItem;

/* The properties. The comment after each says what Soundstage answers (docs/audiotoolbox.md). */
CA_ENUM(AudioFormatPropertyID) {
    kAudioFormatProperty_FormatInfo                    = CA_FOURCC('f', 'm', 't', 'i'),   /* 'fmti' answered */
    kAudioFormatProperty_FormatName                    = CA_FOURCC('f', 'n', 'a', 'm'),   /* 'fnam' answered: a new CFStringRef */
    kAudioFormatProperty_EncodeFormatIDs               = CA_FOURCC('a', 'c', 'o', 'f'),   /* 'acof' answered */
    kAudioFormatProperty_DecodeFormatIDs               = CA_FOURCC('a', 'c', 'i', 'f'),   /* 'acif' answered */
    kAudioFormatProperty_FormatList                    = CA_FOURCC('f', 'l', 's', 't'),   /* 'flst' answered: the layers, richest first */
    kAudioFormatProperty_ASBDFromESDS                  = CA_FOURCC('e', 's', 's', 'd'),   /* 'essd' answered */
    kAudioFormatProperty_ChannelLayoutFromESDS         = CA_FOURCC('e', 's', 'c', 'l'),   /* 'escl' not yet */
    kAudioFormatProperty_OutputFormatList              = CA_FOURCC('o', 'f', 'l', 's'),   /* 'ofls' not yet */
    kAudioFormatProperty_FirstPlayableFormatFromList   = CA_FOURCC('f', 'p', 'f', 'l'),   /* 'fpfl' answered */
    kAudioFormatProperty_FormatIsVBR                   = CA_FOURCC('f', 'v', 'b', 'r'),   /* 'fvbr' answered */
    kAudioFormatProperty_FormatIsExternallyFramed      = CA_FOURCC('f', 'e', 'x', 'f'),   /* 'fexf' answered */
    kAudioFormatProperty_FormatEmploysDependentPackets = CA_FOURCC('f', 'd', 'e', 'p'),   /* 'fdep' not yet */
    kAudioFormatProperty_FormatIsEncrypted             = CA_FOURCC('c', 'r', 'y', 'p'),   /* 'cryp' answered */
    kAudioFormatProperty_Encoders                      = CA_FOURCC('a', 'v', 'e', 'n'),   /* 'aven' answered */
    kAudioFormatProperty_Decoders                      = CA_FOURCC('a', 'v', 'd', 'e'),   /* 'avde' answered */
    kAudioFormatProperty_AvailableEncodeBitRates       = CA_FOURCC('a', 'e', 'b', 'r'),   /* 'aebr' answered */
    kAudioFormatProperty_AvailableEncodeSampleRates    = CA_FOURCC('a', 'e', 's', 'r'),   /* 'aesr' answered */
    kAudioFormatProperty_AvailableEncodeChannelLayoutTags = CA_FOURCC('a', 'e', 'c', 'l'), /* 'aecl' not yet */
    kAudioFormatProperty_AvailableEncodeNumberChannels = CA_FOURCC('a', 'v', 'n', 'c'),   /* 'avnc' not yet */
    kAudioFormatProperty_AvailableDecodeNumberChannels = CA_FOURCC('a', 'd', 'n', 'c'),   /* 'adnc' not yet */
    kAudioFormatProperty_ASBDFromMPEGPacket            = CA_FOURCC('a', 'd', 'm', 'p'),   /* 'admp' not yet */
    kAudioFormatProperty_BitmapForLayoutTag            = CA_FOURCC('b', 'm', 't', 'g'),   /* 'bmtg' answered */
    kAudioFormatProperty_MatrixMixMap                  = CA_FOURCC('m', 'm', 'a', 'p'),   /* 'mmap' not yet */
    kAudioFormatProperty_ChannelMap                    = CA_FOURCC('c', 'h', 'm', 'p'),   /* 'chmp' not yet */
    kAudioFormatProperty_NumberOfChannelsForLayout     = CA_FOURCC('n', 'c', 'h', 'm'),   /* 'nchm' answered */
    kAudioFormatProperty_AreChannelLayoutsEquivalent   = CA_FOURCC('c', 'h', 'e', 'q'),   /* 'cheq' not yet */
    kAudioFormatProperty_ChannelLayoutHash             = CA_FOURCC('c', 'h', 'h', 'a'),   /* 'chha' not yet */
    kAudioFormatProperty_ValidateChannelLayout         = CA_FOURCC('v', 'a', 'c', 'l'),   /* 'vacl' answered */
    kAudioFormatProperty_ChannelLayoutForTag           = CA_FOURCC('c', 'm', 'p', 'l'),   /* 'cmpl' answered */
    kAudioFormatProperty_TagForChannelLayout           = CA_FOURCC('c', 'm', 'p', 't'),   /* 'cmpt' answered */
    kAudioFormatProperty_ChannelLayoutName             = CA_FOURCC('l', 'o', 'n', 'm'),   /* 'lonm' answered: a new CFStringRef */
    kAudioFormatProperty_ChannelLayoutSimpleName       = CA_FOURCC('l', 's', 'n', 'm'),   /* 'lsnm' answered: a new CFStringRef */
    kAudioFormatProperty_ChannelLayoutForBitmap        = CA_FOURCC('c', 'm', 'p', 'b'),   /* 'cmpb' answered */
    kAudioFormatProperty_ChannelName                   = CA_FOURCC('c', 'n', 'a', 'm'),   /* 'cnam' answered: a new CFStringRef */
    kAudioFormatProperty_ChannelShortName              = CA_FOURCC('c', 's', 'n', 'm'),   /* 'csnm' answered: a new CFStringRef */
    kAudioFormatProperty_TagsForNumberOfChannels       = CA_FOURCC('t', 'a', 'g', 'c'),   /* 'tagc' answered */
    kAudioFormatProperty_PanningMatrix                 = CA_FOURCC('p', 'a', 'n', 'm'),   /* 'panm' not yet */
    kAudioFormatProperty_BalanceFade                   = CA_FOURCC('b', 'a', 'l', 'f'),   /* 'balf' not yet */
    kAudioFormatProperty_ID3TagSize                    = CA_FOURCC('i', 'd', '3', 's'),   /* 'id3s' not yet */
    kAudioFormatProperty_ID3TagToDictionary            = CA_FOURCC('i', 'd', '3', 'd'),   /* 'id3d' not yet */
    kAudioFormatProperty_HardwareCodecCapabilities     = CA_FOURCC('h', 'w', 'c', 'c')    /* 'hwcc' answered: all software */
};

/* Audio Format Services' own result codes. */
CA_ENUM(OSStatus) {
    kAudioFormatUnspecifiedError           = (OSStatus)CA_FOURCC('w', 'h', 'a', 't'),   /* 'what' */
    kAudioFormatUnsupportedPropertyError   = (OSStatus)CA_FOURCC('p', 'r', 'o', 'p'),   /* 'prop' */
    kAudioFormatBadPropertySizeError       = (OSStatus)CA_FOURCC('!', 's', 'i', 'z'),   /* '!siz' */
    kAudioFormatBadSpecifierSizeError      = (OSStatus)CA_FOURCC('!', 's', 'p', 'c'),   /* '!spc' */
    kAudioFormatUnsupportedDataFormatError = (OSStatus)CA_FOURCC('f', 'm', 't', '?'),   /* 'fmt?' */
    kAudioFormatUnknownFormatError         = (OSStatus)CA_FOURCC('!', 'f', 'm', 't')    /* '!fmt' */
};

/**
 * The size in bytes of a property's value for the given specifier, in *outPropertyDataSize.
 * kAudio_ParamError when outPropertyDataSize is NULL, or a specifier size is given with a NULL
 * specifier; kAudioFormatBadSpecifierSizeError when the specifier is not the property's size;
 * kAudioFormatUnsupportedPropertyError for a property Soundstage does not answer.
 */
OSStatus AudioFormatGetPropertyInfo(AudioFormatPropertyID inPropertyID, UInt32 inSpecifierSize,
                                    const void *inSpecifier, UInt32 *outPropertyDataSize);

/**
 * A property's value. *ioPropertyDataSize is the size of outPropertyData on entry and the number
 * of bytes written on return. A fixed-size value (an AudioStreamBasicDescription, a UInt32) given
 * less room than it needs is kAudioFormatBadPropertySizeError; a list (of format IDs, ranges,
 * class descriptions) is cut to whole items that fit. Errors as AudioFormatGetPropertyInfo's, and
 * kAudio_ParamError when outPropertyData or ioPropertyDataSize is NULL.
 */
OSStatus AudioFormatGetProperty(AudioFormatPropertyID inPropertyID, UInt32 inSpecifierSize,
                                const void *inSpecifier, UInt32 *ioPropertyDataSize, void *outPropertyData);

CA_HEADER_END

#endif /* AudioToolbox_AudioFormat_h */
