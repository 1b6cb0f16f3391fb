"""Recording an input of the desktop server (a microphone or a sink's monitor) to a file."""
import ctypes
import os

from . import _ffi
from ._handles import Handle, c_property, encode, find, levels, made, register, unregister, value
from ._library import lib
from .errors import check
from .types import FileFormat, RecorderState, Recording, RecordingEnd


@_ffi.ss_recorder_callback
def _finished(_recorder, recording, user_data):
    function = find(user_data)
    if function and recording:
        function(_recording(recording.contents))


def _recording(raw):
    return Recording(raw.frames, raw.sample_rate, raw.channels, raw.duration, RecordingEnd(raw.end))


class Recorder(Handle):
    """A recorder to a file. Closing it stops it (completing the file). Needs PulseAudio or
    PipeWire."""

    _destroy = "ss_recorder_destroy"

    @classmethod
    def create(cls, path, *, format=FileFormat.WAV_PCM16, input=None, sample_rate=0, channels=0, server=None,
               session=None, finished=None):
        """A recorder to `path` (nothing opened yet); `input`: a name from inputs() (None: the
        default); `finished(Recording)` runs once when it ends, on the recorder's thread."""
        settings = _ffi.ss_recorder_settings()
        check(lib.ss_recorder_settings_init(ctypes.byref(settings)))
        settings.format, settings.sample_rate, settings.channels = int(format), sample_rate, channels
        settings.input, settings.server = encode(input), encode(server)
        key = register(finished) if finished else None
        try:
            recorder = made(cls, lib.ss_recorder_create, encode(os.fspath(path)), ctypes.byref(settings), session,
                            _finished if finished else _ffi.ss_recorder_callback(), key)
        except BaseException:
            if key:
                unregister(key)
            raise
        recorder._set_callback("finished", key)
        return recorder

    def prepare(self):
        """Opens the input and the file, so that record() starts at once."""
        check(lib.ss_recorder_prepare(self))

    def record(self, seconds=None):
        """Starts or resumes recording; with `seconds`, stops by itself when that much is in."""
        check(lib.ss_recorder_record(self) if seconds is None else lib.ss_recorder_record_for(self, seconds))

    def pause(self):
        """Pauses (the file stays open)."""
        check(lib.ss_recorder_pause(self))

    def stop(self):
        """Stops, completes the file, and gives the Recording."""
        return _recording(value(lib.ss_recorder_stop, _ffi.ss_recording, self))

    @property
    def state(self):
        """Its RecorderState."""
        return RecorderState(value(lib.ss_recorder_get_state, ctypes.c_int, self))

    @property
    def current_time(self):
        """Seconds recorded so far."""
        return value(lib.ss_recorder_get_current_time, ctypes.c_double, self)

    metering = c_property("ss_recorder_is_metering", "ss_recorder_set_metering", bool, "Set True to meter the input (read levels).")

    @property
    def levels(self):
        """The input's Levels since the last reading."""
        return levels(value(lib.ss_recorder_get_levels, _ffi.ss_levels, self))


def _names(call, *arguments):
    names = []

    @_ffi.ss_name_callback
    def add(name, description, _user_data):
        names.append((name.decode(errors="replace"), description and description.decode(errors="replace")))
    check(call(*arguments, add, None))
    return names


def capture_available(server=None):
    """Whether the desktop server has a real input (not only monitors)."""
    return bool(lib.ss_capture_available(encode(server)))


def inputs(server=None):
    """The desktop server's inputs as (name, description): microphones and every sink's monitor."""
    return _names(lib.ss_enumerate_inputs, encode(server))


def openal_outputs():
    """OpenAL Soft's output devices as (name, description), for Device.open_openal."""
    return _names(lib.ss_enumerate_openal_outputs)
