#ifndef SOUNDSTAGE_FFMPEG_SUPPORT_H
#define SOUNDSTAGE_FFMPEG_SUPPORT_H

#include <stdarg.h>

/* What Swift cannot spell: a function taking a va_list, for av_log_set_callback. FFmpeg's
 * headers are not used; FFmpeg itself is loaded at run time (Sources/SoundFile/FFmpeg). */

/** Receives one formatted line of FFmpeg's log: its AVClass context, its level, the text. */
typedef void (*soundstage_ffmpeg_line_handler)(void *context, int level, const char *line);

/** Sets where soundstage_ffmpeg_log sends lines (NULL drops them). */
void soundstage_ffmpeg_set_line_handler(soundstage_ffmpeg_line_handler handler);

/** The callback to give av_log_set_callback, as an untyped pointer (Swift cannot name a
 * function type with a va_list): it drops lines more verbose than AV_LOG_INFO, formats the rest
 * and passes them to the line handler. It never writes to stderr. */
const void *soundstage_ffmpeg_log_callback(void);

#endif
