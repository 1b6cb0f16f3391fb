/*
 * The smallest game: what an installed Soundstage (scripts/install.sh, or the Debian packages)
 * must build and run with `cc game.c $(pkg-config --cflags --libs soundstage)` alone. Used by
 * scripts/test-c.sh and scripts/test-bindings.sh.
 */
#include <soundstage.h>
#include <stdio.h>
int main(void) {
    ss_device *device;
    ss_scene *scene;
    ss_source *source;
    float samples[2 * 480];
    if (ss_device_open_loopback(48000, SS_LAYOUT_STEREO, SS_OFF, -1, &device) != SS_OK) return 1;
    if (ss_scene_create(device, 0, &scene) != SS_OK || ss_source_create(scene, NULL, &source) != SS_OK) return 1;
    if (ss_source_set_position(source, 2, 0, -1) != SS_OK || ss_device_render(device, samples, 480) != SS_OK) return 1;
    printf("game: soundstage %s\n", ss_version());
    return ss_device_destroy(device) == SS_OK ? 0 : 1;
}
