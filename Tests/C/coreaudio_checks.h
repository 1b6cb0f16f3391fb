/*
 * The checks the Core Audio C test programs share (Tests/C/audio_format.c, audio_file.c): EXPECT
 * and EXPECT_STATUS count checks and failures and say what failed, a status as its four
 * characters when it has them (the Core Audio books' helper). Each program includes it once, ends
 * with "N passed, N failed" and exits 1 when any failed. Compiles as C99 and C++17.
 */
#ifndef SOUNDSTAGE_TESTS_COREAUDIO_CHECKS_H
#define SOUNDSTAGE_TESTS_COREAUDIO_CHECKS_H

#include <MacTypes.h>
#include <stdio.h>

static int failures = 0;
static int checks = 0;

/* A status as its four characters when it has them, else as a number. */
static void FormatStatus(OSStatus status, char out[16]) {
    UInt32 code = (UInt32)status;
    char c[4];
    int i;
    for (i = 0; i < 4; i++) c[i] = (char)((code >> (24 - 8 * i)) & 0xFF);
    if (c[0] >= 0x20 && c[0] < 0x7F && c[1] >= 0x20 && c[1] < 0x7F && c[2] >= 0x20 && c[2] < 0x7F && c[3] >= 0x20 && c[3] < 0x7F) {
        snprintf(out, 16, "'%c%c%c%c'", c[0], c[1], c[2], c[3]);
    } else {
        snprintf(out, 16, "%d", (int)status);
    }
}

#define EXPECT(cond)                                                                  \
    do {                                                                              \
        checks++;                                                                     \
        if (!(cond)) {                                                                \
            fprintf(stderr, "  %s:%d: failed: %s\n", __FILE__, __LINE__, #cond);     \
            failures++;                                                               \
        }                                                                             \
    } while (0)

#define EXPECT_STATUS(call, expected)                                                 \
    do {                                                                              \
        OSStatus got_ = (call);                                                       \
        checks++;                                                                     \
        if (got_ != (OSStatus)(expected)) {                                           \
            char a_[16], b_[16];                                                      \
            FormatStatus(got_, a_);                                                   \
            FormatStatus((OSStatus)(expected), b_);                                   \
            fprintf(stderr, "  %s:%d: %s returned %s, not %s\n", __FILE__, __LINE__, #call, a_, b_); \
            failures++;                                                               \
        }                                                                             \
    } while (0)

#endif
