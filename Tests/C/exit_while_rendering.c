/* A game that returns from main while its threads still use Soundstage, its device never
 * destroyed: one thread renders, one changes two scenes in turn (each call makes another
 * context current). It must exit with its own status. OpenAL Soft tears itself down in a
 * library destructor, and a call reaching it then aborts the process in an assertion
 * (LockLists: 5 runs in 20 before Soundstage's exit handler; docs/c-api.md). */
#define _POSIX_C_SOURCE 200809L
#include <soundstage.h>

#include <pthread.h>
#include <stdio.h>
#include <time.h>

static ss_device *device;
static ss_scene *scenes[2];

static void *render_until_exit(void *unused) {
    (void)unused;
    float samples[2];
    for (;;) (void)ss_device_render(device, samples, 1);
    return NULL;
}

static void *change_scenes_until_exit(void *unused) {
    (void)unused;
    for (unsigned i = 0;; i++) (void)ss_listener_set_gain(scenes[i & 1], 0.5f);
    return NULL;
}

int main(void) {
    if (ss_device_open_loopback(48000, SS_LAYOUT_STEREO, SS_OFF, 0, &device) != SS_OK
        || ss_scene_create(device, 4, &scenes[0]) != SS_OK || ss_scene_create(device, 4, &scenes[1]) != SS_OK) {
        fprintf(stderr, "exit_while_rendering: no loopback device\n");
        return 2;
    }
    pthread_t renderer, changer;
    if (pthread_create(&renderer, NULL, render_until_exit, NULL) != 0
        || pthread_create(&changer, NULL, change_scenes_until_exit, NULL) != 0) return 2;
    struct timespec pause = {0, 20 * 1000 * 1000};
    nanosleep(&pause, NULL);
    return 0;
}
