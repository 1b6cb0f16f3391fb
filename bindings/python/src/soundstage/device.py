"""Devices: an output, or an offline renderer that mixes into memory or a file."""
import ctypes
import os

from . import _ffi
from ._handles import Handle, c_property, encode, find, levels, made, register, value
from ._library import lib
from .errors import InvalidArgumentError, check
from .types import (Backend, ChannelLayout, DeviceInfo, DeviceKind, FileFormat, MixRecording, OutputEvent,
                    OutputEventKind, OutputStatus, RouteReason)

try:
    import numpy
except ImportError:  # render() then gives bytes
    numpy = None


def _tristate(flag):
    return _ffi.SS_DEFAULT if flag is None else (_ffi.SS_ON if flag else _ffi.SS_OFF)


@_ffi.ss_route_callback
def _route_changed(_device, reason, previous, output, user_data):
    function = find(user_data)
    if function:
        function(RouteReason(reason), previous and previous.decode(errors="replace"),
                 output and output.decode(errors="replace"))


@_ffi.ss_output_callback
def _output_event(_device, event, user_data):
    function = find(user_data)
    if function and event:
        e = event.contents
        function(OutputEvent(OutputEventKind(e.kind), e.volume, bool(e.muted), e.underruns,
                             e.reason and e.reason.decode(errors="replace")))


class Device(Handle):
    """An output or an offline renderer. Closing it frees everything made on it.

    >>> with Device.loopback(48000) as device:
    ...     samples = device.render(480)   # 10 ms of silence
    """

    _destroy = "ss_device_destroy"

    @classmethod
    def open_output(cls, backend=Backend.AUTOMATIC, *, application_name=None, application_id=None,
                    stream_name=None, role=None, latency=None, server=None, sink=None, sample_rate=None,
                    layout=None, hrtf=None, update_frames=None, reverb_zones=None, idle_timeout=None):
        """Opens the best output there is (keywords: the desktop output's options; None: the
        default). Raises NoOutputDeviceError when nothing opens: render to a file instead."""
        options = _ffi.ss_desktop_options()
        check(lib.ss_desktop_options_init(ctypes.byref(options)))
        keep = [encode(v) for v in (application_name, application_id, stream_name, role, server, sink)]
        (options.application_name, options.application_id, options.stream_name, options.role, options.server,
         options.sink) = keep
        for field, given in (("latency", latency), ("sample_rate", sample_rate), ("layout", layout),
                             ("update_frames", update_frames), ("reverb_zones", reverb_zones),
                             ("idle_timeout", idle_timeout)):
            if given is not None:
                setattr(options, field, given)
        options.hrtf = _tristate(hrtf)
        return made(cls, lib.ss_device_open_output, int(backend), ctypes.byref(options))

    @classmethod
    def open_openal(cls, name=None, *, hrtf=None, reverb_zones=None):
        """Opens OpenAL Soft's own output (`name`: one of openal_outputs(); None: the default)."""
        return made(cls, lib.ss_device_open_openal, encode(name), _tristate(hrtf),
                    -1 if reverb_zones is None else reverb_zones)

    @classmethod
    def loopback(cls, sample_rate=48000, layout=ChannelLayout.STEREO, *, hrtf=False, reverb_zones=None):
        """Opens an offline renderer: render() mixes into memory, deterministically."""
        return made(cls, lib.ss_device_open_loopback, sample_rate, int(layout), _tristate(hrtf),
                    -1 if reverb_zones is None else reverb_zones)

    @property
    def info(self):
        """The device's fixed properties (a DeviceInfo)."""
        raw = value(lib.ss_device_get_info, _ffi.ss_device_info, self)
        return DeviceInfo(DeviceKind(raw.kind), raw.sample_rate, raw.channels, raw.update_frames,
                          raw.reverb_zones, bool(raw.hrtf_enabled))

    def render(self, frames):
        """Loopback devices: mixes `frames` frames. Gives a float32 NumPy array of shape
        (frames, channels) when NumPy is installed, else the interleaved float32 samples as
        bytes (native byte order). Completion callbacks of sources that end in this mix run on
        this thread, inside this call."""
        channels = self.info.channels
        if numpy is not None:
            samples = numpy.zeros((frames, channels), dtype=numpy.float32)
            pointer = samples.ctypes.data_as(ctypes.POINTER(ctypes.c_float))
            check(lib.ss_device_render(self, pointer, frames))
            return samples
        samples = (ctypes.c_float * (frames * channels))()
        check(lib.ss_device_render(self, samples, frames))
        return bytes(samples)

    def render_into(self, samples):
        """Loopback devices: mixes into a writable buffer of float32 samples (a bytearray, an
        array.array('f'), a NumPy array...), as many whole frames as it holds."""
        view = memoryview(samples).cast("B")
        channels = self.info.channels
        if view.nbytes % (4 * channels):
            raise InvalidArgumentError(f"render_into: {view.nbytes} bytes is not a whole number of "
                                       f"{channels}-channel float frames", _ffi.SS_ERROR_INVALID_ARGUMENT)
        pointer = (ctypes.c_char * view.nbytes).from_buffer(view)
        check(lib.ss_device_render(self, ctypes.cast(pointer, ctypes.POINTER(ctypes.c_float)),
                                   view.nbytes // (4 * channels)))

    def render_to_file(self, seconds, path, format=FileFormat.WAV_PCM16):
        """Loopback devices: mixes `seconds` of audio into the file at `path`."""
        check(lib.ss_device_render_to_file(self, seconds, encode(path), int(format)))

    @property
    def mix_time(self):
        """The mix clock in seconds (scheduled starts are on it)."""
        return value(lib.ss_device_get_mix_time, ctypes.c_double, self)

    @property
    def non_finite_mix_count(self):
        """Mixed chunks that held NaN or infinity and were replaced by silence (0 when healthy)."""
        return value(lib.ss_device_get_non_finite_mix_count, ctypes.c_int64, self)

    max_decoded_bytes = c_property("ss_device_get_max_decoded_bytes", "ss_device_set_max_decoded_bytes", ctypes.c_size_t,
                                   "How much audio load_buffer decodes at most (bytes of float samples); default 512 MiB.")

    def set_max_decoded_bytes(self, limit):
        """Sets max_decoded_bytes."""
        self.max_decoded_bytes = limit

    def evict_cached_buffers(self):
        """Forgets the file cache of load_buffer (buffers in use stay alive)."""
        check(lib.ss_device_evict_cached_buffers(self))

    @property
    def output_status(self):
        """The output's state (an OutputStatus)."""
        raw = value(lib.ss_device_get_output_status, _ffi.ss_output_status, self)
        known = lambda v: None if v < 0 else v  # noqa: E731
        return OutputStatus(raw.backend.decode(errors="replace"), raw.server.decode(errors="replace"),
                            raw.sink.decode(errors="replace"), known(raw.target_latency), known(raw.latency),
                            raw.underruns, raw.volume, bool(raw.muted), bool(raw.paused), bool(raw.connected))

    @property
    def output_rest(self):
        """(resting now, times rested since it opened)."""
        resting, rests = ctypes.c_int(), ctypes.c_int()
        check(lib.ss_device_get_output_rest(self, ctypes.byref(resting), ctypes.byref(rests)))
        return bool(resting.value), rests.value

    def drain(self, timeout=5.0):
        """Waits until everything mixed so far reached the output (InvalidStateError on timeout)."""
        check(lib.ss_device_drain(self, timeout))

    def start_live_view(self, port=0):
        """Starts the live view of the mix on 127.0.0.1:`port`; gives its URL."""
        url = ctypes.create_string_buffer(256)
        check(lib.ss_device_start_live_view(self, port, url, len(url)))
        return url.value.decode()

    def stop_live_view(self):
        """Stops the live view, if there is one."""
        check(lib.ss_device_stop_live_view(self))

    def on_route_change(self, function):
        """Calls function(reason, previous_output, output) when the output changes, on a thread of
        the library; None removes it."""
        key = register(function) if function else None
        check(lib.ss_device_set_route_callback(self, _route_changed if function else _ffi.ss_route_callback(), key))
        self._set_callback("route", key)

    def on_output_event(self, function):
        """Calls function(OutputEvent) with what the desktop server does to the stream, on the
        output thread; None removes it."""
        key = register(function) if function else None
        check(lib.ss_device_set_output_callback(self, _output_event if function else _ffi.ss_output_callback(), key))
        self._set_callback("output", key)

    output_metering = c_property("ss_device_is_output_metering", "ss_device_set_output_metering", bool,
                                 "Set True to meter the output (read output_levels).")

    @property
    def output_levels(self):
        """The output's Levels since the last reading."""
        return levels(value(lib.ss_device_get_output_levels, _ffi.ss_levels, self))

    def start_recording_output(self, path, format=FileFormat.WAV_PCM16):
        """Starts writing exactly the mix the device sends out to `path`."""
        check(lib.ss_device_start_recording_output(self, encode(path), int(format)))

    def stop_recording_output(self):
        """Stops the mix recording, completes its file, and gives a MixRecording."""
        raw = value(lib.ss_device_stop_recording_output, _ffi.ss_mix_recording, self)
        return MixRecording(raw.frames, raw.duration, bool(raw.failed))

    def load_buffer(self, path):
        """Decodes the sound file at `path` into a Buffer (cached by path)."""
        from .scene import Buffer
        return made(Buffer, lib.ss_buffer_load_file, self, encode(os.fspath(path)))

    def load_buffer_from_memory(self, data, name=None):
        """Decodes a whole sound file held in `data` (bytes-like) into a Buffer."""
        from .scene import Buffer
        data = bytes(data)
        return made(Buffer, lib.ss_buffer_load_memory, self, data, len(data), encode(name))

    def create_buffer(self, samples, channels=1, sample_rate=48000):
        """A Buffer from float samples: a NumPy array (frames x channels or flat), or any sequence
        of floats, interleaved. NaN, infinite or huge samples are refused."""
        from .scene import Buffer
        if numpy is not None and isinstance(samples, numpy.ndarray):
            flat = numpy.ascontiguousarray(samples, dtype=numpy.float32).ravel()
            count, pointer = flat.size, flat.ctypes.data_as(ctypes.POINTER(ctypes.c_float))
        else:
            flat = (ctypes.c_float * len(samples))(*samples)
            count, pointer = len(samples), flat
        if channels <= 0 or count % channels:
            raise InvalidArgumentError(f"{count} samples is not a whole number of {channels}-channel frames",
                                       _ffi.SS_ERROR_INVALID_ARGUMENT)
        return made(Buffer, lib.ss_buffer_create_pcm, self, pointer, count // channels, channels, sample_rate)

    def create_scene(self, source_budget=0):
        """A new Scene (`source_budget`: sources playing at once, 1 ... 4096; 0: 256)."""
        from .scene import Scene
        return made(Scene, lib.ss_scene_create, self, source_budget)

    def create_sound_registry(self, *, max_concurrent=None, coalescing_window=None, maximum_duration=None,
                              theme=None):
        """A new SoundRegistry of short system sounds (None: the library's defaults)."""
        from .sounds import SoundRegistry
        options = _ffi.ss_sound_registry_options()
        check(lib.ss_sound_registry_options_init(ctypes.byref(options)))
        for field, given in (("max_concurrent", max_concurrent), ("coalescing_window", coalescing_window),
                             ("maximum_duration", maximum_duration)):
            if given is not None:
                setattr(options, field, given)
        options.theme = encode(theme)
        return made(SoundRegistry, lib.ss_sound_registry_create, self, ctypes.byref(options))

    def create_session(self, category, options=0):
        """A new (inactive) Session."""
        from .session import Session
        return made(Session, lib.ss_session_create, self, int(category), int(options))

    def load_scene_file(self, path):
        """Loads and validates a scene file (InvalidSceneError says where it is malformed)."""
        from .scene_file import SceneFile
        return made(SceneFile, lib.ss_scene_file_load, self, encode(os.fspath(path)))
