/*
 * Apple's OpenAL extensions as an iOS game's SoundEngine called them: the mixer rate set through
 * alcMacOSXMixerOutputRate before the device and context are made, sounds loaded with
 * alBufferDataStatic, reverb, occlusion and obstruction through the ASA extension, every extension
 * function fetched with alcGetProcAddress (as Apple's sample code does, which loads nothing and
 * plays silence when the answer is NULL, as OpenAL Soft's own answer is). Here the mix is rendered
 * offline on OpenAL Soft's loopback device (ALC_SOFT_loopback, fetched the same way), and the
 * program checks what it hears: the rate is the one set, the static buffer's tone is there at its
 * pitch, reverb on leaves a tail that reverb off does not, occlusion and obstruction lower the
 * level, and every bad input is an OpenAL error, not a crash. The same file compiles as C99 and
 * as C++17 with -Wall -Wextra -Werror -pedantic.
 *
 *   cc -std=c99 -Wall -Wextra -Werror -pedantic -ISources/CAudioToolbox/include Tests/C/openal_extensions.c \
 *      -L.build/debug -l:libSoundstageC.so -Wl,-rpath,.build/debug -lm
 *   ./a.out
 *
 * It needs no sound card and no desktop server. It ends with "N passed, N failed" and exits 1 when
 * any failed.
 */
#include <OpenAL/al.h>
#include <OpenAL/alc.h>
#include <OpenAL/oalMacOSX_OALExtensions.h>
#include <OpenAL/oalStaticBufferExtension.h>
#include <AL/alext.h>   /* the loopback device's types and constants (OpenAL Soft's; not an iOS header) */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;

static void expect(int condition, const char *what) {
    if (condition) {
        passed++;
    } else {
        failed++;
        fprintf(stderr, "openal_extensions: FAILED: %s\n", what);
    }
}

static void expectError(ALenum error, ALenum wanted, const char *what) {
    if (error != wanted) fprintf(stderr, "openal_extensions: %s: 0x%04X, not 0x%04X\n", what, (unsigned)error, (unsigned)wanted);
    expect(error == wanted, what);
}

/* Apple's sample code casts alcGetProcAddress's void * to the function's type. ISO C has no such
   conversion (gcc -pedantic says so), so the pointer is copied into the function pointer instead. */
#define FETCH(pointer, name)                                                     \
    do {                                                                         \
        void *address_ = alcGetProcAddress(NULL, (const ALCchar *)(name));       \
        memcpy(&(pointer), &address_, sizeof(pointer));                          \
    } while (0)

/* The SoundEngine's wrappers: fetched once, and nothing done when the answer is NULL. */
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

static ALenum alcASASetListenerProc(const ALuint property, ALvoid *data, ALuint dataSize) {
    static alcASASetListenerProcPtr proc = NULL;
    if (proc == NULL) FETCH(proc, "alcASASetListener");
    return proc ? proc(property, data, dataSize) : AL_INVALID_OPERATION;
}

static ALenum alcASASetSourceProc(const ALuint property, ALuint source, ALvoid *data, ALuint dataSize) {
    static alcASASetSourceProcPtr proc = NULL;
    if (proc == NULL) FETCH(proc, "alcASASetSource");
    return proc ? proc(property, source, data, dataSize) : AL_INVALID_OPERATION;
}

/* The loopback device's functions, fetched as OpenAL Soft documents. */
static LPALCLOOPBACKOPENDEVICESOFT loopbackOpenDevice;
static LPALCRENDERSAMPLESSOFT renderSamples;

enum { kRate = 22050, kChunk = 1024 };

/* Renders `frames` stereo float frames (in chunks of 1024: see docs/testing.md on OpenAL Soft's
   reverb and odd render sizes) into a new array; the left channel is returned, the caller frees it. */
static float *Render(ALCdevice *device, int frames) {
    float *stereo = (float *)calloc((size_t)frames * 2 + kChunk * 2, sizeof(float));
    float *left = (float *)calloc((size_t)frames, sizeof(float));
    int done, i;
    for (done = 0; done < frames; done += kChunk) renderSamples(device, stereo + done * 2, kChunk);
    for (i = 0; i < frames; i++) left[i] = stereo[i * 2];
    free(stereo);
    return left;
}

static double RMS(const float *samples, int from, int to) {
    double sum = 0;
    int i;
    for (i = from; i < to; i++) sum += (double)samples[i] * samples[i];
    return to > from ? sqrt(sum / (to - from)) : 0;
}

/* Upward zero crossings a second. */
static double Frequency(const float *samples, int from, int to) {
    int i, first = -1, last = -1, crossings = 0;
    for (i = from + 1; i < to; i++) {
        if (samples[i - 1] < 0 && samples[i] >= 0) {
            if (first < 0) first = i;
            last = i;
            crossings++;
        }
    }
    return crossings > 1 ? (crossings - 1) / ((last - first) / (double)kRate) : 0;
}

/* `frames` frames of a sine at `hz`, 16-bit mono, in memory the game owns (as a SoundEngine keeps
   its loaded files). */
static short *Tone(double hz, int frames) {
    short *data = (short *)malloc((size_t)frames * sizeof(short));
    int i;
    for (i = 0; i < frames; i++) data[i] = (short)(12000 * sin(2 * 3.14159265358979323846 * hz * i / kRate));
    return data;
}

static ALuint StaticBuffer(short *data, int frames) {
    ALuint buffer = 0;
    alGenBuffers(1, &buffer);
    alBufferDataStaticProc((ALint)buffer, AL_FORMAT_MONO16, data, frames * (ALsizei)sizeof(short), kRate);
    return buffer;
}

/* Plays `buffer` once on `source` from its start and renders `frames`: the left channel. */
static float *PlayAndRender(ALCdevice *device, ALuint source, int frames) {
    alSourceRewind(source);
    alSourcePlay(source);
    return Render(device, frames);
}

static void ExtensionsAreFound(void) {
    void *address;
    expect(alcGetProcAddress(NULL, "alBufferDataStatic") != NULL, "alcGetProcAddress finds alBufferDataStatic");
    expect(alcGetProcAddress(NULL, "alcMacOSXMixerOutputRate") != NULL, "alcGetProcAddress finds alcMacOSXMixerOutputRate");
    expect(alcGetProcAddress(NULL, "alcMacOSXGetMixerOutputRate") != NULL, "alcGetProcAddress finds alcMacOSXGetMixerOutputRate");
    expect(alcGetProcAddress(NULL, "alcASASetListener") != NULL && alcGetProcAddress(NULL, "alcASAGetListener") != NULL &&
               alcGetProcAddress(NULL, "alcASASetSource") != NULL && alcGetProcAddress(NULL, "alcASAGetSource") != NULL,
           "alcGetProcAddress finds the four ASA functions");
    address = alGetProcAddress("alBufferDataStatic");
    expect(address != NULL && address == alcGetProcAddress(NULL, "alBufferDataStatic"), "alGetProcAddress finds the same alBufferDataStatic");
    /* Every other name is OpenAL Soft's answer. */
    expect(alcGetProcAddress(NULL, "alcLoopbackOpenDeviceSOFT") != NULL, "OpenAL Soft's own extensions are still found");
    expect(alcGetProcAddress(NULL, "alNoSuchFunctionAnywhere") == NULL, "an unknown name is NULL");
    expect(alcIsExtensionPresent(NULL, "ALC_EXT_ASA") && alcIsExtensionPresent(NULL, "ALC_EXT_MAC_OSX"), "ALC_EXT_ASA and ALC_EXT_MAC_OSX are present");
    expect(alcIsExtensionPresent(NULL, "ALC_EXT_thread_local_context"), "OpenAL Soft's extensions are still present");
    expect(!alcIsExtensionPresent(NULL, "ALC_EXT_NO_SUCH_THING"), "an unknown extension is not");
    expect(alcGetEnumValue(NULL, "ALC_ASA_REVERB_ON") == ALC_ASA_REVERB_ON && ALC_ASA_REVERB_ON == 0x72766F6E,
           "alcGetEnumValue knows ALC_ASA_REVERB_ON ('rvon')");
    expect(alcGetEnumValue(NULL, "ALC_ASA_OCCLUSION") == ALC_ASA_OCCLUSION && alGetEnumValue("ALC_ASA_REVERB_SEND_LEVEL") == ALC_ASA_REVERB_SEND_LEVEL,
           "alcGetEnumValue and alGetEnumValue know the source properties");
    expect(alcGetEnumValue(NULL, "ALC_FREQUENCY") == ALC_FREQUENCY, "OpenAL Soft's enums are still answered");

    FETCH(loopbackOpenDevice, "alcLoopbackOpenDeviceSOFT");
    FETCH(renderSamples, "alcRenderSamplesSOFT");
}

/* The mixer rate, before any device (as the SoundEngine sets it). */
static void MixerRate(void) {
    (void)alcGetError(NULL);
    expect(alcMacOSXGetMixerOutputRateProc() == 0, "no mixer rate before one is set");
    alcMacOSXMixerOutputRateProc(kRate);
    expect(alcMacOSXGetMixerOutputRateProc() == kRate, "the mixer rate is the one set");
    alcMacOSXMixerOutputRateProc(NAN);
    expectError(alcGetError(NULL), ALC_INVALID_VALUE, "a NaN mixer rate is ALC_INVALID_VALUE");
    alcMacOSXMixerOutputRateProc(-44100);
    expectError(alcGetError(NULL), ALC_INVALID_VALUE, "a negative mixer rate is ALC_INVALID_VALUE");
    alcMacOSXMixerOutputRate(1e9);   /* called directly, too */
    expectError(alcGetError(NULL), ALC_INVALID_VALUE, "a rate of 1 GHz is ALC_INVALID_VALUE");
    expect(alcMacOSXGetMixerOutputRate() == kRate, "a refused rate changes nothing");
}

/* A context made afterwards mixes at the rate; one that names its own ALC_FREQUENCY keeps it. */
static ALCcontext *Context(ALCdevice *device, ALCint frequency) {
    ALCint attributes[] = { ALC_FORMAT_CHANNELS_SOFT, ALC_STEREO_SOFT, ALC_FORMAT_TYPE_SOFT, ALC_FLOAT_SOFT, 0, 0, 0 };
    if (frequency) {
        attributes[4] = ALC_FREQUENCY;
        attributes[5] = frequency;
    }
    return alcCreateContext(device, attributes);
}

static void RateOfContexts(void) {
    ALCdevice *device = loopbackOpenDevice(NULL);
    ALCcontext *context;
    ALCint frequency = 0;
    context = Context(device, 48000);
    alcGetIntegerv(device, ALC_FREQUENCY, 1, &frequency);
    printf("a context naming ALC_FREQUENCY 48000: %d Hz\n", (int)frequency);
    expect(context != NULL && frequency == 48000, "a context that names its ALC_FREQUENCY keeps it");
    alcDestroyContext(context);
    alcCloseDevice(device);
}

static void ErrorPaths(ALuint source, short *tone, int frames) {
    ALuint buffer = 0, gone = 0, size = 4;
    ALfloat level = NAN, big = 41, value = 0;
    ALuint on = 1;
    (void)alGetError();
    alGenBuffers(1, &buffer);
    alBufferDataStatic((ALint)buffer, AL_FORMAT_MONO16, NULL, 100, kRate);
    expectError(alGetError(), AL_INVALID_VALUE, "alBufferDataStatic: NULL data is AL_INVALID_VALUE");
    alBufferDataStatic((ALint)buffer, AL_FORMAT_MONO16, tone, -2, kRate);
    expectError(alGetError(), AL_INVALID_VALUE, "alBufferDataStatic: a negative size is AL_INVALID_VALUE");
    alBufferDataStatic(123456, AL_FORMAT_MONO16, tone, frames * 2, kRate);
    expectError(alGetError(), AL_INVALID_NAME, "alBufferDataStatic: an unknown buffer is AL_INVALID_NAME");
    alBufferDataStatic(-1, AL_FORMAT_MONO16, NULL, 2, kRate);
    expectError(alGetError(), AL_INVALID_NAME, "alBufferDataStatic: a negative buffer name is AL_INVALID_NAME");
    alBufferDataStatic((ALint)buffer, 0x7777, tone, frames * 2, kRate);
    expectError(alGetError(), AL_INVALID_ENUM, "alBufferDataStatic: an unknown format is AL_INVALID_ENUM");
    alDeleteBuffers(1, &buffer);

    expectError(alcASASetListener(ALC_ASA_REVERB_GLOBAL_LEVEL, &level, sizeof level), AL_INVALID_VALUE, "a NaN global level is AL_INVALID_VALUE");
    expectError(alGetError(), AL_INVALID_VALUE, "... and alGetError says so");
    expectError(alcASASetListener(ALC_ASA_REVERB_GLOBAL_LEVEL, &big, sizeof big), AL_INVALID_VALUE, "a global level of 41 dB is AL_INVALID_VALUE");
    expectError(alcASASetListener(ALC_ASA_REVERB_ON, NULL, 4), AL_INVALID_VALUE, "NULL data is AL_INVALID_VALUE");
    expectError(alcASASetListener(ALC_ASA_REVERB_ON, &on, 3), AL_INVALID_VALUE, "a 3-byte ALuint is AL_INVALID_VALUE");
    expectError(alcASASetListener(0x12345678, &on, sizeof on), AL_INVALID_ENUM, "an unknown listener property is AL_INVALID_ENUM");
    expectError(alcASASetListener(ALC_ASA_REVERB_PRESET, &on, sizeof on), AL_INVALID_OPERATION, "ALC_ASA_REVERB_PRESET is AL_INVALID_OPERATION");
    expectError(alcASAGetListener(ALC_ASA_REVERB_GLOBAL_LEVEL, &value, &size), AL_NO_ERROR, "the global level reads back");
    expect(value == 0 && size == 4, "... as 0 dB, the last good value");
    size = 2;
    expectError(alcASAGetListener(ALC_ASA_REVERB_GLOBAL_LEVEL, &value, &size), AL_INVALID_VALUE, "2 bytes of room for an ALfloat is AL_INVALID_VALUE");
    level = -101;
    expectError(alcASASetSource(ALC_ASA_OCCLUSION, source, &level, sizeof level), AL_INVALID_VALUE, "an occlusion of -101 dB is AL_INVALID_VALUE");
    level = -10;
    expectError(alcASASetSource(ALC_ASA_OCCLUSION, 987654, &level, sizeof level), AL_INVALID_NAME, "an unknown source is AL_INVALID_NAME");
    level = 0.5f;
    alGenSources(1, &gone);
    expectError(alcASASetSource(ALC_ASA_REVERB_SEND_LEVEL, gone, &level, sizeof level), AL_NO_ERROR, "a new source takes a send level");
    alDeleteSources(1, &gone);
    expectError(alcASASetSource(ALC_ASA_REVERB_SEND_LEVEL, gone, &level, sizeof level), AL_INVALID_NAME, "a deleted source is AL_INVALID_NAME");
    size = 4;
    expectError(alcASAGetSource(ALC_ASA_REVERB_SEND_LEVEL, gone, &value, &size), AL_INVALID_NAME, "... to read too");
    (void)alGetError();
}

int main(void) {
    ALCdevice *device;
    ALCcontext *context;
    ALCint frequency = 0;
    ALuint source = 0, burstSource = 0, highSource = 0, toneBuffer, burstBuffer, highBuffer;
    short *tone, *burst, *high;
    float *heard;
    double plain, occluded, dryTail, wetTail, offTail, highPlain, obstructed;
    ALuint on = 1, off = 0;
    ALint room = ALC_ASA_REVERB_ROOM_TYPE_Cathedral;
    ALfloat level = 0, send = 1, occlusion = -40, obstruction = -40, zero = 0, readBack = 0;
    ALuint size = sizeof readBack;

    ExtensionsAreFound();
    expect(loopbackOpenDevice != NULL && renderSamples != NULL, "the loopback device's functions are found");
    if (!loopbackOpenDevice || !renderSamples) goto done;
    MixerRate();
    RateOfContexts();

    /* The SoundEngine's start: the rate was set; the device, then a context that names no rate. */
    device = loopbackOpenDevice(NULL);
    context = Context(device, 0);
    expect(context != NULL, "a loopback context without ALC_FREQUENCY is made at the mixer rate");
    if (!context) goto done;
    alcMakeContextCurrent(context);
    alcGetIntegerv(device, ALC_FREQUENCY, 1, &frequency);
    printf("mixer rate %g Hz: the device mixes at %d Hz\n", alcMacOSXGetMixerOutputRate(), (int)frequency);
    expect(frequency == kRate, "the device mixes at the mixer rate");

    /* A one-second tone loaded with alBufferDataStatic, played: its pitch at the rate set. */
    tone = Tone(440, kRate);
    toneBuffer = StaticBuffer(tone, kRate);
    expectError(alGetError(), AL_NO_ERROR, "alBufferDataStatic loads the tone");
    {
        ALint bytes = 0;
        alGetBufferi(toneBuffer, AL_SIZE, &bytes);
        expect(bytes == kRate * 2, "the buffer holds the tone's bytes");
    }
    alGenSources(1, &source);
    alSourcei(source, AL_BUFFER, (ALint)toneBuffer);
    alSourcei(source, AL_LOOPING, AL_TRUE);
    heard = PlayAndRender(device, source, kRate / 2);
    plain = RMS(heard, kRate / 10, kRate / 2);
    printf("static buffer: RMS %.4f, %.1f Hz\n", plain, Frequency(heard, kRate / 10, kRate / 2));
    expect(plain > 0.05, "the static buffer's tone is heard");
    expect(fabs(Frequency(heard, kRate / 10, kRate / 2) - 440) < 3, "at 440 Hz: the mix runs at the rate set");
    free(heard);

    /* The data was copied (OpenAL Soft keeps no pointer to it): scribbling on it changes nothing heard. */
    memset(tone, 0, kRate * sizeof(short));
    heard = Render(device, kRate / 4);
    expect(RMS(heard, 0, kRate / 4) > 0.05, "the tone plays on when the app's memory changes (copied)");
    free(heard);

    /* Occlusion: the same tone, lower. */
    expectError(alcASASetSourceProc(ALC_ASA_OCCLUSION, source, &occlusion, sizeof occlusion), AL_NO_ERROR, "occlusion -40 dB is set");
    heard = Render(device, kRate / 2);
    occluded = RMS(heard, kRate / 10, kRate / 2);
    printf("occlusion -40 dB: RMS %.4f (%.1f dB)\n", occluded, 20 * log10(occluded / plain));
    expect(occluded < plain * 0.5, "occlusion lowers the level");
    free(heard);
    expectError(alcASAGetSource(ALC_ASA_OCCLUSION, source, &readBack, &size), AL_NO_ERROR, "occlusion reads back");
    expect(readBack == -40 && size == 4, "... as -40 dB");
    alcASASetSourceProc(ALC_ASA_OCCLUSION, source, &zero, sizeof zero);
    heard = Render(device, kRate / 2);
    expect(fabs(RMS(heard, kRate / 10, kRate / 2) - plain) < plain * 0.02, "occlusion 0 dB gives the level back");
    free(heard);
    alSourceStop(source);

    /* Obstruction: a 6 kHz tone, low-passed on its direct path. */
    high = Tone(6000, kRate);
    highBuffer = StaticBuffer(high, kRate);
    alGenSources(1, &highSource);
    alSourcei(highSource, AL_BUFFER, (ALint)highBuffer);
    heard = PlayAndRender(device, highSource, kRate / 2);
    highPlain = RMS(heard, kRate / 10, kRate / 2);
    free(heard);
    alcASASetSourceProc(ALC_ASA_OBSTRUCTION, highSource, &obstruction, sizeof obstruction);
    heard = PlayAndRender(device, highSource, kRate / 2);
    obstructed = RMS(heard, kRate / 10, kRate / 2);
    printf("6 kHz tone: RMS %.4f, obstructed -40 dB: %.4f\n", highPlain, obstructed);
    expect(highPlain > 0.05 && obstructed < highPlain * 0.5, "obstruction lowers a high tone");
    free(heard);
    alSourceStop(highSource);

    /* Reverb: a 0.1 s burst, then what is heard from 0.2 s to 1 s after it starts. */
    burst = Tone(440, kRate / 10);
    burstBuffer = StaticBuffer(burst, kRate / 10);
    alGenSources(1, &burstSource);
    alSourcei(burstSource, AL_BUFFER, (ALint)burstBuffer);
    expectError(alcASASetSourceProc(ALC_ASA_REVERB_SEND_LEVEL, burstSource, &send, sizeof send), AL_NO_ERROR, "the burst's send level is set");
    heard = PlayAndRender(device, burstSource, kRate);
    dryTail = RMS(heard, kRate / 5, kRate);
    free(heard);
    expectError(alcASASetListenerProc(ALC_ASA_REVERB_ROOM_TYPE, &room, sizeof room), AL_NO_ERROR, "the room type is set (cathedral)");
    expectError(alcASASetListenerProc(ALC_ASA_REVERB_GLOBAL_LEVEL, &level, sizeof level), AL_NO_ERROR, "the global level is set");
    expectError(alcASASetListenerProc(ALC_ASA_REVERB_ON, &on, sizeof on), AL_NO_ERROR, "reverb is switched on");
    heard = PlayAndRender(device, burstSource, kRate);
    wetTail = RMS(heard, kRate / 5, kRate);
    free(heard);
    expectError(alcASASetListenerProc(ALC_ASA_REVERB_ON, &off, sizeof off), AL_NO_ERROR, "reverb is switched off");
    heard = PlayAndRender(device, burstSource, kRate);
    offTail = RMS(heard, kRate / 5, kRate);
    free(heard);
    printf("after a 0.1 s burst: reverb never on %.5f, on %.5f, off again %.5f\n", dryTail, wetTail, offTail);
    expect(dryTail < 1e-4, "without reverb the burst leaves no tail");
    expect(wetTail > 0.005, "reverb on adds a tail");
    expect(offTail < 1e-4, "reverb off takes it away again");
    {
        ALuint state = 9, stateSize = sizeof state;
        ALint type = -1;
        ALuint typeSize = sizeof type;
        alcASAGetListener(ALC_ASA_REVERB_ON, &state, &stateSize);
        alcASAGetListener(ALC_ASA_REVERB_ROOM_TYPE, &type, &typeSize);
        expect(state == 0 && type == ALC_ASA_REVERB_ROOM_TYPE_Cathedral, "the listener's settings read back");
    }

    ErrorPaths(source, tone, kRate);
    expectError(alGetError(), AL_NO_ERROR, "no error is left behind");

    alDeleteSources(1, &source);
    alDeleteSources(1, &burstSource);
    alDeleteSources(1, &highSource);
    alDeleteBuffers(1, &toneBuffer);
    alDeleteBuffers(1, &burstBuffer);
    alDeleteBuffers(1, &highBuffer);
    free(tone);   /* after alDeleteBuffers, as Apple requires */
    free(burst);
    free(high);
    alcMakeContextCurrent(NULL);
    alcDestroyContext(context);
    alcCloseDevice(device);
    expectError(alcASASetListener(ALC_ASA_REVERB_ON, &on, sizeof on), AL_INVALID_OPERATION, "ASA without a context is AL_INVALID_OPERATION");
    expectError(alcGetError(NULL), ALC_INVALID_CONTEXT, "... and ALC_INVALID_CONTEXT for alcGetError(NULL)");

done:
    printf("openal_extensions: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
