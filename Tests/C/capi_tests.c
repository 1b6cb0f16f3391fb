/*
 * The C API's tests, written as a C game uses the library: they render through the loopback
 * device and measure the samples (panning, distance gain, pitch, completion, metering), feed
 * bad handles and values, call back in from callbacks and from other threads, and cycle every
 * kind of handle for leaks.
 *
 *   cc -std=c99 -Wall -Wextra -Werror -pedantic capi_tests.c $(pkg-config --cflags --libs soundstage) -lm -lpthread
 *   ./capi_tests [FILTER]        (the repository's root as the working directory)
 *
 * Prints one line per test and ends with "N passed, N failed"; exits 1 when any failed.
 */
#define _POSIX_C_SOURCE 200809L
#include "soundstage.h"

#include <float.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#define RATE 48000
#define PI 3.14159265358979323846

/* ---- A tiny runner ------------------------------------------------------------------------ */

#define CHECK(cond)                                                                               \
    do {                                                                                          \
        if (!(cond)) {                                                                            \
            fprintf(stderr, "  %s:%d: CHECK failed: %s (last error: %s)\n", __FILE__, __LINE__,  \
                    #cond, ss_error_message());                                                   \
            return 0;                                                                             \
        }                                                                                         \
    } while (0)

#define OK(call)                                                                                  \
    do {                                                                                          \
        ss_result ok_result_ = (call);                                                            \
        if (ok_result_ != SS_OK) {                                                                \
            fprintf(stderr, "  %s:%d: %s returned %s: %s\n", __FILE__, __LINE__, #call,          \
                    ss_result_name(ok_result_), ss_error_message());                              \
            return 0;                                                                             \
        }                                                                                         \
    } while (0)

#define EXPECT(code, call)                                                                        \
    do {                                                                                          \
        ss_result expect_result_ = (call);                                                        \
        if (expect_result_ != (code)) {                                                           \
            fprintf(stderr, "  %s:%d: %s returned %s, expected %s (%s)\n", __FILE__, __LINE__,   \
                    #call, ss_result_name(expect_result_), ss_result_name(code),                 \
                    ss_error_message());                                                          \
            return 0;                                                                             \
        }                                                                                         \
    } while (0)

#define NEAR(value, expected, tolerance)                                                          \
    do {                                                                                          \
        double near_v_ = (value), near_e_ = (expected);                                           \
        if (fabs(near_v_ - near_e_) > (tolerance)) {                                              \
            fprintf(stderr, "  %s:%d: %s = %.6f, expected %.6f +- %g\n", __FILE__, __LINE__,     \
                    #value, near_v_, near_e_, (double)(tolerance));                               \
            return 0;                                                                             \
        }                                                                                         \
    } while (0)

/* ---- Signals -------------------------------------------------------------------------------- */

/* A loopback device at 48 kHz, stereo, without HRTF: the same every run. */
static ss_device *loopback(void) {
    ss_device *device = NULL;
    if (ss_device_open_loopback(RATE, SS_LAYOUT_STEREO, SS_OFF, -1, &device) != SS_OK) return NULL;
    return device;
}

/* A mono sine buffer. */
static ss_buffer *sine(ss_device *device, double frequency, double seconds, float amplitude) {
    size_t frames = (size_t)(seconds * RATE);
    float *samples = malloc(frames * sizeof *samples);
    ss_buffer *buffer = NULL;
    size_t i;
    for (i = 0; i < frames; i++) samples[i] = amplitude * (float)sin(2 * PI * frequency * (double)i / RATE);
    if (ss_buffer_create_pcm(device, samples, frames, 1, RATE, &buffer) != SS_OK) buffer = NULL;
    free(samples);
    return buffer;
}

/* Renders `seconds` of stereo; the caller frees it. */
static float *render(ss_device *device, double seconds, size_t *out_frames) {
    size_t frames = (size_t)(seconds * RATE);
    float *samples = calloc(frames * 2, sizeof *samples);
    if (ss_device_render(device, samples, frames) != SS_OK) {
        free(samples);
        return NULL;
    }
    *out_frames = frames;
    return samples;
}

/* RMS of one channel of interleaved stereo, from frame `from`. */
static double rms(const float *samples, size_t frames, int channel, size_t from) {
    double sum = 0;
    size_t i;
    for (i = from; i < frames; i++) sum += (double)samples[2 * i + channel] * samples[2 * i + channel];
    return frames > from ? sqrt(sum / (double)(frames - from)) : 0;
}

/* Frequency of one channel from its upward zero crossings, from frame `from`. */
static double frequency(const float *samples, size_t frames, int channel, size_t from) {
    size_t i, first = 0, last = 0;
    int crossings = 0;
    for (i = from + 1; i < frames; i++) {
        if (samples[2 * (i - 1) + channel] < 0 && samples[2 * i + channel] >= 0) {
            if (crossings == 0) first = i;
            last = i;
            crossings++;
        }
    }
    return crossings > 1 ? (double)(crossings - 1) * RATE / (double)(last - first) : 0;
}

/* The bytes of the file at `path` (the caller frees them), or NULL. */
static void *read_whole_file(const char *path, size_t *out_size) {
    FILE *file = fopen(path, "rb");
    long size;
    void *bytes;
    if (file == NULL) return NULL;
    fseek(file, 0, SEEK_END);
    size = ftell(file);
    fseek(file, 0, SEEK_SET);
    bytes = size > 0 ? malloc((size_t)size) : NULL;
    if (bytes != NULL && fread(bytes, 1, (size_t)size, file) != (size_t)size) {
        free(bytes);
        bytes = NULL;
    }
    fclose(file);
    *out_size = (size_t)size;
    return bytes;
}

/* A looping sine source at `position`, playing. */
static ss_source *playing_sine(ss_scene *scene, ss_buffer *buffer, ss_vec3 position) {
    ss_source *source = NULL;
    if (ss_source_create(scene, buffer, &source) != SS_OK) return NULL;
    ss_source_set_vec3(source, SS_SOURCE_POSITION, position);
    ss_source_set_looping(source, 1);
    if (ss_source_play(source) != SS_OK) return NULL;
    return source;
}

static ss_vec3 vec(float x, float y, float z) {
    ss_vec3 v;
    v.x = x;
    v.y = y;
    v.z = z;
    return v;
}

/* ---- Tests ---------------------------------------------------------------------------------- */

static int test_version(void) {
    char expected[32];
    snprintf(expected, sizeof expected, "%d.%d.%d", SS_VERSION_MAJOR, SS_VERSION_MINOR, SS_VERSION_PATCH);
    CHECK(strcmp(ss_version(), expected) == 0);
    CHECK(ss_version_number() == SS_VERSION_NUMBER);
    CHECK(strcmp(ss_result_name(SS_ERROR_STALE_HANDLE), "SS_ERROR_STALE_HANDLE") == 0);
    CHECK(strcmp(ss_result_name((ss_result)12345), "SS_UNKNOWN") == 0);
    return 1;
}

/* A source at x = +5 is heard only on the right; at x = -5 only on the left. */
static int test_panning(void) {
    ss_device *device = loopback();
    ss_scene *scene;
    ss_buffer *buffer;
    ss_source *source;
    float *samples;
    size_t frames;
    CHECK(device != NULL);
    OK(ss_scene_create(device, 0, &scene));
    CHECK((buffer = sine(device, 440, 1, 0.5f)) != NULL);
    CHECK((source = playing_sine(scene, buffer, vec(5, 0, 0))) != NULL);
    CHECK((samples = render(device, 0.5, &frames)) != NULL);
    CHECK(rms(samples, frames, 0, 4800) < 1e-4);
    CHECK(rms(samples, frames, 1, 4800) > 0.02);
    free(samples);
    OK(ss_source_set_position(source, -5, 0, 0));
    CHECK((samples = render(device, 0.5, &frames)) != NULL);
    CHECK(rms(samples, frames, 1, 4800) < 1e-4);
    CHECK(rms(samples, frames, 0, 4800) > 0.02);
    free(samples);
    OK(ss_device_destroy(device));
    return 1;
}

/* Inverse distance, clamped: 10 m is a tenth of 1 m. */
static int test_distance_gain(void) {
    double level[2];
    float distances[2] = {1, 10};
    int i;
    for (i = 0; i < 2; i++) {
        ss_device *device = loopback();
        ss_scene *scene;
        ss_buffer *buffer;
        float *samples;
        size_t frames;
        CHECK(device != NULL);
        OK(ss_scene_create(device, 0, &scene));
        OK(ss_scene_set_distance_model(scene, SS_DISTANCE_INVERSE_CLAMPED));
        CHECK((buffer = sine(device, 440, 1, 0.5f)) != NULL);
        CHECK(playing_sine(scene, buffer, vec(0, 0, -distances[i])) != NULL);
        CHECK((samples = render(device, 0.5, &frames)) != NULL);
        level[i] = rms(samples, frames, 0, 4800);
        free(samples);
        OK(ss_device_destroy(device));
    }
    NEAR(level[1] / level[0], 0.1, 0.002);
    return 1;
}

/* Pitch 2 doubles the frequency; the getter reads back what was set. */
static int test_pitch(void) {
    ss_device *device = loopback();
    ss_scene *scene;
    ss_buffer *buffer;
    ss_source *source;
    float *samples, pitch = 0;
    size_t frames;
    CHECK(device != NULL);
    OK(ss_scene_create(device, 0, &scene));
    CHECK((buffer = sine(device, 440, 1, 0.5f)) != NULL);
    CHECK((source = playing_sine(scene, buffer, vec(0, 0, -1))) != NULL);
    OK(ss_source_set_pitch(source, 2));
    OK(ss_source_get_float(source, SS_SOURCE_PITCH, &pitch));
    CHECK(pitch == 2);
    CHECK((samples = render(device, 0.5, &frames)) != NULL);
    NEAR(frequency(samples, frames, 0, 4800), 880, 2);
    free(samples);
    OK(ss_device_destroy(device));
    return 1;
}

/* Completion: the callback runs once, inside the render, and may call back in. */
struct completion_probe {
    int calls;
    ss_source_state state_seen;
    ss_result call_back_in;
    ss_source *next;
};

static void on_complete(ss_source *source, void *user_data) {
    struct completion_probe *probe = user_data;
    probe->calls++;
    ss_source_get_state(source, &probe->state_seen);
    probe->call_back_in = ss_source_play(probe->next); /* starts the next sound from the callback */
}

static int test_completion(void) {
    ss_device *device = loopback();
    ss_scene *scene;
    ss_buffer *short_sound, *tone;
    ss_source *source, *next;
    ss_source_state state;
    struct completion_probe probe;
    float *samples;
    size_t frames;
    memset(&probe, 0, sizeof probe);
    CHECK(device != NULL);
    OK(ss_scene_create(device, 0, &scene));
    CHECK((short_sound = sine(device, 440, 0.1, 0.5f)) != NULL);
    CHECK((tone = sine(device, 660, 1, 0.5f)) != NULL);
    OK(ss_source_create(scene, short_sound, &source));
    OK(ss_source_create(scene, tone, &next));
    probe.next = next;
    OK(ss_source_set_completion_callback(source, on_complete, &probe));
    OK(ss_source_play(source));
    CHECK((samples = render(device, 0.4, &frames)) != NULL);
    CHECK(probe.calls == 1);
    CHECK(probe.state_seen == SS_SOURCE_STOPPED);
    CHECK(probe.call_back_in == SS_OK);
    OK(ss_source_get_state(next, &state));
    CHECK(state == SS_SOURCE_PLAYING);
    free(samples);
    /* The next sound is heard after the first ended. */
    CHECK((samples = render(device, 0.2, &frames)) != NULL);
    NEAR(frequency(samples, frames, 0, 0), 660, 3);
    free(samples);
    CHECK(probe.calls == 1);
    OK(ss_device_destroy(device));
    return 1;
}

/* Metering: a -6 dBFS sine reads -6 peak and -9 average at the source and the output. */
static int test_metering(void) {
    ss_device *device = loopback();
    ss_scene *scene;
    ss_buffer *buffer;
    ss_source *source;
    ss_levels levels;
    float *samples;
    size_t frames;
    CHECK(device != NULL);
    OK(ss_scene_create(device, 0, &scene));
    CHECK((buffer = sine(device, 1000, 1, 0.5f)) != NULL);
    OK(ss_source_create(scene, buffer, &source));
    OK(ss_source_set_head_relative(source, 1));
    OK(ss_source_set_looping(source, 1));
    OK(ss_source_set_metering(source, 1));
    OK(ss_device_set_output_metering(device, 1));
    OK(ss_source_play(source));
    CHECK((samples = render(device, 0.5, &frames)) != NULL);
    free(samples);
    OK(ss_source_get_levels(source, &levels));
    CHECK(levels.channels == 1);
    NEAR(levels.peak_power[0], -6.02, 0.2);
    NEAR(levels.average_power[0], -9.03, 0.2);
    OK(ss_device_get_output_levels(device, &levels));
    CHECK(levels.channels == 2);
    CHECK(levels.frames > 0);
    /* Ahead, a mono source reaches each channel at -4.5 dB (0.596): -6 - 4.5 = -10.5 dBFS peak. */
    NEAR(levels.peak_power[0], levels.peak_power[1], 0.1);
    CHECK(levels.peak_power[0] < -9 && levels.peak_power[0] > -12);
    /* Nothing rendered since: no reading. */
    OK(ss_device_get_output_levels(device, &levels));
    CHECK(levels.channels == 0);
    OK(ss_device_destroy(device));
    return 1;
}

/* NULL, destroyed, wrong-kind and garbage handles are distinct errors, never a crash. */
static int test_bad_handles(void) {
    ss_device *device = loopback();
    ss_scene *scene;
    ss_source *source;
    ss_buffer *buffer;
    float gain;
    CHECK(device != NULL);
    OK(ss_scene_create(device, 0, &scene));
    CHECK((buffer = sine(device, 440, 0.1, 0.5f)) != NULL);
    OK(ss_source_create(scene, buffer, &source));

    EXPECT(SS_ERROR_NULL_ARGUMENT, ss_source_play(NULL));
    EXPECT(SS_ERROR_NULL_ARGUMENT, ss_source_get_float(source, SS_SOURCE_GAIN, NULL));
    EXPECT(SS_ERROR_NULL_ARGUMENT, ss_scene_create(device, 0, NULL));
    EXPECT(SS_ERROR_NULL_ARGUMENT, ss_buffer_load_file(device, NULL, &buffer));
    EXPECT(SS_ERROR_WRONG_HANDLE_KIND, ss_source_play((ss_source *)scene));
    CHECK(strstr(ss_error_message(), "expected ss_source, got ss_scene") != NULL);
    EXPECT(SS_ERROR_WRONG_HANDLE_KIND, ss_scene_destroy((ss_scene *)device));
    EXPECT(SS_ERROR_INVALID_HANDLE, ss_source_play((ss_source *)(uintptr_t)0x1234));
    EXPECT(SS_ERROR_INVALID_HANDLE, ss_source_play((ss_source *)(uintptr_t)0x040000017fffffffu)); /* no such slot */

    OK(ss_source_destroy(source));
    EXPECT(SS_ERROR_STALE_HANDLE, ss_source_play(source));
    EXPECT(SS_ERROR_STALE_HANDLE, ss_source_get_float(source, SS_SOURCE_GAIN, &gain));
    EXPECT(SS_ERROR_STALE_HANDLE, ss_source_destroy(source));
    /* A new source may reuse the slot: the old handle stays stale. */
    {
        ss_source *again;
        OK(ss_source_create(scene, buffer, &again));
        EXPECT(SS_ERROR_STALE_HANDLE, ss_source_play(source));
        OK(ss_source_play(again));
        /* Destroying the device destroys its children's handles. */
        OK(ss_device_destroy(device));
        EXPECT(SS_ERROR_STALE_HANDLE, ss_source_play(again));
        EXPECT(SS_ERROR_STALE_HANDLE, ss_scene_set_doppler_factor(scene, 1));
        EXPECT(SS_ERROR_STALE_HANDLE, ss_buffer_destroy(buffer));
        EXPECT(SS_ERROR_STALE_HANDLE, ss_device_destroy(device));
    }
    return 1;
}

/* NaN, infinities and values out of range are refused with distinct codes; the value stays. */
static int test_bad_values(void) {
    ss_device *device = loopback(), *other;
    ss_scene *scene;
    ss_source *source;
    ss_buffer *buffer;
    float gain, max_distance;
    int64_t refused = 0;
    CHECK(device != NULL);
    OK(ss_scene_create(device, 0, &scene));
    CHECK((buffer = sine(device, 440, 0.1, 0.5f)) != NULL);
    OK(ss_source_create(scene, buffer, &source));
    OK(ss_source_set_gain(source, 0.5f));

    EXPECT(SS_ERROR_NOT_FINITE, ss_source_set_gain(source, NAN));
    CHECK(strstr(ss_error_message(), "Source.gain = nan") != NULL);
    EXPECT(SS_ERROR_OUT_OF_RANGE, ss_source_set_gain(source, -1));
    EXPECT(SS_ERROR_NOT_FINITE, ss_source_set_float(source, SS_SOURCE_GAIN, INFINITY));
    OK(ss_source_get_float(source, SS_SOURCE_GAIN, &gain));
    CHECK(gain == 0.5f);
    EXPECT(SS_ERROR_OUT_OF_RANGE, ss_source_set_pitch(source, 0));
    EXPECT(SS_ERROR_NOT_FINITE, ss_source_set_position(source, 0, NAN, 0));
    EXPECT(SS_ERROR_OUT_OF_RANGE, ss_source_set_position(source, 1e12f, 0, 0));
    EXPECT(SS_ERROR_OUT_OF_RANGE, ss_source_set_float(source, SS_SOURCE_OCCLUSION, 3));
    EXPECT(SS_ERROR_OUT_OF_RANGE, ss_source_set_float(source, SS_SOURCE_CONE_OUTER_ANGLE, 400));
    /* No limit is FLT_MAX (the default); an infinity is refused like every other. */
    EXPECT(SS_ERROR_NOT_FINITE, ss_source_set_float(source, SS_SOURCE_MAX_DISTANCE, INFINITY));
    OK(ss_source_set_float(source, SS_SOURCE_MAX_DISTANCE, FLT_MAX));
    OK(ss_source_get_float(source, SS_SOURCE_MAX_DISTANCE, &max_distance));
    CHECK(max_distance == FLT_MAX);
    EXPECT(SS_ERROR_INVALID_ARGUMENT, ss_source_set_float(source, (ss_source_float)99, 1));
    EXPECT(SS_ERROR_NOT_FINITE, ss_source_seek(source, NAN));
    EXPECT(SS_ERROR_OUT_OF_RANGE, ss_source_set_repeat_count(source, -1));
    EXPECT(SS_ERROR_OUT_OF_RANGE, ss_listener_set_orientation(scene, vec(0, 0, -1), vec(0, 0, -2)));
    EXPECT(SS_ERROR_NOT_FINITE, ss_listener_set_gain(scene, NAN));
    EXPECT(SS_ERROR_OUT_OF_RANGE, ss_scene_set_speed_of_sound(scene, 0));
    EXPECT(SS_ERROR_INVALID_STATE, ss_scene_end_batch(scene));
    EXPECT(SS_ERROR_OUT_OF_RANGE, ss_scene_create(device, -3, &scene));
    EXPECT(SS_ERROR_OUT_OF_RANGE, ss_device_open_loopback(5, SS_LAYOUT_STEREO, SS_OFF, -1, &other));
    EXPECT(SS_ERROR_INVALID_ARGUMENT, ss_device_open_loopback(RATE, (ss_channel_layout)3, SS_OFF, -1, &other));
    EXPECT(SS_ERROR_OUT_OF_RANGE, ss_device_open_loopback(RATE, SS_LAYOUT_STEREO, SS_OFF, 9, &other));
    EXPECT(SS_ERROR_INVALID_ARGUMENT, ss_buffer_create_pcm(device, &gain, 1, 3, RATE, &buffer));
    {
        float bad[4] = {0, NAN, 0, 0};
        EXPECT(SS_ERROR_NOT_FINITE, ss_buffer_create_pcm(device, bad, 4, 1, RATE, &buffer));
        /* More than the decode limit is refused before a sample is read. */
        OK(ss_device_set_max_decoded_bytes(device, 1 << 20));
        EXPECT(SS_ERROR_TOO_LARGE, ss_buffer_create_pcm(device, bad, (size_t)1 << 30, 1, RATE, &buffer));
        EXPECT(SS_ERROR_OUT_OF_RANGE, ss_buffer_create_pcm(device, bad, (size_t)1 << 40, 1, RATE, &buffer));
        EXPECT(SS_ERROR_OUT_OF_RANGE, ss_buffer_load_memory(device, bad, (size_t)1 << 40, "huge", &buffer));
    }
    {
        ss_desktop_options options; /* not initialized: refused, whatever it holds */
        memset(&options, 0, sizeof options);
        EXPECT(SS_ERROR_INVALID_ARGUMENT, ss_device_open_output(SS_BACKEND_DESKTOP, &options, &other));
    }
    OK(ss_scene_get_refused_value_count(scene, &refused));
    CHECK(refused >= 8);
    /* The mix stays finite. */
    {
        float *samples;
        size_t frames, i;
        OK(ss_source_play(source));
        CHECK((samples = render(device, 0.1, &frames)) != NULL);
        for (i = 0; i < frames * 2; i++) CHECK(isfinite(samples[i]));
        free(samples);
    }
    OK(ss_device_destroy(device));
    return 1;
}

/* Bad files are typed errors with the file named. */
static int test_bad_files(void) {
    ss_device *device = loopback();
    ss_buffer *buffer;
    const char junk[] = "this is not audio, not even close; it is plain text of some length";
    CHECK(device != NULL);
    EXPECT(SS_ERROR_NOT_FOUND, ss_buffer_load_file(device, "/nonexistent/sound.wav", &buffer));
    CHECK(strstr(ss_error_message(), "/nonexistent/sound.wav") != NULL);
    CHECK(ss_buffer_load_memory(device, junk, sizeof junk, "junk", &buffer) < 0);
    CHECK(strstr(ss_error_message(), "junk") != NULL);
    OK(ss_device_destroy(device));
    return 1;
}

/* A sound rendered to a file loads back from the file and from memory, and streams. */
static int test_files_and_streaming(void) {
    ss_device *device = loopback(), *writer = loopback();
    ss_scene *scene;
    ss_buffer *buffer, *from_file, *from_memory;
    ss_buffer_info info;
    ss_source *stream;
    char path[] = "/tmp/ss-capi-XXXXXX";
    char wav[64];
    size_t size;
    void *bytes;
    float *samples;
    size_t frames;
    int fd = mkstemp(path);
    CHECK(fd >= 0 && device != NULL && writer != NULL);
    close(fd);
    unlink(path);
    snprintf(wav, sizeof wav, "%s.wav", path);
    /* Half a second of a 440 Hz tone, written by a loopback render. */
    OK(ss_scene_create(writer, 0, &scene));
    CHECK((buffer = sine(writer, 440, 1, 0.5f)) != NULL);
    CHECK(playing_sine(scene, buffer, vec(0, 0, -1)) != NULL);
    OK(ss_device_render_to_file(writer, 0.5, wav, SS_FORMAT_WAV_FLOAT32));
    OK(ss_device_destroy(writer));

    OK(ss_buffer_load_file(device, wav, &from_file));
    OK(ss_buffer_get_info(from_file, &info));
    CHECK(info.frames == 24000 && info.channels == 2 && info.sample_rate == RATE);
    CHECK((bytes = read_whole_file(wav, &size)) != NULL);
    OK(ss_buffer_load_memory(device, bytes, size, "tone.wav", &from_memory));
    free(bytes);
    OK(ss_buffer_get_info(from_memory, &info));
    CHECK(info.frames == 24000);

    OK(ss_scene_create(device, 0, &scene));
    OK(ss_source_create_streaming(scene, wav, NULL, &stream));
    OK(ss_source_play(stream));
    CHECK((samples = render(device, 0.3, &frames)) != NULL);
    NEAR(frequency(samples, frames, 0, 2400), 440, 2);
    free(samples);
    unlink(wav);
    OK(ss_device_destroy(device));
    return 1;
}

/* Groups multiply gain; a muted group is silent; a fade's callback runs once. */
static void count_call(ss_group *group, void *user_data) {
    (void)group;
    (*(int *)user_data)++;
}

static int test_groups(void) {
    ss_device *device = loopback();
    ss_scene *scene;
    ss_buffer *buffer;
    ss_source *source;
    ss_group *master, *music;
    float *samples;
    size_t frames;
    double full, half;
    int faded = 0;
    CHECK(device != NULL);
    OK(ss_scene_create(device, 0, &scene));
    OK(ss_group_create(scene, "master", NULL, &master));
    OK(ss_group_create(scene, "music", master, &music));
    CHECK((buffer = sine(device, 440, 1, 0.5f)) != NULL);
    CHECK((source = playing_sine(scene, buffer, vec(0, 0, -1))) != NULL);
    OK(ss_source_set_group(source, music));
    CHECK((samples = render(device, 0.2, &frames)) != NULL);
    full = rms(samples, frames, 0, 2400);
    free(samples);
    OK(ss_group_set_gain(master, 0.5f));
    CHECK((samples = render(device, 0.2, &frames)) != NULL);
    half = rms(samples, frames, 0, 2400);
    free(samples);
    NEAR(half / full, 0.5, 0.01);
    OK(ss_group_set_muted(music, 1));
    CHECK((samples = render(device, 0.2, &frames)) != NULL);
    CHECK(rms(samples, frames, 0, 2400) < 1e-5);
    free(samples);
    OK(ss_group_set_muted(music, 0));
    OK(ss_group_fade(music, 0, 0.1, 1, count_call, &faded));
    CHECK((samples = render(device, 0.4, &frames)) != NULL);
    free(samples);
    CHECK(faded == 1);
    EXPECT(SS_ERROR_OUT_OF_RANGE, ss_group_set_gain(music, -1));
    OK(ss_device_destroy(device));
    return 1;
}

/* Level of one render of `seconds`, left channel, after the first 50 ms. */
static double level(ss_device *device, double seconds) {
    size_t frames;
    float *samples = render(device, seconds, &frames);
    double value = samples ? rms(samples, frames, 0, 2400) : -1;
    free(samples);
    return value;
}

/* What the mix hears of the C calls that only forward to the engine: occlusion and obstruction
 * muffle a high tone, a paused group is silent until resumed, ducking lowers its target while the
 * trigger sounds, and a crossfade swaps two sources. */
static int test_effects_and_mixing(void) {
    ss_device *device = loopback();
    ss_scene *scene;
    ss_buffer *high, *low;
    ss_source *tone, *voice, *music;
    ss_group *speech, *score;
    double open, occluded, obstructed, paused, resumed, alone, ducked;
    CHECK(device != NULL);
    OK(ss_scene_create(device, 0, &scene));
    CHECK((high = sine(device, 9000, 1, 0.5f)) != NULL);
    CHECK((low = sine(device, 300, 1, 0.5f)) != NULL);
    CHECK((tone = playing_sine(scene, high, vec(0, 0, -1))) != NULL);
    open = level(device, 0.2);
    OK(ss_source_set_float(tone, SS_SOURCE_OCCLUSION, -24));
    occluded = level(device, 0.2);
    OK(ss_source_set_float(tone, SS_SOURCE_OCCLUSION, 0));
    OK(ss_source_set_float(tone, SS_SOURCE_OBSTRUCTION, -24));
    obstructed = level(device, 0.2);
    CHECK(occluded < open * 0.2 && obstructed < open * 0.2);
    OK(ss_source_stop(tone));

    /* A group paused: silent; resumed: heard again. */
    OK(ss_group_create(scene, "speech", NULL, &speech));
    OK(ss_group_create(scene, "score", NULL, &score));
    CHECK((music = playing_sine(scene, low, vec(0, 0, -1))) != NULL);
    OK(ss_source_set_group(music, score));
    alone = level(device, 0.2);
    OK(ss_group_pause(score));
    paused = level(device, 0.1);
    OK(ss_group_resume(score));
    resumed = level(device, 0.2);
    CHECK(paused < 1e-5 && fabs(resumed / alone - 1) < 0.05);

    /* Ducking: music falls to 0.25 while speech sounds (the speech is hard right, the music's
     * level read on the left). */
    OK(ss_scene_add_ducking(scene, score, speech, 0.25f, 0.01, 0.01));
    CHECK((voice = playing_sine(scene, high, vec(5, 0, 0))) != NULL);
    OK(ss_source_set_group(voice, speech));
    (void)level(device, 0.1);
    ducked = level(device, 0.2);
    NEAR(ducked / alone, 0.25, 0.03);
    OK(ss_source_stop(voice));

    /* A crossfade from the music to the high tone: afterwards only the tone is heard. */
    OK(ss_scene_crossfade(scene, music, tone, 0.1));
    (void)level(device, 0.3);
    {
        size_t frames;
        float *samples = render(device, 0.2, &frames);
        CHECK(samples != NULL);
        NEAR(frequency(samples, frames, 0, 0), 9000, 20);
        free(samples);
    }
    OK(ss_device_destroy(device));
    return 1;
}

/* Sources scheduled in two scenes start on the same frame; a batch lands together. */
static int test_scheduled_start(void) {
    ss_device *device = loopback();
    ss_scene *left_scene, *right_scene;
    ss_buffer *buffer;
    ss_source *left, *right;
    float *samples;
    size_t frames, i, first_left = 0, first_right = 0;
    double now;
    CHECK(device != NULL);
    OK(ss_scene_create(device, 0, &left_scene));
    OK(ss_scene_create(device, 0, &right_scene));
    CHECK((buffer = sine(device, 440, 0.5, 0.5f)) != NULL);
    OK(ss_source_create(left_scene, buffer, &left));
    OK(ss_source_create(right_scene, buffer, &right));
    OK(ss_source_set_vec3(left, SS_SOURCE_POSITION, vec(-5, 0, 0)));
    OK(ss_source_set_vec3(right, SS_SOURCE_POSITION, vec(5, 0, 0)));
    OK(ss_device_get_mix_time(device, &now));
    {
        ss_source *pair[1];
        pair[0] = right;
        OK(ss_scene_play_at(right_scene, pair, 1, now + 1445.0 / RATE));
        pair[0] = left;
        OK(ss_scene_play_at(left_scene, pair, 1, now + 1445.0 / RATE));
        EXPECT(SS_ERROR_INVALID_ARGUMENT, ss_scene_play_at(left_scene, pair, 1, now - 1));
        EXPECT(SS_ERROR_INVALID_ARGUMENT, ss_scene_play_at(left_scene, pair, 1, 1e300)); /* no frame count: an error, not a trap */
    }
    CHECK((samples = render(device, 0.1, &frames)) != NULL);
    for (i = 0; i < frames; i++) {
        if (!first_left && samples[2 * i] != 0) first_left = i;
        if (!first_right && samples[2 * i + 1] != 0) first_right = i;
    }
    free(samples);
    CHECK(first_left == first_right);
    CHECK(first_left >= 1445 && first_left <= 1447);
    OK(ss_scene_begin_batch(left_scene));
    OK(ss_source_set_position(left, 0, 0, -1));
    OK(ss_scene_end_batch(left_scene));
    OK(ss_device_destroy(device));
    return 1;
}

/* A reverb zone leaves a tail after the dry sound stops; without one there is none. */
static int test_reverb(void) {
    double tails[2];
    int with_zone;
    CHECK(ss_reverb_preset_count() > 100);
    CHECK(strcmp(ss_reverb_preset_name(0), "generic") == 0);
    CHECK(ss_reverb_preset_name(-1) == NULL && ss_reverb_preset_name(100000) == NULL);
    for (with_zone = 0; with_zone < 2; with_zone++) {
        ss_device *device = loopback();
        ss_scene *scene;
        ss_buffer *burst;
        ss_source *source;
        ss_reverb_zone *zone;
        float *samples;
        size_t frames;
        CHECK(device != NULL);
        OK(ss_scene_create(device, 0, &scene));
        if (with_zone) {
            OK(ss_reverb_zone_create(scene, "cave", "cave", NULL, 1, &zone));
            OK(ss_reverb_zone_set_value(zone, "decayTime", 3));
            EXPECT(SS_ERROR_NOT_FOUND, ss_reverb_zone_set_preset(zone, "no-such-room"));
            EXPECT(SS_ERROR_INVALID_ARGUMENT, ss_reverb_zone_set_value(zone, "decayTime", 500));
        }
        CHECK((burst = sine(device, 800, 0.2, 0.5f)) != NULL);
        OK(ss_source_create(scene, burst, &source));
        OK(ss_source_set_position(source, 0, 0, -1));
        OK(ss_source_play(source));
        CHECK((samples = render(device, 0.6, &frames)) != NULL);
        tails[with_zone] = rms(samples, frames, 0, (size_t)(0.3 * RATE));
        free(samples);
        OK(ss_device_destroy(device));
    }
    CHECK(tails[0] < 1e-5);
    CHECK(tails[1] > 1e-3);
    return 1;
}

/* A session's interruption silences its scene and its end resumes it; the callback hears both. */
struct session_probe {
    int began, ended;
};

static void on_session(ss_session *session, const ss_session_event *event, void *user_data) {
    struct session_probe *probe = user_data;
    ss_session_state state;
    (void)ss_session_get_state(session, &state); /* calling back in */
    if (event->kind == SS_SESSION_INTERRUPTION_BEGAN) probe->began++;
    if (event->kind == SS_SESSION_INTERRUPTION_ENDED && event->should_resume) probe->ended++;
}

static int test_sessions(void) {
    ss_device *device = loopback();
    ss_scene *scene;
    ss_buffer *buffer;
    ss_session *session;
    ss_session_state state;
    struct session_probe probe = {0, 0};
    float *samples;
    size_t frames;
    CHECK(device != NULL);
    OK(ss_scene_create(device, 0, &scene));
    OK(ss_session_create(device, SS_CATEGORY_PLAYBACK, 0, &session));
    OK(ss_session_attach_scene(session, scene));
    OK(ss_session_set_callback(session, on_session, &probe));
    OK(ss_session_set_active(session, 1));
    CHECK((buffer = sine(device, 440, 1, 0.5f)) != NULL);
    CHECK(playing_sine(scene, buffer, vec(0, 0, -1)) != NULL);
    CHECK((samples = render(device, 0.1, &frames)) != NULL);
    CHECK(rms(samples, frames, 0, 0) > 0.02);
    free(samples);
    OK(ss_session_begin_interruption(session));
    OK(ss_session_get_state(session, &state));
    CHECK(state.interrupted == 1 && state.category == SS_CATEGORY_PLAYBACK);
    CHECK((samples = render(device, 0.1, &frames)) != NULL);
    CHECK(rms(samples, frames, 0, 0) < 1e-5);
    free(samples);
    OK(ss_session_end_interruption(session, 1));
    CHECK((samples = render(device, 0.1, &frames)) != NULL);
    CHECK(rms(samples, frames, 0, 480) > 0.02);
    free(samples);
    CHECK(probe.began == 1 && probe.ended == 1);
    EXPECT(SS_ERROR_INVALID_ARGUMENT, ss_session_create(device, (ss_session_category)42, 0, &session));
    OK(ss_device_destroy(device));
    return 1;
}

/* System sounds: registered once, played by id, the callback hears how it ended. */
struct sound_probe {
    int calls;
    ss_sound_outcome outcome;
    uint32_t id;
};

static void on_sound(ss_sound_registry *registry, uint32_t id, ss_sound_outcome outcome, void *user_data) {
    struct sound_probe *probe = user_data;
    (void)registry;
    probe->calls++;
    probe->outcome = outcome;
    probe->id = id;
}

static int test_system_sounds(void) {
    ss_device *device = loopback();
    ss_sound_registry *registry;
    uint32_t click, again;
    struct sound_probe probe = {0, SS_SOUND_FAILED, 0};
    float *samples;
    size_t frames;
    CHECK(device != NULL);
    OK(ss_sound_registry_create(device, NULL, &registry));
    OK(ss_sound_register_file(registry, "assets/sounds/click.wav", &click));
    OK(ss_sound_play(registry, click, on_sound, &probe));
    CHECK((samples = render(device, 1.0, &frames)) != NULL);
    CHECK(rms(samples, frames, 0, 0) > 1e-3);
    free(samples);
    CHECK(probe.calls == 1 && probe.outcome == SS_SOUND_FINISHED && probe.id == click);
    /* By file: the same file plays the same registered sound. */
    OK(ss_sound_play_file(registry, "assets/sounds/click.wav", 0, NULL, NULL));
    OK(ss_sound_register_file(registry, "assets/sounds/click.wav", &again));
    EXPECT(SS_ERROR_UNKNOWN_SOUND_ID, ss_sound_play(registry, 9999, on_sound, &probe));
    CHECK(probe.calls == 2 && probe.outcome == SS_SOUND_FAILED);
    OK(ss_sound_dispose(registry, click));
    EXPECT(SS_ERROR_UNKNOWN_SOUND_ID, ss_sound_dispose(registry, click));
    EXPECT(SS_ERROR_OUT_OF_RANGE, ss_sound_registry_set_volume(registry, 2));
    OK(ss_device_destroy(device));
    EXPECT(SS_ERROR_STALE_HANDLE, ss_sound_play(registry, again, NULL, NULL));
    return 1;
}

/* A scene file renders; a malformed one says where it is wrong. */
static int test_scene_files(void) {
    ss_device *device = loopback();
    ss_scene_file *file;
    ss_source *bee;
    double duration;
    char path[] = "/tmp/ss-capi-scene-XXXXXX";
    int fd = mkstemp(path);
    FILE *bad;
    CHECK(device != NULL && fd >= 0);
    close(fd);
    OK(ss_scene_file_load(device, "Examples/scenes/orbit.json", &file));
    OK(ss_scene_file_get_duration(file, &duration));
    NEAR(duration, 8, 1e-9);
    OK(ss_scene_file_get_source(file, "bee", &bee));
    OK(ss_source_set_gain(bee, 0.5f));
    EXPECT(SS_ERROR_NOT_FOUND, ss_scene_file_get_source(file, "wasp", &bee));
    OK(ss_scene_file_render(file, path, SS_FORMAT_WAV_PCM16));
    EXPECT(SS_ERROR_INVALID_STATE, ss_scene_file_play(file));
    bad = fopen(path, "w");
    CHECK(bad != NULL);
    fputs("{\"format\": 1, \"duration\": \"long\"}", bad);
    fclose(bad);
    EXPECT(SS_ERROR_INVALID_SCENE, ss_scene_file_load(device, path, &file));
    CHECK(strstr(ss_error_message(), path) != NULL);
    CHECK(strstr(ss_error_message(), "sources") != NULL);
    unlink(path);
    OK(ss_device_destroy(device));
    return 1;
}

/* The mix recorder writes exactly the rendered frames. */
static int test_mix_recording(void) {
    ss_device *device = loopback();
    ss_scene *scene;
    ss_buffer *buffer;
    ss_mix_recording recording;
    char path[] = "/tmp/ss-capi-mix-XXXXXX";
    float *samples;
    size_t frames;
    int fd = mkstemp(path);
    CHECK(device != NULL && fd >= 0);
    close(fd);
    OK(ss_scene_create(device, 0, &scene));
    CHECK((buffer = sine(device, 440, 1, 0.5f)) != NULL);
    CHECK(playing_sine(scene, buffer, vec(0, 0, -1)) != NULL);
    OK(ss_device_start_recording_output(device, path, SS_FORMAT_WAV_PCM16));
    CHECK((samples = render(device, 0.25, &frames)) != NULL);
    free(samples);
    OK(ss_device_stop_recording_output(device, &recording));
    CHECK(recording.frames == 12000 && recording.failed == 0);
    EXPECT(SS_ERROR_INVALID_STATE, ss_device_stop_recording_output(device, &recording));
    unlink(path);
    OK(ss_device_destroy(device));
    return 1;
}

/* Voices: with virtualization more sources than the budget may play, the most important real;
 * the voice callback names the source by its handle; a limit of none refuses, oldest steals. */
struct voice_probe {
    int events[3];
    ss_source *last[3];
};

static void on_voice(ss_scene *scene, ss_source *source, ss_voice_event_kind kind, void *user_data) {
    struct voice_probe *probe = user_data;
    int looping = 0;
    (void)scene;
    if (ss_source_is_looping(source, &looping) != SS_OK) return; /* a handle of ours, usable here */
    probe->events[kind]++;
    probe->last[kind] = source;
}

static int test_voices(void) {
    ss_device *device = loopback();
    ss_scene *scene;
    ss_buffer *buffer;
    ss_voice_limit *limit, *steps;
    ss_source *sources[6], *first, *second;
    ss_voice_statistics statistics;
    struct voice_probe probe;
    int i, virtual_count = 0, is_virtual;
    float *samples;
    size_t frames;
    memset(&probe, 0, sizeof probe);
    CHECK(device != NULL);
    OK(ss_scene_create(device, 2, &scene));
    CHECK((buffer = sine(device, 440, 1, 0.5f)) != NULL);
    EXPECT(SS_ERROR_INVALID_STATE, ss_scene_set_voice_callback(scene, on_voice, &probe));
    OK(ss_scene_set_virtualizes_voices(scene, 1));
    OK(ss_scene_set_voice_callback(scene, on_voice, &probe));
    for (i = 0; i < 4; i++) {
        CHECK((sources[i] = playing_sine(scene, buffer, vec((float)i, 0, -1))) != NULL);
        OK(ss_source_set_priority(sources[i], i));
    }
    CHECK((samples = render(device, 0.1, &frames)) != NULL);
    free(samples);
    for (i = 0; i < 4; i++) {
        OK(ss_source_is_virtual(sources[i], &is_virtual));
        virtual_count += is_virtual;
        if (i < 2) CHECK(is_virtual); /* the two lowest priorities */
    }
    CHECK(virtual_count == 2);
    OK(ss_scene_get_voice_statistics(scene, &statistics));
    CHECK(statistics.real_voices == 2 && statistics.virtual_voices == 2);
    /* Raising a virtual voice's priority makes it real and another virtual, at the next ranking. */
    OK(ss_source_set_priority(sources[0], 100));
    CHECK((samples = render(device, 0.1, &frames)) != NULL);
    free(samples);
    OK(ss_source_is_virtual(sources[0], &is_virtual));
    CHECK(!is_virtual);
    CHECK(probe.events[SS_VOICE_REALIZED] >= 1 && probe.last[SS_VOICE_REALIZED] == sources[0]);
    CHECK(probe.events[SS_VOICE_VIRTUALIZED] >= 1);
    /* A limit of one with the oldest stolen: the second play steals the first. */
    OK(ss_voice_limit_create(scene, "steps", 1, SS_STEAL_OLDEST, &steps));
    OK(ss_source_create(scene, buffer, &first));
    OK(ss_source_create(scene, buffer, &second));
    OK(ss_source_set_priority(first, 1000));
    OK(ss_source_set_priority(second, 1000));
    OK(ss_source_set_voice_limit(first, steps));
    OK(ss_source_set_voice_limit(second, steps));
    OK(ss_source_play(first));
    CHECK((samples = render(device, 0.02, &frames)) != NULL);
    free(samples);
    OK(ss_source_play(second));
    CHECK(probe.events[SS_VOICE_STOLEN] == 1 && probe.last[SS_VOICE_STOLEN] == first);
    OK(ss_voice_limit_create(scene, "steps", 1, SS_STEAL_NONE, &limit));
    OK(ss_source_create(scene, buffer, &sources[4]));
    OK(ss_source_create(scene, buffer, &sources[5]));
    OK(ss_source_set_voice_limit(sources[4], limit));
    OK(ss_source_set_voice_limit(sources[5], limit));
    OK(ss_source_play(sources[4]));
    EXPECT(SS_ERROR_VOICE_LIMIT_REACHED, ss_source_play(sources[5]));
    EXPECT(SS_ERROR_OUT_OF_RANGE, ss_source_set_priority(sources[0], 2000000));
    OK(ss_device_destroy(device));
    return 1;
}

/* The daemon client: no daemon is a connection error, not a hang or a crash. */
static int test_client_without_daemon(void) {
    ss_client *client;
    EXPECT(SS_ERROR_CONNECTION, ss_client_connect("/tmp/ss-capi-no-such-daemon.sock", &client));
    EXPECT(SS_ERROR_NULL_ARGUMENT, ss_client_play_event(NULL, "bell", 0, NULL));
    return 1;
}

static void count_name(const char *name, const char *description, void *user_data) {
    (void)description;
    if (name != NULL && name[0] != '\0') (*(int *)user_data)++;
}

/* Enumerations: OpenAL's outputs (none may exist here), inputs of a server that is not there. */
static int test_enumerations(void) {
    int count = 0;
    ss_result r;
    EXPECT(SS_ERROR_NULL_ARGUMENT, ss_enumerate_openal_outputs(NULL, NULL));
    OK(ss_enumerate_openal_outputs(count_name, &count));
    CHECK(count >= 0);
    count = 0;
    r = ss_enumerate_inputs("unix:/tmp/ss-capi-no-such-server", count_name, &count);
    CHECK(r == SS_ERROR_AUDIO_SERVER || r == SS_ERROR_NO_INPUT_DEVICE);
    CHECK(count == 0);
    return 1;
}

/* The recorder without a desktop server: a typed error when it starts, nothing else. */
static int test_recorder_without_server(void) {
    ss_recorder *recorder;
    ss_recorder_settings settings;
    ss_recorder_state state;
    ss_result result;
    OK(ss_recorder_settings_init(&settings));
    settings.server = "unix:/tmp/ss-capi-no-such-server";
    OK(ss_recorder_create("/tmp/ss-capi-recording.wav", &settings, NULL, NULL, NULL, &recorder));
    OK(ss_recorder_get_state(recorder, &state));
    CHECK(state == SS_RECORDER_IDLE);
    result = ss_recorder_record(recorder);
    CHECK(result == SS_ERROR_AUDIO_SERVER || result == SS_ERROR_NO_INPUT_DEVICE);
    OK(ss_recorder_destroy(recorder));
    unlink("/tmp/ss-capi-recording.wav");
    return 1;
}

/* ---- Threads ------------------------------------------------------------------------------- */

struct shared_world {
    ss_device *device;
    ss_scene *scene;
    ss_buffer *buffer;
    ss_source *sources[16];
    volatile int stop;
    int unexpected, rendered, replaced;
};

/* The mix thread: 40 renders of 10 ms. */
static void *render_loop(void *argument) {
    struct shared_world *world = argument;
    float samples[2 * 480];
    int i;
    for (i = 0; i < 40; i++)
        if (ss_device_render(world->device, samples, 480) == SS_OK) world->rendered++;
    ss_thread_detach();
    return NULL;
}

/* A game thread: moves every source each "frame"; a source another thread destroyed is stale. */
static void *mover(void *argument) {
    struct shared_world *world = argument;
    int frame = 0, i;
    while (!world->stop) {
        for (i = 0; i < 16; i++) {
            ss_result r = ss_source_set_position(world->sources[i], (float)sin(frame * 0.1 + i), 0, -2);
            if (r != SS_OK && r != SS_ERROR_STALE_HANDLE) world->unexpected++;
        }
        frame++;
    }
    ss_thread_detach();
    return NULL;
}

/* Another thread: destroys and recreates sources while they are moved and mixed. */
static void *churner(void *argument) {
    struct shared_world *world = argument;
    int round = 0;
    while (!world->stop) {
        int i = round % 16;
        ss_source *fresh;
        if (ss_source_destroy(world->sources[i]) != SS_OK) world->unexpected++;
        if (ss_source_create(world->scene, world->buffer, &fresh) != SS_OK) world->unexpected++;
        ss_source_set_looping(fresh, 1);
        ss_source_play(fresh);
        world->sources[i] = fresh;
        round++;
    }
    ss_thread_detach();
    return NULL;
}

/* A completion callback that destroys the source it was called for and starts another. */
static void destroy_and_replace(ss_source *source, void *user_data) {
    struct shared_world *world = user_data;
    ss_source *fresh;
    if (ss_source_destroy(source) != SS_OK) world->unexpected++;
    if (ss_source_create(world->scene, world->buffer, &fresh) == SS_OK) {
        ss_source_set_completion_callback(fresh, destroy_and_replace, world);
        ss_source_play(fresh);
        world->replaced++;
    }
}

static int test_threads(void) {
    ss_device *device = loopback();
    struct shared_world world;
    ss_buffer *short_sound;
    ss_source *chain;
    pthread_t threads[4];
    int i;
    memset(&world, 0, sizeof world);
    CHECK(device != NULL);
    OK(ss_scene_create(device, 64, &world.scene));
    CHECK((world.buffer = sine(device, 440, 0.05, 0.1f)) != NULL);
    for (i = 0; i < 16; i++) CHECK((world.sources[i] = playing_sine(world.scene, world.buffer, vec(0, 0, -2))) != NULL);
    CHECK((short_sound = sine(device, 880, 0.02, 0.1f)) != NULL);
    OK(ss_source_create(world.scene, short_sound, &chain));
    OK(ss_source_set_completion_callback(chain, destroy_and_replace, &world));
    OK(ss_source_play(chain));
    world.device = device;
    pthread_create(&threads[0], NULL, mover, &world);
    pthread_create(&threads[1], NULL, mover, &world);
    pthread_create(&threads[2], NULL, churner, &world);
    /* The mix runs on a thread of its own: completion callbacks run there and call back in. */
    pthread_create(&threads[3], NULL, render_loop, &world);
    pthread_join(threads[3], NULL);
    world.stop = 1;
    for (i = 0; i < 3; i++) pthread_join(threads[i], NULL);
    CHECK(world.unexpected == 0);
    CHECK(world.rendered == 40);
    CHECK(world.replaced > 0);
    OK(ss_device_destroy(device));
    return 1;
}

/* A thread renders while the main thread destroys the device under it: errors, no crash. */
struct renderer_args {
    ss_device *device;
    int ok, stale;
};

static void *renderer(void *argument) {
    struct renderer_args *args = argument;
    float samples[2 * 480];
    for (;;) {
        ss_result r = ss_device_render(args->device, samples, 480);
        if (r == SS_OK) args->ok++;
        else if (r == SS_ERROR_STALE_HANDLE) { args->stale++; break; }
        else break;
    }
    ss_thread_detach();
    return NULL;
}

static int test_destroy_while_in_use(void) {
    struct renderer_args args;
    pthread_t thread;
    ss_scene *scene;
    ss_buffer *buffer;
    memset(&args, 0, sizeof args);
    CHECK((args.device = loopback()) != NULL);
    OK(ss_scene_create(args.device, 0, &scene));
    CHECK((buffer = sine(args.device, 440, 1, 0.5f)) != NULL);
    CHECK(playing_sine(scene, buffer, vec(0, 0, -1)) != NULL);
    pthread_create(&thread, NULL, renderer, &args);
    while (args.ok < 20) {
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
    OK(ss_device_destroy(args.device));
    pthread_join(thread, NULL);
    CHECK(args.stale == 1);
    return 1;
}

/* ---- Random input ---------------------------------------------------------------------------- */

/* A float from random bits: NaN, infinities, denormals and huge values included. */
static float random_float(unsigned *seed) {
    union {
        uint32_t bits;
        float value;
    } u;
    u.bits = (uint32_t)rand_r(seed) << 16 ^ (uint32_t)rand_r(seed);
    return u.value;
}

/* Whatever a C caller passes — live, destroyed, wrong-kind, garbage and NULL handles, any float
 * bits, any enum value — every call returns a known code, and the mix stays finite. */
static int test_random_calls(void) {
    ss_device *device = loopback();
    ss_scene *scene, *doomed_scene;
    ss_buffer *buffer;
    ss_source *live[4], *dead;
    ss_group *group;
    unsigned seed = 20261125;
    int i;
    float *samples;
    size_t frames, k;
    CHECK(device != NULL);
    OK(ss_scene_create(device, 0, &scene));
    OK(ss_scene_create(device, 0, &doomed_scene));
    CHECK((buffer = sine(device, 440, 0.2, 0.5f)) != NULL);
    for (i = 0; i < 4; i++) OK(ss_source_create(scene, buffer, &live[i]));
    OK(ss_source_create(doomed_scene, buffer, &dead));
    OK(ss_scene_destroy(doomed_scene));
    OK(ss_group_create(scene, "g", NULL, &group));
    for (i = 0; i < 20000; i++) {
        ss_source *handles[8];
        ss_source *target;
        float value = random_float(&seed);
        ss_vec3 v;
        ss_result r = SS_OK;
        handles[0] = live[0];
        handles[1] = live[1];
        handles[2] = live[2];
        handles[3] = live[3];
        handles[4] = dead;
        handles[5] = (ss_source *)group;
        handles[6] = NULL;
        handles[7] = (ss_source *)(uintptr_t)(((uintptr_t)rand_r(&seed) << 32) | (uintptr_t)rand_r(&seed));
        target = handles[rand_r(&seed) % 8];
        v.x = random_float(&seed);
        v.y = rand_r(&seed) % 2 ? value : 1;
        v.z = rand_r(&seed) % 2 ? -value : 0;
        switch (rand_r(&seed) % 12) {
        case 0: r = ss_source_set_float(target, (ss_source_float)(rand_r(&seed) % 16), value); break;
        case 1: r = ss_source_set_vec3(target, (ss_source_vec3)(rand_r(&seed) % 4), v); break;
        case 2: r = ss_source_set_position(target, v.x, v.y, v.z); break;
        case 3: r = ss_source_play(target); break;
        case 4: r = ss_source_seek(target, (double)value); break;
        case 5: r = ss_source_fade(target, value, (double)random_float(&seed), rand_r(&seed) % 2); break;
        case 6: r = ss_listener_set_orientation(scene, v, vec(value, 1, 0)); break;
        case 7: r = ss_listener_set_gain(scene, value); break;
        case 8: r = ss_group_set_gain(group, value); break;
        case 9: r = ss_source_set_repeat_count(target, rand_r(&seed) - RAND_MAX / 2); break;
        case 10: r = ss_source_stop(target); break;
        case 11: r = ss_scene_set_distance_model(scene, (ss_distance_model)(rand_r(&seed) % 9)); break;
        }
        if (r > 0 || strcmp(ss_result_name(r), "SS_UNKNOWN") == 0) {
            fprintf(stderr, "  call %d returned %d\n", i, (int)r);
            return 0;
        }
        if (i % 1000 == 999) {
            CHECK((samples = render(device, 0.01, &frames)) != NULL);
            for (k = 0; k < frames * 2; k++) CHECK(isfinite(samples[k]) && fabsf(samples[k]) <= 64);
            free(samples);
        }
    }
    OK(ss_device_destroy(device));
    return 1;
}

/* ---- Leaks --------------------------------------------------------------------------------- */

/* Every kind of handle, made and destroyed many times: nothing stays alive. */
static int test_handle_cycles(void) {
    ss_live_objects live, start;
    size_t before = ss_live_handles();
    OK(ss_get_live_objects(&start));
    int round;
    for (round = 0; round < 50; round++) {
        ss_device *device = loopback();
        ss_scene *scene;
        ss_buffer *buffer, *file_buffer;
        ss_source *source, *stream;
        ss_group *group;
        ss_reverb_zone *zone;
        ss_voice_limit *limit;
        ss_session *session;
        ss_sound_registry *registry;
        ss_scene_file *file;
        ss_recorder *recorder;
        uint32_t id;
        CHECK(device != NULL);
        OK(ss_scene_create(device, 0, &scene));
        CHECK((buffer = sine(device, 440, 0.1, 0.5f)) != NULL);
        OK(ss_buffer_load_file(device, "assets/sounds/click.wav", &file_buffer));
        OK(ss_source_create(scene, buffer, &source));
        OK(ss_source_play(source));
        OK(ss_source_create_streaming(scene, "assets/sounds/bee.wav", NULL, &stream));
        OK(ss_source_play(stream));
        OK(ss_group_create(scene, "g", NULL, &group));
        OK(ss_source_set_group(source, group));
        OK(ss_reverb_zone_create(scene, "z", "room", NULL, 1, &zone));
        OK(ss_voice_limit_create(scene, "l", 2, SS_STEAL_OLDEST, &limit));
        OK(ss_session_create(device, SS_CATEGORY_AMBIENT, 0, &session));
        OK(ss_sound_registry_create(device, NULL, &registry));
        OK(ss_sound_register_file(registry, "assets/sounds/click.wav", &id));
        OK(ss_sound_play(registry, id, NULL, NULL));
        OK(ss_scene_file_load(device, "Examples/scenes/orbit.json", &file));
        OK(ss_recorder_create("/tmp/ss-capi-never.wav", NULL, NULL, NULL, NULL, &recorder));
        {
            float samples[2 * 480];
            OK(ss_device_render(device, samples, 480));
        }
        /* Half the rounds destroy each handle, half only the device (which destroys the rest). */
        if (round % 2 == 0) {
            OK(ss_source_destroy(source));
            OK(ss_source_destroy(stream));
            OK(ss_group_destroy(group));
            OK(ss_reverb_zone_destroy(zone));
            OK(ss_voice_limit_destroy(limit));
            OK(ss_buffer_destroy(buffer));
            OK(ss_buffer_destroy(file_buffer));
            OK(ss_scene_destroy(scene));
            OK(ss_session_destroy(session));
            OK(ss_sound_registry_destroy(registry));
            OK(ss_scene_file_destroy(file));
        }
        OK(ss_recorder_destroy(recorder));
        OK(ss_device_destroy(device));
    }
    CHECK(ss_live_handles() == before);
    OK(ss_get_live_objects(&live));
    CHECK(live.devices == start.devices && live.contexts == start.contexts && live.buffers == start.buffers);
    CHECK(live.sources == start.sources && live.effect_slots == start.effect_slots);
    CHECK(live.effects == start.effects && live.filters == start.filters);
    return 1;
}

/* ---- iLBC -------------------------------------------------------------------------------------- */

/* A voice memo from C: the device's 48 kHz stereo mix rendered to SS_FORMAT_CAF_ILBC is an 8 kHz
 * mono CAF of a sixth of the frames, which loads (decoded through FFmpeg) and plays its 440 Hz
 * back; without FFmpeg the file is still written (Soundstage codes iLBC itself), only not read. */
static int test_ilbc_file(void) {
    ss_device *writer = loopback(), *device = loopback();
    ss_scene *scene;
    ss_buffer *tone, *memo;
    ss_buffer_info info;
    ss_source *source;
    char path[64];
    unsigned char head[4];
    FILE *file;
    float *mix;
    size_t frames;
    CHECK(writer != NULL && device != NULL);
    OK(ss_scene_create(writer, 0, &scene));
    CHECK((tone = sine(writer, 440, 1, 0.5f)) != NULL);
    CHECK(playing_sine(scene, tone, vec(0, 0, -1)) != NULL);
    snprintf(path, sizeof path, "/tmp/ss-capi-ilbc-%d.caf", (int)getpid());
    OK(ss_device_render_to_file(writer, 0.6, path, SS_FORMAT_CAF_ILBC));
    CHECK((file = fopen(path, "rb")) != NULL);
    CHECK(fread(head, 1, 4, file) == 4 && memcmp(head, "caff", 4) == 0);
    fclose(file);
    if (getenv("SOUNDSTAGE_FFMPEG_PATH") == NULL) {
        OK(ss_buffer_load_file(device, path, &memo));
        OK(ss_buffer_get_info(memo, &info));
        CHECK(info.frames == 4800 && info.channels == 1 && info.sample_rate == 8000);
        OK(ss_scene_create(device, 0, &scene));
        OK(ss_source_create(scene, memo, &source));
        OK(ss_source_play(source));
        CHECK((mix = render(device, 0.4, &frames)) != NULL);
        NEAR(frequency(mix, frames, 0, 4800), 440, 9);
        CHECK(rms(mix, frames, 0, 4800) > 0.05);
        free(mix);
        OK(ss_buffer_destroy(memo));
    }
    unlink(path);
    OK(ss_device_destroy(writer));
    OK(ss_device_destroy(device));
    return 1;
}

/* ---- AAC and ALAC (FFmpeg) ----------------------------------------------------------------- */

/* An iOS game's assets from C: a tone rendered to M4A (AAC, then ALAC) loads as a buffer, from a
 * file and from memory, streams, and registers as a system sound; heard at 440 Hz with its exact
 * length. With SOUNDSTAGE_FFMPEG_PATH pointing at an empty directory (scripts/test-c.sh runs
 * that too), the same calls fail with SS_ERROR_CODEC_UNAVAILABLE naming the packages. */
static int test_aac_files(void) {
    ss_device *writer = loopback(), *device = loopback();
    ss_scene *scene;
    ss_buffer *tone, *from_file, *from_memory;
    ss_buffer_info info;
    ss_source *source, *stream;
    ss_sound_registry *registry;
    uint32_t id;
    char path[64];
    const ss_file_format formats[2] = {SS_FORMAT_M4A_AAC, SS_FORMAT_M4A_ALAC};
    int f;
    const int without = getenv("SOUNDSTAGE_FFMPEG_PATH") != NULL;
    CHECK(writer != NULL && device != NULL);
    OK(ss_scene_create(writer, 0, &scene));
    CHECK((tone = sine(writer, 440, 1, 0.5f)) != NULL);
    CHECK(playing_sine(scene, tone, vec(0, 0, -1)) != NULL);
    snprintf(path, sizeof path, "/tmp/ss-capi-aac-%d.m4a", (int)getpid());
    if (without) {
        EXPECT(SS_ERROR_CODEC_UNAVAILABLE, ss_device_render_to_file(writer, 0.5, path, SS_FORMAT_M4A_AAC));
        CHECK(strstr(ss_error_message(), "libavformat59 libavcodec59") != NULL);
        CHECK(access(path, F_OK) != 0);
        OK(ss_device_destroy(writer));
        OK(ss_device_destroy(device));
        return 1;
    }
    for (f = 0; f < 2; f++) {
        size_t size;
        void *bytes;
        float *mix;
        size_t frames;
        /* A path of its own for each file: buffers are cached by path. */
        snprintf(path, sizeof path, "/tmp/ss-capi-aac-%d-%d.m4a", (int)getpid(), f);
        OK(ss_device_render_to_file(writer, 0.5, path, formats[f]));
        OK(ss_buffer_load_file(device, path, &from_file));
        OK(ss_buffer_get_info(from_file, &info));
        CHECK(info.frames == 24000 && info.channels == 2 && info.sample_rate == RATE);
        CHECK((bytes = read_whole_file(path, &size)) != NULL);
        OK(ss_buffer_load_memory(device, bytes, size, "tone.m4a", &from_memory));
        free(bytes);
        OK(ss_buffer_get_info(from_memory, &info));
        CHECK(info.frames == 24000);

        OK(ss_scene_create(device, 0, &scene));
        OK(ss_source_create(scene, from_file, &source));
        OK(ss_source_play(source));
        CHECK((mix = render(device, 0.25, &frames)) != NULL);
        NEAR(frequency(mix, frames, 0, 1200), 440, 0.5);
        CHECK(rms(mix, frames, 0, 1200) > 0.1);
        free(mix);
        OK(ss_source_stop(source));
        OK(ss_source_create_streaming(scene, path, NULL, &stream));
        OK(ss_source_play(stream));
        CHECK((mix = render(device, 0.25, &frames)) != NULL);
        NEAR(frequency(mix, frames, 1, 1200), 440, 0.5);
        free(mix);
        OK(ss_scene_destroy(scene));

        OK(ss_sound_registry_create(device, NULL, &registry));
        OK(ss_sound_register_file(registry, path, &id));
        OK(ss_sound_play(registry, id, NULL, NULL));
        CHECK((mix = render(device, 0.25, &frames)) != NULL);
        CHECK(rms(mix, frames, 0, 1200) > 0.05);
        free(mix);
        OK(ss_sound_registry_destroy(registry));
        OK(ss_buffer_destroy(from_file));
        OK(ss_buffer_destroy(from_memory));
        unlink(path);
    }
    /* A corrupt M4A is a typed error. */
    snprintf(path, sizeof path, "/tmp/ss-capi-aac-%d-corrupt.m4a", (int)getpid());
    {
        static const unsigned char fake[] = {0, 0, 0, 0x18, 'f', 't', 'y', 'p', 'M', '4', 'A', ' ', 0, 0, 0, 0,
                                             'n', 'o', 't', ' ', 'm', 'p', 'e', 'g', '-', '4', ' ', '!'};
        FILE *file = fopen(path, "wb");
        CHECK(file != NULL);
        CHECK(fwrite(fake, 1, sizeof fake, file) == sizeof fake);
        fclose(file);
        EXPECT(SS_ERROR_CORRUPT_DATA, ss_buffer_load_file(device, path, &from_file));
        unlink(path);
    }
    OK(ss_device_destroy(writer));
    OK(ss_device_destroy(device));
    return 1;
}

/* ---- Live view ------------------------------------------------------------------------------- */

/* The HTTP status of GET `path` on 127.0.0.1:`port` (0 when nothing answers); `body` gets the start of the answer. */
static int http_get(int port, const char *path, char *body, size_t body_size) {
    struct sockaddr_in address;
    char request[512];
    size_t got = 0;
    ssize_t count;
    int status = 0, fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return 0;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons((unsigned short)port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) { close(fd); return 0; }
    snprintf(request, sizeof request, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", path);
    if (write(fd, request, strlen(request)) < 0) { close(fd); return 0; }
    while (got + 1 < body_size && (count = read(fd, body + got, body_size - 1 - got)) > 0) got += (size_t)count;
    body[got] = 0;
    close(fd);
    if (sscanf(body, "HTTP/1.1 %d", &status) != 1) return 0;
    return status;
}

static int test_live_view(void) {
    ss_device *device = loopback();
    char url[128], tiny[16], path[256], answer[4096];
    const char *token;
    int port = 0;
    CHECK(device != NULL);
    EXPECT(SS_ERROR_NULL_ARGUMENT, ss_device_start_live_view(device, 0, NULL, 0));
    EXPECT(SS_ERROR_OUT_OF_RANGE, ss_device_start_live_view(device, 70000, url, sizeof url));
    EXPECT(SS_ERROR_BUFFER_TOO_SMALL, ss_device_start_live_view(device, 0, tiny, sizeof tiny));
    OK(ss_device_start_live_view(device, 0, url, sizeof url));
    EXPECT(SS_ERROR_INVALID_STATE, ss_device_start_live_view(device, 0, url, sizeof url));
    CHECK(sscanf(url, "http://127.0.0.1:%d/?token=", &port) == 1 && port > 0);
    token = strstr(url, "token=");
    CHECK(token != NULL && strlen(token + 6) == 64);
    /* Without the token: 403. With it: the page, and a frame of the mix as JSON. */
    CHECK(http_get(port, "/", answer, sizeof answer) == 403);
    snprintf(path, sizeof path, "/?%s", token);
    CHECK(http_get(port, path, answer, sizeof answer) == 200);
    CHECK(strstr(answer, "Soundstage live view") != NULL);
    snprintf(path, sizeof path, "/state?%s", token);
    CHECK(http_get(port, path, answer, sizeof answer) == 200);
    CHECK(strstr(answer, "\"sampleRate\":48000") != NULL);
    OK(ss_device_stop_live_view(device));
    OK(ss_device_stop_live_view(device));
    CHECK(http_get(port, path, answer, sizeof answer) == 0);
    /* Destroying the device stops a running view. */
    OK(ss_device_start_live_view(device, 0, url, sizeof url));
    CHECK(sscanf(url, "http://127.0.0.1:%d/", &port) == 1);
    OK(ss_device_destroy(device));
    CHECK(http_get(port, "/", answer, sizeof answer) == 0);
    return 1;
}


/* ---- What a hostile caller found (issue 35) ------------------------------------------------ */

/* Five calls crashed inside alcCreateContext: a zone made and destroyed, then another scene on
 * the same device. Zones and scenes now come and go in any order, and a zone still rings. */
static int test_zone_then_scene(void) {
    ss_device *device = loopback();
    ss_scene *first, *second, *third;
    ss_reverb_zone *zone, *other;
    ss_buffer *burst;
    ss_source *source;
    float *samples;
    size_t frames;
    int i;
    CHECK(device != NULL);
    OK(ss_scene_create(device, 0, &first));
    OK(ss_reverb_zone_create(first, "z", "cave", NULL, 1, &zone));
    OK(ss_reverb_zone_destroy(zone));
    OK(ss_scene_create(device, 0, &second));              /* crashed here */
    for (i = 0; i < 6; i++) {
        OK(ss_reverb_zone_create(i % 2 ? first : second, "churn", "room", NULL, 1, &other));
        OK(ss_reverb_zone_destroy(other));
        OK(ss_scene_create(device, 0, &third));
        if (i % 3 == 0) OK(ss_scene_destroy(third));
    }
    OK(ss_reverb_zone_create(second, "cave", "cave", NULL, 1, &zone));
    OK(ss_scene_destroy(first));
    OK(ss_scene_create(device, 0, &third));
    /* The zone on a reused slot rings: a 0.2 s burst leaves a tail after it. */
    CHECK((burst = sine(device, 1000, 0.2, 0.5f)) != NULL);
    CHECK((source = playing_sine(second, burst, vec(0, 0, -1))) != NULL);
    CHECK((samples = render(device, 0.4, &frames)) != NULL);
    CHECK(rms(samples, frames, 0, (size_t)(0.3 * RATE)) > 0.005);
    free(samples);
    OK(ss_device_destroy(device));
    return 1;
}

/* A completion callback that renders its own device got stuck on the lock of the render it runs
 * in. Now it is refused with SS_ERROR_INVALID_STATE, and the outer render carries on. */
struct nested_probe {
    ss_device *device;
    ss_result render, render_to_file;
    int calls;
};

static void render_from_callback(ss_source *source, void *user_data) {
    struct nested_probe *probe = user_data;
    float samples[2 * 128];
    (void)source;
    probe->calls++;
    probe->render = ss_device_render(probe->device, samples, 128);
    probe->render_to_file = ss_device_render_to_file(probe->device, 0.1, "nested-render.wav", SS_FORMAT_WAV_FLOAT32);
}

static void on_alarm(int signal_number) {
    (void)signal_number;
    fprintf(stderr, "  a call hung (the alarm went off)\n");
    _exit(1);
}

static int test_nested_render(void) {
    struct nested_probe probe;
    ss_scene *scene;
    ss_buffer *blip;
    ss_source *source;
    float *samples;
    size_t frames;
    memset(&probe, 0, sizeof probe);
    CHECK((probe.device = loopback()) != NULL);
    OK(ss_scene_create(probe.device, 0, &scene));
    CHECK((blip = sine(probe.device, 440, 0.01, 0.5f)) != NULL);
    OK(ss_source_create(scene, blip, &source));
    OK(ss_source_set_completion_callback(source, render_from_callback, &probe));
    OK(ss_source_play(source));
    signal(SIGALRM, on_alarm);
    alarm(30);
    CHECK((samples = render(probe.device, 0.1, &frames)) != NULL);
    alarm(0);
    free(samples);
    CHECK(probe.calls == 1);
    EXPECT(SS_ERROR_INVALID_STATE, probe.render);
    EXPECT(SS_ERROR_INVALID_STATE, probe.render_to_file);
    CHECK(access("nested-render.wav", F_OK) != 0);
    OK(ss_device_destroy(probe.device));
    return 1;
}

/* Two threads destroying the same handle: exactly one gets SS_OK, the other
 * SS_ERROR_STALE_HANDLE (both got SS_OK before). A forged handle (a live source's bits with the
 * kind byte of a scene) is refused and destroys nothing. */
struct destroy_race {
    ss_source *source;
    ss_group *group;
    pthread_barrier_t *barrier;
    ss_result source_result, group_result;
};

static void *destroy_racer(void *argument) {
    struct destroy_race *race = argument;
    pthread_barrier_wait(race->barrier);
    race->source_result = ss_source_destroy(race->source);
    race->group_result = ss_group_destroy(race->group);
    ss_thread_detach();
    return NULL;
}

static int test_racing_destroys(void) {
    ss_device *device = loopback();
    ss_scene *scene;
    ss_source *source;
    ss_scene *forged;
    pthread_barrier_t barrier;
    int round;
    size_t before;
    CHECK(device != NULL);
    OK(ss_scene_create(device, 0, &scene));
    before = ss_live_handles();
    pthread_barrier_init(&barrier, NULL, 2);
    for (round = 0; round < 200; round++) {
        struct destroy_race races[2];
        pthread_t threads[2];
        int t, ok_sources = 0, ok_groups = 0;
        memset(races, 0, sizeof races);
        OK(ss_source_create(scene, NULL, &races[0].source));
        OK(ss_group_create(scene, "g", NULL, &races[0].group));
        races[1] = races[0];
        for (t = 0; t < 2; t++) {
            races[t].barrier = &barrier;
            pthread_create(&threads[t], NULL, destroy_racer, &races[t]);
        }
        for (t = 0; t < 2; t++) pthread_join(threads[t], NULL);
        for (t = 0; t < 2; t++) {
            ok_sources += races[t].source_result == SS_OK;
            ok_groups += races[t].group_result == SS_OK;
            CHECK(races[t].source_result == SS_OK || races[t].source_result == SS_ERROR_STALE_HANDLE);
            CHECK(races[t].group_result == SS_OK || races[t].group_result == SS_ERROR_STALE_HANDLE);
        }
        CHECK(ok_sources == 1 && ok_groups == 1);
    }
    pthread_barrier_destroy(&barrier);
    CHECK(ss_live_handles() == before);
    /* A forged handle: the source's index and generation, the kind byte of a scene (bits 56-63). */
    OK(ss_source_create(scene, NULL, &source));
    forged = (ss_scene *)(((uintptr_t)source & ~((uintptr_t)0xFF << 56)) | ((uintptr_t)2 << 56));
    EXPECT(SS_ERROR_INVALID_HANDLE, ss_scene_destroy(forged));
    EXPECT(SS_ERROR_INVALID_HANDLE, ss_scene_set_doppler_factor(forged, 1));
    OK(ss_source_set_gain(source, 0.5f));                 /* still alive */
    OK(ss_source_destroy(source));
    EXPECT(SS_ERROR_STALE_HANDLE, ss_source_destroy(source));
    OK(ss_device_destroy(device));
    return 1;
}

/* One thread makes children while another destroys their parent: no child outlives its parent
 * (the last one used to stay live, answer SS_OK and leak). */
struct orphan_maker {
    ss_device *device;
    ss_scene *scene;
    volatile int made, refused, unexpected;
    ss_source *last_source;
    ss_group *last_group;
};

static void *make_children(void *argument) {
    struct orphan_maker *maker = argument;
    for (;;) {
        ss_source *source;
        ss_group *group;
        ss_voice_limit *limit;
        ss_scene *scene;
        ss_buffer *buffer;
        ss_session *session;
        float pcm[64] = {0};
        ss_result results[6];
        int i, stale = 0;
        results[0] = ss_source_create(maker->scene, NULL, &source);
        results[1] = ss_group_create(maker->scene, "g", NULL, &group);
        results[2] = ss_voice_limit_create(maker->scene, "l", 4, SS_STEAL_OLDEST, &limit);
        results[3] = ss_scene_create(maker->device, 0, &scene);
        results[4] = ss_buffer_create_pcm(maker->device, pcm, 64, 1, RATE, &buffer);
        results[5] = ss_session_create(maker->device, SS_CATEGORY_AMBIENT, 0, &session);
        for (i = 0; i < 6; i++) {
            if (results[i] == SS_OK) maker->made++;
            else if (results[i] == SS_ERROR_STALE_HANDLE || results[i] == SS_ERROR_RELEASED) stale++;
            else maker->unexpected++;
        }
        if (results[0] == SS_OK) maker->last_source = source;
        if (results[1] == SS_OK) maker->last_group = group;
        if (stale == 6) break;
        maker->refused += stale;
    }
    ss_thread_detach();
    return NULL;
}

static int test_orphans(void) {
    int round;
    size_t before = ss_live_handles();
    for (round = 0; round < 20; round++) {
        struct orphan_maker maker;
        pthread_t thread;
        memset(&maker, 0, sizeof maker);
        CHECK((maker.device = loopback()) != NULL);
        OK(ss_scene_create(maker.device, 0, &maker.scene));
        pthread_create(&thread, NULL, make_children, &maker);
        while (maker.made < 30 + round * 7) sched_yield();
        OK(ss_device_destroy(maker.device));
        pthread_join(thread, NULL);
        CHECK(maker.unexpected == 0);
        CHECK(ss_live_handles() == before);
        EXPECT(SS_ERROR_STALE_HANDLE, ss_source_set_gain(maker.last_source, 1));
        EXPECT(SS_ERROR_STALE_HANDLE, ss_group_set_gain(maker.last_group, 1));
    }
    return 1;
}

/* One sample of FLT_MAX used to turn a reverb's mix into NaN for good. Samples must be finite
 * and within +-65536; the mix stays finite. */
static int test_poison_samples(void) {
    ss_device *device = loopback();
    ss_scene *scene;
    ss_reverb_zone *zone;
    ss_buffer *buffer;
    float pcm[480];
    float *samples;
    size_t frames, i;
    int finite = 1;
    CHECK(device != NULL);
    OK(ss_scene_create(device, 0, &scene));
    OK(ss_reverb_zone_create(scene, "cave", "cave", NULL, 1, &zone));
    memset(pcm, 0, sizeof pcm);
    pcm[10] = FLT_MAX;
    EXPECT(SS_ERROR_OUT_OF_RANGE, ss_buffer_create_pcm(device, pcm, 480, 1, RATE, &buffer));
    pcm[10] = -65537.0f;
    EXPECT(SS_ERROR_OUT_OF_RANGE, ss_buffer_create_pcm(device, pcm, 480, 1, RATE, &buffer));
    pcm[10] = NAN;
    EXPECT(SS_ERROR_NOT_FINITE, ss_buffer_create_pcm(device, pcm, 480, 1, RATE, &buffer));
    pcm[10] = -INFINITY;
    EXPECT(SS_ERROR_NOT_FINITE, ss_buffer_create_pcm(device, pcm, 480, 1, RATE, &buffer));
    /* The loudest sample allowed, many times over, stays finite through the reverb. */
    for (i = 0; i < 480; i++) pcm[i] = (i % 2) ? 65536.0f : -65536.0f;
    OK(ss_buffer_create_pcm(device, pcm, 480, 1, RATE, &buffer));
    for (i = 0; i < 32; i++) CHECK(playing_sine(scene, buffer, vec(0, 0, -1)) != NULL);
    CHECK((samples = render(device, 1.0, &frames)) != NULL);
    for (i = 0; i < frames * 2; i++) finite = finite && isfinite(samples[i]);
    free(samples);
    CHECK(finite);
    {
        int64_t silenced = -1;
        OK(ss_device_get_non_finite_mix_count(device, &silenced));
        CHECK(silenced == 0);
        EXPECT(SS_ERROR_NULL_ARGUMENT, ss_device_get_non_finite_mix_count(device, NULL));
    }
    OK(ss_device_destroy(device));
    return 1;
}

/* The header's codes, where they used to differ: infinities are SS_ERROR_NOT_FINITE, a seek
 * outside the sound SS_ERROR_OUT_OF_RANGE, another device's buffer or another scene's groups
 * SS_ERROR_INVALID_ARGUMENT, a play on a destroyed registry calls its callback once. */
static int test_header_codes(void) {
    ss_device *device = loopback(), *other = loopback();
    ss_scene *scene, *elsewhere;
    ss_buffer *buffer, *foreign;
    ss_source *source, *stream;
    ss_reverb_zone *zone;
    ss_group *mine, *theirs;
    ss_sound_registry *registry;
    ss_stream_options options;
    struct sound_probe probe = {0, SS_SOUND_FINISHED, 0};
    float max_distance;
    CHECK(device != NULL && other != NULL);
    OK(ss_scene_create(device, 0, &scene));
    OK(ss_scene_create(device, 0, &elsewhere));
    CHECK((buffer = sine(device, 440, 0.5, 0.5f)) != NULL);
    CHECK((foreign = sine(other, 440, 0.5, 0.5f)) != NULL);
    OK(ss_source_create(scene, buffer, &source));
    OK(ss_reverb_zone_create(scene, "room", "room", NULL, 1, &zone));

    EXPECT(SS_ERROR_NOT_FINITE, ss_source_set_float(source, SS_SOURCE_MAX_DISTANCE, INFINITY));
    OK(ss_source_get_float(source, SS_SOURCE_MAX_DISTANCE, &max_distance));
    CHECK(isfinite(max_distance));
    EXPECT(SS_ERROR_NOT_FINITE, ss_source_set_zone_send(source, zone, -INFINITY));
    EXPECT(SS_ERROR_NOT_FINITE, ss_source_set_zone_send(source, zone, INFINITY));
    OK(ss_source_set_zone_send(source, zone, -1));        /* negative: no override */
    EXPECT(SS_ERROR_NOT_FINITE, ss_listener_set_gain(scene, INFINITY));
    OK(ss_stream_options_init(&options));
    options.loop_end = -INFINITY;
    EXPECT(SS_ERROR_NOT_FINITE, ss_source_create_streaming(scene, "assets/sounds/click.wav", &options, &stream));
    options.loop_end = -1;
    OK(ss_source_create_streaming(scene, "assets/sounds/click.wav", &options, &stream));

    EXPECT(SS_ERROR_OUT_OF_RANGE, ss_source_seek(source, -1));
    EXPECT(SS_ERROR_OUT_OF_RANGE, ss_source_seek(source, 1e9));
    EXPECT(SS_ERROR_NOT_FINITE, ss_source_seek(source, NAN));
    OK(ss_source_seek(source, 0.25));

    EXPECT(SS_ERROR_INVALID_ARGUMENT, ss_source_set_buffer(source, foreign));
    CHECK(strstr(ss_error_message(), "another device") != NULL);
    EXPECT(SS_ERROR_INVALID_ARGUMENT, ss_source_create(scene, foreign, &stream));

    OK(ss_group_create(scene, "mine", NULL, &mine));
    OK(ss_group_create(elsewhere, "theirs", NULL, &theirs));
    EXPECT(SS_ERROR_INVALID_ARGUMENT, ss_scene_add_ducking(scene, mine, theirs, 0.5f, 0.1, 0.1));
    EXPECT(SS_ERROR_INVALID_ARGUMENT, ss_scene_add_ducking(scene, theirs, mine, 0.5f, 0.1, 0.1));
    OK(ss_scene_add_ducking(scene, mine, mine, 0.5f, 0.1, 0.1));

    OK(ss_sound_registry_create(device, NULL, &registry));
    OK(ss_sound_registry_destroy(registry));
    EXPECT(SS_ERROR_STALE_HANDLE, ss_sound_play(registry, 1, on_sound, &probe));
    CHECK(probe.calls == 1 && probe.outcome == SS_SOUND_FAILED);
    EXPECT(SS_ERROR_STALE_HANDLE, ss_sound_play_alert(registry, 1, on_sound, &probe));
    CHECK(probe.calls == 2 && probe.outcome == SS_SOUND_FAILED);
    EXPECT(SS_ERROR_STALE_HANDLE, ss_sound_play_event(registry, "bell", 0, on_sound, &probe));
    CHECK(probe.calls == 3);
    OK(ss_device_destroy(other));
    OK(ss_device_destroy(device));
    return 1;
}

/* A 0-byte scene file is SS_ERROR_INVALID_SCENE and loses nothing (it leaked 4 KB a call; the
 * LeakSanitizer pass of these tests proves it). */
static int test_empty_scene_file(void) {
    ss_device *device = loopback();
    ss_scene_file *file;
    FILE *empty = fopen("empty-scene.json", "w");
    int i;
    CHECK(device != NULL && empty != NULL);
    fclose(empty);
    for (i = 0; i < 16; i++) EXPECT(SS_ERROR_INVALID_SCENE, ss_scene_file_load(device, "empty-scene.json", &file));
    remove("empty-scene.json");
    EXPECT(SS_ERROR_IO, ss_scene_file_load(device, "assets", &file));
    OK(ss_device_destroy(device));
    return 1;
}

/* Making a group costs the same however many the scene holds (each create pruned every dead
 * reference: 101 us at 5,000 groups, 444 us at 20,000). The median create of the last 2,000 of
 * 20,000 takes at most three times the median of the first 2,000 (quadratic growth measured
 * about 40 times). Medians, not sums: on a loaded machine a sum counts every time the scheduler
 * took the CPU away (the sums' ratio read 4.6 beside two compilers); the median does not. */
static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int test_many_groups(void) {
    ss_device *device = loopback();
    ss_scene *scene;
    ss_group *group;
    static double first[2000], last[2000];
    double began, took;
    int i;
    CHECK(device != NULL);
    OK(ss_scene_create(device, 0, &scene));
    for (i = 0; i < 20000; i++) {
        began = now_seconds();
        OK(ss_group_create(scene, "g", NULL, &group));
        if (i % 2) OK(ss_group_destroy(group));            /* half of them die: dead references */
        took = now_seconds() - began;
        if (i < 2000) first[i] = took;
        if (i >= 18000) last[i - 18000] = took;
    }
    qsort(first, 2000, sizeof(double), compare_doubles);
    qsort(last, 2000, sizeof(double), compare_doubles);
    printf("     groups: the median create of the first 2,000 %.1f us, of the last 2,000 %.1f us (ratio %.2f)\n",
           first[1000] * 1e6, last[1000] * 1e6, last[1000] / first[1000]);
    CHECK(last[1000] < 3 * first[1000]);
    OK(ss_device_destroy(device));
    return 1;
}

/* ---- Getters ------------------------------------------------------------------------------- */

/*
 * Every setter's value reads back from the library's own state: the defaults, what a setter wrote,
 * what a fade or a preset switch left, and not a refused value. (Issue 45: bindings answered from
 * their memory of the last value set, wrong after a fade or a change by another caller.)
 */
static int test_getters(void) {
    ss_device *device = loopback();
    ss_scene *scene, *other_scene;
    ss_buffer *buffer;
    ss_source *source;
    ss_group *group, *child;
    ss_reverb_zone *zone, *other_zone;
    ss_sound_registry *registry;
    ss_recorder *recorder;
    ss_recorder_settings settings;
    ss_reverb_region region;
    ss_vec3 v;
    size_t bytes, frames;
    float f, *samples;
    int flag, count;
    CHECK(device != NULL);
    OK(ss_scene_create(device, 0, &scene));
    CHECK((buffer = sine(device, 440, 1, 0.5f)) != NULL);

    /* The device. */
    OK(ss_device_get_max_decoded_bytes(device, &bytes));
    CHECK(bytes == (size_t)512 * 1024 * 1024);
    OK(ss_device_set_max_decoded_bytes(device, 1000000));
    OK(ss_device_get_max_decoded_bytes(device, &bytes));
    CHECK(bytes == 1000000);
    EXPECT(SS_ERROR_OUT_OF_RANGE, ss_device_set_max_decoded_bytes(device, 0));
    OK(ss_device_get_max_decoded_bytes(device, &bytes));
    CHECK(bytes == 1000000);
    OK(ss_device_is_output_metering(device, &flag));
    CHECK(flag == 0);
    OK(ss_device_set_output_metering(device, 7));
    OK(ss_device_is_output_metering(device, &flag));
    CHECK(flag == 1);

    /* The scene and its listener. */
    OK(ss_scene_get_doppler_factor(scene, &f));
    CHECK(f == 1);
    OK(ss_scene_get_speed_of_sound(scene, &f));
    NEAR(f, 343.3, 1e-4);
    OK(ss_scene_set_doppler_factor(scene, 2.5f));
    OK(ss_scene_set_speed_of_sound(scene, 100));
    EXPECT(SS_ERROR_NOT_FINITE, ss_scene_set_doppler_factor(scene, NAN));
    EXPECT(SS_ERROR_OUT_OF_RANGE, ss_scene_set_speed_of_sound(scene, 0));
    OK(ss_scene_get_doppler_factor(scene, &f));
    CHECK(f == 2.5f);
    OK(ss_scene_get_speed_of_sound(scene, &f));
    CHECK(f == 100);
    OK(ss_listener_get_velocity(scene, &v));
    CHECK(v.x == 0 && v.y == 0 && v.z == 0);
    OK(ss_listener_set_velocity(scene, vec(1, -2, 3)));
    OK(ss_listener_get_velocity(scene, &v));
    CHECK(v.x == 1 && v.y == -2 && v.z == 3);
    OK(ss_scene_is_metering(scene, &flag));
    CHECK(flag == 0);
    OK(ss_scene_set_metering(scene, 1));
    OK(ss_scene_is_metering(scene, &flag));
    CHECK(flag == 1);
    OK(ss_scene_get_virtualizes_voices(scene, &flag));
    CHECK(flag == 0);
    OK(ss_scene_set_virtualizes_voices(scene, 1));
    OK(ss_scene_get_virtualizes_voices(scene, &flag));
    CHECK(flag == 1);
    OK(ss_scene_set_virtualizes_voices(scene, 0));
    OK(ss_scene_get_virtualizes_voices(scene, &flag));
    CHECK(flag == 0);

    /* A group: mute and pitch are its own, not its parent's; a fade moves its gain. */
    OK(ss_group_create(scene, "master", NULL, &group));
    OK(ss_group_create(scene, "music", group, &child));
    OK(ss_group_is_muted(group, &flag));
    CHECK(flag == 0);
    OK(ss_group_get_pitch(group, &f));
    CHECK(f == 1);
    OK(ss_group_is_metering(group, &flag));
    CHECK(flag == 0);
    OK(ss_group_set_muted(group, 1));
    OK(ss_group_set_pitch(group, 2));
    OK(ss_group_set_metering(group, 1));
    EXPECT(SS_ERROR_OUT_OF_RANGE, ss_group_set_pitch(group, 0));
    EXPECT(SS_ERROR_NOT_FINITE, ss_group_set_pitch(group, INFINITY));
    OK(ss_group_is_muted(group, &flag));
    CHECK(flag == 1);
    OK(ss_group_get_pitch(group, &f));
    CHECK(f == 2);
    OK(ss_group_is_metering(group, &flag));
    CHECK(flag == 1);
    OK(ss_group_is_muted(child, &flag));
    CHECK(flag == 0);
    OK(ss_group_get_pitch(child, &f));
    CHECK(f == 1);
    /* What is read is what is heard: the source in the child plays an octave up. */
    OK(ss_listener_set_velocity(scene, vec(0, 0, 0)));     /* no Doppler shift from above */
    OK(ss_group_set_muted(group, 0));
    CHECK((source = playing_sine(scene, buffer, vec(0, 0, -1))) != NULL);
    OK(ss_source_set_group(source, child));
    CHECK((samples = render(device, 0.2, &frames)) != NULL);
    NEAR(frequency(samples, frames, 0, 2400), 880, 4);
    free(samples);
    OK(ss_group_fade(group, 0.25f, 0.05, 0, NULL, NULL));
    CHECK((samples = render(device, 0.2, &frames)) != NULL);
    free(samples);
    OK(ss_group_get_gain(group, &f));
    NEAR(f, 0.25, 1e-6);

    /* A source. */
    OK(ss_source_get_repeat_count(source, &count));
    CHECK(count == 0);
    OK(ss_source_set_repeat_count(source, 3));
    EXPECT(SS_ERROR_OUT_OF_RANGE, ss_source_set_repeat_count(source, 10001));
    OK(ss_source_get_repeat_count(source, &count));
    CHECK(count == 3);
    OK(ss_source_get_priority(source, &count));
    CHECK(count == 0);
    OK(ss_source_set_priority(source, -42));
    EXPECT(SS_ERROR_OUT_OF_RANGE, ss_source_set_priority(source, 2000000));
    OK(ss_source_get_priority(source, &count));
    CHECK(count == -42);
    OK(ss_source_is_metering(source, &flag));
    CHECK(flag == 0);
    OK(ss_source_set_metering(source, 1));
    OK(ss_source_is_metering(source, &flag));
    CHECK(flag == 1);

    /* A reverb zone, and a source's send to it. */
    OK(ss_reverb_zone_create(scene, "hall", "generic", NULL, 0.5f, &zone));
    OK(ss_reverb_zone_get_gain(zone, &f));
    CHECK(f == 0.5f);
    OK(ss_reverb_zone_set_gain(zone, 0.75f));
    EXPECT(SS_ERROR_OUT_OF_RANGE, ss_reverb_zone_set_gain(zone, 2));
    OK(ss_reverb_zone_get_gain(zone, &f));
    CHECK(f == 0.75f);
    OK(ss_reverb_zone_get_region(zone, &region));
    CHECK(region.kind == SS_REGION_EVERYWHERE);
    memset(&region, 0, sizeof region);
    region.kind = SS_REGION_SPHERE;
    region.center = vec(1, 2, 3);
    region.radius = 4;
    region.fade = 1;
    OK(ss_reverb_zone_set_region(zone, &region));
    memset(&region, 0, sizeof region);
    OK(ss_reverb_zone_get_region(zone, &region));
    CHECK(region.kind == SS_REGION_SPHERE && region.center.x == 1 && region.center.y == 2 && region.center.z == 3);
    CHECK(region.radius == 4 && region.fade == 1 && region.min.x == 0 && region.max.z == 0);
    region.kind = SS_REGION_BOX;
    region.min = vec(-1, -1, -1);
    region.max = vec(2, 2, 2);
    region.fade = 0.5f;
    OK(ss_reverb_zone_set_region(zone, &region));
    memset(&region, 0, sizeof region);
    OK(ss_reverb_zone_get_region(zone, &region));
    CHECK(region.kind == SS_REGION_BOX && region.min.x == -1 && region.max.z == 2 && region.fade == 0.5f);
    CHECK(region.radius == 0 && region.center.x == 0);
    OK(ss_reverb_zone_get_value(zone, "decayTime", &f));
    NEAR(f, 1.49, 1e-6);
    OK(ss_reverb_zone_set_value(zone, "decayTime", 3));
    OK(ss_reverb_zone_get_value(zone, "decayTime", &f));
    CHECK(f == 3);
    EXPECT(SS_ERROR_INVALID_ARGUMENT, ss_reverb_zone_set_value(zone, "decayTime", 500));
    OK(ss_reverb_zone_get_value(zone, "decayTime", &f));
    CHECK(f == 3);
    OK(ss_reverb_zone_set_preset(zone, "cave"));         /* a switch brings the preset's values */
    OK(ss_reverb_zone_get_value(zone, "decayTime", &f));
    NEAR(f, 2.91, 1e-6);
    f = -7;
    EXPECT(SS_ERROR_NOT_FOUND, ss_reverb_zone_get_value(zone, "no-such-value", &f));
    EXPECT(SS_ERROR_NULL_ARGUMENT, ss_reverb_zone_get_value(zone, NULL, &f));
    CHECK(f == -7);
    OK(ss_source_set_float(source, SS_SOURCE_REVERB_SEND, 0.3f));
    OK(ss_source_get_zone_send(source, zone, &f));
    CHECK(f == 0.3f);
    OK(ss_source_set_zone_send(source, zone, 0.7f));
    OK(ss_source_get_zone_send(source, zone, &f));
    CHECK(f == 0.7f);
    OK(ss_source_set_zone_send(source, zone, -1));        /* the override removed */
    OK(ss_source_get_zone_send(source, zone, &f));
    CHECK(f == 0.3f);
    OK(ss_scene_create(device, 0, &other_scene));
    OK(ss_reverb_zone_create(other_scene, "elsewhere", "room", NULL, 1, &other_zone));
    EXPECT(SS_ERROR_INVALID_ARGUMENT, ss_source_get_zone_send(source, other_zone, &f));

    /* A system-sound registry. */
    OK(ss_sound_registry_create(device, NULL, &registry));
    OK(ss_sound_registry_get_volume(registry, &f));
    CHECK(f == 1);
    OK(ss_sound_registry_is_enabled(registry, &flag));
    CHECK(flag == 1);
    OK(ss_sound_registry_set_volume(registry, 0.4f));
    EXPECT(SS_ERROR_OUT_OF_RANGE, ss_sound_registry_set_volume(registry, 2));
    OK(ss_sound_registry_set_enabled(registry, 0));
    OK(ss_sound_registry_get_volume(registry, &f));
    CHECK(f == 0.4f);
    OK(ss_sound_registry_is_enabled(registry, &flag));
    CHECK(flag == 0);

    /* A recorder (no server needed to make one). */
    OK(ss_recorder_settings_init(&settings));
    settings.server = "unix:/tmp/ss-capi-no-such-server";
    OK(ss_recorder_create("/tmp/ss-capi-getters.wav", &settings, NULL, NULL, NULL, &recorder));
    OK(ss_recorder_is_metering(recorder, &flag));
    CHECK(flag == 0);
    OK(ss_recorder_set_metering(recorder, 1));
    OK(ss_recorder_is_metering(recorder, &flag));
    CHECK(flag == 1);
    OK(ss_recorder_destroy(recorder));
    unlink("/tmp/ss-capi-getters.wav");

    OK(ss_device_destroy(device));
    return 1;
}

/*
 * The getters keep the header's rules: a NULL out-pointer or handle, a handle of another kind and
 * a destroyed one are error codes, and the out-pointer is left alone.
 */
static int test_getters_refuse(void) {
    ss_device *device = loopback();
    ss_scene *scene;
    ss_buffer *buffer;
    ss_source *source;
    ss_group *group;
    ss_reverb_zone *zone;
    ss_sound_registry *registry;
    ss_recorder *recorder;
    ss_recorder_settings settings;
    ss_reverb_region region;
    ss_vec3 v = {-7, -7, -7};
    size_t bytes = 7;
    float f = -7;
    int flag = -7;
    CHECK(device != NULL);
    OK(ss_scene_create(device, 0, &scene));
    CHECK((buffer = sine(device, 440, 0.1, 0.5f)) != NULL);
    OK(ss_source_create(scene, buffer, &source));
    OK(ss_group_create(scene, "g", NULL, &group));
    OK(ss_reverb_zone_create(scene, "z", "room", NULL, 1, &zone));
    OK(ss_sound_registry_create(device, NULL, &registry));
    OK(ss_recorder_settings_init(&settings));
    settings.server = "unix:/tmp/ss-capi-no-such-server";
    OK(ss_recorder_create("/tmp/ss-capi-getters-refuse.wav", &settings, NULL, NULL, NULL, &recorder));
    region.kind = SS_REGION_BOX;

    EXPECT(SS_ERROR_NULL_ARGUMENT, ss_device_get_max_decoded_bytes(device, NULL));
    EXPECT(SS_ERROR_NULL_ARGUMENT, ss_device_is_output_metering(device, NULL));
    EXPECT(SS_ERROR_NULL_ARGUMENT, ss_scene_get_doppler_factor(scene, NULL));
    EXPECT(SS_ERROR_NULL_ARGUMENT, ss_scene_get_speed_of_sound(scene, NULL));
    EXPECT(SS_ERROR_NULL_ARGUMENT, ss_listener_get_velocity(scene, NULL));
    EXPECT(SS_ERROR_NULL_ARGUMENT, ss_scene_is_metering(scene, NULL));
    EXPECT(SS_ERROR_NULL_ARGUMENT, ss_scene_get_virtualizes_voices(scene, NULL));
    EXPECT(SS_ERROR_NULL_ARGUMENT, ss_source_get_repeat_count(source, NULL));
    EXPECT(SS_ERROR_NULL_ARGUMENT, ss_source_get_priority(source, NULL));
    EXPECT(SS_ERROR_NULL_ARGUMENT, ss_source_is_metering(source, NULL));
    EXPECT(SS_ERROR_NULL_ARGUMENT, ss_source_get_zone_send(source, zone, NULL));
    EXPECT(SS_ERROR_NULL_ARGUMENT, ss_group_is_muted(group, NULL));
    EXPECT(SS_ERROR_NULL_ARGUMENT, ss_group_get_pitch(group, NULL));
    EXPECT(SS_ERROR_NULL_ARGUMENT, ss_group_is_metering(group, NULL));
    EXPECT(SS_ERROR_NULL_ARGUMENT, ss_reverb_zone_get_gain(zone, NULL));
    EXPECT(SS_ERROR_NULL_ARGUMENT, ss_reverb_zone_get_region(zone, NULL));
    EXPECT(SS_ERROR_NULL_ARGUMENT, ss_reverb_zone_get_value(zone, "density", NULL));
    EXPECT(SS_ERROR_NULL_ARGUMENT, ss_sound_registry_get_volume(registry, NULL));
    EXPECT(SS_ERROR_NULL_ARGUMENT, ss_sound_registry_is_enabled(registry, NULL));
    EXPECT(SS_ERROR_NULL_ARGUMENT, ss_recorder_is_metering(recorder, NULL));
    EXPECT(SS_ERROR_NULL_ARGUMENT, ss_group_is_muted(NULL, &flag));
    EXPECT(SS_ERROR_NULL_ARGUMENT, ss_sound_registry_get_volume(NULL, &f));
    EXPECT(SS_ERROR_WRONG_HANDLE_KIND, ss_group_get_pitch((ss_group *)scene, &f));
    EXPECT(SS_ERROR_WRONG_HANDLE_KIND, ss_sound_registry_is_enabled((ss_sound_registry *)device, &flag));
    EXPECT(SS_ERROR_WRONG_HANDLE_KIND, ss_source_get_zone_send(source, (ss_reverb_zone *)group, &f));
    EXPECT(SS_ERROR_INVALID_HANDLE, ss_scene_is_metering((ss_scene *)(uintptr_t)0x1234, &flag));
    CHECK(f == -7 && flag == -7);

    /* Destroyed: the recorder by itself, the rest with their device. */
    OK(ss_recorder_destroy(recorder));
    unlink("/tmp/ss-capi-getters-refuse.wav");
    EXPECT(SS_ERROR_STALE_HANDLE, ss_recorder_is_metering(recorder, &flag));
    OK(ss_device_destroy(device));
    EXPECT(SS_ERROR_STALE_HANDLE, ss_device_get_max_decoded_bytes(device, &bytes));
    EXPECT(SS_ERROR_STALE_HANDLE, ss_device_is_output_metering(device, &flag));
    EXPECT(SS_ERROR_STALE_HANDLE, ss_scene_get_doppler_factor(scene, &f));
    EXPECT(SS_ERROR_STALE_HANDLE, ss_scene_get_speed_of_sound(scene, &f));
    EXPECT(SS_ERROR_STALE_HANDLE, ss_listener_get_velocity(scene, &v));
    EXPECT(SS_ERROR_STALE_HANDLE, ss_scene_is_metering(scene, &flag));
    EXPECT(SS_ERROR_STALE_HANDLE, ss_scene_get_virtualizes_voices(scene, &flag));
    EXPECT(SS_ERROR_STALE_HANDLE, ss_source_get_repeat_count(source, &flag));
    EXPECT(SS_ERROR_STALE_HANDLE, ss_source_get_priority(source, &flag));
    EXPECT(SS_ERROR_STALE_HANDLE, ss_source_is_metering(source, &flag));
    EXPECT(SS_ERROR_STALE_HANDLE, ss_source_get_zone_send(source, zone, &f));
    EXPECT(SS_ERROR_STALE_HANDLE, ss_group_is_muted(group, &flag));
    EXPECT(SS_ERROR_STALE_HANDLE, ss_group_get_pitch(group, &f));
    EXPECT(SS_ERROR_STALE_HANDLE, ss_group_is_metering(group, &flag));
    EXPECT(SS_ERROR_STALE_HANDLE, ss_reverb_zone_get_gain(zone, &f));
    EXPECT(SS_ERROR_STALE_HANDLE, ss_reverb_zone_get_region(zone, &region));
    EXPECT(SS_ERROR_STALE_HANDLE, ss_reverb_zone_get_value(zone, "density", &f));
    EXPECT(SS_ERROR_STALE_HANDLE, ss_sound_registry_get_volume(registry, &f));
    EXPECT(SS_ERROR_STALE_HANDLE, ss_sound_registry_is_enabled(registry, &flag));
    CHECK(bytes == 7 && f == -7 && flag == -7 && v.x == -7 && region.kind == SS_REGION_BOX);
    return 1;
}

/* ---- Main ---------------------------------------------------------------------------------- */

static const struct {
    const char *name;
    int (*run)(void);
} tests[] = {
    {"version", test_version},
    {"panning", test_panning},
    {"distance_gain", test_distance_gain},
    {"pitch", test_pitch},
    {"completion", test_completion},
    {"metering", test_metering},
    {"bad_handles", test_bad_handles},
    {"bad_values", test_bad_values},
    {"bad_files", test_bad_files},
    {"files_and_streaming", test_files_and_streaming},
    {"aac_files", test_aac_files},
    {"ilbc_file", test_ilbc_file},
    {"groups", test_groups},
    {"scheduled_start", test_scheduled_start},
    {"effects_and_mixing", test_effects_and_mixing},
    {"reverb", test_reverb},
    {"sessions", test_sessions},
    {"system_sounds", test_system_sounds},
    {"scene_files", test_scene_files},
    {"mix_recording", test_mix_recording},
    {"voices", test_voices},
    {"client_without_daemon", test_client_without_daemon},
    {"recorder_without_server", test_recorder_without_server},
    {"enumerations", test_enumerations},
    {"threads", test_threads},
    {"destroy_while_in_use", test_destroy_while_in_use},
    {"random_calls", test_random_calls},
    {"handle_cycles", test_handle_cycles},
    {"live_view", test_live_view},
    {"zone_then_scene", test_zone_then_scene},
    {"nested_render", test_nested_render},
    {"racing_destroys", test_racing_destroys},
    {"orphans", test_orphans},
    {"poison_samples", test_poison_samples},
    {"header_codes", test_header_codes},
    {"empty_scene_file", test_empty_scene_file},
    {"many_groups", test_many_groups},
    {"getters", test_getters},
    {"getters_refuse", test_getters_refuse},
};

int main(int argc, char **argv) {
    int passed = 0, failed = 0;
    size_t i;
    for (i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        if (argc > 1 && strstr(tests[i].name, argv[1]) == NULL) continue;
        if (tests[i].run()) {
            printf("ok   %s\n", tests[i].name);
            passed++;
        } else {
            printf("FAIL %s\n", tests[i].name);
            failed++;
        }
        fflush(stdout);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
