/*
 * orbit (C): a bee circles your head, once every 4 seconds — a looping mono source moved every
 * frame, as the Swift example `swift run orbit` does, through the C API.
 *
 *   cc -std=c99 orbit.c $(pkg-config --cflags --libs soundstage) -lm -o orbit
 *   ./orbit                  # plays in real time on the desktop server or the sound card
 *   ./orbit --render FILE    # renders the same 8 s offline to a WAV file
 *
 * The bee is in front at 0 s, on the right at 1 s, behind at 2 s and on the left at 3 s.
 * Its sound is assets/sounds/bee.wav, or $SOUNDSTAGE_ASSETS/bee.wav.
 */
#define _POSIX_C_SOURCE 200809L
#include <soundstage.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SECONDS 8
#define TICKS_PER_SECOND 60
#define PI 3.14159265358979323846

static int fail(const char *what, ss_result result) {
    fprintf(stderr, "orbit: %s: %s (%s)\n", what, ss_error_message(), ss_result_name(result));
    return 1;
}

/* Moves the bee to where it is at `t` seconds; its velocity follows the motion (for Doppler). */
static void tick(ss_source *bee, double t, float previous[3], int *has_previous) {
    double angle = 2 * PI * t / 4;
    float x = (float)(2 * sin(angle)), z = (float)(-2 * cos(angle));
    if (*has_previous) ss_source_set_velocity(bee, (x - previous[0]) * 60, 0, (z - previous[2]) * 60);
    ss_source_set_position(bee, x, 0, z);
    previous[0] = x;
    previous[2] = z;
    *has_previous = 1;
}

int main(int argc, char **argv) {
    const char *render_path = NULL, *assets = getenv("SOUNDSTAGE_ASSETS");
    char sound[4096];
    ss_device *device = NULL;
    ss_scene *scene;
    ss_buffer *buffer;
    ss_source *bee;
    ss_result r;
    float previous[3] = {0, 0, 0};
    int has_previous = 0, step, i;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--render") == 0 && i + 1 < argc) render_path = argv[++i];
        else {
            fprintf(stderr, "usage: orbit [--render FILE]\n");
            return 64;
        }
    }
    snprintf(sound, sizeof sound, "%s/bee.wav", assets ? assets : "assets/sounds");

    if (!render_path) {
        ss_desktop_options options;
        ss_desktop_options_init(&options);
        options.application_name = "orbit";
        if (ss_device_open_output(SS_BACKEND_AUTOMATIC, &options, &device) != SS_OK) {
            fprintf(stderr, "orbit: no audio output device (%s); rendering to orbit.wav instead\n", ss_error_message());
            render_path = "orbit.wav";
        }
    }
    if (render_path && (r = ss_device_open_loopback(48000, SS_LAYOUT_STEREO, SS_OFF, -1, &device)) != SS_OK)
        return fail("cannot open the renderer", r);

    if ((r = ss_scene_create(device, 0, &scene)) != SS_OK) return fail("cannot make the scene", r);
    if ((r = ss_buffer_load_file(device, sound, &buffer)) != SS_OK) return fail("cannot load the bee", r);
    ss_source_create(scene, buffer, &bee);
    ss_source_set_looping(bee, 1);
    ss_source_set_gain(bee, 0.8f);
    if ((r = ss_source_play(bee)) != SS_OK) return fail("cannot play", r);

    if (render_path) {
        /* Offline: tick, then mix a tick's worth of frames; the mix recorder writes what is mixed. */
        static float frames[2 * 800];
        if ((r = ss_device_start_recording_output(device, render_path, SS_FORMAT_WAV_PCM16)) != SS_OK)
            return fail("cannot write the file", r);
        for (step = 0; step < SECONDS * TICKS_PER_SECOND; step++) {
            tick(bee, (double)step / TICKS_PER_SECOND, previous, &has_previous);
            if ((r = ss_device_render(device, frames, 800)) != SS_OK) return fail("cannot render", r);
        }
        if ((r = ss_device_stop_recording_output(device, NULL)) != SS_OK) return fail("cannot finish the file", r);
        printf("A bee circles your head, once every 4 seconds: rendered %d s to %s\n", SECONDS, render_path);
    } else {
        /* Real time: a game loop at about 60 frames a second. */
        struct timespec start, now, frame = {0, 16000000};
        double t = 0;
        printf("A bee circles your head, once every 4 seconds (%d s)\n", SECONDS);
        clock_gettime(CLOCK_MONOTONIC, &start);
        while (t < SECONDS) {
            tick(bee, t, previous, &has_previous);
            nanosleep(&frame, NULL);
            clock_gettime(CLOCK_MONOTONIC, &now);
            t = (double)(now.tv_sec - start.tv_sec) + (double)(now.tv_nsec - start.tv_nsec) / 1e9;
        }
    }
    ss_device_destroy(device); /* frees the scene, the buffer and the bee; plays out the tail */
    return 0;
}
