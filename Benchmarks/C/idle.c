/*
 * idle: the smallest C program that links an audio library and calls it once. Built twice by
 * scripts/bench-c.sh: against libsoundstage (-DWITH_SOUNDSTAGE: calls ss_version) and against
 * what Soundstage itself links, OpenAL Soft, libsndfile and libpulse (calls one version function
 * of each, so each stays linked). memory-bench compares their peak resident memory: what loading
 * Soundstage costs a game.
 */
#include <stdio.h>
#ifdef WITH_SOUNDSTAGE
#include <soundstage.h>
#else
#include <AL/al.h>
#include <pulse/version.h>
#include <sndfile.h>
#endif

int main(void) {
#ifdef WITH_SOUNDSTAGE
    printf("soundstage %s\n", ss_version());
#else
    const ALchar *al = alGetString(AL_VERSION); /* no context: NULL, but OpenAL Soft is loaded */
    printf("%s, libpulse %s, OpenAL %s\n", sf_version_string(), pa_get_library_version(), al ? al : "(no context)");
#endif
    return 0;
}
