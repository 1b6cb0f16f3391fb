"""The raw C API of libsoundstage, through ctypes: generated from include/soundstage.h by
scripts/generate-python-ffi.py. Do not edit; the classes of this package are the API to use.
"""
# fmt: off
import ctypes

HEADER_VERSION = (0, 2, 0)

# ss_result
SS_OK = 0
SS_ERROR_NULL_ARGUMENT = -1
SS_ERROR_INVALID_HANDLE = -2
SS_ERROR_STALE_HANDLE = -3
SS_ERROR_WRONG_HANDLE_KIND = -4
SS_ERROR_NOT_FINITE = -5
SS_ERROR_OUT_OF_RANGE = -6
SS_ERROR_INVALID_ARGUMENT = -7
SS_ERROR_INVALID_STATE = -8
SS_ERROR_OUT_OF_HANDLES = -9
SS_ERROR_BUFFER_TOO_SMALL = -10
SS_ERROR_NOT_FOUND = -20
SS_ERROR_PERMISSION_DENIED = -21
SS_ERROR_UNSUPPORTED_FORMAT = -22
SS_ERROR_CORRUPT_DATA = -23
SS_ERROR_IO = -24
SS_ERROR_TOO_LARGE = -25
SS_ERROR_NO_OUTPUT_DEVICE = -26
SS_ERROR_EXTENSION_MISSING = -27
SS_ERROR_OPENAL = -28
SS_ERROR_EXCEEDED_MAXIMUM_DURATION = -29
SS_ERROR_UNKNOWN_SOUND_ID = -30
SS_ERROR_SESSION_NOT_ACTIVE = -31
SS_ERROR_SESSION_UNAVAILABLE = -32
SS_ERROR_INVALID_SCENE = -33
SS_ERROR_SOURCE_BUDGET_EXHAUSTED = -34
SS_ERROR_VOICE_LIMIT_REACHED = -35
SS_ERROR_AUDIO_SERVER = -36
SS_ERROR_NO_INPUT_DEVICE = -37
SS_ERROR_CATEGORY_FORBIDS = -38
SS_ERROR_RELEASED = -39
SS_ERROR_DAEMON = -40
SS_ERROR_CONNECTION = -41
SS_ERROR_CODEC_UNAVAILABLE = -42
SS_ERROR_INTERNAL = -99

# ss_channel_layout
SS_LAYOUT_MONO = 1
SS_LAYOUT_STEREO = 2
SS_LAYOUT_QUAD = 4
SS_LAYOUT_5_1 = 6
SS_LAYOUT_6_1 = 7
SS_LAYOUT_7_1 = 8

# ss_output_backend
SS_BACKEND_AUTOMATIC = 0
SS_BACKEND_DESKTOP = 1
SS_BACKEND_OPENAL = 2

# ss_tristate
SS_DEFAULT = -1
SS_OFF = 0
SS_ON = 1

# ss_device_kind
SS_DEVICE_OPENAL = 0
SS_DEVICE_LOOPBACK = 1
SS_DEVICE_DESKTOP = 2

# ss_file_format
SS_FORMAT_WAV_PCM16 = 0
SS_FORMAT_WAV_PCM24 = 1
SS_FORMAT_WAV_FLOAT32 = 2
SS_FORMAT_FLAC = 3
SS_FORMAT_OGG_VORBIS = 4
SS_FORMAT_OPUS = 5
SS_FORMAT_MP3 = 6
SS_FORMAT_CAF_PCM16 = 7
SS_FORMAT_AIFF_PCM16 = 8
SS_FORMAT_M4A_AAC = 9
SS_FORMAT_M4A_ALAC = 10
SS_FORMAT_CAF_ILBC = 11

# ss_route_reason
SS_ROUTE_OLD_DEVICE_UNAVAILABLE = 0
SS_ROUTE_NEW_DEVICE_AVAILABLE = 1
SS_ROUTE_OVERRIDE = 2
SS_ROUTE_CATEGORY_CHANGE = 3
SS_ROUTE_OUTPUT_MOVED = 4

# ss_output_event_kind
SS_OUTPUT_PAUSE_REQUESTED = 0
SS_OUTPUT_RESUME_REQUESTED = 1
SS_OUTPUT_VOLUME_CHANGED = 2
SS_OUTPUT_UNDERRUN = 3
SS_OUTPUT_SERVER_LOST = 4
SS_OUTPUT_SERVER_RECONNECTED = 5

# ss_distance_model
SS_DISTANCE_NONE = 0
SS_DISTANCE_INVERSE = 1
SS_DISTANCE_INVERSE_CLAMPED = 2
SS_DISTANCE_LINEAR = 3
SS_DISTANCE_LINEAR_CLAMPED = 4
SS_DISTANCE_EXPONENT = 5
SS_DISTANCE_EXPONENT_CLAMPED = 6

# ss_source_float
SS_SOURCE_GAIN = 0
SS_SOURCE_PITCH = 1
SS_SOURCE_MIN_GAIN = 2
SS_SOURCE_MAX_GAIN = 3
SS_SOURCE_REFERENCE_DISTANCE = 4
SS_SOURCE_MAX_DISTANCE = 5
SS_SOURCE_ROLLOFF_FACTOR = 6
SS_SOURCE_CONE_INNER_ANGLE = 7
SS_SOURCE_CONE_OUTER_ANGLE = 8
SS_SOURCE_CONE_OUTER_GAIN = 9
SS_SOURCE_OCCLUSION = 10
SS_SOURCE_OBSTRUCTION = 11
SS_SOURCE_AIR_ABSORPTION = 12
SS_SOURCE_REVERB_SEND = 13

# ss_source_vec3
SS_SOURCE_POSITION = 0
SS_SOURCE_VELOCITY = 1
SS_SOURCE_DIRECTION = 2

# ss_source_state
SS_SOURCE_INITIAL = 0
SS_SOURCE_PLAYING = 1
SS_SOURCE_PAUSED = 2
SS_SOURCE_STOPPED = 3

# ss_region_kind
SS_REGION_EVERYWHERE = 0
SS_REGION_SPHERE = 1
SS_REGION_BOX = 2

# ss_steal_policy
SS_STEAL_OLDEST = 0
SS_STEAL_QUIETEST = 1
SS_STEAL_FARTHEST = 2
SS_STEAL_NONE = 3

# ss_voice_event_kind
SS_VOICE_STOLEN = 0
SS_VOICE_VIRTUALIZED = 1
SS_VOICE_REALIZED = 2

# ss_sound_outcome
SS_SOUND_FINISHED = 0
SS_SOUND_REPLACED = 1
SS_SOUND_COALESCED = 2
SS_SOUND_SILENCED = 3
SS_SOUND_DISPOSED = 4
SS_SOUND_FAILED = 5

# ss_session_category
SS_CATEGORY_AMBIENT = 0
SS_CATEGORY_SOLO_AMBIENT = 1
SS_CATEGORY_PLAYBACK = 2
SS_CATEGORY_PLAY_AND_RECORD = 3
SS_CATEGORY_RECORD = 4
SS_CATEGORY_AUDIO_PROCESSING = 5

# ss_session_options
SS_SESSION_MIX_WITH_OTHERS = 1
SS_SESSION_DUCK_OTHERS = 2

# ss_session_event_kind
SS_SESSION_ACTIVATED = 0
SS_SESSION_DEACTIVATED = 1
SS_SESSION_INTERRUPTION_BEGAN = 2
SS_SESSION_INTERRUPTION_ENDED = 3
SS_SESSION_DUCKED = 4
SS_SESSION_UNDUCKED = 5

# ss_interruption_reason
SS_INTERRUPTION_APPLICATION = 0
SS_INTERRUPTION_OTHER_SESSION = 1
SS_INTERRUPTION_DEVICE_UNAVAILABLE = 2
SS_INTERRUPTION_SYSTEM_REQUEST = 3

# ss_recorder_state
SS_RECORDER_IDLE = 0
SS_RECORDER_PREPARED = 1
SS_RECORDER_RECORDING = 2
SS_RECORDER_PAUSED = 3
SS_RECORDER_FINISHED = 4

# ss_recording_end
SS_RECORDING_STOPPED = 0
SS_RECORDING_DURATION_REACHED = 1
SS_RECORDING_INPUT_LOST = 2
SS_RECORDING_WRITE_FAILED = 3

class ss_vec3(ctypes.Structure):
    _fields_ = [
        ('x', ctypes.c_float),
        ('y', ctypes.c_float),
        ('z', ctypes.c_float),
    ]


class ss_live_objects(ctypes.Structure):
    _fields_ = [
        ('devices', ctypes.c_int),
        ('contexts', ctypes.c_int),
        ('buffers', ctypes.c_int),
        ('sources', ctypes.c_int),
        ('effect_slots', ctypes.c_int),
        ('effects', ctypes.c_int),
        ('filters', ctypes.c_int),
    ]


class ss_desktop_options(ctypes.Structure):
    _fields_ = [
        ('struct_size', ctypes.c_size_t),
        ('application_name', ctypes.c_char_p),
        ('application_id', ctypes.c_char_p),
        ('stream_name', ctypes.c_char_p),
        ('role', ctypes.c_char_p),
        ('latency', ctypes.c_double),
        ('server', ctypes.c_char_p),
        ('sink', ctypes.c_char_p),
        ('sample_rate', ctypes.c_int),
        ('layout', ctypes.c_int),
        ('hrtf', ctypes.c_int),
        ('update_frames', ctypes.c_int),
        ('reverb_zones', ctypes.c_int),
        ('idle_timeout', ctypes.c_double),
    ]


class ss_device_info(ctypes.Structure):
    _fields_ = [
        ('kind', ctypes.c_int),
        ('sample_rate', ctypes.c_int),
        ('channels', ctypes.c_int),
        ('update_frames', ctypes.c_int),
        ('reverb_zones', ctypes.c_int),
        ('hrtf_enabled', ctypes.c_int),
    ]


class ss_output_status(ctypes.Structure):
    _fields_ = [
        ('backend', ctypes.c_char * 16),
        ('server', ctypes.c_char * 128),
        ('sink', ctypes.c_char * 128),
        ('target_latency', ctypes.c_double),
        ('latency', ctypes.c_double),
        ('underruns', ctypes.c_int),
        ('volume', ctypes.c_float),
        ('muted', ctypes.c_int),
        ('paused', ctypes.c_int),
        ('connected', ctypes.c_int),
    ]


class ss_output_event(ctypes.Structure):
    _fields_ = [
        ('kind', ctypes.c_int),
        ('volume', ctypes.c_float),
        ('muted', ctypes.c_int),
        ('underruns', ctypes.c_int),
        ('reason', ctypes.c_char_p),
    ]


class ss_levels(ctypes.Structure):
    _fields_ = [
        ('channels', ctypes.c_int),
        ('frames', ctypes.c_int),
        ('average_power', ctypes.c_float * 8),
        ('peak_power', ctypes.c_float * 8),
    ]


class ss_mix_recording(ctypes.Structure):
    _fields_ = [
        ('frames', ctypes.c_int64),
        ('duration', ctypes.c_double),
        ('failed', ctypes.c_int),
    ]


class ss_buffer_info(ctypes.Structure):
    _fields_ = [
        ('frames', ctypes.c_int64),
        ('channels', ctypes.c_int),
        ('sample_rate', ctypes.c_int),
        ('duration', ctypes.c_double),
    ]


class ss_stream_options(ctypes.Structure):
    _fields_ = [
        ('struct_size', ctypes.c_size_t),
        ('buffer_duration', ctypes.c_double),
        ('buffer_count', ctypes.c_int),
        ('loops', ctypes.c_int),
        ('loop_start', ctypes.c_double),
        ('loop_end', ctypes.c_double),
    ]


class ss_reverb_region(ctypes.Structure):
    _fields_ = [
        ('kind', ctypes.c_int),
        ('center', ss_vec3),
        ('radius', ctypes.c_float),
        ('min', ss_vec3),
        ('max', ss_vec3),
        ('fade', ctypes.c_float),
    ]


class ss_voice_statistics(ctypes.Structure):
    _fields_ = [
        ('real_voices', ctypes.c_int),
        ('virtual_voices', ctypes.c_int),
        ('steals', ctypes.c_int64),
        ('virtualizations', ctypes.c_int64),
        ('realizations', ctypes.c_int64),
        ('rankings', ctypes.c_int64),
        ('last_ranking_us', ctypes.c_double),
        ('peak_ranking_us', ctypes.c_double),
        ('total_ranking_us', ctypes.c_double),
    ]


class ss_sound_registry_options(ctypes.Structure):
    _fields_ = [
        ('struct_size', ctypes.c_size_t),
        ('max_concurrent', ctypes.c_int),
        ('coalescing_window', ctypes.c_double),
        ('maximum_duration', ctypes.c_double),
        ('theme', ctypes.c_char_p),
    ]


class ss_session_state(ctypes.Structure):
    _fields_ = [
        ('category', ctypes.c_int),
        ('options', ctypes.c_int),
        ('active', ctypes.c_int),
        ('interrupted', ctypes.c_int),
        ('ducked', ctypes.c_int),
    ]


class ss_session_event(ctypes.Structure):
    _fields_ = [
        ('kind', ctypes.c_int),
        ('reason', ctypes.c_int),
        ('should_resume', ctypes.c_int),
        ('duck_gain', ctypes.c_float),
        ('time', ctypes.c_double),
    ]


class ss_recorder_settings(ctypes.Structure):
    _fields_ = [
        ('struct_size', ctypes.c_size_t),
        ('format', ctypes.c_int),
        ('input', ctypes.c_char_p),
        ('sample_rate', ctypes.c_int),
        ('channels', ctypes.c_int),
        ('server', ctypes.c_char_p),
    ]


class ss_recording(ctypes.Structure):
    _fields_ = [
        ('frames', ctypes.c_int64),
        ('sample_rate', ctypes.c_int),
        ('channels', ctypes.c_int),
        ('duration', ctypes.c_double),
        ('end', ctypes.c_int),
    ]


ss_route_callback = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p)
ss_output_callback = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.POINTER(ss_output_event), ctypes.c_void_p)
ss_source_callback = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)
ss_group_callback = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)
ss_voice_callback = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p)
ss_sound_callback = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_void_p)
ss_attention_callback = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p)
ss_session_callback = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.POINTER(ss_session_event), ctypes.c_void_p)
ss_recorder_callback = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.POINTER(ss_recording), ctypes.c_void_p)
ss_name_callback = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p)
ss_client_callback = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_void_p)

# name: (result, [arguments])
FUNCTIONS = {
    'ss_version': (ctypes.c_char_p, []),
    'ss_version_number': (ctypes.c_int, []),
    'ss_error_message': (ctypes.c_char_p, []),
    'ss_result_name': (ctypes.c_char_p, [ctypes.c_int]),
    'ss_thread_detach': (None, []),
    'ss_live_handles': (ctypes.c_size_t, []),
    'ss_get_live_objects': (ctypes.c_int, [ctypes.POINTER(ss_live_objects)]),
    'ss_desktop_options_init': (ctypes.c_int, [ctypes.POINTER(ss_desktop_options)]),
    'ss_device_open_output': (ctypes.c_int, [ctypes.c_int, ctypes.POINTER(ss_desktop_options), ctypes.POINTER(ctypes.c_void_p)]),
    'ss_device_open_openal': (ctypes.c_int, [ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p)]),
    'ss_device_open_loopback': (ctypes.c_int, [ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p)]),
    'ss_device_destroy': (ctypes.c_int, [ctypes.c_void_p]),
    'ss_device_get_info': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ss_device_info)]),
    'ss_device_render': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_float), ctypes.c_size_t]),
    'ss_device_render_to_file': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_double, ctypes.c_char_p, ctypes.c_int]),
    'ss_device_get_mix_time': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_double)]),
    'ss_device_get_non_finite_mix_count': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int64)]),
    'ss_device_set_max_decoded_bytes': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_size_t]),
    'ss_device_get_max_decoded_bytes': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_size_t)]),
    'ss_device_evict_cached_buffers': (ctypes.c_int, [ctypes.c_void_p]),
    'ss_device_get_output_status': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ss_output_status)]),
    'ss_device_get_output_rest': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int)]),
    'ss_device_drain': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_double]),
    'ss_device_start_live_view': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_char), ctypes.c_size_t]),
    'ss_device_stop_live_view': (ctypes.c_int, [ctypes.c_void_p]),
    'ss_device_set_route_callback': (ctypes.c_int, [ctypes.c_void_p, ss_route_callback, ctypes.c_void_p]),
    'ss_device_set_output_callback': (ctypes.c_int, [ctypes.c_void_p, ss_output_callback, ctypes.c_void_p]),
    'ss_device_set_output_metering': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int]),
    'ss_device_is_output_metering': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]),
    'ss_device_get_output_levels': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ss_levels)]),
    'ss_device_start_recording_output': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]),
    'ss_device_stop_recording_output': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ss_mix_recording)]),
    'ss_scene_create': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p)]),
    'ss_scene_destroy': (ctypes.c_int, [ctypes.c_void_p]),
    'ss_scene_set_distance_model': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int]),
    'ss_scene_get_distance_model': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]),
    'ss_scene_set_doppler_factor': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_float]),
    'ss_scene_set_speed_of_sound': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_float]),
    'ss_scene_get_doppler_factor': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_float)]),
    'ss_scene_get_speed_of_sound': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_float)]),
    'ss_scene_get_active_source_count': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]),
    'ss_scene_get_refused_value_count': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int64)]),
    'ss_listener_set_position': (ctypes.c_int, [ctypes.c_void_p, ss_vec3]),
    'ss_listener_set_velocity': (ctypes.c_int, [ctypes.c_void_p, ss_vec3]),
    'ss_listener_set_orientation': (ctypes.c_int, [ctypes.c_void_p, ss_vec3, ss_vec3]),
    'ss_listener_set_gain': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_float]),
    'ss_listener_get_position': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ss_vec3)]),
    'ss_listener_get_orientation': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ss_vec3), ctypes.POINTER(ss_vec3)]),
    'ss_listener_get_velocity': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ss_vec3)]),
    'ss_listener_get_gain': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_float)]),
    'ss_scene_begin_batch': (ctypes.c_int, [ctypes.c_void_p]),
    'ss_scene_end_batch': (ctypes.c_int, [ctypes.c_void_p]),
    'ss_scene_play_at': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t, ctypes.c_double]),
    'ss_scene_crossfade': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_double]),
    'ss_scene_set_metering': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int]),
    'ss_scene_is_metering': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]),
    'ss_scene_get_levels': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ss_levels)]),
    'ss_buffer_load_file': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]),
    'ss_buffer_load_memory': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]),
    'ss_buffer_create_pcm': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_float), ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p)]),
    'ss_buffer_create_pcm16': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int16), ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p)]),
    'ss_buffer_destroy': (ctypes.c_int, [ctypes.c_void_p]),
    'ss_buffer_get_info': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ss_buffer_info)]),
    'ss_source_create': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]),
    'ss_stream_options_init': (ctypes.c_int, [ctypes.POINTER(ss_stream_options)]),
    'ss_source_create_streaming': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ss_stream_options), ctypes.POINTER(ctypes.c_void_p)]),
    'ss_source_destroy': (ctypes.c_int, [ctypes.c_void_p]),
    'ss_source_set_float': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int, ctypes.c_float]),
    'ss_source_get_float': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_float)]),
    'ss_source_set_vec3': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int, ss_vec3]),
    'ss_source_get_vec3': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ss_vec3)]),
    'ss_source_set_position': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_float, ctypes.c_float, ctypes.c_float]),
    'ss_source_set_velocity': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_float, ctypes.c_float, ctypes.c_float]),
    'ss_source_set_gain': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_float]),
    'ss_source_set_pitch': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_float]),
    'ss_source_set_looping': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int]),
    'ss_source_is_looping': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]),
    'ss_source_set_head_relative': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int]),
    'ss_source_is_head_relative': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]),
    'ss_source_set_repeat_count': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int]),
    'ss_source_get_repeat_count': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]),
    'ss_source_set_buffer': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p]),
    'ss_source_play': (ctypes.c_int, [ctypes.c_void_p]),
    'ss_source_pause': (ctypes.c_int, [ctypes.c_void_p]),
    'ss_source_stop': (ctypes.c_int, [ctypes.c_void_p]),
    'ss_source_rewind': (ctypes.c_int, [ctypes.c_void_p]),
    'ss_source_seek': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_double]),
    'ss_source_get_state': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]),
    'ss_source_get_offset': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_double)]),
    'ss_source_get_audibility': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_float)]),
    'ss_source_set_completion_callback': (ctypes.c_int, [ctypes.c_void_p, ss_source_callback, ctypes.c_void_p]),
    'ss_source_fade': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_float, ctypes.c_double, ctypes.c_int]),
    'ss_source_set_group': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p]),
    'ss_source_set_metering': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int]),
    'ss_source_is_metering': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]),
    'ss_source_get_levels': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ss_levels)]),
    'ss_source_get_underrun_count': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]),
    'ss_group_create': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]),
    'ss_group_destroy': (ctypes.c_int, [ctypes.c_void_p]),
    'ss_group_set_gain': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_float]),
    'ss_group_get_gain': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_float)]),
    'ss_group_set_muted': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int]),
    'ss_group_is_muted': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]),
    'ss_group_set_pitch': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_float]),
    'ss_group_get_pitch': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_float)]),
    'ss_group_pause': (ctypes.c_int, [ctypes.c_void_p]),
    'ss_group_resume': (ctypes.c_int, [ctypes.c_void_p]),
    'ss_group_is_paused': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]),
    'ss_group_fade': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_float, ctypes.c_double, ctypes.c_int, ss_group_callback, ctypes.c_void_p]),
    'ss_scene_add_ducking': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_float, ctypes.c_double, ctypes.c_double]),
    'ss_group_set_metering': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int]),
    'ss_group_is_metering': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]),
    'ss_group_get_levels': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ss_levels)]),
    'ss_reverb_preset_count': (ctypes.c_int, []),
    'ss_reverb_preset_name': (ctypes.c_char_p, [ctypes.c_int]),
    'ss_reverb_zone_create': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(ss_reverb_region), ctypes.c_float, ctypes.POINTER(ctypes.c_void_p)]),
    'ss_reverb_zone_destroy': (ctypes.c_int, [ctypes.c_void_p]),
    'ss_reverb_zone_set_preset': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p]),
    'ss_reverb_zone_set_value': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_float]),
    'ss_reverb_zone_get_value': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_float)]),
    'ss_reverb_zone_set_gain': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_float]),
    'ss_reverb_zone_get_gain': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_float)]),
    'ss_reverb_zone_set_region': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ss_reverb_region)]),
    'ss_reverb_zone_get_region': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ss_reverb_region)]),
    'ss_reverb_zone_get_weight': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_float)]),
    'ss_source_set_zone_send': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_float]),
    'ss_source_get_zone_send': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_float)]),
    'ss_scene_set_virtualizes_voices': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int]),
    'ss_scene_get_virtualizes_voices': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]),
    'ss_voice_limit_create': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p)]),
    'ss_voice_limit_destroy': (ctypes.c_int, [ctypes.c_void_p]),
    'ss_source_set_voice_limit': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p]),
    'ss_source_set_priority': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int]),
    'ss_source_get_priority': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]),
    'ss_source_is_virtual': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]),
    'ss_scene_set_voice_callback': (ctypes.c_int, [ctypes.c_void_p, ss_voice_callback, ctypes.c_void_p]),
    'ss_scene_get_voice_statistics': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ss_voice_statistics)]),
    'ss_sound_registry_options_init': (ctypes.c_int, [ctypes.POINTER(ss_sound_registry_options)]),
    'ss_sound_registry_create': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ss_sound_registry_options), ctypes.POINTER(ctypes.c_void_p)]),
    'ss_sound_registry_destroy': (ctypes.c_int, [ctypes.c_void_p]),
    'ss_sound_register_file': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_uint32)]),
    'ss_sound_register_memory': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.POINTER(ctypes.c_uint32)]),
    'ss_sound_register_event': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_uint32)]),
    'ss_sound_dispose': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_uint32]),
    'ss_sound_play': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_uint32, ss_sound_callback, ctypes.c_void_p]),
    'ss_sound_play_alert': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_uint32, ss_sound_callback, ctypes.c_void_p]),
    'ss_sound_play_event': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ss_sound_callback, ctypes.c_void_p]),
    'ss_sound_play_file': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ss_sound_callback, ctypes.c_void_p]),
    'ss_sound_registry_set_volume': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_float]),
    'ss_sound_registry_get_volume': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_float)]),
    'ss_sound_registry_set_enabled': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int]),
    'ss_sound_registry_is_enabled': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]),
    'ss_sound_registry_set_attention_callback': (ctypes.c_int, [ctypes.c_void_p, ss_attention_callback, ctypes.c_void_p]),
    'ss_session_create': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p)]),
    'ss_session_destroy': (ctypes.c_int, [ctypes.c_void_p]),
    'ss_session_set_category': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]),
    'ss_session_set_active': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int]),
    'ss_session_attach_scene': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p]),
    'ss_session_attach_registry': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p]),
    'ss_session_begin_interruption': (ctypes.c_int, [ctypes.c_void_p]),
    'ss_session_end_interruption': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int]),
    'ss_session_get_state': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ss_session_state)]),
    'ss_session_set_callback': (ctypes.c_int, [ctypes.c_void_p, ss_session_callback, ctypes.c_void_p]),
    'ss_recorder_settings_init': (ctypes.c_int, [ctypes.POINTER(ss_recorder_settings)]),
    'ss_recorder_create': (ctypes.c_int, [ctypes.c_char_p, ctypes.POINTER(ss_recorder_settings), ctypes.c_void_p, ss_recorder_callback, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]),
    'ss_recorder_destroy': (ctypes.c_int, [ctypes.c_void_p]),
    'ss_recorder_prepare': (ctypes.c_int, [ctypes.c_void_p]),
    'ss_recorder_record': (ctypes.c_int, [ctypes.c_void_p]),
    'ss_recorder_record_for': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_double]),
    'ss_recorder_pause': (ctypes.c_int, [ctypes.c_void_p]),
    'ss_recorder_stop': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ss_recording)]),
    'ss_recorder_get_state': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]),
    'ss_recorder_get_current_time': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_double)]),
    'ss_recorder_set_metering': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int]),
    'ss_recorder_is_metering': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]),
    'ss_recorder_get_levels': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ss_levels)]),
    'ss_capture_available': (ctypes.c_int, [ctypes.c_char_p]),
    'ss_enumerate_openal_outputs': (ctypes.c_int, [ss_name_callback, ctypes.c_void_p]),
    'ss_enumerate_inputs': (ctypes.c_int, [ctypes.c_char_p, ss_name_callback, ctypes.c_void_p]),
    'ss_scene_file_load': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]),
    'ss_scene_file_destroy': (ctypes.c_int, [ctypes.c_void_p]),
    'ss_scene_file_get_duration': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_double)]),
    'ss_scene_file_render': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]),
    'ss_scene_file_play': (ctypes.c_int, [ctypes.c_void_p]),
    'ss_scene_file_advance': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_double]),
    'ss_scene_file_get_source': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]),
    'ss_client_connect': (ctypes.c_int, [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]),
    'ss_client_destroy': (ctypes.c_int, [ctypes.c_void_p]),
    'ss_client_play_event': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_uint32)]),
    'ss_client_play_file': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_uint32)]),
    'ss_client_play_id': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int]),
    'ss_client_register_file': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_uint32)]),
    'ss_client_register_event': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_uint32)]),
    'ss_client_dispose': (ctypes.c_int, [ctypes.c_void_p, ctypes.c_uint32]),
    'ss_client_set_completion_callback': (ctypes.c_int, [ctypes.c_void_p, ss_client_callback, ctypes.c_void_p]),
}


def bind(library):
    """Sets the argument and result types of every function of `library` (a ctypes.CDLL)."""
    for name, (result, arguments) in FUNCTIONS.items():
        function = getattr(library, name)
        function.restype = result
        function.argtypes = arguments
    return library
