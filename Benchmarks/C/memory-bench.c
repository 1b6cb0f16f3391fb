/*
 * memory-bench: what Soundstage costs a C game in memory, against a baseline measured in the
 * same run. Runs programs built beside it (scripts/bench-c.sh builds them) as children and reads
 * each one's peak resident memory (wait4's ru_maxrss), the median of several runs:
 *
 *   idle-soundstage  vs idle-peers      a program that links libsoundstage and calls ss_version,
 *                                       against one linked to OpenAL Soft, libsndfile and libpulse
 *   orbit --render   vs orbit-openal    Examples/C/orbit.c's 8 s offline render, against the same
 *                                       render in raw OpenAL Soft and libsndfile
 *
 *   ./memory-bench [runs]     (default 5)
 *
 * Prints both pairs, the difference and the ratio, and whether each is within its goal
 * (issue 36: at most 4 MB more when idle; at most 1.5 times the raw render's peak).
 * Exits 1 if a program fails.
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_RUNS 31

static char directory[4096];

/* Runs DIRECTORY/program with up to two arguments, output discarded; its peak RSS in KiB, or -1. */
static long peak_kib(const char *program, const char *a, const char *b) {
    char path[8192];
    struct rusage usage;
    int status;
    pid_t child;
    snprintf(path, sizeof path, "%s/%s", directory, program);
    child = fork();
    if (child == 0) {
        if (!freopen("/dev/null", "w", stdout)) _exit(127);
        execl(path, path, a, b, (char *)NULL);
        _exit(127);
    }
    if (child < 0 || wait4(child, &status, 0, &usage) != child) return -1;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "memory-bench: %s failed (status %d)\n", path, status);
        return -1;
    }
    return usage.ru_maxrss;
}

static int compare_longs(const void *x, const void *y) {
    long a = *(const long *)x, b = *(const long *)y;
    return (a > b) - (a < b);
}

/* The median peak over `runs` runs, in MB (10^6 bytes); negative if a run failed. */
static double median_mb(int runs, const char *program, const char *a, const char *b) {
    long peaks[MAX_RUNS];
    int i;
    for (i = 0; i < runs; i++)
        if ((peaks[i] = peak_kib(program, a, b)) < 0) return -1;
    qsort(peaks, (size_t)runs, sizeof peaks[0], compare_longs);
    return (double)peaks[runs / 2] * 1024 / 1e6;
}

int main(int argc, char **argv) {
    int runs = argc > 1 ? atoi(argv[1]) : 5;
    char *slash, render[4200];
    double soundstage, peers, orbit, raw;
    if (runs < 1 || runs > MAX_RUNS) {
        fprintf(stderr, "usage: memory-bench [runs, 1 to %d]\n", MAX_RUNS);
        return 64;
    }
    snprintf(directory, sizeof directory, "%s", argv[0]);
    slash = strrchr(directory, '/');
    if (slash) *slash = '\0';
    else snprintf(directory, sizeof directory, ".");
    snprintf(render, sizeof render, "%s/memory-bench-render.wav", directory);

    soundstage = median_mb(runs, "idle-soundstage", NULL, NULL);
    peers = median_mb(runs, "idle-peers", NULL, NULL);
    orbit = median_mb(runs, "orbit", "--render", render);
    raw = median_mb(runs, "orbit-openal", "--render", render);
    unlink(render);
    if (soundstage < 0 || peers < 0 || orbit < 0 || raw < 0) return 1;

    printf("peak resident memory, median of %d runs (MB)\n", runs);
    printf("  linked, ss_version() only:      libsoundstage %6.2f   OpenAL+sndfile+pulse %6.2f   "
           "difference %5.2f MB (goal <= 4: %s)\n",
           soundstage, peers, soundstage - peers, soundstage - peers <= 4 ? "met" : "MISSED");
    printf("  orbit, 8 s offline render:      Soundstage    %6.2f   raw OpenAL           %6.2f   "
           "ratio %.2f (goal <= 1.5: %s)\n",
           orbit, raw, orbit / raw, orbit / raw <= 1.5 ? "met" : "MISSED");
    return 0;
}
