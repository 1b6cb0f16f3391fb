/*
 * soundstage.h — the C API of Soundstage, positional audio for Linux games.
 *
 * One header, one library: link with `$(pkg-config --cflags --libs soundstage)`.
 * C99, and clean C++ (everything is inside extern "C").
 *
 * CONVENTIONS (they hold for every function below unless its comment says otherwise)
 *
 * - Results. Every function that can fail returns an ss_result: SS_OK (0) or a negative
 *   SS_ERROR_* code. ss_error_message() gives the text of the calling thread's last failure.
 *   Output parameters are written only on SS_OK.
 * - Handles. Objects are opaque handles (ss_device *, ss_source *, ...). A handle is a
 *   generation-counted index, never a pointer to memory: a destroyed handle, a handle of another
 *   kind, or garbage is an error code (SS_ERROR_STALE_HANDLE, SS_ERROR_WRONG_HANDLE_KIND,
 *   SS_ERROR_INVALID_HANDLE), never a crash. NULL is SS_ERROR_NULL_ARGUMENT.
 * - Ownership. Every handle a create, open or load call gives you is yours: release it with its
 *   matching destroy call. Destroying a parent destroys its children's handles too (a device: its
 *   scenes, buffers, registries, sessions, scene files; a scene: its sources, groups, zones and
 *   voice limits); using them afterwards is SS_ERROR_STALE_HANDLE. A source keeps the buffer it
 *   plays alive after the buffer's handle is destroyed. Strings you pass are copied; strings the
 *   library returns are static or valid until the next call on the same thread, as said.
 * - Values. NaN and infinities are SS_ERROR_NOT_FINITE; a finite value outside a property's
 *   range is SS_ERROR_OUT_OF_RANGE. A refused value leaves the property as it was.
 * - Threads. Any thread may call any function, at any time, including from inside a callback.
 *   Per-frame calls (positions, gains) never wait for the mixer or for file decoding.
 * - Callbacks take a `void *user_data` that the library passes back untouched. Each callback's
 *   comment says which thread runs it. Callbacks run outside the library's locks: they may call
 *   any function of this API, including destroying the object they were called for.
 * - Nothing crosses the boundary but return codes: no Swift error, no trap, no C++ exception.
 * - Coordinates are OpenAL's: right-handed, +x right, +y up, the listener looks down -z by
 *   default. Units are metres; times are seconds; gains are linear (1 = unchanged).
 */
#ifndef SOUNDSTAGE_H
#define SOUNDSTAGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/* Version                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/** The version of this header. ss_version() gives the library's. */
#define SS_VERSION_MAJOR 0
#define SS_VERSION_MINOR 2
#define SS_VERSION_PATCH 0
/** The header's version as one number: major * 10000 + minor * 100 + patch. */
#define SS_VERSION_NUMBER (SS_VERSION_MAJOR * 10000 + SS_VERSION_MINOR * 100 + SS_VERSION_PATCH)

/** The library's version as "MAJOR.MINOR.PATCH" (a static string). Any thread. */
const char *ss_version(void);
/** The library's version as major * 10000 + minor * 100 + patch; compare with SS_VERSION_NUMBER. */
int ss_version_number(void);

/* ------------------------------------------------------------------------------------------ */
/* Results and errors                                                                          */
/* ------------------------------------------------------------------------------------------ */

/** What a call did: SS_OK, or why it failed. Values are stable across 0.x releases. */
typedef enum ss_result {
    SS_OK = 0,
    /* The caller's mistakes, detected before anything happens. */
    SS_ERROR_NULL_ARGUMENT = -1,        /**< A required pointer was NULL. */
    SS_ERROR_INVALID_HANDLE = -2,       /**< Not a handle this library made (garbage). */
    SS_ERROR_STALE_HANDLE = -3,         /**< A handle that was destroyed (or whose parent was). */
    SS_ERROR_WRONG_HANDLE_KIND = -4,    /**< A handle of another kind (a scene where a source goes). */
    SS_ERROR_NOT_FINITE = -5,           /**< NaN or an infinity. */
    SS_ERROR_OUT_OF_RANGE = -6,         /**< A finite value outside what the argument allows. */
    SS_ERROR_INVALID_ARGUMENT = -7,     /**< Any other bad argument (an unknown name, a bad size). */
    SS_ERROR_INVALID_STATE = -8,        /**< Not now: e.g. ending a batch that was never begun. */
    SS_ERROR_OUT_OF_HANDLES = -9,       /**< More than 1,048,576 live handles. */
    SS_ERROR_BUFFER_TOO_SMALL = -10,    /**< An output array is shorter than the data. */
    /* What the engine reports. */
    SS_ERROR_NOT_FOUND = -20,           /**< No such file, sound, preset or event. */
    SS_ERROR_PERMISSION_DENIED = -21,
    SS_ERROR_UNSUPPORTED_FORMAT = -22,  /**< Not an audio file this build reads or writes. */
    SS_ERROR_CORRUPT_DATA = -23,        /**< A truncated or damaged file. */
    SS_ERROR_IO = -24,
    SS_ERROR_TOO_LARGE = -25,           /**< More audio than the decode limit: stream it. */
    SS_ERROR_NO_OUTPUT_DEVICE = -26,    /**< No desktop server and no sound card. */
    SS_ERROR_EXTENSION_MISSING = -27,   /**< OpenAL lacks an extension this needs. */
    SS_ERROR_OPENAL = -28,              /**< OpenAL failed (the message names the call). */
    SS_ERROR_EXCEEDED_MAXIMUM_DURATION = -29, /**< A system sound longer than the registry allows. */
    SS_ERROR_UNKNOWN_SOUND_ID = -30,
    SS_ERROR_SESSION_NOT_ACTIVE = -31,
    SS_ERROR_SESSION_UNAVAILABLE = -32,
    SS_ERROR_INVALID_SCENE = -33,       /**< A malformed scene file (the message says where). */
    SS_ERROR_SOURCE_BUDGET_EXHAUSTED = -34,
    SS_ERROR_VOICE_LIMIT_REACHED = -35,
    SS_ERROR_AUDIO_SERVER = -36,        /**< PulseAudio/PipeWire refused or went away. */
    SS_ERROR_NO_INPUT_DEVICE = -37,
    SS_ERROR_CATEGORY_FORBIDS = -38,    /**< The session's category forbids this (e.g. recording). */
    SS_ERROR_RELEASED = -39,            /**< The object's scene or device was closed under it. */
    SS_ERROR_DAEMON = -40,              /**< The daemon refused a request (the message says why). */
    SS_ERROR_CONNECTION = -41,          /**< No daemon listens, or the connection broke. */
    SS_ERROR_CODEC_UNAVAILABLE = -42,   /**< AAC/MPEG-4 audio needs FFmpeg's libraries (the message names the packages). */
    SS_ERROR_INTERNAL = -99             /**< A bug in Soundstage; please report the message. */
} ss_result;

/**
 * The text of the calling thread's last failure: what failed, on what, and why
 * ("Source.gain = nan (must be finite and >= 0)"). Never NULL; "" before any failure. Valid
 * until the next failing call on the same thread. Any thread.
 */
const char *ss_error_message(void);

/** The name of a result code ("SS_ERROR_STALE_HANDLE"); a static string, "SS_UNKNOWN" if none. */
const char *ss_result_name(ss_result result);

/** 3 floats: a position, a velocity or a direction. */
typedef struct ss_vec3 {
    float x, y, z;
} ss_vec3;

/* ------------------------------------------------------------------------------------------ */
/* Handles                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/** An output or an offline renderer (an OpenAL device). */
typedef struct ss_device ss_device;
/** A scene: a listener and sources, mixed together with the device's other scenes (an OpenAL context). */
typedef struct ss_scene ss_scene;
/** Decoded audio, shared by any number of sources of one device. */
typedef struct ss_buffer ss_buffer;
/** A sound in a scene: where it is, how it sounds, its playback. */
typedef struct ss_source ss_source;
/** A group (bus) of sources: gain, mute, pitch, pause, fades, ducking. */
typedef struct ss_group ss_group;
/** A reverb zone (an EFX effect slot running an EAX reverb) heard where the listener is. */
typedef struct ss_reverb_zone ss_reverb_zone;
/** A cap on how many sources of a kind sound at once, with a steal policy. */
typedef struct ss_voice_limit ss_voice_limit;
/** An audio session: a category, activation, interruptions. */
typedef struct ss_session ss_session;
/** A registry of short system sounds (UI clicks, alerts), played by id, event name or file. */
typedef struct ss_sound_registry ss_sound_registry;
/** A recorder of an input of the desktop server (a microphone or a sink's monitor) to a file. */
typedef struct ss_recorder ss_recorder;
/** A scene file loaded and ready to play or render. */
typedef struct ss_scene_file ss_scene_file;
/** A connection to the Soundstage daemon (`soundstage serve`). */
typedef struct ss_client ss_client;

/**
 * Call on a thread of yours that used the library, before the thread ends (a worker, a thread
 * pool's thread): it clears the OpenAL context the library left current on it
 * (alcSetThreadContext(NULL)). Without it OpenAL Soft prints "context current for thread being
 * destroyed" when the thread exits and keeps that context's memory until then. Harmless
 * anywhere; the main thread does not need it.
 */
void ss_thread_detach(void);

/** How many handles of every kind are alive (not destroyed): for leak checks. Any thread. */
size_t ss_live_handles(void);

/** Live OpenAL objects in the whole process (not only through this API). */
typedef struct ss_live_objects {
    int devices, contexts, buffers, sources, effect_slots, effects, filters;
} ss_live_objects;

/** Fills `out` with the live OpenAL objects of the process. */
ss_result ss_get_live_objects(ss_live_objects *out);

/* ------------------------------------------------------------------------------------------ */
/* Devices                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/** Speaker layouts. */
typedef enum ss_channel_layout {
    SS_LAYOUT_MONO = 1,
    SS_LAYOUT_STEREO = 2,
    SS_LAYOUT_QUAD = 4,
    SS_LAYOUT_5_1 = 6,
    SS_LAYOUT_6_1 = 7,
    SS_LAYOUT_7_1 = 8
} ss_channel_layout;

/** Which output ss_device_open_output() uses. */
typedef enum ss_output_backend {
    SS_BACKEND_AUTOMATIC = 0,   /**< The desktop server if one answers, else OpenAL Soft's own output. */
    SS_BACKEND_DESKTOP = 1,     /**< Only PulseAudio/PipeWire, through Soundstage's own stream. */
    SS_BACKEND_OPENAL = 2       /**< Only OpenAL Soft's own output (ALSA). */
} ss_output_backend;

/** A three-way switch for options OpenAL may decide. */
typedef enum ss_tristate {
    SS_DEFAULT = -1,
    SS_OFF = 0,
    SS_ON = 1
} ss_tristate;

/**
 * Options of the desktop output. Fill with ss_desktop_options_init(), then change fields.
 * Strings may be NULL (the default) and are copied.
 */
typedef struct ss_desktop_options {
    size_t struct_size;             /**< Set by ss_desktop_options_init(); do not change. */
    const char *application_name;   /**< Shown by the desktop's mixer; default: the process name. */
    const char *application_id;     /**< Default: application_name. */
    const char *stream_name;        /**< Default: application_name. */
    const char *role;               /**< media.role: "game" (default), "event", "music", "phone". */
    double latency;                 /**< Target latency in seconds, 0.005 ... 0.5; default 0.020. */
    const char *server;             /**< Server address; NULL: the default server. */
    const char *sink;               /**< Sink name; NULL: follow the default sink. */
    int sample_rate;                /**< Mix rate; default 48000. */
    ss_channel_layout layout;       /**< Default stereo. */
    ss_tristate hrtf;               /**< Binaural mixing for headphones; default SS_DEFAULT. */
    int update_frames;              /**< Frames between engine updates; 0: 10 ms. */
    int reverb_zones;               /**< Reverb zones a scene may hold, 0 ... 4; default 4. */
    /**
     * Seconds of silence after which the output rests, 0 ... 3600; 0: never; default 2. Resting,
     * its stream is corked (the server may suspend the sink) and its thread sleeps, using no
     * CPU, until a source plays, a scheduled start comes near or the mix is recorded; the
     * device's clock counts on. Added in 0.2: a struct from an older header rests after 2 s.
     */
    double idle_timeout;
} ss_desktop_options;

/** Fills `options` with the defaults. */
ss_result ss_desktop_options_init(ss_desktop_options *options);

/**
 * Opens the best output there is (see ss_output_backend); `options` (NULL: defaults) apply to the
 * desktop output. SS_ERROR_NO_OUTPUT_DEVICE when nothing opens: render to a file instead.
 */
ss_result ss_device_open_output(ss_output_backend backend, const ss_desktop_options *options, ss_device **out_device);

/**
 * Opens OpenAL Soft's own output: `name` NULL for the default device, else a device name.
 * `reverb_zones` 0 ... 4 (-1: the default, 4).
 */
ss_result ss_device_open_openal(const char *name, ss_tristate hrtf, int reverb_zones, ss_device **out_device);

/**
 * Opens an offline renderer (ALC_SOFT_loopback): nothing plays; ss_device_render() mixes into
 * your memory and ss_device_render_to_file() into a file, faster than real time and
 * deterministically (two fresh devices give bit-identical output). `sample_rate` 8000 ... 192000,
 * `reverb_zones` 0 ... 4 (-1: the default, 4).
 */
ss_result ss_device_open_loopback(int sample_rate, ss_channel_layout layout, ss_tristate hrtf, int reverb_zones,
                                  ss_device **out_device);

/**
 * Closes the device: every scene, source, buffer, registry, session and scene file made on it
 * stops and is freed, and their handles become stale. On a desktop output the queued tail is
 * played out first. Destroying NULL is SS_ERROR_NULL_ARGUMENT; a stale handle, SS_ERROR_STALE_HANDLE.
 */
ss_result ss_device_destroy(ss_device *device);

/** What kind of device. */
typedef enum ss_device_kind {
    SS_DEVICE_OPENAL = 0,       /**< OpenAL Soft's own output. */
    SS_DEVICE_LOOPBACK = 1,     /**< An offline renderer. */
    SS_DEVICE_DESKTOP = 2       /**< Soundstage's own stream on PulseAudio/PipeWire. */
} ss_device_kind;

/** A device's fixed properties. */
typedef struct ss_device_info {
    ss_device_kind kind;
    int sample_rate;
    int channels;               /**< Of the layout: 1, 2, 4, 6, 7 or 8. */
    int update_frames;
    int reverb_zones;
    int hrtf_enabled;           /**< 1 when mixing binaurally. */
} ss_device_info;

/** Fills `out` with the device's properties. */
ss_result ss_device_get_info(ss_device *device, ss_device_info *out);

/**
 * Loopback devices: mixes `frames` frames, interleaved floats (frames * channels of them), into
 * `samples`. Completion callbacks of sources that end in this mix run on this thread, inside
 * this call. SS_ERROR_INVALID_STATE on any other kind of device.
 */
ss_result ss_device_render(ss_device *device, float *samples, size_t frames);

/** File formats for rendering and recording. */
typedef enum ss_file_format {
    SS_FORMAT_WAV_PCM16 = 0,
    SS_FORMAT_WAV_PCM24 = 1,
    SS_FORMAT_WAV_FLOAT32 = 2,
    SS_FORMAT_FLAC = 3,
    SS_FORMAT_OGG_VORBIS = 4,
    SS_FORMAT_OPUS = 5,
    SS_FORMAT_MP3 = 6,
    SS_FORMAT_CAF_PCM16 = 7,
    SS_FORMAT_AIFF_PCM16 = 8,
    SS_FORMAT_M4A_AAC = 9,      /**< AAC-LC in M4A at 128 kb/s, through FFmpeg (SS_ERROR_CODEC_UNAVAILABLE without it). */
    SS_FORMAT_M4A_ALAC = 10,    /**< Apple Lossless in M4A, through FFmpeg. */
    SS_FORMAT_CAF_ILBC = 11     /**< iLBC speech in CAF as iOS writes it: 8 kHz mono (the mix is mixed down and resampled), 30 ms frames. */
} ss_file_format;

/** Loopback devices: mixes `seconds` of audio into the file at `path`. */
ss_result ss_device_render_to_file(ss_device *device, double seconds, const char *path, ss_file_format format);

/**
 * The device's mix clock in seconds: audio rendered so far on a loopback device; on an output,
 * the time since it opened. Scheduled starts (ss_scene_play_at) are on this clock.
 */
ss_result ss_device_get_mix_time(ss_device *device, double *out_seconds);

/**
 * How many mixed chunks held NaN or an infinity and were replaced with silence before reaching the
 * output, a file or a recording (every reverb zone is then reset). 0 in a healthy engine: every
 * input is checked, so a count here is a bug to report. Desktop and loopback devices.
 */
ss_result ss_device_get_non_finite_mix_count(ss_device *device, int64_t *out);

/** Limits how much audio ss_buffer_load_file() decodes (bytes of float samples); default 512 MiB. */
ss_result ss_device_set_max_decoded_bytes(ss_device *device, size_t bytes);
/** Reads the device's decode limit in bytes (ss_device_set_max_decoded_bytes). */
ss_result ss_device_get_max_decoded_bytes(ss_device *device, size_t *out);

/** Forgets the file cache of ss_buffer_load_file() (buffers in use stay alive). */
ss_result ss_device_evict_cached_buffers(ss_device *device);

/** The state of a device's output. Names longer than their arrays are cut (always terminated). */
typedef struct ss_output_status {
    char backend[16];           /**< "desktop", "openal" or "loopback". */
    char server[128];           /**< The server's name, or "". */
    char sink[128];             /**< The sink played to, or "" when unknown. */
    double target_latency;      /**< Seconds; -1 when not applicable. */
    double latency;             /**< As the server reports it; -1 when unknown. */
    int underruns;
    float volume;               /**< The user's volume of the stream, 0 ... 1 (1 when unknown). */
    int muted;
    int paused;                 /**< Corked by the server (e.g. a phone call). */
    int connected;
} ss_output_status;

/** Fills `out` with the output's state. */
ss_result ss_device_get_output_status(ss_device *device, ss_output_status *out);

/**
 * Whether the output rests now because nothing plays (ss_desktop_options.idle_timeout), and how
 * many times it has rested since it opened; either pointer may be NULL. A loopback device never
 * rests. (Not a field of ss_output_status: that struct has no struct_size to grow by.)
 */
ss_result ss_device_get_output_rest(ss_device *device, int *out_resting, int *out_rests);

/**
 * Waits until everything mixed so far has reached the output, at most `timeout` seconds.
 * SS_OK when it did; SS_ERROR_INVALID_STATE when the time ran out. Blocks the calling thread.
 */
ss_result ss_device_drain(ss_device *device, double timeout);

/**
 * Starts a live view of the device's mix in a browser (docs/live-view.md): a local HTTP server
 * on 127.0.0.1:`port` (0: any free port) that shows the listener and every source on a map,
 * voices, meters, render load and underruns, 25 times a second while a browser watches. Writes
 * its URL, with the random token every request needs, to `url` (`url_size` bytes, NUL
 * included; 128 is enough). SS_ERROR_OUT_OF_RANGE for a port outside 0...65535,
 * SS_ERROR_BUFFER_TOO_SMALL when the URL does not fit (the view is not started),
 * SS_ERROR_INVALID_STATE when this device has a live view already, SS_ERROR_IO when the port
 * cannot be bound. Destroying the device stops it.
 */
ss_result ss_device_start_live_view(ss_device *device, int port, char *url, size_t url_size);

/** Stops the device's live view, if it has one (SS_OK either way). */
ss_result ss_device_stop_live_view(ss_device *device);

/** Route changes: why the output changed. */
typedef enum ss_route_reason {
    SS_ROUTE_OLD_DEVICE_UNAVAILABLE = 0,
    SS_ROUTE_NEW_DEVICE_AVAILABLE = 1,
    SS_ROUTE_OVERRIDE = 2,
    SS_ROUTE_CATEGORY_CHANGE = 3,
    SS_ROUTE_OUTPUT_MOVED = 4
} ss_route_reason;

/**
 * Called when the device's output changes. `previous_output` and `output` may be NULL and are
 * valid only during the call. Runs on a thread of the library (the device's update or output
 * thread), never on a thread of yours.
 */
typedef void (*ss_route_callback)(ss_device *device, ss_route_reason reason, const char *previous_output,
                                  const char *output, void *user_data);

/** Sets (or with NULL removes) the device's route-change callback. */
ss_result ss_device_set_route_callback(ss_device *device, ss_route_callback callback, void *user_data);

/** What the desktop server did to the device's stream. */
typedef enum ss_output_event_kind {
    SS_OUTPUT_PAUSE_REQUESTED = 0,      /**< The server asks the stream to pause (e.g. a phone call). */
    SS_OUTPUT_RESUME_REQUESTED = 1,
    SS_OUTPUT_VOLUME_CHANGED = 2,       /**< The user changed the stream's volume or mute. */
    SS_OUTPUT_UNDERRUN = 3,             /**< The server ran out of audio to play. */
    SS_OUTPUT_SERVER_LOST = 4,          /**< The server went away; the device waits for it. */
    SS_OUTPUT_SERVER_RECONNECTED = 5
} ss_output_event_kind;

/** An output event. `reason` is valid only during the callback (NULL unless SERVER_LOST). */
typedef struct ss_output_event {
    ss_output_event_kind kind;
    float volume;               /**< For SS_OUTPUT_VOLUME_CHANGED: 0 ... 1. */
    int muted;                  /**< For SS_OUTPUT_VOLUME_CHANGED. */
    int underruns;              /**< For SS_OUTPUT_UNDERRUN: how many so far. */
    const char *reason;         /**< For SS_OUTPUT_SERVER_LOST. */
} ss_output_event;

/**
 * Called with what the desktop server does to a desktop device's stream, on the device's output
 * thread. Other kinds of device post nothing.
 */
typedef void (*ss_output_callback)(ss_device *device, const ss_output_event *event, void *user_data);

/** Sets (or with NULL removes) the device's output callback. */
ss_result ss_device_set_output_callback(ss_device *device, ss_output_callback callback, void *user_data);

/** Levels of a meter, per channel, in dBFS (0 = full scale, -160 = silence). */
typedef struct ss_levels {
    int channels;               /**< How many entries are valid; 0 when nothing was metered since the last reading. */
    int frames;                 /**< Frames measured since the last reading. */
    float average_power[8];     /**< RMS in dBFS, per channel. */
    float peak_power[8];        /**< Peak in dBFS, per channel. */
} ss_levels;

/** Turns metering of the device's output on or off (desktop and loopback devices). */
ss_result ss_device_set_output_metering(ss_device *device, int enabled);
/** Reads whether the device's output is metered (1) or not (0). */
ss_result ss_device_is_output_metering(ss_device *device, int *out);
/** The output's levels since the last reading. */
ss_result ss_device_get_output_levels(ss_device *device, ss_levels *out);

/**
 * Starts writing exactly the mix the device sends out to `path`, on a thread of its own (a slow
 * disk never makes the output underrun). Desktop and loopback devices.
 */
ss_result ss_device_start_recording_output(ss_device *device, const char *path, ss_file_format format);

/** What a finished mix recording wrote. */
typedef struct ss_mix_recording {
    int64_t frames;
    double duration;
    int failed;                 /**< 1 when it ended early (disk full, or too far behind); see ss_error_message(). */
} ss_mix_recording;

/** Stops the mix recording and completes its file. `out` may be NULL. SS_ERROR_INVALID_STATE if none runs. */
ss_result ss_device_stop_recording_output(ss_device *device, ss_mix_recording *out);

/* ------------------------------------------------------------------------------------------ */
/* Scenes and the listener                                                                     */
/* ------------------------------------------------------------------------------------------ */

/**
 * Creates a scene on `device`. `source_budget` (1 ... 4096, 0: 256) is how many sources may play
 * or be paused at once; more is SS_ERROR_SOURCE_BUDGET_EXHAUSTED unless voices are virtualized.
 */
ss_result ss_scene_create(ss_device *device, int source_budget, ss_scene **out_scene);

/** Closes the scene: its sources stop; its sources, groups, zones and voice limits are destroyed. */
ss_result ss_scene_destroy(ss_scene *scene);

/** Distance models (as OpenAL's). */
typedef enum ss_distance_model {
    SS_DISTANCE_NONE = 0,
    SS_DISTANCE_INVERSE = 1,
    SS_DISTANCE_INVERSE_CLAMPED = 2,    /**< The default. */
    SS_DISTANCE_LINEAR = 3,
    SS_DISTANCE_LINEAR_CLAMPED = 4,
    SS_DISTANCE_EXPONENT = 5,
    SS_DISTANCE_EXPONENT_CLAMPED = 6
} ss_distance_model;

/** Sets the scene's distance model. */
ss_result ss_scene_set_distance_model(ss_scene *scene, ss_distance_model model);
/** Reads the scene's distance model. */
ss_result ss_scene_get_distance_model(ss_scene *scene, ss_distance_model *out);
/** Doppler factor, >= 0 (0 turns Doppler off); default 1. */
ss_result ss_scene_set_doppler_factor(ss_scene *scene, float factor);
/** Speed of sound in units per second, > 0; default 343.3. */
ss_result ss_scene_set_speed_of_sound(ss_scene *scene, float speed);
/** Reads the scene's Doppler factor. */
ss_result ss_scene_get_doppler_factor(ss_scene *scene, float *out);
/** Reads the scene's speed of sound. */
ss_result ss_scene_get_speed_of_sound(ss_scene *scene, float *out);

/** How many sources of the scene play or are paused now. */
ss_result ss_scene_get_active_source_count(ss_scene *scene, int *out);
/** How many values the scene's objects refused (NaN, out of range) since it was made. */
ss_result ss_scene_get_refused_value_count(ss_scene *scene, int64_t *out);

/** Moves the listener. */
ss_result ss_listener_set_position(ss_scene *scene, ss_vec3 position);
/** The listener's velocity, for Doppler. */
ss_result ss_listener_set_velocity(ss_scene *scene, ss_vec3 velocity);
/** Where the listener looks (`at`) and which way is up; the two must not be parallel. */
ss_result ss_listener_set_orientation(ss_scene *scene, ss_vec3 at, ss_vec3 up);
/** The listener's gain: the scene's master gain, >= 0. */
ss_result ss_listener_set_gain(ss_scene *scene, float gain);
/** Reads the listener's position. */
ss_result ss_listener_get_position(ss_scene *scene, ss_vec3 *out);
/** Reads the listener's orientation; either pointer may be NULL. */
ss_result ss_listener_get_orientation(ss_scene *scene, ss_vec3 *out_at, ss_vec3 *out_up);
/** Reads the listener's velocity. */
ss_result ss_listener_get_velocity(ss_scene *scene, ss_vec3 *out);
/** Reads the listener's gain. */
ss_result ss_listener_get_gain(ss_scene *scene, float *out);

/**
 * Opens a batch: until the matching ss_scene_end_batch(), property changes of the scene's
 * sources and listener, and every ss_source_play(), are held back and then land in the same
 * mixer update (a chord starts on one sample). Batches nest; the outermost applies. Pause and
 * stop act at once.
 */
ss_result ss_scene_begin_batch(ss_scene *scene);
/** Closes a batch. SS_ERROR_INVALID_STATE when none is open. */
ss_result ss_scene_end_batch(ss_scene *scene);

/**
 * Starts `count` sources — of this scene and of other scenes of the same device — on exactly the
 * same sample, at `time` on the device's mix clock (ss_device_get_mix_time). Desktop and loopback
 * devices. A time in the past is SS_ERROR_INVALID_ARGUMENT; if one source cannot be set up, none is.
 */
ss_result ss_scene_play_at(ss_scene *scene, ss_source *const *sources, size_t count, double time);

/**
 * Crossfades: starts `incoming` at level 0 and, over `seconds`, fades it up while `outgoing`
 * fades down and then stops.
 */
ss_result ss_scene_crossfade(ss_scene *scene, ss_source *outgoing, ss_source *incoming, double seconds);

/** Turns metering of the scene (the summed power of its sources) on or off. */
ss_result ss_scene_set_metering(ss_scene *scene, int enabled);
/** Reads whether the scene is metered (1) or not (0). */
ss_result ss_scene_is_metering(ss_scene *scene, int *out);
/** The scene's levels since the last reading. */
ss_result ss_scene_get_levels(ss_scene *scene, ss_levels *out);

/* ------------------------------------------------------------------------------------------ */
/* Buffers                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/**
 * Decodes the sound file at `path` (WAV, AIFF, CAF, FLAC, Ogg Vorbis/Opus, MP3, ...) into a
 * buffer. Decoded once per device and cached by path: a second load of the same file shares the
 * audio. Mono buffers are positioned in 3D; others play straight to the speakers.
 */
ss_result ss_buffer_load_file(ss_device *device, const char *path, ss_buffer **out_buffer);

/**
 * Decodes a whole sound file held in memory (`size` bytes at `data`, at most 1 GiB, copied).
 * `name` (may be NULL) names it in error messages.
 */
ss_result ss_buffer_load_memory(ss_device *device, const void *data, size_t size, const char *name,
                                ss_buffer **out_buffer);

/**
 * Makes a buffer from raw PCM: `frames` frames of interleaved 32-bit floats, `channels` (1, 2, 4,
 * 6, 7 or 8) per frame, at `sample_rate` Hz. The samples are copied. More samples than the
 * device's decode limit (ss_device_set_max_decoded_bytes, 512 MiB of floats by default) is
 * SS_ERROR_TOO_LARGE; NaN or infinite samples are SS_ERROR_NOT_FINITE, and samples beyond +-65536
 * (96 dB over full scale: one FLT_MAX would overflow the mix) SS_ERROR_OUT_OF_RANGE.
 */
ss_result ss_buffer_create_pcm(ss_device *device, const float *samples, size_t frames, int channels, int sample_rate,
                               ss_buffer **out_buffer);

/** The same from 16-bit integer samples. */
ss_result ss_buffer_create_pcm16(ss_device *device, const int16_t *samples, size_t frames, int channels,
                                 int sample_rate, ss_buffer **out_buffer);

/** Destroys the handle. Sources playing the buffer keep its audio until they let go of it. */
ss_result ss_buffer_destroy(ss_buffer *buffer);

/** A buffer's shape. */
typedef struct ss_buffer_info {
    int64_t frames;
    int channels;
    int sample_rate;
    double duration;
} ss_buffer_info;

/** Fills `out` with the buffer's shape. */
ss_result ss_buffer_get_info(ss_buffer *buffer, ss_buffer_info *out);

/* ------------------------------------------------------------------------------------------ */
/* Sources                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/**
 * Creates a source in `scene` playing `buffer` (NULL: none yet). A source uses an OpenAL source
 * of the scene's budget only while it plays or is paused; create as many as you like.
 */
ss_result ss_source_create(ss_scene *scene, ss_buffer *buffer, ss_source **out_source);

/** Options of a streaming source. Fill with ss_stream_options_init(). */
typedef struct ss_stream_options {
    size_t struct_size;         /**< Set by ss_stream_options_init(); do not change. */
    double buffer_duration;     /**< Seconds per queued buffer; default 0.25. */
    int buffer_count;           /**< Queued buffers; default 4. */
    int loops;                  /**< 1: loop between loop_start and loop_end, gaplessly. */
    double loop_start;          /**< Seconds; default 0. */
    double loop_end;            /**< Seconds; a negative value (the default) means the end of the file. */
} ss_stream_options;

/** Fills `options` with the defaults. */
ss_result ss_stream_options_init(ss_stream_options *options);

/**
 * Creates a source that streams the file at `path` (any length, bounded memory): decoded on a
 * background thread, so nothing on the caller's thread waits for the disk. `options` may be NULL.
 */
ss_result ss_source_create_streaming(ss_scene *scene, const char *path, const ss_stream_options *options,
                                     ss_source **out_source);

/** Stops the source and destroys its handle. */
ss_result ss_source_destroy(ss_source *source);

/** Float properties of a source (ss_source_set_float / ss_source_get_float). */
typedef enum ss_source_float {
    SS_SOURCE_GAIN = 0,                 /**< >= 0, default 1 (AL_GAIN). */
    SS_SOURCE_PITCH = 1,                /**< > 0, default 1 (AL_PITCH). */
    SS_SOURCE_MIN_GAIN = 2,             /**< 0 ... 1 (AL_MIN_GAIN). */
    SS_SOURCE_MAX_GAIN = 3,             /**< 0 ... 1 (AL_MAX_GAIN). */
    SS_SOURCE_REFERENCE_DISTANCE = 4,   /**< >= 0, default 1. */
    SS_SOURCE_MAX_DISTANCE = 5,         /**< >= 0, default FLT_MAX (no limit; an infinity is SS_ERROR_NOT_FINITE). */
    SS_SOURCE_ROLLOFF_FACTOR = 6,       /**< >= 0, default 1. */
    SS_SOURCE_CONE_INNER_ANGLE = 7,     /**< Degrees, 0 ... 360, default 360. */
    SS_SOURCE_CONE_OUTER_ANGLE = 8,     /**< Degrees, 0 ... 360, default 360. */
    SS_SOURCE_CONE_OUTER_GAIN = 9,      /**< 0 ... 1, default 0. */
    SS_SOURCE_OCCLUSION = 10,           /**< dB, -100 ... 0: behind a wall (direct sound and reverb). */
    SS_SOURCE_OBSTRUCTION = 11,         /**< dB, -100 ... 0: behind a pillar (direct sound only). */
    SS_SOURCE_AIR_ABSORPTION = 12,      /**< 0 ... 10 (AL_AIR_ABSORPTION_FACTOR). */
    SS_SOURCE_REVERB_SEND = 13          /**< 0 ... 1: how much reaches every reverb zone; default 1. */
} ss_source_float;

/** Vector properties of a source. */
typedef enum ss_source_vec3 {
    SS_SOURCE_POSITION = 0,     /**< Relative to the listener when head-relative. |coordinate| <= 1e9. */
    SS_SOURCE_VELOCITY = 1,     /**< Units per second, for Doppler. */
    SS_SOURCE_DIRECTION = 2     /**< Where it faces; zero (the default) means omnidirectional. */
} ss_source_vec3;

/** Sets a float property (see ss_source_float for ranges). */
ss_result ss_source_set_float(ss_source *source, ss_source_float property, float value);
/** Reads a float property. */
ss_result ss_source_get_float(ss_source *source, ss_source_float property, float *out);
/** Sets a vector property. */
ss_result ss_source_set_vec3(ss_source *source, ss_source_vec3 property, ss_vec3 value);
/** Reads a vector property. */
ss_result ss_source_get_vec3(ss_source *source, ss_source_vec3 property, ss_vec3 *out);

/** Moves the source: ss_source_set_vec3(source, SS_SOURCE_POSITION, ...) in one call. Per frame. */
ss_result ss_source_set_position(ss_source *source, float x, float y, float z);
/** Sets the source's velocity (for Doppler). Per frame. */
ss_result ss_source_set_velocity(ss_source *source, float x, float y, float z);
/** Sets the source's gain, >= 0. */
ss_result ss_source_set_gain(ss_source *source, float gain);
/** Sets the source's pitch, > 0 (2 doubles the frequency). */
ss_result ss_source_set_pitch(ss_source *source, float pitch);

/** Whether the source loops forever (a looping source never completes). */
ss_result ss_source_set_looping(ss_source *source, int looping);
/** Reads whether the source loops. */
ss_result ss_source_is_looping(ss_source *source, int *out);
/** Whether position, velocity and direction are relative to the listener. */
ss_result ss_source_set_head_relative(ss_source *source, int head_relative);
/** Reads whether the source is head-relative. */
ss_result ss_source_is_head_relative(ss_source *source, int *out);
/** Extra gapless plays after the first, 0 ... 10000 (ignored while looping); from the next play. */
ss_result ss_source_set_repeat_count(ss_source *source, int repeats);
/** Reads the source's repeat count. */
ss_result ss_source_get_repeat_count(ss_source *source, int *out);
/** Changes the buffer (stops the source first); NULL for none. The buffer must be of the scene's device. */
ss_result ss_source_set_buffer(ss_source *source, ss_buffer *buffer);

/** Starts the source, or resumes it when paused; restarts it when playing. */
ss_result ss_source_play(ss_source *source);
/** Pauses the source. */
ss_result ss_source_pause(ss_source *source);
/** Stops the source (its completion callback does not run). */
ss_result ss_source_stop(ss_source *source);
/** Stops the source and puts it back at its start (SS_SOURCE_INITIAL). */
ss_result ss_source_rewind(ss_source *source);
/** Moves to `seconds` into the sound (to the nearest frame); on a stopped source the next play starts there. */
ss_result ss_source_seek(ss_source *source, double seconds);

/** Playback states (as AL_SOURCE_STATE). */
typedef enum ss_source_state {
    SS_SOURCE_INITIAL = 0,
    SS_SOURCE_PLAYING = 1,
    SS_SOURCE_PAUSED = 2,
    SS_SOURCE_STOPPED = 3
} ss_source_state;

/** Reads the playback state. */
ss_result ss_source_get_state(ss_source *source, ss_source_state *out);
/** Reads the play position in seconds. */
ss_result ss_source_get_offset(ss_source *source, double *out_seconds);
/**
 * How loud the source reaches the listener now (gain x groups x fade x distance x cone x the
 * listener's gain), as OpenAL computes it. Use it to rank sources.
 */
ss_result ss_source_get_audibility(ss_source *source, float *out);

/**
 * Called once when a non-looping source plays to its end (not after ss_source_stop). On a
 * loopback device it runs inside ss_device_render() on the thread that called it; on an output,
 * on the device's update thread (every 10 ms).
 */
typedef void (*ss_source_callback)(ss_source *source, void *user_data);

/** Sets (or with NULL removes) the source's completion callback. */
ss_result ss_source_set_completion_callback(ss_source *source, ss_source_callback callback, void *user_data);

/**
 * Fades the source's level (a multiplier on its gain) to `level` over `seconds` of mix time;
 * with `stop_at_end` it stops when the fade ends.
 */
ss_result ss_source_fade(ss_source *source, float level, double seconds, int stop_at_end);

/** Puts the source in `group` (NULL: none). The group must be of the same scene. */
ss_result ss_source_set_group(ss_source *source, ss_group *group);

/** Turns metering of the source on or off. */
ss_result ss_source_set_metering(ss_source *source, int enabled);
/** Reads whether the source is metered (1) or not (0). */
ss_result ss_source_is_metering(ss_source *source, int *out);
/** The source's levels since the last reading (after its gain, groups and distance; per channel of its buffer). */
ss_result ss_source_get_levels(ss_source *source, ss_levels *out);

/** Streaming sources: how many times the queue ran dry and the engine restarted it. */
ss_result ss_source_get_underrun_count(ss_source *source, int *out);

/* ------------------------------------------------------------------------------------------ */
/* Groups                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/** Creates a group named `name` in `scene`, under `parent` (NULL: top level). */
ss_result ss_group_create(ss_scene *scene, const char *name, ss_group *parent, ss_group **out_group);
/**
 * Destroys the handle. The group itself lives on while sources or child groups use it (a group
 * has no OpenAL object).
 */
ss_result ss_group_destroy(ss_group *group);
/** The group's gain, >= 0: multiplies its sources' and its child groups' gain. */
ss_result ss_group_set_gain(ss_group *group, float gain);
/** Reads the group's gain. */
ss_result ss_group_get_gain(ss_group *group, float *out);
/** Mutes or unmutes the group (its sources keep playing, silently). */
ss_result ss_group_set_muted(ss_group *group, int muted);
/** Reads whether the group is muted (1) or not (0); its own flag, not its parents'. */
ss_result ss_group_is_muted(ss_group *group, int *out);
/** The group's pitch, > 0: multiplies down the tree like gain. */
ss_result ss_group_set_pitch(ss_group *group, float pitch);
/** Reads the group's own pitch (not multiplied by its parents'). */
ss_result ss_group_get_pitch(ss_group *group, float *out);
/** Pauses exactly what plays in the group and its children. */
ss_result ss_group_pause(ss_group *group);
/** Resumes what ss_group_pause paused. */
ss_result ss_group_resume(ss_group *group);
/** Reads whether the group is paused. */
ss_result ss_group_is_paused(ss_group *group, int *out);

/** Called once when a group's fade ends; on the device's update thread (inside ss_device_render on loopback). */
typedef void (*ss_group_callback)(ss_group *group, void *user_data);

/**
 * Moves the group's gain to `gain` over `seconds` of mix time; with `stop_at_end` every source in
 * it stops when the fade ends. `callback` (may be NULL) runs once at the end.
 */
ss_result ss_group_fade(ss_group *group, float gain, double seconds, int stop_at_end, ss_group_callback callback,
                        void *user_data);

/**
 * Ducks `target` to `gain` (0 ... 1) over `attack` seconds while anything in `trigger` sounds,
 * and brings it back over `release` seconds after. Both groups must be of `scene`.
 */
ss_result ss_scene_add_ducking(ss_scene *scene, ss_group *target, ss_group *trigger, float gain, double attack,
                               double release);

/** Turns metering of the group on or off. */
ss_result ss_group_set_metering(ss_group *group, int enabled);
/** Reads whether the group is metered (1) or not (0). */
ss_result ss_group_is_metering(ss_group *group, int *out);
/** The group's levels since the last reading. */
ss_result ss_group_get_levels(ss_group *group, ss_levels *out);

/* ------------------------------------------------------------------------------------------ */
/* Reverb zones                                                                                */
/* ------------------------------------------------------------------------------------------ */

/** Where a reverb zone is heard fully. */
typedef enum ss_region_kind {
    SS_REGION_EVERYWHERE = 0,
    SS_REGION_SPHERE = 1,       /**< Within `radius` of `center`. */
    SS_REGION_BOX = 2           /**< Between `min` and `max`. */
} ss_region_kind;

/** A region; outside it the zone fades out linearly over `fade` units. */
typedef struct ss_reverb_region {
    ss_region_kind kind;
    ss_vec3 center;
    float radius;
    ss_vec3 min;
    ss_vec3 max;
    float fade;
} ss_reverb_region;

/** How many reverb presets there are (113: those of OpenAL Soft's efx-presets.h). */
int ss_reverb_preset_count(void);
/** The name of preset `index` ("cave", "castle-small-room", ...); NULL when out of range. Static. */
const char *ss_reverb_preset_name(int index);

/**
 * Creates a reverb zone in `scene` running preset `preset` (a name from ss_reverb_preset_name),
 * heard in `region` (NULL: everywhere) at `gain` (0 ... 1). A scene holds as many zones as its
 * device's reverb_zones; one more is SS_ERROR_INVALID_ARGUMENT.
 */
ss_result ss_reverb_zone_create(ss_scene *scene, const char *name, const char *preset, const ss_reverb_region *region,
                                float gain, ss_reverb_zone **out_zone);
/** Removes the zone (sources stop sending to it) and destroys its handle. */
ss_result ss_reverb_zone_destroy(ss_reverb_zone *zone);
/** Switches the zone to another preset. */
ss_result ss_reverb_zone_set_preset(ss_reverb_zone *zone, const char *preset);
/**
 * Changes one value of the zone's reverb, named as in scene files: "density", "diffusion",
 * "gain", "gainHF", "gainLF", "decayTime", "decayHFRatio", "reflectionsGain", "lateReverbGain",
 * ... (docs/scene-format.md lists them). A value outside the EFX range is SS_ERROR_INVALID_ARGUMENT
 * and the zone keeps its reverb.
 */
ss_result ss_reverb_zone_set_value(ss_reverb_zone *zone, const char *setting, float value);
/**
 * Reads one value of the zone's reverb, named as for ss_reverb_zone_set_value (after a preset
 * switch, the new preset's). An unknown name is SS_ERROR_NOT_FOUND.
 */
ss_result ss_reverb_zone_get_value(ss_reverb_zone *zone, const char *setting, float *out);
/** The zone's gain, 0 ... 1. */
ss_result ss_reverb_zone_set_gain(ss_reverb_zone *zone, float gain);
/** Reads the zone's gain. */
ss_result ss_reverb_zone_get_gain(ss_reverb_zone *zone, float *out);
/** Moves the zone's region. */
ss_result ss_reverb_zone_set_region(ss_reverb_zone *zone, const ss_reverb_region *region);
/** Reads the zone's region; the fields its kind does not use are 0. */
ss_result ss_reverb_zone_get_region(ss_reverb_zone *zone, ss_reverb_region *out);
/** How much of the zone the listener hears where it is now, 0 ... 1. */
ss_result ss_reverb_zone_get_weight(ss_reverb_zone *zone, float *out);
/** The source's send level to one zone, 0 ... 1, overriding SS_SOURCE_REVERB_SEND; a negative level removes the override. */
ss_result ss_source_set_zone_send(ss_source *source, ss_reverb_zone *zone, float level);
/** Reads the source's send level to one zone: its override, else SS_SOURCE_REVERB_SEND. */
ss_result ss_source_get_zone_send(ss_source *source, ss_reverb_zone *zone, float *out);

/* ------------------------------------------------------------------------------------------ */
/* Voices: virtual voices, priorities, limits                                                  */
/* ------------------------------------------------------------------------------------------ */

/**
 * With voice virtualization on, any number of sources may play: the scene keeps the most
 * important `source_budget` of them real (by priority, then audibility) and the rest silent with
 * their clocks running. ss_source_play never fails for lack of voices.
 */
ss_result ss_scene_set_virtualizes_voices(ss_scene *scene, int enabled);
/** Reads whether the scene virtualizes voices (1) or not (0). */
ss_result ss_scene_get_virtualizes_voices(ss_scene *scene, int *out);

/** What a voice limit does when one more source of its kind plays. */
typedef enum ss_steal_policy {
    SS_STEAL_OLDEST = 0,
    SS_STEAL_QUIETEST = 1,
    SS_STEAL_FARTHEST = 2,
    SS_STEAL_NONE = 3           /**< The new play fails with SS_ERROR_VOICE_LIMIT_REACHED. */
} ss_steal_policy;

/** Creates a voice limit in `scene`: at most `max_voices` (>= 1) of its sources sound at once. */
ss_result ss_voice_limit_create(ss_scene *scene, const char *name, int max_voices, ss_steal_policy policy,
                                ss_voice_limit **out_limit);
/** Destroys the handle; sources keep their limit. */
ss_result ss_voice_limit_destroy(ss_voice_limit *limit);
/** Puts the source under `limit` (NULL: none). */
ss_result ss_source_set_voice_limit(ss_source *source, ss_voice_limit *limit);
/** The source's priority, -1,000,000 ... 1,000,000 (higher wins); default 0. */
ss_result ss_source_set_priority(ss_source *source, int priority);
/** Reads the source's priority. */
ss_result ss_source_get_priority(ss_source *source, int *out);
/** Whether the source plays virtually now (silent, its clock running). */
ss_result ss_source_is_virtual(ss_source *source, int *out);

/** What the voice manager did to a source. */
typedef enum ss_voice_event_kind {
    SS_VOICE_STOLEN = 0,        /**< A new play under a full voice limit stopped it. */
    SS_VOICE_VIRTUALIZED = 1,   /**< It lost its voice to more important sources; its clock runs on. */
    SS_VOICE_REALIZED = 2       /**< It got a voice back and plays on at its clock's offset. */
} ss_voice_event_kind;

/**
 * Called for each voice event of the scene, on the thread of the engine update that ranked the
 * voices (inside ss_device_render on loopback) or of the play that stole. `source` is the
 * source's handle, or NULL when the source has none (a scene file's source nobody asked for).
 */
typedef void (*ss_voice_callback)(ss_scene *scene, ss_source *source, ss_voice_event_kind kind, void *user_data);

/**
 * Sets (or with NULL removes) the scene's voice callback. Voice management must be on
 * (ss_scene_set_virtualizes_voices): otherwise SS_ERROR_INVALID_STATE. Turning it off drops
 * the callback.
 */
ss_result ss_scene_set_voice_callback(ss_scene *scene, ss_voice_callback callback, void *user_data);

/** Counters of a scene's voice manager. */
typedef struct ss_voice_statistics {
    int real_voices;                /**< Playing sources that hold an OpenAL voice now. */
    int virtual_voices;             /**< Playing sources without one. */
    int64_t steals;
    int64_t virtualizations;
    int64_t realizations;
    int64_t rankings;               /**< Engine updates that ranked the voices. */
    double last_ranking_us;         /**< The last ranking's cost, microseconds. */
    double peak_ranking_us;
    double total_ranking_us;
} ss_voice_statistics;

/** Reads the scene's voice counters (real voices are counted with voice management off too). */
ss_result ss_scene_get_voice_statistics(ss_scene *scene, ss_voice_statistics *out);

/* ------------------------------------------------------------------------------------------ */
/* System sounds                                                                               */
/* ------------------------------------------------------------------------------------------ */

/** Options of a system-sound registry. Fill with ss_sound_registry_options_init(). */
typedef struct ss_sound_registry_options {
    size_t struct_size;         /**< Set by ss_sound_registry_options_init(); do not change. */
    int max_concurrent;         /**< Sounds at once; 1 (default): a new one replaces the one playing. */
    double coalescing_window;   /**< Seconds within which the same sound again is dropped; default 0.08. */
    double maximum_duration;    /**< Longest sound accepted, seconds; default 30. */
    const char *theme;          /**< The freedesktop sound theme; NULL: "freedesktop". */
} ss_sound_registry_options;

/** Fills `options` with the defaults. */
ss_result ss_sound_registry_options_init(ss_sound_registry_options *options);

/** Creates a registry with its own scene on `device`. `options` may be NULL. */
ss_result ss_sound_registry_create(ss_device *device, const ss_sound_registry_options *options,
                                   ss_sound_registry **out_registry);
/** Stops its sounds, frees them and destroys the handle. */
ss_result ss_sound_registry_destroy(ss_sound_registry *registry);

/** Registers the sound file at `path` (decoded once); `out_id` receives its id. */
ss_result ss_sound_register_file(ss_sound_registry *registry, const char *path, uint32_t *out_id);
/** Registers a sound file held in memory (copied). */
ss_result ss_sound_register_memory(ss_sound_registry *registry, const void *data, size_t size, const char *name,
                                   uint32_t *out_id);
/** Registers a freedesktop sound-theme event ("bell", "message-new-instant", ...). */
ss_result ss_sound_register_event(ss_sound_registry *registry, const char *event, uint32_t *out_id);
/** Frees a registered sound; its id becomes unknown. */
ss_result ss_sound_dispose(ss_sound_registry *registry, uint32_t id);

/** How a system sound's play ended. */
typedef enum ss_sound_outcome {
    SS_SOUND_FINISHED = 0,
    SS_SOUND_REPLACED = 1,      /**< A newer sound took its place. */
    SS_SOUND_COALESCED = 2,     /**< Dropped: the same sound had just started. */
    SS_SOUND_SILENCED = 3,      /**< The registry is disabled, interrupted or silent. */
    SS_SOUND_DISPOSED = 4,
    SS_SOUND_FAILED = 5
} ss_sound_outcome;

/**
 * Called exactly once for every play call, when the sound ends: on the device's update thread,
 * or on the calling thread inside the play call when it ends at once (coalesced, silenced, or
 * failed — the call then also returns the error).
 */
typedef void (*ss_sound_callback)(ss_sound_registry *registry, uint32_t id, ss_sound_outcome outcome,
                                  void *user_data);

/** Plays a registered sound. `callback` may be NULL. */
ss_result ss_sound_play(ss_sound_registry *registry, uint32_t id, ss_sound_callback callback, void *user_data);
/** Plays a registered sound as an alert: it also calls the attention callback (a desktop flashes the window). */
ss_result ss_sound_play_alert(ss_sound_registry *registry, uint32_t id, ss_sound_callback callback, void *user_data);
/** Plays a sound-theme event by name (registered on first use). */
ss_result ss_sound_play_event(ss_sound_registry *registry, const char *event, int alert, ss_sound_callback callback,
                              void *user_data);
/** Plays a sound file (registered on first use). */
ss_result ss_sound_play_file(ss_sound_registry *registry, const char *path, int alert, ss_sound_callback callback,
                             void *user_data);
/** The registry's volume, 0 ... 1. */
ss_result ss_sound_registry_set_volume(ss_sound_registry *registry, float volume);
/** Reads the registry's volume. */
ss_result ss_sound_registry_get_volume(ss_sound_registry *registry, float *out);
/** Turns the registry's sounds on or off (off: plays report SS_SOUND_SILENCED). */
ss_result ss_sound_registry_set_enabled(ss_sound_registry *registry, int enabled);
/** Reads whether the registry's sounds are on (1) or off (0). */
ss_result ss_sound_registry_is_enabled(ss_sound_registry *registry, int *out);

/** Called when an alert plays (the Linux counterpart of iOS's vibrate-with-alert); on the thread that played it. */
typedef void (*ss_attention_callback)(ss_sound_registry *registry, uint32_t id, void *user_data);

/** Sets (or with NULL removes) the registry's attention callback. */
ss_result ss_sound_registry_set_attention_callback(ss_sound_registry *registry, ss_attention_callback callback,
                                                   void *user_data);

/* ------------------------------------------------------------------------------------------ */
/* Audio sessions                                                                              */
/* ------------------------------------------------------------------------------------------ */

/** Session categories (as AVAudioSession's). */
typedef enum ss_session_category {
    SS_CATEGORY_AMBIENT = 0,
    SS_CATEGORY_SOLO_AMBIENT = 1,
    SS_CATEGORY_PLAYBACK = 2,
    SS_CATEGORY_PLAY_AND_RECORD = 3,
    SS_CATEGORY_RECORD = 4,
    SS_CATEGORY_AUDIO_PROCESSING = 5
} ss_session_category;

/** Session options (bits). */
typedef enum ss_session_options {
    SS_SESSION_MIX_WITH_OTHERS = 1,
    SS_SESSION_DUCK_OTHERS = 2
} ss_session_options;

/** Creates a session on `device` (inactive). `options` is a bitwise OR of ss_session_options. */
ss_result ss_session_create(ss_device *device, ss_session_category category, int options, ss_session **out_session);
/** Removes the session and destroys its handle. */
ss_result ss_session_destroy(ss_session *session);
/** Changes the category and options. */
ss_result ss_session_set_category(ss_session *session, ss_session_category category, int options);
/** Activates (1) or deactivates (0) the session: attached scenes sound only while it is active. */
ss_result ss_session_set_active(ss_session *session, int active);
/** Puts `scene` under the session. */
ss_result ss_session_attach_scene(ss_session *session, ss_scene *scene);
/** Puts a system-sound registry under the session. */
ss_result ss_session_attach_registry(ss_session *session, ss_sound_registry *registry);
/** Interrupts the session (as a phone call would): what plays pauses. */
ss_result ss_session_begin_interruption(ss_session *session);
/** Ends an interruption; with `should_resume` what was playing resumes from its offsets. */
ss_result ss_session_end_interruption(ss_session *session, int should_resume);

/** Flags of a session's state. */
typedef struct ss_session_state {
    ss_session_category category;
    int options;
    int active;
    int interrupted;
    int ducked;
} ss_session_state;

/** Reads the session's state. */
ss_result ss_session_get_state(ss_session *session, ss_session_state *out);

/** What happened to a session. */
typedef enum ss_session_event_kind {
    SS_SESSION_ACTIVATED = 0,
    SS_SESSION_DEACTIVATED = 1,
    SS_SESSION_INTERRUPTION_BEGAN = 2,
    SS_SESSION_INTERRUPTION_ENDED = 3,
    SS_SESSION_DUCKED = 4,
    SS_SESSION_UNDUCKED = 5
} ss_session_event_kind;

/** Why an interruption began. */
typedef enum ss_interruption_reason {
    SS_INTERRUPTION_APPLICATION = 0,
    SS_INTERRUPTION_OTHER_SESSION = 1,
    SS_INTERRUPTION_DEVICE_UNAVAILABLE = 2,
    SS_INTERRUPTION_SYSTEM_REQUEST = 3      /**< The desktop server asked (a phone call). */
} ss_interruption_reason;

/** A session event. */
typedef struct ss_session_event {
    ss_session_event_kind kind;
    ss_interruption_reason reason;  /**< For SS_SESSION_INTERRUPTION_BEGAN. */
    int should_resume;              /**< For SS_SESSION_INTERRUPTION_ENDED. */
    float duck_gain;                /**< For SS_SESSION_DUCKED. */
    double time;                    /**< Seconds on the system's uptime clock. */
} ss_session_event;

/**
 * Called for each event of the session, with `event` valid only during the call. Runs on the
 * thread whose call caused the event (yours, for ss_session_set_active or an interruption you
 * begin; a library thread for the desktop server's requests and route changes).
 */
typedef void (*ss_session_callback)(ss_session *session, const ss_session_event *event, void *user_data);

/** Sets (or with NULL removes) the session's callback. */
ss_result ss_session_set_callback(ss_session *session, ss_session_callback callback, void *user_data);

/* ------------------------------------------------------------------------------------------ */
/* Recording                                                                                   */
/* ------------------------------------------------------------------------------------------ */

/** Settings of a recorder. Fill with ss_recorder_settings_init(). */
typedef struct ss_recorder_settings {
    size_t struct_size;         /**< Set by ss_recorder_settings_init(); do not change. */
    ss_file_format format;      /**< Default SS_FORMAT_WAV_PCM16. */
    const char *input;          /**< A server input name ("A.monitor"); NULL: the default input. */
    int sample_rate;            /**< 0: the input's own. */
    int channels;               /**< 0: the input's own. */
    const char *server;         /**< NULL: the default server. */
} ss_recorder_settings;

/** Fills `settings` with the defaults. */
ss_result ss_recorder_settings_init(ss_recorder_settings *settings);

/** Recorder states. */
typedef enum ss_recorder_state {
    SS_RECORDER_IDLE = 0,
    SS_RECORDER_PREPARED = 1,
    SS_RECORDER_RECORDING = 2,
    SS_RECORDER_PAUSED = 3,
    SS_RECORDER_FINISHED = 4
} ss_recorder_state;

/** Why a recording ended. */
typedef enum ss_recording_end {
    SS_RECORDING_STOPPED = 0,
    SS_RECORDING_DURATION_REACHED = 1,
    SS_RECORDING_INPUT_LOST = 2,
    SS_RECORDING_WRITE_FAILED = 3
} ss_recording_end;

/** What a finished recording holds. */
typedef struct ss_recording {
    int64_t frames;
    int sample_rate;
    int channels;
    double duration;
    ss_recording_end end;
} ss_recording;

/** Called once when the recording ends, on the recorder's thread. `recording` is valid during the call. */
typedef void (*ss_recorder_callback)(ss_recorder *recorder, const ss_recording *recording, void *user_data);

/**
 * Creates a recorder to the file at `path` (nothing is opened yet). `settings` may be NULL.
 * Under `session` (may be NULL) it records only in the record and play-and-record categories,
 * while active. Needs PulseAudio or PipeWire.
 */
ss_result ss_recorder_create(const char *path, const ss_recorder_settings *settings, ss_session *session,
                             ss_recorder_callback callback, void *user_data, ss_recorder **out_recorder);
/** Stops (completing the file) and destroys the handle. */
ss_result ss_recorder_destroy(ss_recorder *recorder);
/** Opens the input and the file, so that ss_recorder_record starts at once. */
ss_result ss_recorder_prepare(ss_recorder *recorder);
/** Starts or resumes recording. */
ss_result ss_recorder_record(ss_recorder *recorder);
/** Records until `seconds` are in the file, then stops by itself. */
ss_result ss_recorder_record_for(ss_recorder *recorder, double seconds);
/** Pauses (the file stays open). */
ss_result ss_recorder_pause(ss_recorder *recorder);
/** Stops and completes the file; `out` (may be NULL) receives what it holds. */
ss_result ss_recorder_stop(ss_recorder *recorder, ss_recording *out);
/** Reads the recorder's state. */
ss_result ss_recorder_get_state(ss_recorder *recorder, ss_recorder_state *out);
/** Seconds recorded so far. */
ss_result ss_recorder_get_current_time(ss_recorder *recorder, double *out);
/** Turns metering of the recorded input on or off. */
ss_result ss_recorder_set_metering(ss_recorder *recorder, int enabled);
/** Reads whether the recorded input is metered (1) or not (0). */
ss_result ss_recorder_is_metering(ss_recorder *recorder, int *out);
/** The input's levels since the last reading. */
ss_result ss_recorder_get_levels(ss_recorder *recorder, ss_levels *out);
/** 1 when the desktop server has a real input (not only monitors). `server` may be NULL. */
int ss_capture_available(const char *server);

/**
 * Called once per entry by the enumerations: `name` (what the open and record calls take) and
 * `description` (for people; may be NULL). Both are valid only during the call. Runs on the
 * calling thread, inside the enumeration.
 */
typedef void (*ss_name_callback)(const char *name, const char *description, void *user_data);

/** Calls `callback` with each output device OpenAL Soft can open (names for ss_device_open_openal). */
ss_result ss_enumerate_openal_outputs(ss_name_callback callback, void *user_data);

/**
 * Calls `callback` with each input of the desktop server at `server` (NULL: the default server):
 * microphones and line inputs, and every sink's monitor ("A.monitor"). Names are for
 * ss_recorder_settings.input. SS_ERROR_NO_INPUT_DEVICE or SS_ERROR_AUDIO_SERVER without a server.
 */
ss_result ss_enumerate_inputs(const char *server, ss_name_callback callback, void *user_data);

/* ------------------------------------------------------------------------------------------ */
/* Scene files                                                                                 */
/* ------------------------------------------------------------------------------------------ */

/**
 * Loads and validates the scene file at `path` for `device` (see docs/scene-format.md): every
 * sound is loaded now. A malformed file is SS_ERROR_INVALID_SCENE with the place in the message.
 */
ss_result ss_scene_file_load(ss_device *device, const char *path, ss_scene_file **out_file);
/** Stops it and destroys its scenes and its handle. */
ss_result ss_scene_file_destroy(ss_scene_file *file);
/** The scene's length in seconds. */
ss_result ss_scene_file_get_duration(ss_scene_file *file, double *out);
/** Loopback devices: renders the whole scene to the file at `path`. */
ss_result ss_scene_file_render(ss_scene_file *file, const char *path, ss_file_format format);
/**
 * Output devices: plays the whole scene in real time; blocks the calling thread until it ends,
 * or until the handle (or its device) is destroyed on another thread. While it plays, the scene
 * file's render, play and advance calls from other threads return SS_ERROR_INVALID_STATE at
 * once; ss_scene_file_get_source works.
 */
ss_result ss_scene_file_play(ss_scene_file *file);
/** Moves everything to `seconds` (positions, starts and stops), for driving the scene yourself. */
ss_result ss_scene_file_advance(ss_scene_file *file, double seconds);
/**
 * A handle to the scene file's source named `name`, to drive further. Yours to destroy;
 * destroying it stops the source. SS_ERROR_NOT_FOUND when there is none.
 */
ss_result ss_scene_file_get_source(ss_scene_file *file, const char *name, ss_source **out_source);

/* ------------------------------------------------------------------------------------------ */
/* The daemon client (`soundstage serve`)                                                      */
/* ------------------------------------------------------------------------------------------ */

/**
 * Connects to the daemon at `socket_path` (NULL: $XDG_RUNTIME_DIR/soundstage/socket).
 * SS_ERROR_CONNECTION when none listens. Each call below blocks until the daemon answers.
 */
ss_result ss_client_connect(const char *socket_path, ss_client **out_client);
/** Closes the connection and destroys the handle. */
ss_result ss_client_destroy(ss_client *client);
/** Plays a sound-theme event through the daemon; `out_id` (may be NULL) gets the sound's id. */
ss_result ss_client_play_event(ss_client *client, const char *event, int alert, uint32_t *out_id);
/** Plays a sound file through the daemon (the path is read by the daemon). */
ss_result ss_client_play_file(ss_client *client, const char *path, int alert, uint32_t *out_id);
/** Plays a sound registered with the daemon by id. */
ss_result ss_client_play_id(ss_client *client, uint32_t id, int alert);
/** Registers a sound file with the daemon. */
ss_result ss_client_register_file(ss_client *client, const char *path, uint32_t *out_id);
/** Registers a sound-theme event with the daemon. */
ss_result ss_client_register_event(ss_client *client, const char *event, uint32_t *out_id);
/** Frees a sound registered with the daemon. */
ss_result ss_client_dispose(ss_client *client, uint32_t id);

/**
 * Called when a sound this client played through the daemon ends: the sound's id and how it
 * ended. Runs on a thread of the client's (one at a time, in order), so it may call the
 * client's functions.
 */
typedef void (*ss_client_callback)(ss_client *client, uint32_t id, ss_sound_outcome outcome, void *user_data);

/**
 * Sets (or with NULL removes) the client's completion callback; the first call subscribes the
 * connection to the daemon's completion events. Plays made before it are not reported.
 */
ss_result ss_client_set_completion_callback(ss_client *client, ss_client_callback callback, void *user_data);

#ifdef __cplusplus
}
#endif

#endif /* SOUNDSTAGE_H */
