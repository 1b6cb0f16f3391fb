/*
 * An OpenAL game's sound loader as iOS games wrote it (Apple's oalTouch "MyGetOpenALAudioData"
 * and the SoundEngine built on it): Extended Audio File Services opens any file the device reads,
 * the client format is 16-bit native-endian interleaved PCM at the file's own rate and channels,
 * kExtAudioFileProperty_FileLengthFrames sizes one buffer, and one ExtAudioFileRead fills it; the
 * data, its AL_FORMAT_MONO16 or AL_FORMAT_STEREO16 and its rate are what the game hands to
 * alBufferData. The same file compiles as C99 and as C++17 (gcc, g++, clang, clang++) with
 * -Wall -Wextra -Werror -pedantic; it uses OpenAL's types and constants only (no OpenAL call, no
 * device needed).
 *
 *   cc -std=c99 -Wall -Wextra -Werror -pedantic -ISources/CAudioToolbox/include Tests/C/openal_loader.c \
 *      -L.build/debug -l:libSoundstageC.so -Wl,-rpath,.build/debug -lm
 *   ./a.out [file ...]
 *
 * It first loads a WAVE file it writes itself (a 16-bit mono ramp: every sample checked), then
 * each file named, each of which must hold one second of a sine (any rate, mono or stereo, PCM or
 * compressed): the frames loaded must be the rate's count exactly (priming trimmed) and the tone
 * must be there. It ends with "N passed, N failed" and exits 1 when any failed.
 */
#include <AudioToolbox/AudioToolbox.h>
#include <CoreFoundation/CoreFoundation.h>
#if defined(__APPLE__)
#include <OpenAL/al.h>
#else
#include <AL/al.h>
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coreaudio_checks.h"

/* The loader, as the games have it: NULL when the file cannot be loaded. */
static void *MyGetOpenALAudioData(CFURLRef inFileURL, ALsizei *outDataSize, ALenum *outDataFormat, ALsizei *outSampleRate) {
    OSStatus err = noErr;
    SInt64 theFileLengthInFrames = 0;
    AudioStreamBasicDescription theFileFormat;
    UInt32 thePropertySize = sizeof(theFileFormat);
    ExtAudioFileRef extRef = NULL;
    void *theData = NULL;
    AudioStreamBasicDescription theOutputFormat;

    /* Open a file with ExtAudioFileOpen() */
    err = ExtAudioFileOpenURL(inFileURL, &extRef);
    if (err) { printf("MyGetOpenALAudioData: ExtAudioFileOpenURL FAILED, Error = %d\n", (int)err); goto Exit; }

    /* Get the audio data format */
    err = ExtAudioFileGetProperty(extRef, kExtAudioFileProperty_FileDataFormat, &thePropertySize, &theFileFormat);
    if (err) { printf("MyGetOpenALAudioData: ExtAudioFileGetProperty(kExtAudioFileProperty_FileDataFormat) FAILED, Error = %d\n", (int)err); goto Exit; }
    if (theFileFormat.mChannelsPerFrame > 2) { printf("MyGetOpenALAudioData - Unsupported Format, channel count is greater than stereo\n"); goto Exit; }

    /* Set the client format to 16 bit signed integer (native-endian) data */
    /* Maintain the channel count and sample rate of the original source format */
    memset(&theOutputFormat, 0, sizeof theOutputFormat);
    theOutputFormat.mSampleRate = theFileFormat.mSampleRate;
    theOutputFormat.mChannelsPerFrame = theFileFormat.mChannelsPerFrame;
    theOutputFormat.mFormatID = kAudioFormatLinearPCM;
    theOutputFormat.mBytesPerPacket = 2 * theOutputFormat.mChannelsPerFrame;
    theOutputFormat.mFramesPerPacket = 1;
    theOutputFormat.mBytesPerFrame = 2 * theOutputFormat.mChannelsPerFrame;
    theOutputFormat.mBitsPerChannel = 16;
    theOutputFormat.mFormatFlags = kAudioFormatFlagsNativeEndian | kAudioFormatFlagIsPacked | kAudioFormatFlagIsSignedInteger;

    /* Set the desired client (output) data format */
    err = ExtAudioFileSetProperty(extRef, kExtAudioFileProperty_ClientDataFormat, sizeof(theOutputFormat), &theOutputFormat);
    if (err) { printf("MyGetOpenALAudioData: ExtAudioFileSetProperty(kExtAudioFileProperty_ClientDataFormat) FAILED, Error = %d\n", (int)err); goto Exit; }

    /* Get the total frame count */
    thePropertySize = sizeof(theFileLengthInFrames);
    err = ExtAudioFileGetProperty(extRef, kExtAudioFileProperty_FileLengthFrames, &thePropertySize, &theFileLengthInFrames);
    if (err) { printf("MyGetOpenALAudioData: ExtAudioFileGetProperty(kExtAudioFileProperty_FileLengthFrames) FAILED, Error = %d\n", (int)err); goto Exit; }

    /* Read all the data into memory */
    {
        UInt32 dataSize = (UInt32)(theFileLengthInFrames * theOutputFormat.mBytesPerFrame);
        theData = malloc(dataSize);
        if (theData) {
            AudioBufferList theDataBuffer;
            /* Apple's sample passes (UInt32 *)&theFileLengthInFrames; a UInt32 of its own is the
               same on a little-endian machine and does not alias an SInt64. */
            UInt32 ioFrames = (UInt32)theFileLengthInFrames;
            theDataBuffer.mNumberBuffers = 1;
            theDataBuffer.mBuffers[0].mDataByteSize = dataSize;
            theDataBuffer.mBuffers[0].mNumberChannels = theOutputFormat.mChannelsPerFrame;
            theDataBuffer.mBuffers[0].mData = theData;

            /* Read the data into an AudioBufferList */
            err = ExtAudioFileRead(extRef, &ioFrames, &theDataBuffer);
            if (err == noErr && ioFrames == (UInt32)theFileLengthInFrames) {
                /* success */
                *outDataSize = (ALsizei)dataSize;
                *outDataFormat = (theOutputFormat.mChannelsPerFrame > 1) ? AL_FORMAT_STEREO16 : AL_FORMAT_MONO16;
                *outSampleRate = (ALsizei)theOutputFormat.mSampleRate;
            } else {
                /* failure */
                free(theData);
                theData = NULL; /* make sure to return NULL */
                printf("MyGetOpenALAudioData: ExtAudioFileRead FAILED, Error = %d, %u of %lld frames\n", (int)err, (unsigned)ioFrames,
                       (long long)theFileLengthInFrames);
                goto Exit;
            }
        }
    }

Exit:
    /* Dispose the ExtAudioFileRef, it is no longer needed */
    if (extRef) ExtAudioFileDispose(extRef);
    return theData;
}

/* A 16-bit mono WAVE file of `frames` samples, written by hand (the loader must not be what wrote it). */
static int WriteWave(const char *path, const SInt16 *samples, UInt32 frames, UInt32 rate) {
    unsigned char header[44];
    UInt32 dataBytes = frames * 2, i;
    UInt32 fields[] = {36 + dataBytes, 16, 0, rate, rate * 2, 0, dataBytes};
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    memcpy(header, "RIFF\0\0\0\0WAVEfmt \0\0\0\0\1\0\1\0\0\0\0\0\0\0\0\0\2\0\20\0data\0\0\0\0", 44);
    for (i = 0; i < 4; i++) {
        header[4 + i] = (unsigned char)(fields[0] >> (8 * i));
        header[16 + i] = (unsigned char)(fields[1] >> (8 * i));
        header[24 + i] = (unsigned char)(fields[3] >> (8 * i));
        header[28 + i] = (unsigned char)(fields[4] >> (8 * i));
        header[40 + i] = (unsigned char)(fields[6] >> (8 * i));
    }
    fwrite(header, 1, sizeof header, f);
    for (i = 0; i < frames; i++) {
        unsigned char b[2];
        b[0] = (unsigned char)(samples[i] & 0xFF);
        b[1] = (unsigned char)(((UInt16)samples[i]) >> 8);
        fwrite(b, 1, 2, f);
    }
    return fclose(f) == 0;
}

/* A URL for a path, as a game builds one from its bundle's path. */
static CFURLRef URLForPath(const char *path) {
    return CFURLCreateFromFileSystemRepresentation(kCFAllocatorDefault, (const UInt8 *)path, (CFIndex)strlen(path), false);
}

/* The loader on a WAVE file of known samples: every one comes back. */
static void LoadOwnWave(void) {
    enum { kFrames = 22050 };
    static SInt16 samples[kFrames];
    char path[64];
    CFURLRef url;
    ALsizei size = 0, rate = 0;
    ALenum format = 0;
    SInt16 *data;
    UInt32 i;
    int same = 1;

    for (i = 0; i < kFrames; i++) samples[i] = (SInt16)((int)(i * 3) % 65536 - 32768);
    snprintf(path, sizeof path, "/tmp/openal_loader_%d.wav", (int)getpid());
    EXPECT(WriteWave(path, samples, kFrames, 22050));
    url = URLForPath(path);
    data = (SInt16 *)MyGetOpenALAudioData(url, &size, &format, &rate);
    CFRelease(url);
    EXPECT(data != NULL);
    EXPECT(size == kFrames * 2 && format == AL_FORMAT_MONO16 && rate == 22050);
    if (data) {
        for (i = 0; i < kFrames; i++) if (data[i] != samples[i]) same = 0;
        EXPECT(same);
    }
    free(data);
    unlink(path);

    /* What the loader gets wrong gives NULL, not a crash; the open says why. */
    url = URLForPath("/nonexistent/sound.caf");
    EXPECT(MyGetOpenALAudioData(url, &size, &format, &rate) == NULL);
    {
        ExtAudioFileRef missing = NULL;
        EXPECT_STATUS(ExtAudioFileOpenURL(url, &missing), kAudioFileFileNotFoundError);
        EXPECT(missing == NULL);
    }
    CFRelease(url);
}

/* The loader on a file that holds one second of a sine. */
static void LoadSine(const char *path) {
    CFURLRef url = URLForPath(path);
    ALsizei size = 0, rate = 0, frames, i;
    ALenum format = 0;
    SInt16 *data = (SInt16 *)MyGetOpenALAudioData(url, &size, &format, &rate);
    CFRelease(url);
    EXPECT(data != NULL);
    if (!data) return;
    {
        int channels = format == AL_FORMAT_STEREO16 ? 2 : 1;
        double sum = 0, first = -1, last = -1, crossings = 0, frequency;
        frames = size / (2 * channels);
        for (i = 0; i < frames; i++) {
            double v = data[i * channels] / 32768.0;
            sum += v * v;
            if (i > 0 && data[(i - 1) * channels] < 0 && data[i * channels] >= 0) {
                if (first < 0) first = i;
                last = i;
                crossings += 1;
            }
        }
        frequency = crossings > 1 ? (crossings - 1) / ((last - first) / (double)rate) : 0;
        printf("%s: %s, %d Hz: %d frames, RMS %.3f, %.1f Hz\n", path, channels == 2 ? "AL_FORMAT_STEREO16" : "AL_FORMAT_MONO16", (int)rate,
               (int)frames, sqrt(sum / frames), frequency);
        EXPECT(frames == rate);   /* one second, to the frame: an AAC file's priming is not in the data */
        EXPECT(sqrt(sum / frames) > 0.05);
        EXPECT(frequency > 100 && frequency < 5000);
    }
    free(data);
}

int main(int argc, char **argv) {
    int i;
    LoadOwnWave();
    for (i = 1; i < argc; i++) LoadSine(argv[i]);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures == 0 ? 0 : 1;
}
