/*
 * AudioToolbox/AudioCodec.h — the codec class identifiers that Audio Format Services' codec
 * properties (kAudioFormatProperty_Encoders, _Decoders, _HardwareCodecCapabilities) speak in.
 * Written for Soundstage from Apple's published documentation. Only these constants for now:
 * the AudioCodec component API itself is not offered (every codec here is Soundstage's own).
 */
#ifndef AudioToolbox_AudioCodec_h
#define AudioToolbox_AudioCodec_h

#include <CoreAudio/CoreAudioTypes.h>

CA_HEADER_BEGIN

CA_ENUM(OSType) {
    kAudioDecoderComponentType = CA_FOURCC('a', 'd', 'e', 'c'),   /* 'adec' */
    kAudioEncoderComponentType = CA_FOURCC('a', 'e', 'n', 'c'),   /* 'aenc' */
    kAudioUnityCodecComponentType = CA_FOURCC('a', 'c', 'd', 'c') /* 'acdc' */
};

CA_ENUM(OSType) {
    kAppleSoftwareAudioCodecManufacturer = CA_FOURCC('a', 'p', 'p', 'l'),   /* 'appl' */
    kAppleHardwareAudioCodecManufacturer = CA_FOURCC('a', 'p', 'h', 'w')    /* 'aphw' */
};

CA_HEADER_END

#endif /* AudioToolbox_AudioCodec_h */
