/*
 * A sound orbiting the listener, as the Core Audio books teach OpenAL on the Mac and iOS: the
 * file is loaded whole through Extended Audio File Services (ExtAudioFileOpenURL, a client format
 * of 16-bit native-endian mono PCM at the file's own rate, since OpenAL positions mono sounds
 * only; kExtAudioFileProperty_FileLengthFrames sizes the buffer; ExtAudioFileRead fills it in a
 * loop), handed to alBufferData, played looped from one source, and moved around the listener
 * on an ellipse (x = 3 cos t, y = 0.5 sin t, z = sin t: the right at t = 0, in front at pi/2,
 * the left at pi) by the main loop, which runs its run loop for a tenth of a second
 * (CFRunLoopRunInMode) between moves: the audio system, attached to the main run loop once the
 * program has made an OpenAL context (as on a Mac), keeps that call waiting, so the source moves
 * ten times a second. The same file compiles as C99 and as C++17 with -Wall -Wextra -Werror -pedantic.
 *
 *   cc -std=c99 -Wall -Wextra -Werror -pedantic -ISources/CAudioToolbox/include Tests/C/openal_orbit.c \
 *      -L.build/debug -l:libSoundstageC.so -Wl,-rpath,.build/debug -lopenal -lm
 *   ./a.out FILE SECONDS [RADIANS-PER-SECOND]
 *
 * It plays on OpenAL's default device for SECONDS, one orbit every 2 pi / RADIANS-PER-SECOND
 * seconds (default 1, as the books' program), and prints "loaded N frames at R Hz" and, at each
 * move, "at T x X z Z" (T seconds after alSourcePlay), so that a test can follow the sound from
 * side to side in what the device played (CProgramTests renders it with OpenAL Soft's wave
 * writer). It exits 1 when a call fails.
 */
#include <AudioToolbox/AudioToolbox.h>
#include <CoreFoundation/CoreFoundation.h>
#include <OpenAL/al.h>
#include <OpenAL/alc.h>

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The books' CheckError: the status as four characters when it has them, then exit. */
static void CheckError(OSStatus error, const char *operation) {
    char code[20];
    UInt32 big;
    if (error == noErr) return;
    big = CFSwapInt32HostToBig((UInt32)error);
    memcpy(code + 1, &big, 4);
    if (isprint((unsigned char)code[1]) && isprint((unsigned char)code[2]) && isprint((unsigned char)code[3]) && isprint((unsigned char)code[4])) {
        code[0] = code[5] = '\'';
        code[6] = '\0';
    } else {
        snprintf(code, sizeof code, "%d", (int)error);
    }
    fprintf(stderr, "openal_orbit: %s (%s)\n", operation, code);
    exit(1);
}

static void CheckALError(const char *operation) {
    ALenum error = alGetError();
    if (error == AL_NO_ERROR) return;
    fprintf(stderr, "openal_orbit: %s (AL error 0x%x)\n", operation, (unsigned)error);
    exit(1);
}

/* The loop player: the loaded samples, their format, the one source. */
typedef struct {
    AudioStreamBasicDescription dataFormat;
    SInt16 *samples;
    UInt32 frames;
    ALuint source;
} LoopPlayer;

/* The whole file as 16-bit mono PCM at its own rate, through Extended Audio File Services. */
static void LoadLoop(LoopPlayer *player, const char *path) {
    CFStringRef pathString = CFStringCreateWithCString(kCFAllocatorDefault, path, kCFStringEncodingUTF8);
    CFURLRef url = CFURLCreateWithFileSystemPath(kCFAllocatorDefault, pathString, kCFURLPOSIXPathStyle, false);
    ExtAudioFileRef file = NULL;
    AudioStreamBasicDescription fileFormat;
    SInt64 fileFrames = 0;
    UInt32 size;
    UInt32 read = 0;
    CFRelease(pathString);
    CheckError(ExtAudioFileOpenURL(url, &file), "ExtAudioFileOpenURL failed");
    CFRelease(url);

    memset(&fileFormat, 0, sizeof fileFormat);
    size = sizeof fileFormat;
    CheckError(ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileDataFormat, &size, &fileFormat),
               "couldn't get the file's format");

    memset(&player->dataFormat, 0, sizeof player->dataFormat);
    player->dataFormat.mFormatID = kAudioFormatLinearPCM;
    player->dataFormat.mFormatFlags = kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked;
    player->dataFormat.mSampleRate = fileFormat.mSampleRate;
    player->dataFormat.mChannelsPerFrame = 1;
    player->dataFormat.mFramesPerPacket = 1;
    player->dataFormat.mBitsPerChannel = 16;
    player->dataFormat.mBytesPerFrame = 2;
    player->dataFormat.mBytesPerPacket = 2;
    CheckError(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, sizeof player->dataFormat, &player->dataFormat),
               "couldn't set the client format");

    size = sizeof fileFrames;
    CheckError(ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileLengthFrames, &size, &fileFrames),
               "couldn't get the file's length");
    if (fileFrames <= 0 || fileFrames > 60 * 192000) {
        fprintf(stderr, "openal_orbit: the file holds %lld frames\n", (long long)fileFrames);
        exit(1);
    }
    player->frames = (UInt32)fileFrames;
    player->samples = (SInt16 *)calloc(player->frames, sizeof(SInt16));

    /* ExtAudioFileRead may return fewer frames than asked: read until the file ends. */
    while (read < player->frames) {
        AudioBufferList buffers;
        UInt32 frames = player->frames - read;
        buffers.mNumberBuffers = 1;
        buffers.mBuffers[0].mNumberChannels = 1;
        buffers.mBuffers[0].mDataByteSize = frames * 2;
        buffers.mBuffers[0].mData = player->samples + read;
        CheckError(ExtAudioFileRead(file, &frames, &buffers), "ExtAudioFileRead failed");
        if (frames == 0) break;
        read += frames;
    }
    player->frames = read;
    CheckError(ExtAudioFileDispose(file), "ExtAudioFileDispose failed");
    printf("loaded %u frames at %.0f Hz\n", (unsigned)player->frames, player->dataFormat.mSampleRate);
}

/* The source's place on its ellipse `elapsed` seconds into the orbit. */
static void UpdateSourceLocation(LoopPlayer *player, double elapsed, double speed) {
    double theta = fmod(elapsed * speed, 2 * 3.14159265358979);
    ALfloat x = (ALfloat)(3 * cos(theta)), y = (ALfloat)(0.5 * sin(theta)), z = (ALfloat)sin(theta);
    alSource3f(player->source, AL_POSITION, x, y, z);
    printf("at %.3f x %.3f z %.3f\n", elapsed, x, z);
    fflush(stdout);
}

int main(int argc, char **argv) {
    LoopPlayer player;
    ALCdevice *device;
    ALCcontext *context;
    ALuint buffer;
    double seconds, speed = 1, elapsed = 0;
    CFAbsoluteTime start;
    if (argc < 3 || argc > 4 || (seconds = atof(argv[2])) <= 0 || (argc == 4 && (speed = atof(argv[3])) <= 0)) {
        fprintf(stderr, "usage: openal_orbit FILE SECONDS [RADIANS-PER-SECOND]\n");
        return 2;
    }
    memset(&player, 0, sizeof player);
    LoadLoop(&player, argv[1]);

    device = alcOpenDevice(NULL);
    if (!device) {
        fprintf(stderr, "openal_orbit: no OpenAL device opens\n");
        return 1;
    }
    context = alcCreateContext(device, NULL);
    if (!context || !alcMakeContextCurrent(context)) {
        fprintf(stderr, "openal_orbit: no context\n");
        return 1;
    }
    alGetError();

    alGenBuffers(1, &buffer);
    alBufferData(buffer, AL_FORMAT_MONO16, player.samples, (ALsizei)(player.frames * sizeof(SInt16)),
                 (ALsizei)player.dataFormat.mSampleRate);
    CheckALError("couldn't fill the buffer");
    free(player.samples);   /* OpenAL copied them */
    player.samples = NULL;

    alGenSources(1, &player.source);
    alSourcei(player.source, AL_LOOPING, AL_TRUE);
    alSourcef(player.source, AL_GAIN, AL_MAX_GAIN);
    alSourcei(player.source, AL_BUFFER, (ALint)buffer);
    CheckALError("couldn't set up the source");
    UpdateSourceLocation(&player, 0, speed);
    alListener3f(AL_POSITION, 0, 0, 0);
    CheckALError("couldn't place the listener");

    alSourcePlay(player.source);
    CheckALError("couldn't play");
    fflush(stdout);
    start = CFAbsoluteTimeGetCurrent();
    while (elapsed < seconds) {
        CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.1, false);
        elapsed = CFAbsoluteTimeGetCurrent() - start;
        UpdateSourceLocation(&player, elapsed, speed);
    }

    alSourceStop(player.source);
    alDeleteSources(1, &player.source);
    alDeleteBuffers(1, &buffer);
    alcMakeContextCurrent(NULL);
    alcDestroyContext(context);
    alcCloseDevice(device);
    printf("done\n");
    return 0;
}
