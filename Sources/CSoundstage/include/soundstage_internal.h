/* What the Swift side of the C API shares with support.c: the calling thread's last error and
 * whether a value was refused during the current call. Not installed; the version script keeps
 * these symbols out of the library's exports. */
#ifndef SOUNDSTAGE_INTERNAL_H
#define SOUNDSTAGE_INTERNAL_H

#include "soundstage.h"

/* Stores `message` (truncated to 1023 bytes) as the calling thread's last error. */
void soundstage_internal_set_error(const char *message);

/* The calling thread's refusal flag: set by the scenes' refused-value handler, read and cleared
 * by the setters of the C API (one thread-local load on the common path). */
extern __thread int soundstage_internal_refused __attribute__((tls_model("initial-exec")));

static inline int soundstage_internal_take_refusal(void) {
    if (__builtin_expect(soundstage_internal_refused == 0, 1)) return 0;
    soundstage_internal_refused = 0;
    return 1;
}

static inline void soundstage_internal_note_refusal(void) { soundstage_internal_refused = 1; }

static inline void soundstage_internal_clear_refusal(void) { soundstage_internal_refused = 0; }

#endif
