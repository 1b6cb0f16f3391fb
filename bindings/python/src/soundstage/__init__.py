"""Soundstage: positional audio for Linux games, from Python.

The Python binding of libsoundstage (ctypes; no compiler needed). A Device is an output or an
offline renderer; it holds Scenes (a listener and Sources), Buffers, SoundRegistries of short UI
sounds, Sessions and SceneFiles. Every object is a context manager and closes its handle when
closed or collected; closing a device closes what was made on it. Failing calls raise
SoundstageError subclasses carrying the code and the library's message.

    import soundstage
    with soundstage.Device.loopback(48000) as device:
        scene = device.create_scene()
        bee = scene.create_source(device.load_buffer("bee.wav"))
        bee.position = (2, 0, 0)
        bee.play()
        samples = device.render(4800)     # NumPy (4800, 2) float32, or bytes without NumPy

The library is found through $SOUNDSTAGE_LIBRARY, pkg-config, the usual prefixes, or the loader.
"""
from . import errors
from ._ffi import HEADER_VERSION
from ._library import lib as _lib
from .client import Client
from .device import Device
from .errors import SoundstageError
from .recorder import Recorder, capture_available, inputs, openal_outputs
from .scene import Buffer, Group, ReverbZone, Scene, Source, VoiceLimit, reverb_presets
from .scene_file import SceneFile
from .session import Session
from .sounds import SoundRegistry
from .types import (Backend, BufferInfo, Category, ChannelLayout, DeviceInfo, DeviceKind, DistanceModel, FileFormat,
                    InterruptionReason, Levels, MixRecording, OutputEvent, OutputEventKind, OutputStatus,
                    RecorderState, Recording, RecordingEnd, RouteReason, SessionEvent, SessionEventKind,
                    SessionOptions, SessionState, SoundOutcome, SourceState, StealPolicy, VoiceEventKind,
                    VoiceStatistics)

__version__ = _lib.ss_version().decode()
"""The library's version ("0.2.0"); HEADER_VERSION is the header this binding was made from."""


def live_handles():
    """How many handles of every kind are alive: for leak checks."""
    return _lib.ss_live_handles()


def thread_detach():
    """Call on a thread of yours that used the library, before it ends."""
    _lib.ss_thread_detach()


__all__ = [
    "Backend", "Buffer", "BufferInfo", "Category", "ChannelLayout", "Client", "Device", "DeviceInfo", "DeviceKind",
    "DistanceModel", "FileFormat", "Group", "HEADER_VERSION", "InterruptionReason", "Levels", "MixRecording",
    "OutputEvent", "OutputEventKind", "OutputStatus", "Recorder", "RecorderState", "Recording", "RecordingEnd",
    "ReverbZone", "RouteReason", "Scene", "SceneFile", "Session", "SessionEvent", "SessionEventKind",
    "SessionOptions", "SessionState", "SoundOutcome", "SoundRegistry", "SoundstageError", "Source", "SourceState",
    "StealPolicy", "VoiceEventKind", "VoiceLimit", "VoiceStatistics", "capture_available", "errors", "inputs",
    "live_handles", "openal_outputs", "reverb_presets", "thread_detach", "__version__",
]
