/* The parts of the C API that are plain C: the thread-local last error, result names. */
#include <string.h>
#include "soundstage_internal.h"

static __thread char last_error[1024];
__thread int soundstage_internal_refused __attribute__((tls_model("initial-exec")));

void soundstage_internal_set_error(const char *message) {
    if (message == NULL) message = "";
    size_t length = strlen(message);
    if (length >= sizeof last_error) length = sizeof last_error - 1;
    memcpy(last_error, message, length);
    last_error[length] = '\0';
}

const char *ss_error_message(void) { return last_error; }

const char *ss_result_name(ss_result result) {
    switch (result) {
    case SS_OK: return "SS_OK";
    case SS_ERROR_NULL_ARGUMENT: return "SS_ERROR_NULL_ARGUMENT";
    case SS_ERROR_INVALID_HANDLE: return "SS_ERROR_INVALID_HANDLE";
    case SS_ERROR_STALE_HANDLE: return "SS_ERROR_STALE_HANDLE";
    case SS_ERROR_WRONG_HANDLE_KIND: return "SS_ERROR_WRONG_HANDLE_KIND";
    case SS_ERROR_NOT_FINITE: return "SS_ERROR_NOT_FINITE";
    case SS_ERROR_OUT_OF_RANGE: return "SS_ERROR_OUT_OF_RANGE";
    case SS_ERROR_INVALID_ARGUMENT: return "SS_ERROR_INVALID_ARGUMENT";
    case SS_ERROR_INVALID_STATE: return "SS_ERROR_INVALID_STATE";
    case SS_ERROR_OUT_OF_HANDLES: return "SS_ERROR_OUT_OF_HANDLES";
    case SS_ERROR_BUFFER_TOO_SMALL: return "SS_ERROR_BUFFER_TOO_SMALL";
    case SS_ERROR_NOT_FOUND: return "SS_ERROR_NOT_FOUND";
    case SS_ERROR_PERMISSION_DENIED: return "SS_ERROR_PERMISSION_DENIED";
    case SS_ERROR_UNSUPPORTED_FORMAT: return "SS_ERROR_UNSUPPORTED_FORMAT";
    case SS_ERROR_CORRUPT_DATA: return "SS_ERROR_CORRUPT_DATA";
    case SS_ERROR_IO: return "SS_ERROR_IO";
    case SS_ERROR_TOO_LARGE: return "SS_ERROR_TOO_LARGE";
    case SS_ERROR_NO_OUTPUT_DEVICE: return "SS_ERROR_NO_OUTPUT_DEVICE";
    case SS_ERROR_EXTENSION_MISSING: return "SS_ERROR_EXTENSION_MISSING";
    case SS_ERROR_OPENAL: return "SS_ERROR_OPENAL";
    case SS_ERROR_EXCEEDED_MAXIMUM_DURATION: return "SS_ERROR_EXCEEDED_MAXIMUM_DURATION";
    case SS_ERROR_UNKNOWN_SOUND_ID: return "SS_ERROR_UNKNOWN_SOUND_ID";
    case SS_ERROR_SESSION_NOT_ACTIVE: return "SS_ERROR_SESSION_NOT_ACTIVE";
    case SS_ERROR_SESSION_UNAVAILABLE: return "SS_ERROR_SESSION_UNAVAILABLE";
    case SS_ERROR_INVALID_SCENE: return "SS_ERROR_INVALID_SCENE";
    case SS_ERROR_SOURCE_BUDGET_EXHAUSTED: return "SS_ERROR_SOURCE_BUDGET_EXHAUSTED";
    case SS_ERROR_VOICE_LIMIT_REACHED: return "SS_ERROR_VOICE_LIMIT_REACHED";
    case SS_ERROR_AUDIO_SERVER: return "SS_ERROR_AUDIO_SERVER";
    case SS_ERROR_NO_INPUT_DEVICE: return "SS_ERROR_NO_INPUT_DEVICE";
    case SS_ERROR_CATEGORY_FORBIDS: return "SS_ERROR_CATEGORY_FORBIDS";
    case SS_ERROR_RELEASED: return "SS_ERROR_RELEASED";
    case SS_ERROR_CODEC_UNAVAILABLE: return "SS_ERROR_CODEC_UNAVAILABLE";
    case SS_ERROR_DAEMON: return "SS_ERROR_DAEMON";
    case SS_ERROR_CONNECTION: return "SS_ERROR_CONNECTION";
    case SS_ERROR_INTERNAL: return "SS_ERROR_INTERNAL";
    }
    return "SS_UNKNOWN";
}
