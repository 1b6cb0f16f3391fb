#include "ffmpeg_support.h"

#include <stdatomic.h>
#include <stdio.h>

/* AV_LOG_INFO: more verbose lines are dropped before they are formatted. */
enum { ffmpeg_log_info = 32 };

static _Atomic(soundstage_ffmpeg_line_handler) line_handler;

void soundstage_ffmpeg_set_line_handler(soundstage_ffmpeg_line_handler handler) {
    atomic_store(&line_handler, handler);
}

static void soundstage_ffmpeg_log(void *context, int level, const char *format, va_list arguments) {
    soundstage_ffmpeg_line_handler handler = atomic_load(&line_handler);
    if (handler == NULL || format == NULL || level > ffmpeg_log_info) return;
    char line[1024];
    int n = vsnprintf(line, sizeof line, format, arguments);
    if (n < 0) return;
    handler(context, level, line);
}

const void *soundstage_ffmpeg_log_callback(void) {
    return (const void *)soundstage_ffmpeg_log;
}
