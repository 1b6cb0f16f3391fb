/*
 * frame-bench: the frame loop of soundstage-bench, driven from C — 256 looping mono sources on
 * a loopback device, every source moved every update (10 ms of mix), once through the C API
 * (ss_source_set_position + ss_device_render) and once through raw OpenAL (alSource3f +
 * alcRenderSamplesSOFT with the same context attributes: 4 auxiliary sends, no HRTF, no limiter).
 * The two take turns update by update, so both see the machine at the same moments; seven
 * rounds, medians printed.
 *
 *   cc -O2 -std=c99 frame-bench.c $(pkg-config --cflags --libs soundstage openal) -lm -o frame-bench
 *   ./frame-bench [updates-per-round]            (scripts/bench-c.sh builds and runs it)
 *
 * Prints: the C API's cost of one ss_source_set_position call, raw alSource3f's, and the CPU of
 * a whole update (move + mix) for both, with the ratio C API / raw OpenAL.
 */
#define _POSIX_C_SOURCE 200809L
#define AL_ALEXT_PROTOTYPES
#include <soundstage.h>
#include <AL/al.h>
#include <AL/alc.h>
#include <AL/alext.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define SOURCES 256
#define RATE 48000
#define UPDATE_FRAMES 480
#define ROUNDS 7

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Source i's place at update `step`: on a circle of 5 m, turning 1 rad/s (as soundstage-bench). */
static void position(int i, int step, float *x, float *z) {
    float a = (float)i * 0.0245f + (float)step * 0.01f;
    *x = 5 * cosf(a);
    *z = 5 * sinf(a);
}

static float tone[RATE];
static float output[2 * UPDATE_FRAMES];

struct api_rig {
    ss_device *device;
    ss_source *sources[SOURCES];
};

struct raw_rig {
    ALCdevice *device;
    ALCcontext *context;
    ALuint buffer, sources[SOURCES];
};

static void api_open(struct api_rig *rig) {
    ss_scene *scene;
    ss_buffer *buffer;
    int i;
    if (ss_device_open_loopback(RATE, SS_LAYOUT_STEREO, SS_OFF, 4, &rig->device) != SS_OK ||
        ss_scene_create(rig->device, SOURCES, &scene) != SS_OK ||
        ss_buffer_create_pcm(rig->device, tone, RATE, 1, RATE, &buffer) != SS_OK) {
        fprintf(stderr, "frame-bench: %s\n", ss_error_message());
        exit(1);
    }
    for (i = 0; i < SOURCES; i++) {
        ss_source_create(scene, buffer, &rig->sources[i]);
        ss_source_set_looping(rig->sources[i], 1);
        ss_source_play(rig->sources[i]);
    }
}

static void raw_open(struct raw_rig *rig) {
    ALCint attributes[] = {ALC_MONO_SOURCES, SOURCES, ALC_STEREO_SOURCES, 0, ALC_MAX_AUXILIARY_SENDS, 4,
                           ALC_FORMAT_CHANNELS_SOFT, ALC_STEREO_SOFT, ALC_FORMAT_TYPE_SOFT, ALC_FLOAT_SOFT,
                           ALC_FREQUENCY, RATE, ALC_OUTPUT_LIMITER_SOFT, ALC_FALSE, ALC_HRTF_SOFT, ALC_FALSE, 0};
    int i;
    rig->device = alcLoopbackOpenDeviceSOFT(NULL);
    rig->context = alcCreateContext(rig->device, attributes);
    alcSetThreadContext(rig->context);
    alGenBuffers(1, &rig->buffer);
    alBufferData(rig->buffer, AL_FORMAT_MONO_FLOAT32, tone, (ALsizei)sizeof tone, RATE);
    alGenSources(SOURCES, rig->sources);
    for (i = 0; i < SOURCES; i++) {
        alSourcei(rig->sources[i], AL_BUFFER, (ALint)rig->buffer);
        alSourcei(rig->sources[i], AL_LOOPING, AL_TRUE);
        alSourcePlay(rig->sources[i]);
    }
    if (alGetError() != AL_NO_ERROR) {
        fprintf(stderr, "frame-bench: raw OpenAL setup failed\n");
        exit(1);
    }
}

static void raw_close(struct raw_rig *rig) {
    alcSetThreadContext(rig->context);
    alDeleteSources(SOURCES, rig->sources);
    alDeleteBuffers(1, &rig->buffer);
    alcSetThreadContext(NULL);
    alcDestroyContext(rig->context);
    alcCloseDevice(rig->device);
}

/* One update through the C API: returns the seconds the 256 calls took; adds the whole update to *total. */
static double api_step(struct api_rig *rig, int step, double *total) {
    double start = cpu_seconds(), moved;
    int i;
    float x, z;
    for (i = 0; i < SOURCES; i++) {
        position(i, step, &x, &z);
        ss_source_set_position(rig->sources[i], x, 0, z);
    }
    moved = cpu_seconds() - start;
    ss_device_render(rig->device, output, UPDATE_FRAMES);
    *total += cpu_seconds() - start;
    return moved;
}

static double raw_step(struct raw_rig *rig, int step, double *total) {
    double start, moved;
    int i;
    float x, z;
    alcSetThreadContext(rig->context); /* the engine does the same check each call */
    start = cpu_seconds();
    for (i = 0; i < SOURCES; i++) {
        position(i, step, &x, &z);
        alSource3f(rig->sources[i], AL_POSITION, x, 0, z);
    }
    moved = cpu_seconds() - start;
    alcRenderSamplesSOFT(rig->device, output, UPDATE_FRAMES);
    *total += cpu_seconds() - start;
    return moved;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *values) {
    qsort(values, ROUNDS, sizeof *values, by_value);
    return values[ROUNDS / 2];
}

int main(int argc, char **argv) {
    int updates = argc > 1 ? atoi(argv[1]) : 1000, round, step, i;
    double api_total[ROUNDS], raw_total[ROUNDS], api_move[ROUNDS], raw_move[ROUNDS], ratio[ROUNDS];
    for (i = 0; i < RATE; i++) tone[i] = 0.2f * (float)sin(2 * 3.14159265358979323846 * 440 * i / RATE);
    printf("frame-bench: %d sources moved every update (10 ms of mix), %d updates a round, %d rounds;\n"
           "the C API and raw OpenAL take turns update by update (medians)\n", SOURCES, updates, ROUNDS);
    for (round = 0; round < ROUNDS; round++) {
        struct api_rig api;
        struct raw_rig raw;
        api_open(&api);
        raw_open(&raw);
        api_total[round] = raw_total[round] = api_move[round] = raw_move[round] = 0;
        for (step = 0; step < updates; step++) {
            api_move[round] += api_step(&api, step, &api_total[round]);
            raw_move[round] += raw_step(&raw, step, &raw_total[round]);
        }
        ratio[round] = api_total[round] / raw_total[round];
        printf("  round %d: C API %.3f s, raw OpenAL %.3f s (ratio %.3f); moving 256: %.1f / %.1f us\n", round + 1,
               api_total[round], raw_total[round], ratio[round], api_move[round] / updates * 1e6,
               raw_move[round] / updates * 1e6);
        raw_close(&raw);
        ss_device_destroy(api.device);
    }
    {
        double api_call = median(api_move) / updates / SOURCES * 1e9, raw_call = median(raw_move) / updates / SOURCES * 1e9;
        printf("one ss_source_set_position call: %.1f ns; one raw alSource3f: %.1f ns\n", api_call, raw_call);
        printf("an update (move 256 + mix 10 ms): C API %.1f us, raw OpenAL %.1f us\n",
               median(api_total) / updates * 1e6, median(raw_total) / updates * 1e6);
        printf("ratio C API / raw OpenAL (CPU of whole updates): %.3f\n", median(ratio));
    }
    return 0;
}
