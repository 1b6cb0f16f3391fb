"""Enumerations and small values of the API."""
import enum
from typing import List, NamedTuple

from . import _ffi


class ChannelLayout(enum.IntEnum):
    """Speaker layouts."""
    MONO = _ffi.SS_LAYOUT_MONO
    STEREO = _ffi.SS_LAYOUT_STEREO
    QUAD = _ffi.SS_LAYOUT_QUAD
    SURROUND_5_1 = _ffi.SS_LAYOUT_5_1
    SURROUND_6_1 = _ffi.SS_LAYOUT_6_1
    SURROUND_7_1 = _ffi.SS_LAYOUT_7_1


class Backend(enum.IntEnum):
    """Which output Device.open_output uses."""
    AUTOMATIC = _ffi.SS_BACKEND_AUTOMATIC
    DESKTOP = _ffi.SS_BACKEND_DESKTOP
    OPENAL = _ffi.SS_BACKEND_OPENAL


class DeviceKind(enum.IntEnum):
    """What kind of device."""
    OPENAL = _ffi.SS_DEVICE_OPENAL
    LOOPBACK = _ffi.SS_DEVICE_LOOPBACK
    DESKTOP = _ffi.SS_DEVICE_DESKTOP


class FileFormat(enum.IntEnum):
    """File formats for rendering and recording."""
    WAV_PCM16 = _ffi.SS_FORMAT_WAV_PCM16
    WAV_PCM24 = _ffi.SS_FORMAT_WAV_PCM24
    WAV_FLOAT32 = _ffi.SS_FORMAT_WAV_FLOAT32
    FLAC = _ffi.SS_FORMAT_FLAC
    OGG_VORBIS = _ffi.SS_FORMAT_OGG_VORBIS
    OPUS = _ffi.SS_FORMAT_OPUS
    MP3 = _ffi.SS_FORMAT_MP3
    CAF_PCM16 = _ffi.SS_FORMAT_CAF_PCM16
    AIFF_PCM16 = _ffi.SS_FORMAT_AIFF_PCM16
    M4A_AAC = _ffi.SS_FORMAT_M4A_AAC
    M4A_ALAC = _ffi.SS_FORMAT_M4A_ALAC
    CAF_ILBC = _ffi.SS_FORMAT_CAF_ILBC


class DistanceModel(enum.IntEnum):
    """Distance models (as OpenAL's)."""
    NONE = _ffi.SS_DISTANCE_NONE
    INVERSE = _ffi.SS_DISTANCE_INVERSE
    INVERSE_CLAMPED = _ffi.SS_DISTANCE_INVERSE_CLAMPED
    LINEAR = _ffi.SS_DISTANCE_LINEAR
    LINEAR_CLAMPED = _ffi.SS_DISTANCE_LINEAR_CLAMPED
    EXPONENT = _ffi.SS_DISTANCE_EXPONENT
    EXPONENT_CLAMPED = _ffi.SS_DISTANCE_EXPONENT_CLAMPED


class SourceState(enum.IntEnum):
    """Playback states."""
    INITIAL = _ffi.SS_SOURCE_INITIAL
    PLAYING = _ffi.SS_SOURCE_PLAYING
    PAUSED = _ffi.SS_SOURCE_PAUSED
    STOPPED = _ffi.SS_SOURCE_STOPPED


class StealPolicy(enum.IntEnum):
    """What a voice limit does when one more source of its kind plays."""
    OLDEST = _ffi.SS_STEAL_OLDEST
    QUIETEST = _ffi.SS_STEAL_QUIETEST
    FARTHEST = _ffi.SS_STEAL_FARTHEST
    NONE = _ffi.SS_STEAL_NONE


class VoiceEventKind(enum.IntEnum):
    """What the voice manager did to a source."""
    STOLEN = _ffi.SS_VOICE_STOLEN
    VIRTUALIZED = _ffi.SS_VOICE_VIRTUALIZED
    REALIZED = _ffi.SS_VOICE_REALIZED


class SoundOutcome(enum.IntEnum):
    """How a system sound's play ended."""
    FINISHED = _ffi.SS_SOUND_FINISHED
    REPLACED = _ffi.SS_SOUND_REPLACED
    COALESCED = _ffi.SS_SOUND_COALESCED
    SILENCED = _ffi.SS_SOUND_SILENCED
    DISPOSED = _ffi.SS_SOUND_DISPOSED
    FAILED = _ffi.SS_SOUND_FAILED


class Category(enum.IntEnum):
    """Session categories (as AVAudioSession's)."""
    AMBIENT = _ffi.SS_CATEGORY_AMBIENT
    SOLO_AMBIENT = _ffi.SS_CATEGORY_SOLO_AMBIENT
    PLAYBACK = _ffi.SS_CATEGORY_PLAYBACK
    PLAY_AND_RECORD = _ffi.SS_CATEGORY_PLAY_AND_RECORD
    RECORD = _ffi.SS_CATEGORY_RECORD
    AUDIO_PROCESSING = _ffi.SS_CATEGORY_AUDIO_PROCESSING


class SessionOptions(enum.IntFlag):
    """Session options."""
    NONE = 0
    MIX_WITH_OTHERS = _ffi.SS_SESSION_MIX_WITH_OTHERS
    DUCK_OTHERS = _ffi.SS_SESSION_DUCK_OTHERS


class SessionEventKind(enum.IntEnum):
    """What happened to a session."""
    ACTIVATED = _ffi.SS_SESSION_ACTIVATED
    DEACTIVATED = _ffi.SS_SESSION_DEACTIVATED
    INTERRUPTION_BEGAN = _ffi.SS_SESSION_INTERRUPTION_BEGAN
    INTERRUPTION_ENDED = _ffi.SS_SESSION_INTERRUPTION_ENDED
    DUCKED = _ffi.SS_SESSION_DUCKED
    UNDUCKED = _ffi.SS_SESSION_UNDUCKED


class InterruptionReason(enum.IntEnum):
    """Why an interruption began."""
    APPLICATION = _ffi.SS_INTERRUPTION_APPLICATION
    OTHER_SESSION = _ffi.SS_INTERRUPTION_OTHER_SESSION
    DEVICE_UNAVAILABLE = _ffi.SS_INTERRUPTION_DEVICE_UNAVAILABLE
    SYSTEM_REQUEST = _ffi.SS_INTERRUPTION_SYSTEM_REQUEST


class RouteReason(enum.IntEnum):
    """Why the output changed."""
    OLD_DEVICE_UNAVAILABLE = _ffi.SS_ROUTE_OLD_DEVICE_UNAVAILABLE
    NEW_DEVICE_AVAILABLE = _ffi.SS_ROUTE_NEW_DEVICE_AVAILABLE
    OVERRIDE = _ffi.SS_ROUTE_OVERRIDE
    CATEGORY_CHANGE = _ffi.SS_ROUTE_CATEGORY_CHANGE
    OUTPUT_MOVED = _ffi.SS_ROUTE_OUTPUT_MOVED


class OutputEventKind(enum.IntEnum):
    """What the desktop server did to a desktop device's stream."""
    PAUSE_REQUESTED = _ffi.SS_OUTPUT_PAUSE_REQUESTED
    RESUME_REQUESTED = _ffi.SS_OUTPUT_RESUME_REQUESTED
    VOLUME_CHANGED = _ffi.SS_OUTPUT_VOLUME_CHANGED
    UNDERRUN = _ffi.SS_OUTPUT_UNDERRUN
    SERVER_LOST = _ffi.SS_OUTPUT_SERVER_LOST
    SERVER_RECONNECTED = _ffi.SS_OUTPUT_SERVER_RECONNECTED


class RecorderState(enum.IntEnum):
    """Recorder states."""
    IDLE = _ffi.SS_RECORDER_IDLE
    PREPARED = _ffi.SS_RECORDER_PREPARED
    RECORDING = _ffi.SS_RECORDER_RECORDING
    PAUSED = _ffi.SS_RECORDER_PAUSED
    FINISHED = _ffi.SS_RECORDER_FINISHED


class RecordingEnd(enum.IntEnum):
    """Why a recording ended."""
    STOPPED = _ffi.SS_RECORDING_STOPPED
    DURATION_REACHED = _ffi.SS_RECORDING_DURATION_REACHED
    INPUT_LOST = _ffi.SS_RECORDING_INPUT_LOST
    WRITE_FAILED = _ffi.SS_RECORDING_WRITE_FAILED


class Levels(NamedTuple):
    """A meter's levels since the last reading, per channel, in dBFS (-160 = silence)."""
    frames: int
    average_power: List[float]
    peak_power: List[float]


class DeviceInfo(NamedTuple):
    """A device's fixed properties."""
    kind: DeviceKind
    sample_rate: int
    channels: int
    update_frames: int
    reverb_zones: int
    hrtf: bool


class BufferInfo(NamedTuple):
    """A buffer's shape."""
    frames: int
    channels: int
    sample_rate: int
    duration: float


class OutputStatus(NamedTuple):
    """The state of a device's output (latencies None when unknown)."""
    backend: str
    server: str
    sink: str
    target_latency: object
    latency: object
    underruns: int
    volume: float
    muted: bool
    paused: bool
    connected: bool


class MixRecording(NamedTuple):
    """What a finished mix recording wrote."""
    frames: int
    duration: float
    failed: bool


class SessionEvent(NamedTuple):
    """A session event: its kind, and the fields that kind uses."""
    kind: SessionEventKind
    reason: InterruptionReason
    should_resume: bool
    duck_gain: float
    time: float


class SessionState(NamedTuple):
    """A session's state."""
    category: Category
    options: SessionOptions
    active: bool
    interrupted: bool
    ducked: bool


class OutputEvent(NamedTuple):
    """An output event: its kind and the fields that kind uses."""
    kind: OutputEventKind
    volume: float
    muted: bool
    underruns: int
    reason: object


class Recording(NamedTuple):
    """What a finished recording holds."""
    frames: int
    sample_rate: int
    channels: int
    duration: float
    end: RecordingEnd


class VoiceStatistics(NamedTuple):
    """Counters of a scene's voice manager."""
    real_voices: int
    virtual_voices: int
    steals: int
    virtualizations: int
    realizations: int
    rankings: int
    last_ranking_us: float
    peak_ranking_us: float
    total_ranking_us: float
