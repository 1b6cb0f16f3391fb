/*
 * Audio Format Services from C, written as an iOS developer writes Core Audio C (the Core Audio
 * books' CheckError, AudioFormatGetPropertyInfo before AudioFormatGetProperty, FillOutASBDForLPCM):
 * descriptions completed by kAudioFormatProperty_FormatInfo, what this machine encodes and
 * decodes, a channel layout expanded from its tag, and every error path Apple documents.
 * The same file compiles as C99 and as C++17 (with gcc, g++, clang and clang++).
 *
 *   cc -std=c99 -Wall -Wextra -Werror -pedantic -ISources/CAudioToolbox/include Tests/C/audio_format.c \
 *      -L.build/debug -l:libSoundstageC.so -Wl,-rpath,.build/debug
 *   ./a.out
 *
 * Prints one line per test and ends with "N passed, N failed"; exits 1 when any failed.
 */
#include <AudioToolbox/AudioToolbox.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coreaudio_checks.h"

static void linear_pcm(void) {
    AudioStreamBasicDescription asbd;
    UInt32 size = sizeof(asbd);
    memset(&asbd, 0, sizeof(asbd));
    FillOutASBDForLPCM(&asbd, 44100.0, 2, 16, 16, false, false, false);
    EXPECT(asbd.mFormatID == kAudioFormatLinearPCM);
    EXPECT(asbd.mFormatFlags == (kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked));
    EXPECT(asbd.mBytesPerFrame == 4 && asbd.mBytesPerPacket == 4 && asbd.mFramesPerPacket == 1);
    EXPECT(TestAudioFormatNativeEndian(asbd));

    /* What a recorder sets before asking Core Audio to fill in the rest. */
    memset(&asbd, 0, sizeof(asbd));
    asbd.mFormatID = kAudioFormatLinearPCM;
    asbd.mFormatFlags = kAudioFormatFlagsCanonical;
    asbd.mSampleRate = 48000;
    asbd.mChannelsPerFrame = 1;
    asbd.mBitsPerChannel = 32;
    EXPECT_STATUS(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, NULL, &size, &asbd), noErr);
    EXPECT(asbd.mBytesPerFrame == 4 && asbd.mFramesPerPacket == 1 && size == sizeof(asbd));
    printf("linear PCM: %u bytes a frame\n", (unsigned)asbd.mBytesPerFrame);
}

static void compressed(void) {
    AudioStreamBasicDescription asbd;
    UInt32 size = sizeof(asbd);
    memset(&asbd, 0, sizeof(asbd));
    asbd.mFormatID = kAudioFormatMPEG4AAC;
    asbd.mSampleRate = 44100;
    asbd.mChannelsPerFrame = 2;
    EXPECT_STATUS(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, NULL, &size, &asbd), noErr);
    EXPECT(asbd.mFramesPerPacket == 1024 && asbd.mBytesPerPacket == 0);

    memset(&asbd, 0, sizeof(asbd));
    asbd.mFormatID = kAudioFormatAppleIMA4;
    asbd.mSampleRate = 22050;
    asbd.mChannelsPerFrame = 1;
    size = sizeof(asbd);
    EXPECT_STATUS(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, NULL, &size, &asbd), noErr);
    EXPECT(asbd.mFramesPerPacket == 64 && asbd.mBytesPerPacket == 34);
    printf("IMA4: %u frames in %u bytes a packet\n", (unsigned)asbd.mFramesPerPacket, (unsigned)asbd.mBytesPerPacket);
}

static void codec_lists(void) {
    UInt32 size = 0, count, i;
    AudioFormatID *ids;
    int sawPCM = 0, sawIMA4 = 0;
    EXPECT_STATUS(AudioFormatGetPropertyInfo(kAudioFormatProperty_DecodeFormatIDs, 0, NULL, &size), noErr);
    EXPECT(size > 0 && size % sizeof(AudioFormatID) == 0);
    ids = (AudioFormatID *)malloc(size);
    EXPECT_STATUS(AudioFormatGetProperty(kAudioFormatProperty_DecodeFormatIDs, 0, NULL, &size, ids), noErr);
    count = size / sizeof(AudioFormatID);
    printf("decodes %u formats:", (unsigned)count);
    for (i = 0; i < count; i++) {
        char name[16];
        FormatStatus((OSStatus)ids[i], name);
        printf(" %s", name);
        if (ids[i] == kAudioFormatLinearPCM) sawPCM = 1;
        if (ids[i] == kAudioFormatAppleIMA4) sawIMA4 = 1;
    }
    printf("\n");
    EXPECT(sawPCM && sawIMA4);
    free(ids);

    EXPECT_STATUS(AudioFormatGetPropertyInfo(kAudioFormatProperty_EncodeFormatIDs, 0, NULL, &size), noErr);
    ids = (AudioFormatID *)malloc(size);
    EXPECT_STATUS(AudioFormatGetProperty(kAudioFormatProperty_EncodeFormatIDs, 0, NULL, &size, ids), noErr);
    printf("encodes %u formats\n", (unsigned)(size / sizeof(AudioFormatID)));
    EXPECT(size >= 4 * sizeof(AudioFormatID));
    free(ids);

    {
        AudioClassDescription codecs[2];
        UInt32 usable = 0;
        codecs[0].mType = kAudioDecoderComponentType;
        codecs[0].mSubType = kAudioFormatAppleIMA4;
        codecs[0].mManufacturer = kAppleSoftwareAudioCodecManufacturer;
        codecs[1].mType = kAudioDecoderComponentType;
        codecs[1].mSubType = kAudioFormatMPEG4AAC;
        codecs[1].mManufacturer = kAppleHardwareAudioCodecManufacturer;
        size = sizeof(usable);
        EXPECT_STATUS(AudioFormatGetProperty(kAudioFormatProperty_HardwareCodecCapabilities, sizeof(codecs), codecs,
                                             &size, &usable), noErr);
        EXPECT(usable == 1);   /* the software decoder, then no hardware one */
    }
}

static void channel_layout(void) {
    AudioChannelLayoutTag tag = kAudioChannelLayoutTag_MPEG_5_1_A;
    UInt32 size = 0, channels = 0;
    AudioChannelLayout *layout;
    EXPECT_STATUS(AudioFormatGetPropertyInfo(kAudioFormatProperty_ChannelLayoutForTag, sizeof(tag), &tag, &size), noErr);
    EXPECT(size == offsetof(AudioChannelLayout, mChannelDescriptions) + 6 * sizeof(AudioChannelDescription));
    layout = (AudioChannelLayout *)calloc(1, size);
    EXPECT_STATUS(AudioFormatGetProperty(kAudioFormatProperty_ChannelLayoutForTag, sizeof(tag), &tag, &size, layout), noErr);
    EXPECT(layout->mChannelLayoutTag == kAudioChannelLayoutTag_UseChannelDescriptions);
    EXPECT(layout->mNumberChannelDescriptions == 6);
    EXPECT(layout->mChannelDescriptions[3].mChannelLabel == kAudioChannelLabel_LFEScreen);
    size = sizeof(channels);
    EXPECT_STATUS(AudioFormatGetProperty(kAudioFormatProperty_NumberOfChannelsForLayout,
                                         (UInt32)(offsetof(AudioChannelLayout, mChannelDescriptions) + 6 * sizeof(AudioChannelDescription)),
                                         layout, &size, &channels), noErr);
    EXPECT(channels == 6);
    EXPECT(AudioChannelLayoutTag_GetNumberOfChannels(tag) == 6);
    printf("5.1 (MPEG A): %u channels, the fourth is label %u\n", (unsigned)layout->mNumberChannelDescriptions,
           (unsigned)layout->mChannelDescriptions[3].mChannelLabel);
    free(layout);
}

static void error_paths(void) {
    AudioStreamBasicDescription asbd;
    UInt32 size = sizeof(asbd), value = 0;
    AudioChannelLayoutTag tag = kAudioChannelLayoutTag_Stereo;
    memset(&asbd, 0, sizeof(asbd));
    asbd.mFormatID = kAudioFormatMPEG4AAC;
    EXPECT_STATUS(AudioFormatGetPropertyInfo(kAudioFormatProperty_DecodeFormatIDs, 0, NULL, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, NULL, &size, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, NULL, NULL, &asbd), kAudio_ParamError);
    EXPECT_STATUS(AudioFormatGetPropertyInfo(kAudioFormatProperty_FormatIsVBR, sizeof(asbd), NULL, &size), kAudio_ParamError);
    size = sizeof(asbd) - 4;
    EXPECT_STATUS(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, NULL, &size, &asbd), kAudioFormatBadPropertySizeError);
    size = 1;
    EXPECT_STATUS(AudioFormatGetProperty(kAudioFormatProperty_FormatIsVBR, sizeof(asbd), &asbd, &size, &value),
                  kAudioFormatBadPropertySizeError);
    EXPECT_STATUS(AudioFormatGetPropertyInfo(kAudioFormatProperty_FormatIsVBR, 12, &asbd, &size), kAudioFormatBadSpecifierSizeError);
    EXPECT_STATUS(AudioFormatGetPropertyInfo(kAudioFormatProperty_ChannelLayoutForTag, 2, &tag, &size), kAudioFormatBadSpecifierSizeError);
    EXPECT_STATUS(AudioFormatGetPropertyInfo(CA_FOURCC('z', 'z', 'z', 'z'), 0, NULL, &size), kAudioFormatUnsupportedPropertyError);
    asbd.mFormatID = CA_FOURCC('x', 'x', 'x', 'x');
    size = sizeof(asbd);
    EXPECT_STATUS(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, NULL, &size, &asbd), kAudioFormatUnknownFormatError);
    asbd.mFormatID = kAudioFormatAC3;
    EXPECT_STATUS(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, NULL, &size, &asbd),
                  kAudioFormatUnsupportedDataFormatError);
    tag = kAudioChannelLayoutTag_UseChannelBitmap;
    EXPECT_STATUS(AudioFormatGetPropertyInfo(kAudioFormatProperty_ChannelLayoutForTag, sizeof(tag), &tag, &size), kAudio_ParamError);
    printf("error paths: Apple's codes\n");
}

/* The names a format and a layout go by, as a program shows them: new CFStrings, released. */
static void names(void) {
    AudioStreamBasicDescription asbd;
    AudioChannelLayout layout;
    CFStringRef name = NULL;
    UInt32 size = 0;
    char text[128];
    FillOutASBDForLPCM(&asbd, 44100.0, 2, 16, 16, false, false, false);
    EXPECT_STATUS(AudioFormatGetPropertyInfo(kAudioFormatProperty_FormatName, sizeof(asbd), &asbd, &size), noErr);
    EXPECT(size == sizeof(CFStringRef));
    EXPECT_STATUS(AudioFormatGetProperty(kAudioFormatProperty_FormatName, sizeof(asbd), &asbd, &size, &name), noErr);
    EXPECT(name && CFStringGetCString(name, text, sizeof(text), kCFStringEncodingUTF8) &&
           strcmp(text, "Linear PCM, 16-bit little-endian signed integer, 2 channels, 44100 Hz") == 0);
    if (name) CFRelease(name);
    memset(&layout, 0, sizeof(layout));
    layout.mChannelLayoutTag = kAudioChannelLayoutTag_Stereo;
    name = NULL;
    size = sizeof(name);
    EXPECT_STATUS(AudioFormatGetProperty(kAudioFormatProperty_ChannelLayoutName, sizeof(layout), &layout, &size, &name), noErr);
    EXPECT(name && CFStringGetCString(name, text, sizeof(text), kCFStringEncodingUTF8) && strcmp(text, "Stereo (L R)") == 0);
    if (name) CFRelease(name);
    /* Too little room for the reference: nothing made. */
    size = 2;
    EXPECT_STATUS(AudioFormatGetProperty(kAudioFormatProperty_FormatName, sizeof(asbd), &asbd, &size, &name), kAudioFormatBadPropertySizeError);
}

int main(void) {
    linear_pcm();
    compressed();
    names();
    codec_lists();
    channel_layout();
    error_paths();
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures == 0 ? 0 : 1;
}
