/*
 * orbit-openal: Examples/C/orbit.c's 8 s offline render written against raw OpenAL Soft and
 * libsndfile, for memory-bench's baseline: the same bee (assets/sounds/bee.wav, loaded as 32-bit
 * float), looping at gain 0.8, moved 60 times a second on a 2 m circle with its velocity, mixed
 * 800 frames at a time on a 48 kHz stereo float loopback device without HRTF, and written as a
 * 16-bit WAV file.
 *
 *   cc -std=c99 orbit-openal.c $(pkg-config --cflags --libs openal sndfile) -lm -o orbit-openal
 *   ./orbit-openal --render FILE
 */
#define _POSIX_C_SOURCE 200809L
#define AL_ALEXT_PROTOTYPES
#include <AL/al.h>
#include <AL/alc.h>
#include <AL/alext.h>
#include <sndfile.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SECONDS 8
#define TICKS_PER_SECOND 60
#define FRAMES 800
#define PI 3.14159265358979323846

static int fail(const char *what) {
    fprintf(stderr, "orbit-openal: %s\n", what);
    return 1;
}

int main(int argc, char **argv) {
    const char *assets = getenv("SOUNDSTAGE_ASSETS");
    char sound[4096];
    static float frames[2 * FRAMES];
    float previous[2] = {0, 0};
    SF_INFO info;
    SNDFILE *in, *out;
    float *samples;
    ALuint buffer, bee;
    int step;

    if (argc != 3 || strcmp(argv[1], "--render") != 0) {
        fprintf(stderr, "usage: orbit-openal --render FILE\n");
        return 64;
    }
    snprintf(sound, sizeof sound, "%s/bee.wav", assets ? assets : "assets/sounds");

    ALCdevice *device = alcLoopbackOpenDeviceSOFT(NULL);
    if (!device) return fail("no loopback device");
    ALCint attributes[] = {ALC_FORMAT_CHANNELS_SOFT, ALC_STEREO_SOFT, ALC_FORMAT_TYPE_SOFT, ALC_FLOAT_SOFT,
                           ALC_FREQUENCY, 48000, ALC_HRTF_SOFT, ALC_FALSE, 0};
    ALCcontext *context = alcCreateContext(device, attributes);
    if (!context || !alcMakeContextCurrent(context)) return fail("no context");

    memset(&info, 0, sizeof info);
    if (!(in = sf_open(sound, SFM_READ, &info)) || info.channels != 1) return fail("cannot read the bee (mono)");
    samples = malloc(sizeof(float) * (size_t)info.frames);
    if (!samples || sf_readf_float(in, samples, info.frames) != info.frames) return fail("cannot decode the bee");
    sf_close(in);
    alGenBuffers(1, &buffer);
    alBufferData(buffer, AL_FORMAT_MONO_FLOAT32, samples, (ALsizei)(sizeof(float) * (size_t)info.frames), info.samplerate);
    free(samples);
    alGenSources(1, &bee);
    alSourcei(bee, AL_BUFFER, (ALint)buffer);
    alSourcei(bee, AL_LOOPING, AL_TRUE);
    alSourcef(bee, AL_GAIN, 0.8f);
    alSourcePlay(bee);
    if (alGetError() != AL_NO_ERROR) return fail("OpenAL refused the bee");

    SF_INFO format = {.samplerate = 48000, .channels = 2, .format = SF_FORMAT_WAV | SF_FORMAT_PCM_16};
    if (!(out = sf_open(argv[2], SFM_WRITE, &format))) return fail("cannot write the file");
    for (step = 0; step < SECONDS * TICKS_PER_SECOND; step++) {
        double angle = 2 * PI * ((double)step / TICKS_PER_SECOND) / 4;
        float x = (float)(2 * sin(angle)), z = (float)(-2 * cos(angle));
        if (step > 0) alSource3f(bee, AL_VELOCITY, (x - previous[0]) * 60, 0, (z - previous[1]) * 60);
        alSource3f(bee, AL_POSITION, x, 0, z);
        previous[0] = x;
        previous[1] = z;
        alcRenderSamplesSOFT(device, frames, FRAMES);
        if (sf_writef_float(out, frames, FRAMES) != FRAMES) return fail("cannot write the file");
    }
    sf_close(out);
    alDeleteSources(1, &bee);
    alDeleteBuffers(1, &buffer);
    alcMakeContextCurrent(NULL);
    alcDestroyContext(context);
    alcCloseDevice(device);
    printf("rendered %d s to %s\n", SECONDS, argv[2]);
    return 0;
}
