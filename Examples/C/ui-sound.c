/*
 * ui-sound: plays a UI sound through the Soundstage daemon (`soundstage serve`), the way a
 * desktop program without audio of its own would: connect once, then one call per sound.
 *
 *   cc -std=c99 ui-sound.c $(pkg-config --cflags --libs soundstage) -o ui-sound
 *   ./ui-sound [EVENT] [--file PATH] [--socket PATH]
 *
 * EVENT is a freedesktop sound-theme name ("bell", "message-new-instant", ...; default "bell").
 * Exits 1 with the reason when no daemon listens or the daemon refuses.
 */
#include <soundstage.h>

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    const char *event = "bell", *file = NULL, *socket = NULL;
    ss_client *client;
    uint32_t id = 0;
    ss_result r;
    int i;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--socket") == 0 && i + 1 < argc) socket = argv[++i];
        else if (strcmp(argv[i], "--file") == 0 && i + 1 < argc) file = argv[++i];
        else if (argv[i][0] != '-') event = argv[i];
        else {
            fprintf(stderr, "usage: ui-sound [EVENT] [--file PATH] [--socket PATH]\n");
            return 64;
        }
    }
    if ((r = ss_client_connect(socket, &client)) != SS_OK) {
        fprintf(stderr, "ui-sound: %s\n", ss_error_message());
        return 1;
    }
    r = file ? ss_client_play_file(client, file, 0, &id) : ss_client_play_event(client, event, 0, &id);
    if (r != SS_OK) {
        fprintf(stderr, "ui-sound: %s (%s)\n", ss_error_message(), ss_result_name(r));
        ss_client_destroy(client);
        return 1;
    }
    printf("played %s as sound %u\n", file ? file : event, (unsigned)id);
    ss_client_destroy(client);
    return 0;
}
