/*
 * An OpenAL sound engine in the style of the SoundEngine that shipped in Apple's sample games,
 * as iOS C and C++ games wrote it: the Audio Session initialized with an interruption listener
 * called on the main thread's run loop (CFRunLoopGetCurrent()), the ambient category; the mixer's
 * rate set with alcMacOSXMixerOutputRate before the device opens; an effect loaded with
 * alBufferDataStatic (the game keeps the samples) and looped; music streamed through a source's
 * buffer queue (four buffers of 0.1 s, each processed one unqueued, refilled and queued again, the
 * source started again if it ran dry); every extension fetched with alcGetProcAddress. When the
 * interruption begins the listener makes no context current, as the SoundEngine does (and the
 * main loop leaves OpenAL alone); when it ends the listener makes the session active and its
 * context current again, and both sounds go on. The same file compiles as C99 and as C++17 with
 * -Wall -Wextra -Werror -pedantic.
 *
 *   cc -std=c99 -Wall -Wextra -Werror -pedantic -ISources/CAudioToolbox/include Tests/C/openal_engine.c \
 *      -L.build/debug -l:libSoundstageC.so -Wl,-rpath,.build/debug -lopenal -lm
 *   ./a.out STOP-FILE
 *
 * It plays on OpenAL's default device (the test gives it OpenAL Soft's PulseAudio backend and the
 * test's server: ALSOFT_DRIVERS=pulse, PULSE_SERVER) until STOP-FILE exists: the music a 440 Hz
 * tone at 0.25, the effect 880 Hz at 0.125. It prints "mixer rate R", "playing", "began",
 * "ended", "done" as they happen (CompatPrograms.CompatDesktopTests corks it with a phone call on
 * PulseAudio and hears both sounds stop and go on), and exits 1 when a call fails.
 */
#define _POSIX_C_SOURCE 200809L

#include <AudioToolbox/AudioToolbox.h>
#include <CoreFoundation/CoreFoundation.h>
#include <OpenAL/al.h>
#include <OpenAL/alc.h>
#include <OpenAL/oalMacOSX_OALExtensions.h>
#include <OpenAL/oalStaticBufferExtension.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum { kRate = 44100, kStreamBuffers = 4, kStreamFrames = 4410 };

/* Apple's sample code casts alcGetProcAddress's void * to the function's type; ISO C has no such
   conversion (gcc -pedantic says so), so the pointer is copied into the function pointer instead. */
#define FETCH(pointer, name)                                                     \
    do {                                                                         \
        void *address_ = alcGetProcAddress(NULL, (const ALCchar *)(name));       \
        memcpy(&(pointer), &address_, sizeof(pointer));                          \
    } while (0)

static ALvoid alcMacOSXMixerOutputRateProc(const ALdouble value) {
    static alcMacOSXMixerOutputRateProcPtr proc = NULL;
    if (proc == NULL) FETCH(proc, "alcMacOSXMixerOutputRate");
    if (proc) proc(value);
}

static ALdouble alcMacOSXGetMixerOutputRateProc(void) {
    static alcMacOSXGetMixerOutputRateProcPtr proc = NULL;
    if (proc == NULL) FETCH(proc, "alcMacOSXGetMixerOutputRate");
    return proc ? proc() : 0;
}

static ALvoid alBufferDataStaticProc(const ALint bid, ALenum format, ALvoid *data, ALsizei size, ALsizei freq) {
    static alBufferDataStaticProcPtr proc = NULL;
    if (proc == NULL) FETCH(proc, "alBufferDataStatic");
    if (proc) proc(bid, format, data, size, freq);
}

/* The engine: its context, the effect's static samples (kept while the buffer lives), the music's
   stream. The listener and the main loop both run on the main thread. */
typedef struct {
    ALCdevice *device;
    ALCcontext *context;
    SInt16 effectSamples[kRate];
    ALuint effectBuffer, effectSource;
    ALuint streamBuffers[kStreamBuffers], streamSource;
    long streamPosition;
    int interrupted;
} Engine;

static void say(const char *what) {
    printf("%s\n", what);
    fflush(stdout);
}

/* The next 0.1 s of the music into `buffer`. */
static void FillStream(Engine *engine, ALuint buffer) {
    SInt16 samples[kStreamFrames];
    int i;
    for (i = 0; i < kStreamFrames; i++)
        samples[i] = (SInt16)(8192.0 * sin(2 * 3.14159265358979 * 440.0 * (double)(engine->streamPosition + i) / kRate));
    engine->streamPosition += kStreamFrames;
    alBufferData(buffer, AL_FORMAT_MONO16, samples, (ALsizei)sizeof samples, kRate);
}

/* The SoundEngine's update: processed buffers refilled, the source started again if it ran dry. */
static void UpdateStream(Engine *engine) {
    ALint processed = 0, state = 0;
    alGetSourcei(engine->streamSource, AL_BUFFERS_PROCESSED, &processed);
    while (processed-- > 0) {
        ALuint buffer = 0;
        alSourceUnqueueBuffers(engine->streamSource, 1, &buffer);
        FillStream(engine, buffer);
        alSourceQueueBuffers(engine->streamSource, 1, &buffer);
    }
    alGetSourcei(engine->streamSource, AL_SOURCE_STATE, &state);
    if (state != AL_PLAYING) alSourcePlay(engine->streamSource);
}

static void InterruptionListener(void *inClientData, UInt32 inInterruptionState) {
    Engine *engine = (Engine *)inClientData;
    if (inInterruptionState == kAudioSessionBeginInterruption) {
        engine->interrupted = 1;
        alcMakeContextCurrent(NULL);
        say("began");
    } else if (inInterruptionState == kAudioSessionEndInterruption) {
        UInt32 category = kAudioSessionCategory_AmbientSound;
        AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, sizeof category, &category);
        AudioSessionSetActive(true);
        alcMakeContextCurrent(engine->context);
        engine->interrupted = 0;
        say("ended");
    }
}

static int Start(Engine *engine) {
    UInt32 category = kAudioSessionCategory_AmbientSound;
    char line[64];
    int i;
    if (AudioSessionInitialize(CFRunLoopGetCurrent(), kCFRunLoopDefaultMode, InterruptionListener, engine) != noErr
        || AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, sizeof category, &category) != noErr
        || AudioSessionSetActive(true) != noErr) {
        fprintf(stderr, "openal_engine: the audio session failed\n");
        return 0;
    }
    alcMacOSXMixerOutputRateProc(kRate);
    engine->device = alcOpenDevice(NULL);
    if (!engine->device) {
        fprintf(stderr, "openal_engine: no OpenAL device opens\n");
        return 0;
    }
    engine->context = alcCreateContext(engine->device, NULL);
    if (!engine->context || !alcMakeContextCurrent(engine->context)) {
        fprintf(stderr, "openal_engine: no context\n");
        return 0;
    }
    snprintf(line, sizeof line, "mixer rate %.0f", alcMacOSXGetMixerOutputRateProc());
    say(line);

    for (i = 0; i < kRate; i++) engine->effectSamples[i] = (SInt16)(4096.0 * sin(2 * 3.14159265358979 * 880.0 * i / kRate));
    alGenBuffers(1, &engine->effectBuffer);
    alBufferDataStaticProc((ALint)engine->effectBuffer, AL_FORMAT_MONO16, engine->effectSamples, (ALsizei)sizeof engine->effectSamples, kRate);
    alGenSources(1, &engine->effectSource);
    alSourcei(engine->effectSource, AL_BUFFER, (ALint)engine->effectBuffer);
    alSourcei(engine->effectSource, AL_LOOPING, AL_TRUE);

    alGenBuffers(kStreamBuffers, engine->streamBuffers);
    alGenSources(1, &engine->streamSource);
    engine->streamPosition = 0;
    for (i = 0; i < kStreamBuffers; i++) FillStream(engine, engine->streamBuffers[i]);
    alSourceQueueBuffers(engine->streamSource, kStreamBuffers, engine->streamBuffers);
    alSourcePlay(engine->streamSource);
    alSourcePlay(engine->effectSource);
    if (alGetError() != AL_NO_ERROR) {
        fprintf(stderr, "openal_engine: OpenAL refused the sounds\n");
        return 0;
    }
    say("playing");
    return 1;
}

static void Stop(Engine *engine) {
    alSourceStop(engine->streamSource);
    alSourceStop(engine->effectSource);
    alDeleteSources(1, &engine->streamSource);
    alDeleteSources(1, &engine->effectSource);
    alDeleteBuffers(kStreamBuffers, engine->streamBuffers);
    alDeleteBuffers(1, &engine->effectBuffer);
    alcMakeContextCurrent(NULL);
    alcDestroyContext(engine->context);
    alcCloseDevice(engine->device);
    AudioSessionSetActive(false);
}

static Engine engine;

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: openal_engine STOP-FILE\n");
        return 2;
    }
    engine.interrupted = 0;
    if (!Start(&engine)) return 1;
    /* The game's loop: its run loop delivers the session's listener, then the stream is fed. */
    while (access(argv[1], F_OK) != 0) {
        CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.01, true);
        if (!engine.interrupted) UpdateStream(&engine);
    }
    Stop(&engine);
    say("done");
    return 0;
}
