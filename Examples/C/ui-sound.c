/*
 * ui-sound: plays a UI sound through the Soundstage daemon (`soundstage serve`), the way a
 * desktop program without audio of its own would: connect once, then one call per sound.
 *
 *   cc -std=c99 ui-sound.c $(pkg-config --cflags --libs soundstage) -o ui-sound
 *   ./ui-sound [EVENT] [--file PATH] [--socket PATH] [--wait]
 *
 * EVENT is a freedesktop sound-theme name ("bell", "message-new-instant", ...; default "bell").
 * With --wait it waits (at most 10 s) for the daemon to say how the sound ended, as
 * libcanberra's ca_context_play_full does with its callback.
 * Exits 1 with the reason when no daemon listens or the daemon refuses.
 */
#define _POSIX_C_SOURCE 200809L
#include <soundstage.h>

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* How the sound ended, handed from the client's callback thread to main. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ended = PTHREAD_COND_INITIALIZER;
static int has_ended = 0;
static ss_sound_outcome outcome;

static void on_completion(ss_client *client, uint32_t id, ss_sound_outcome how, void *user_data) {
    (void)client;
    (void)user_data;
    (void)id;
    pthread_mutex_lock(&lock);
    outcome = how;
    has_ended = 1;
    pthread_cond_signal(&ended);
    pthread_mutex_unlock(&lock);
}

static const char *outcome_name(ss_sound_outcome how) {
    switch (how) {
    case SS_SOUND_FINISHED: return "finished";
    case SS_SOUND_REPLACED: return "replaced";
    case SS_SOUND_COALESCED: return "coalesced";
    case SS_SOUND_SILENCED: return "silenced";
    case SS_SOUND_DISPOSED: return "disposed";
    case SS_SOUND_FAILED: return "failed";
    }
    return "?";
}

int main(int argc, char **argv) {
    const char *event = "bell", *file = NULL, *socket = NULL;
    ss_client *client;
    uint32_t id = 0;
    ss_result r;
    int i, wait = 0;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--socket") == 0 && i + 1 < argc) socket = argv[++i];
        else if (strcmp(argv[i], "--file") == 0 && i + 1 < argc) file = argv[++i];
        else if (strcmp(argv[i], "--wait") == 0) wait = 1;
        else if (argv[i][0] != '-') event = argv[i];
        else {
            fprintf(stderr, "usage: ui-sound [EVENT] [--file PATH] [--socket PATH] [--wait]\n");
            return 64;
        }
    }
    if ((r = ss_client_connect(socket, &client)) != SS_OK) {
        fprintf(stderr, "ui-sound: %s\n", ss_error_message());
        return 1;
    }
    if (wait && ss_client_set_completion_callback(client, on_completion, NULL) != SS_OK) {
        fprintf(stderr, "ui-sound: %s\n", ss_error_message());
        ss_client_destroy(client);
        return 1;
    }
    r = file ? ss_client_play_file(client, file, 0, &id) : ss_client_play_event(client, event, 0, &id);
    if (r != SS_OK) {
        fprintf(stderr, "ui-sound: %s (%s)\n", ss_error_message(), ss_result_name(r));
        ss_client_destroy(client);
        return 1;
    }
    printf("played %s as sound %u\n", file ? file : event, (unsigned)id);
    if (wait) {
        struct timespec deadline;
        clock_gettime(CLOCK_REALTIME, &deadline);
        deadline.tv_sec += 10;
        pthread_mutex_lock(&lock);
        while (!has_ended && pthread_cond_timedwait(&ended, &lock, &deadline) == 0) {}
        if (has_ended) printf("sound %u %s\n", (unsigned)id, outcome_name(outcome));
        else fprintf(stderr, "ui-sound: no word from the daemon within 10 s\n");
        pthread_mutex_unlock(&lock);
        if (!has_ended) {
            ss_client_destroy(client);
            return 1;
        }
    }
    ss_client_destroy(client);
    return 0;
}
