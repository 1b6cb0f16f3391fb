/*
 * A recorder writing AAC through Extended Audio File Services, as iOS recorders do: the file is
 * created with a format that states only 'aac ', the rate and the channels
 * (ExtAudioFileCreateWithURL), the client format is the input's (16-bit interleaved PCM), and
 * each buffer the input delivers is written, with ExtAudioFileWrite, or with ExtAudioFileWriteAsync
 * after its priming call (as an audio unit's input callback does); ExtAudioFileDispose flushes the
 * encoder and leaves the magic cookie and the packet table in the file. The "input" here is a
 * generated 440 Hz tone. Each file is then read back: Audio File Services must find the AAC packets,
 * the cookie (before the data in a CAF), 2112 frames of priming and exactly the frames written;
 * Extended Audio File Services must read those frames back, at the tone's frequency and level.
 * The same file compiles as C99 and as C++17 (gcc, g++, clang, clang++) with
 * -Wall -Wextra -Werror -pedantic.
 *
 *   cc -std=c99 -Wall -Wextra -Werror -pedantic -ISources/CAudioToolbox/include Tests/C/recorder_to_file.c \
 *      -L.build/debug -l:libSoundstageC.so -Wl,-rpath,.build/debug -lm
 *   ./a.out [directory]
 *
 * The files go in the directory given (else /tmp) and are removed at the end. Without an AAC
 * encoder (FFmpeg is loaded at run time) the program says so and records IMA4 instead. It ends
 * with "N passed, N failed" and exits 1 when any failed.
 */
#define _POSIX_C_SOURCE 200809L   /* nanosleep */
#include <AudioToolbox/AudioToolbox.h>
#include <CoreFoundation/CoreFoundation.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "coreaudio_checks.h"

enum { kRate = 44100, kChannels = 2, kBufferFrames = 1024, kBuffers = 100 };

/* The recorder's state: the file, and where the input is. */
typedef struct Recorder {
    ExtAudioFileRef file;
    UInt32 framesDelivered;
    double phase;
} Recorder;

/* One input buffer: 16-bit stereo, a 440 Hz tone at half scale. */
static void FillInput(Recorder *recorder, SInt16 *samples, UInt32 frames) {
    UInt32 i;
    for (i = 0; i < frames; i++) {
        SInt16 v = (SInt16)lrint(16384.0 * sin(recorder->phase));
        samples[2 * i] = v;
        samples[2 * i + 1] = v;
        recorder->phase += 2 * 3.14159265358979 * 440.0 / kRate;
    }
    recorder->framesDelivered += frames;
}

/* Records kBuffers buffers to a new file; returns the status that ended it. */
static OSStatus Record(const char *path, AudioFileTypeID type, AudioFormatID formatID, int async) {
    Recorder recorder;
    AudioStreamBasicDescription fileFormat, clientFormat;
    CFURLRef url;
    SInt16 buffer[kBufferFrames * kChannels];
    AudioBufferList list;
    OSStatus status;
    int i;

    memset(&recorder, 0, sizeof recorder);
    /* The file's format: the recorder names the codec, the rate and the channels; the rest is the codec's. */
    memset(&fileFormat, 0, sizeof fileFormat);
    fileFormat.mFormatID = formatID;
    fileFormat.mSampleRate = kRate;
    fileFormat.mChannelsPerFrame = kChannels;
    url = CFURLCreateFromFileSystemRepresentation(kCFAllocatorDefault, (const UInt8 *)path, (CFIndex)strlen(path), false);
    status = ExtAudioFileCreateWithURL(url, type, &fileFormat, NULL, kAudioFileFlags_EraseFile, &recorder.file);
    CFRelease(url);
    if (status != noErr) return status;

    /* The input's format: what the microphone's audio unit delivers. */
    FillOutASBDForLPCM(&clientFormat, kRate, kChannels, 16, 16, false, false, false);
    EXPECT_STATUS(ExtAudioFileSetProperty(recorder.file, kExtAudioFileProperty_ClientDataFormat, sizeof clientFormat, &clientFormat), noErr);
    if (formatID == kAudioFormatMPEG4AAC) {
        /* The bit rate, set on the file's converter as iOS recorders set it. */
        AudioConverterRef converter = NULL;
        UInt32 size = sizeof converter, bitRate = 96000;
        CFArrayRef config = NULL;
        EXPECT_STATUS(ExtAudioFileGetProperty(recorder.file, kExtAudioFileProperty_AudioConverter, &size, &converter), noErr);
        EXPECT(converter != NULL);
        EXPECT_STATUS(AudioConverterSetProperty(converter, kAudioConverterEncodeBitRate, sizeof bitRate, &bitRate), noErr);
        EXPECT_STATUS(ExtAudioFileSetProperty(recorder.file, kExtAudioFileProperty_ConverterConfig, sizeof config, &config), noErr);
    }
    if (async) EXPECT_STATUS(ExtAudioFileWriteAsync(recorder.file, 0, NULL), noErr);   /* priming: from here on, callback-safe */

    list.mNumberBuffers = 1;
    list.mBuffers[0].mNumberChannels = kChannels;
    list.mBuffers[0].mDataByteSize = sizeof buffer;
    list.mBuffers[0].mData = buffer;
    for (i = 0; i < kBuffers; i++) {
        FillInput(&recorder, buffer, kBufferFrames);
        if (async) {
            while ((status = ExtAudioFileWriteAsync(recorder.file, kBufferFrames, &list)) == kExtAudioFileError_AsyncWriteBufferOverflow) {
                struct timespec pause;   /* the writing thread has not kept up: a real callback would lose this buffer */
                pause.tv_sec = 0;
                pause.tv_nsec = 1000000;
                nanosleep(&pause, NULL);
            }
        } else {
            status = ExtAudioFileWrite(recorder.file, kBufferFrames, &list);
        }
        EXPECT_STATUS(status, noErr);
    }
    {
        SInt64 written = 0;
        EXPECT_STATUS(ExtAudioFileTell(recorder.file, &written), noErr);
        if (!async) EXPECT(written == (SInt64)recorder.framesDelivered);
    }
    return ExtAudioFileDispose(recorder.file);
}

/* Reads a recording back, with Audio File Services and then Extended Audio File Services. */
static void Check(const char *path, AudioFormatID formatID) {
    CFURLRef url = CFURLCreateFromFileSystemRepresentation(kCFAllocatorDefault, (const UInt8 *)path, (CFIndex)strlen(path), false);
    AudioFileID fileID = NULL;
    ExtAudioFileRef file = NULL;
    AudioStreamBasicDescription format, client;
    AudioFilePacketTableInfo table;
    UInt32 size, cookieSize = 0;
    SInt64 length = 0;
    Float32 *samples;
    const UInt32 expected = kBufferFrames * kBuffers;

    EXPECT_STATUS(AudioFileOpenURL(url, kAudioFileReadPermission, 0, &fileID), noErr);
    if (fileID) {
        size = sizeof format;
        EXPECT_STATUS(AudioFileGetProperty(fileID, kAudioFilePropertyDataFormat, &size, &format), noErr);
        EXPECT(format.mFormatID == formatID && format.mChannelsPerFrame == kChannels && format.mSampleRate == kRate);
        if (formatID == kAudioFormatMPEG4AAC) {
            EXPECT_STATUS(AudioFileGetPropertyInfo(fileID, kAudioFilePropertyMagicCookieData, &cookieSize, NULL), noErr);
            EXPECT(cookieSize > 0);
        }
        size = sizeof table;
        EXPECT_STATUS(AudioFileGetProperty(fileID, kAudioFilePropertyPacketTableInfo, &size, &table), noErr);
        EXPECT(table.mNumberValidFrames == expected);
        EXPECT(table.mPrimingFrames == (formatID == kAudioFormatMPEG4AAC ? 2112 : 0));
        AudioFileClose(fileID);
    }

    EXPECT_STATUS(ExtAudioFileOpenURL(url, &file), noErr);
    CFRelease(url);
    if (!file) return;
    size = sizeof length;
    EXPECT_STATUS(ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileLengthFrames, &size, &length), noErr);
    EXPECT(length == expected);
    FillOutASBDForLPCM(&client, kRate, 1, 32, 32, true, false, false);   /* mono float: the channels' mean */
    EXPECT_STATUS(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, sizeof client, &client), noErr);
    samples = (Float32 *)calloc(expected + 100, sizeof(Float32));
    {
        AudioBufferList list;
        UInt32 frames = expected + 100, i, crossings = 0, first = 0, last = 0;
        double sum = 0, frequency;
        list.mNumberBuffers = 1;
        list.mBuffers[0].mNumberChannels = 1;
        list.mBuffers[0].mDataByteSize = (expected + 100) * sizeof(Float32);
        list.mBuffers[0].mData = samples;
        EXPECT_STATUS(ExtAudioFileRead(file, &frames, &list), noErr);
        EXPECT(frames == expected);   /* exactly the frames recorded: the priming and the padding are not read */
        for (i = 4096; i + 4096 < frames; i++) {
            sum += samples[i] * samples[i];
            if (samples[i - 1] < 0 && samples[i] >= 0) {
                if (!crossings) first = i;
                last = i;
                crossings++;
            }
        }
        frequency = crossings > 1 ? (crossings - 1) / ((last - first) / (double)kRate) : 0;
        printf("%s: %u frames, %.2f Hz, RMS %.4f (a half-scale sine's is 0.3536)\n", path, (unsigned)frames, frequency,
               sqrt(sum / (frames - 8192)));
        EXPECT(fabs(frequency - 440) < 1);
        EXPECT(fabs(20 * log10(sqrt(sum / (frames - 8192)) / 0.35355)) < 1);   /* level within 1 dB */
    }
    free(samples);
    EXPECT_STATUS(ExtAudioFileDispose(file), noErr);
}

int main(int argc, char **argv) {
    const char *directory = argc > 1 ? argv[1] : "/tmp";
    char m4a[512], caf[512];
    AudioFormatID codec = kAudioFormatMPEG4AAC;
    OSStatus status;

    snprintf(m4a, sizeof m4a, "%s/recording_%d.m4a", directory, (int)getpid());
    snprintf(caf, sizeof caf, "%s/recording_%d.caf", directory, (int)getpid());
    status = Record(m4a, kAudioFileM4AType, codec, 0);
    if (status == kAudioConverterErr_FormatNotSupported) {
        printf("no AAC encoder here (FFmpeg 5.1 is loaded at run time): recording IMA4 in CAF files instead\n");
        codec = kAudioFormatAppleIMA4;
        snprintf(m4a, sizeof m4a, "%s/recording_%d_ima4.caf", directory, (int)getpid());
        status = Record(m4a, kAudioFileCAFType, codec, 0);
    }
    EXPECT_STATUS(status, noErr);
    EXPECT_STATUS(Record(caf, kAudioFileCAFType, codec, 1), noErr);   /* the callback's way: WriteAsync */
    Check(m4a, codec);
    Check(caf, codec);
    unlink(m4a);
    unlink(caf);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures == 0 ? 0 : 1;
}
