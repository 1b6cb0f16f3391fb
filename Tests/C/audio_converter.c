/*
 * Audio Converter Services from C, written as the Core Audio books write their command-line
 * converter: a file opened by path with AudioFileOpenURL, its description, magic cookie and packet
 * table read, an AudioConverter to interleaved 16-bit PCM, and AudioConverterFillComplexBuffer
 * pulling packets through an input procedure that reads them with AudioFileReadPacketData. The
 * program also converts PCM it makes itself (exactly), resamples it, and checks the error codes.
 * The same file compiles as C99 and as C++17 (gcc, g++, clang, clang++) with
 * -Wall -Wextra -Werror -pedantic.
 *
 *   cc -std=c99 -Wall -Wextra -Werror -pedantic -ISources/CAudioToolbox/include Tests/C/audio_converter.c \
 *      -L.build/debug -l:libSoundstageC.so -Wl,-rpath,.build/debug -lm
 *   ./a.out [file ...]
 *
 * For each file it prints one line (format, frames decoded, priming, RMS) and checks that the
 * decoded length covers the packet table's frames and that the audio is there; it ends with
 * "N passed, N failed" and exits 1 when any failed.
 */
#include <AudioToolbox/AudioToolbox.h>
#include <CoreFoundation/CoreFoundation.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coreaudio_checks.h"

/* What the input procedure reads from: the books' "AudioConverterSettings". */
typedef struct ConverterSettings {
    AudioFileID inputFile;
    SInt64 inputFilePacketIndex;
    SInt64 inputFilePacketCount;
    UInt32 inputFilePacketMaxSize;
    AudioStreamPacketDescription *inputFilePacketDescriptions;
    void *sourceBuffer;
} ConverterSettings;

/* The input procedure: one call, up to the packets asked for, read from the file. */
static OSStatus ConverterInputProc(AudioConverterRef inAudioConverter, UInt32 *ioNumberDataPackets, AudioBufferList *ioData,
                                   AudioStreamPacketDescription **outDataPacketDescription, void *inUserData) {
    ConverterSettings *settings = (ConverterSettings *)inUserData;
    UInt32 outByteSize;
    OSStatus result;
    (void)inAudioConverter;
    if (settings->inputFilePacketIndex + *ioNumberDataPackets > settings->inputFilePacketCount) {
        *ioNumberDataPackets = (UInt32)(settings->inputFilePacketCount - settings->inputFilePacketIndex);
    }
    if (*ioNumberDataPackets == 0) return noErr;   /* the end of the stream */
    if (*ioNumberDataPackets > 64) *ioNumberDataPackets = 64;

    free(settings->sourceBuffer);
    settings->sourceBuffer = calloc(1, (size_t)(*ioNumberDataPackets * settings->inputFilePacketMaxSize));
    outByteSize = *ioNumberDataPackets * settings->inputFilePacketMaxSize;
    result = AudioFileReadPacketData(settings->inputFile, true, &outByteSize, settings->inputFilePacketDescriptions,
                                     settings->inputFilePacketIndex, ioNumberDataPackets, settings->sourceBuffer);
    if (result == kAudioFileEndOfFileError && *ioNumberDataPackets) result = noErr;
    else if (result != noErr) return result;

    settings->inputFilePacketIndex += *ioNumberDataPackets;
    ioData->mBuffers[0].mData = settings->sourceBuffer;
    ioData->mBuffers[0].mDataByteSize = outByteSize;
    if (outDataPacketDescription) *outDataPacketDescription = settings->inputFilePacketDescriptions;
    return result;
}

/* Decodes a file to 16-bit PCM as the books' converter does; prints what it found. */
static void ConvertFile(const char *path) {
    ConverterSettings settings;
    AudioStreamBasicDescription inputFormat, outputFormat;
    AudioConverterRef converter = NULL;
    AudioFilePacketTableInfo table;
    CFURLRef url;
    UInt32 size, cookieSize = 0, packetsPerBuffer = 4096;
    SInt16 *outputBuffer;
    AudioBufferList convertedData;
    double sum = 0;
    SInt64 frames = 0;
    int hasTable;
    OSStatus status;

    memset(&settings, 0, sizeof settings);
    url = CFURLCreateFromFileSystemRepresentation(kCFAllocatorDefault, (const UInt8 *)path, (CFIndex)strlen(path), false);
    EXPECT(url != NULL);
    EXPECT_STATUS(AudioFileOpenURL(url, kAudioFileReadPermission, 0, &settings.inputFile), noErr);
    CFRelease(url);
    if (!settings.inputFile) return;

    size = sizeof inputFormat;
    EXPECT_STATUS(AudioFileGetProperty(settings.inputFile, kAudioFilePropertyDataFormat, &size, &inputFormat), noErr);
    size = sizeof settings.inputFilePacketCount;
    EXPECT_STATUS(AudioFileGetProperty(settings.inputFile, kAudioFilePropertyAudioDataPacketCount, &size, &settings.inputFilePacketCount), noErr);
    size = sizeof settings.inputFilePacketMaxSize;
    EXPECT_STATUS(AudioFileGetProperty(settings.inputFile, kAudioFilePropertyMaximumPacketSize, &size, &settings.inputFilePacketMaxSize), noErr);
    size = sizeof table;
    hasTable = AudioFileGetProperty(settings.inputFile, kAudioFilePropertyPacketTableInfo, &size, &table) == noErr;

    /* Interleaved 16-bit PCM at the file's rate and channels. */
    memset(&outputFormat, 0, sizeof outputFormat);
    outputFormat.mSampleRate = inputFormat.mSampleRate;
    outputFormat.mFormatID = kAudioFormatLinearPCM;
    outputFormat.mFormatFlags = kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked;
    outputFormat.mBytesPerPacket = 2 * inputFormat.mChannelsPerFrame;
    outputFormat.mFramesPerPacket = 1;
    outputFormat.mBytesPerFrame = 2 * inputFormat.mChannelsPerFrame;
    outputFormat.mChannelsPerFrame = inputFormat.mChannelsPerFrame;
    outputFormat.mBitsPerChannel = 16;
    EXPECT_STATUS(AudioConverterNew(&inputFormat, &outputFormat, &converter), noErr);
    if (!converter) {
        AudioFileClose(settings.inputFile);
        return;
    }

    /* The cookie, when the file has one (AAC, Apple Lossless). */
    if (AudioFileGetPropertyInfo(settings.inputFile, kAudioFilePropertyMagicCookieData, &cookieSize, NULL) == noErr && cookieSize > 0) {
        void *cookie = malloc(cookieSize);
        EXPECT_STATUS(AudioFileGetProperty(settings.inputFile, kAudioFilePropertyMagicCookieData, &cookieSize, cookie), noErr);
        EXPECT_STATUS(AudioConverterSetProperty(converter, kAudioConverterDecompressionMagicCookie, cookieSize, cookie), noErr);
        free(cookie);
    }
    if (inputFormat.mBytesPerPacket == 0) {
        settings.inputFilePacketDescriptions = (AudioStreamPacketDescription *)malloc(sizeof(AudioStreamPacketDescription) * 64);
    }

    outputBuffer = (SInt16 *)malloc((size_t)packetsPerBuffer * outputFormat.mBytesPerPacket);
    for (;;) {
        UInt32 ioOutputDataPackets = packetsPerBuffer;
        UInt32 i;
        convertedData.mNumberBuffers = 1;
        convertedData.mBuffers[0].mNumberChannels = inputFormat.mChannelsPerFrame;
        convertedData.mBuffers[0].mDataByteSize = packetsPerBuffer * outputFormat.mBytesPerPacket;
        convertedData.mBuffers[0].mData = outputBuffer;
        status = AudioConverterFillComplexBuffer(converter, ConverterInputProc, &settings, &ioOutputDataPackets, &convertedData,
                                                 settings.inputFilePacketDescriptions ? settings.inputFilePacketDescriptions : NULL);
        EXPECT_STATUS(status, noErr);
        if (status != noErr || ioOutputDataPackets == 0) break;
        EXPECT(convertedData.mBuffers[0].mDataByteSize == ioOutputDataPackets * outputFormat.mBytesPerPacket);
        for (i = 0; i < ioOutputDataPackets * outputFormat.mChannelsPerFrame; i++) sum += (double)outputBuffer[i] * outputBuffer[i];
        frames += ioOutputDataPackets;
    }
    {
        char format[16];
        double rms = frames > 0 ? sqrt(sum / (double)(frames * outputFormat.mChannelsPerFrame)) / 32768.0 : 0;
        SInt64 wanted = hasTable ? table.mPrimingFrames + table.mNumberValidFrames : frames;
        FormatStatus((OSStatus)inputFormat.mFormatID, format);
        printf("%s: %s, %.0f Hz, %u channels: %lld frames decoded (priming %d), RMS %.3f\n", path, format, inputFormat.mSampleRate,
               (unsigned)inputFormat.mChannelsPerFrame, (long long)frames, hasTable ? (int)table.mPrimingFrames : 0, rms);
        EXPECT(frames >= wanted);
        EXPECT(rms > 0.05);
    }

    EXPECT_STATUS(AudioConverterDispose(converter), noErr);
    EXPECT_STATUS(AudioFileClose(settings.inputFile), noErr);
    free(outputBuffer);
    free(settings.sourceBuffer);
    free(settings.inputFilePacketDescriptions);
}

/* PCM the program makes: a sine, 16-bit stereo. */
typedef struct PCMSource {
    const SInt16 *samples;
    UInt32 frames;
    UInt32 position;
} PCMSource;

static OSStatus PCMInputProc(AudioConverterRef inAudioConverter, UInt32 *ioNumberDataPackets, AudioBufferList *ioData,
                             AudioStreamPacketDescription **outDataPacketDescription, void *inUserData) {
    PCMSource *source = (PCMSource *)inUserData;
    UInt32 count = *ioNumberDataPackets;
    (void)inAudioConverter;
    (void)outDataPacketDescription;
    if (count > source->frames - source->position) count = source->frames - source->position;
    ioData->mBuffers[0].mData = (void *)(source->samples + 2 * source->position);
    ioData->mBuffers[0].mDataByteSize = count * 4;
    ioData->mBuffers[0].mNumberChannels = 2;
    source->position += count;
    *ioNumberDataPackets = count;
    return noErr;
}

static void ConvertPCM(void) {
    enum { kFrames = 4410 };
    static SInt16 samples[kFrames * 2];
    static Float32 floats[kFrames * 2];
    static SInt16 back[kFrames * 2];
    static SInt16 resampled[5000 * 2];
    AudioStreamBasicDescription int16Format, floatFormat, rate48;
    AudioConverterRef toFloat = NULL, toInt = NULL, resampler = NULL;
    UInt32 size, i, quality = kAudioConverterQuality_Max, total = 0;
    PCMSource source;
    int exact = 1;

    for (i = 0; i < kFrames; i++) {
        samples[2 * i] = (SInt16)(16000.0 * sin(2 * 3.14159265358979 * 440.0 * i / 44100.0));
        samples[2 * i + 1] = (SInt16)((int)(i * 7 % 65536) - 32768);
    }
    FillOutASBDForLPCM(&int16Format, 44100, 2, 16, 16, false, false, false);
    FillOutASBDForLPCM(&floatFormat, 44100, 2, 32, 32, true, false, false);
    EXPECT_STATUS(AudioConverterNew(&int16Format, &floatFormat, &toFloat), noErr);
    EXPECT_STATUS(AudioConverterNew(&floatFormat, &int16Format, &toInt), noErr);
    size = sizeof floats;
    EXPECT_STATUS(AudioConverterConvertBuffer(toFloat, sizeof samples, samples, &size, floats), noErr);
    EXPECT(size == sizeof floats);
    size = sizeof back;
    EXPECT_STATUS(AudioConverterConvertBuffer(toInt, sizeof floats, floats, &size, back), noErr);
    for (i = 0; i < kFrames * 2; i++) {
        if (back[i] != samples[i] || floats[i] != (Float32)samples[i] / 32768.0f) exact = 0;
    }
    EXPECT(exact);

    /* 44.1 kHz to 48 kHz through the input procedure, at the best quality. */
    rate48 = int16Format;
    rate48.mSampleRate = 48000;
    EXPECT_STATUS(AudioConverterNew(&int16Format, &rate48, &resampler), noErr);
    EXPECT_STATUS(AudioConverterSetProperty(resampler, kAudioConverterSampleRateConverterQuality, sizeof quality, &quality), noErr);
    EXPECT_STATUS(AudioConverterConvertBuffer(resampler, sizeof samples, samples, &size, back), kAudioConverterErr_OperationNotSupported);
    source.samples = samples;
    source.frames = kFrames;
    source.position = 0;
    for (;;) {
        AudioBufferList list;
        UInt32 packets = 1000;
        list.mNumberBuffers = 1;
        list.mBuffers[0].mNumberChannels = 2;
        list.mBuffers[0].mDataByteSize = packets * 4;
        list.mBuffers[0].mData = resampled + 2 * (total < 4000 ? total : 4000);
        EXPECT_STATUS(AudioConverterFillComplexBuffer(resampler, PCMInputProc, &source, &packets, &list, NULL), noErr);
        if (packets == 0) break;
        total += packets;
    }
    EXPECT(total == 4800);   /* 4410 frames at 44.1 kHz are 4800 at 48 kHz, to the frame */

    /* Apple's codes, never a crash. */
    EXPECT_STATUS(AudioConverterDispose(resampler), noErr);
    EXPECT_STATUS(AudioConverterReset(resampler), kAudio_ParamError);
    EXPECT_STATUS(AudioConverterNew(NULL, &int16Format, &resampler), kAudio_ParamError);
    size = 2;
    EXPECT_STATUS(AudioConverterGetProperty(toFloat, kAudioConverterSampleRateConverterQuality, &size, &quality), kAudioConverterErr_BadPropertySizeError);
    EXPECT_STATUS(AudioConverterDispose(toFloat), noErr);
    EXPECT_STATUS(AudioConverterDispose(toInt), noErr);
}

int main(int argc, char **argv) {
    int i;
    ConvertPCM();
    for (i = 1; i < argc; i++) ConvertFile(argv[i]);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures == 0 ? 0 : 1;
}
