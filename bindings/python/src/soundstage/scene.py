"""Scenes and what lives in them: the listener, buffers, sources, groups, reverb zones, voice
limits."""
import ctypes
import os

from . import _ffi
from ._handles import Handle, c_property, encode, find, levels, made, register, take, unregister, value, vec3
from ._library import lib
from .errors import check
from .types import BufferInfo, DistanceModel, SourceState, StealPolicy, VoiceEventKind, VoiceStatistics


@_ffi.ss_source_callback
def _source_completed(_source, user_data):
    function = find(user_data)
    if function:
        function()


@_ffi.ss_group_callback
def _fade_ended(_group, user_data):
    function = take(user_data)
    if function:
        function()


@_ffi.ss_voice_callback
def _voice_event(_scene, source, kind, user_data):
    function = find(user_data)
    if function:
        function(source or None, VoiceEventKind(kind))


class Buffer(Handle):
    """Decoded audio shared by sources of one device (mono: positioned in 3D). Sources playing it
    keep its audio after it is closed."""

    _destroy = "ss_buffer_destroy"

    @property
    def info(self):
        """Its BufferInfo (frames, channels, sample_rate, duration)."""
        raw = value(lib.ss_buffer_get_info, _ffi.ss_buffer_info, self)
        return BufferInfo(raw.frames, raw.channels, raw.sample_rate, raw.duration)

    @property
    def duration(self):
        """Seconds."""
        return self.info.duration


def _float_property(prop, doc):
    def get(self):
        return value(lib.ss_source_get_float, ctypes.c_float, self, prop)

    def put(self, new):
        check(lib.ss_source_set_float(self, prop, new))
    return property(get, put, doc=doc)


def _vec3_property(prop, doc):
    def get(self):
        v = value(lib.ss_source_get_vec3, _ffi.ss_vec3, self, prop)
        return (v.x, v.y, v.z)

    def put(self, new):
        check(lib.ss_source_set_vec3(self, prop, vec3(new)))
    return property(get, put, doc=doc)


class Source(Handle):
    """A sound in a scene: where it is, how it sounds, its playback. Closing it stops it."""

    _destroy = "ss_source_destroy"

    position = _vec3_property(_ffi.SS_SOURCE_POSITION, "(x, y, z) in metres; per frame.")
    velocity = _vec3_property(_ffi.SS_SOURCE_VELOCITY, "(x, y, z) in units per second, for Doppler.")
    direction = _vec3_property(_ffi.SS_SOURCE_DIRECTION, "Where it faces; (0, 0, 0): omnidirectional.")
    gain = _float_property(_ffi.SS_SOURCE_GAIN, ">= 0, default 1.")
    pitch = _float_property(_ffi.SS_SOURCE_PITCH, "> 0, default 1 (2 doubles the frequency).")
    min_gain = _float_property(_ffi.SS_SOURCE_MIN_GAIN, "0 ... 1.")
    max_gain = _float_property(_ffi.SS_SOURCE_MAX_GAIN, "0 ... 1.")
    reference_distance = _float_property(_ffi.SS_SOURCE_REFERENCE_DISTANCE, ">= 0, default 1.")
    max_distance = _float_property(_ffi.SS_SOURCE_MAX_DISTANCE, ">= 0 (default: no limit).")
    rolloff_factor = _float_property(_ffi.SS_SOURCE_ROLLOFF_FACTOR, ">= 0, default 1.")
    cone_inner_angle = _float_property(_ffi.SS_SOURCE_CONE_INNER_ANGLE, "Degrees, 0 ... 360.")
    cone_outer_angle = _float_property(_ffi.SS_SOURCE_CONE_OUTER_ANGLE, "Degrees, 0 ... 360.")
    cone_outer_gain = _float_property(_ffi.SS_SOURCE_CONE_OUTER_GAIN, "0 ... 1.")
    occlusion = _float_property(_ffi.SS_SOURCE_OCCLUSION, "dB, -100 ... 0: behind a wall.")
    obstruction = _float_property(_ffi.SS_SOURCE_OBSTRUCTION, "dB, -100 ... 0: behind a pillar.")
    air_absorption = _float_property(_ffi.SS_SOURCE_AIR_ABSORPTION, "0 ... 10.")
    reverb_send = _float_property(_ffi.SS_SOURCE_REVERB_SEND, "0 ... 1, to every reverb zone.")

    @property
    def looping(self):
        """Whether it loops forever (a looping source never completes)."""
        return bool(value(lib.ss_source_is_looping, ctypes.c_int, self))

    @looping.setter
    def looping(self, loops):
        check(lib.ss_source_set_looping(self, int(bool(loops))))

    @property
    def head_relative(self):
        """Whether position, velocity and direction are relative to the listener."""
        return bool(value(lib.ss_source_is_head_relative, ctypes.c_int, self))

    @head_relative.setter
    def head_relative(self, relative):
        check(lib.ss_source_set_head_relative(self, int(bool(relative))))

    @property
    def state(self):
        """Its SourceState."""
        return SourceState(value(lib.ss_source_get_state, ctypes.c_int, self))

    @property
    def offset(self):
        """The play position in seconds (setting it seeks)."""
        return value(lib.ss_source_get_offset, ctypes.c_double, self)

    @offset.setter
    def offset(self, seconds):
        self.seek(seconds)

    @property
    def audibility(self):
        """How loud it reaches the listener now, as OpenAL computes it."""
        return value(lib.ss_source_get_audibility, ctypes.c_float, self)

    @property
    def is_virtual(self):
        """Whether it plays virtually now (silent, its clock running)."""
        return bool(value(lib.ss_source_is_virtual, ctypes.c_int, self))

    @property
    def underrun_count(self):
        """Streaming sources: how often the queue ran dry."""
        return value(lib.ss_source_get_underrun_count, ctypes.c_int, self)

    def play(self):
        """Starts it, resumes it when paused, restarts it when playing."""
        check(lib.ss_source_play(self))

    def pause(self):
        """Pauses it."""
        check(lib.ss_source_pause(self))

    def stop(self):
        """Stops it (its completion callback does not run)."""
        check(lib.ss_source_stop(self))

    def rewind(self):
        """Stops it and puts it back at its start."""
        check(lib.ss_source_rewind(self))

    def seek(self, seconds):
        """Moves to `seconds` into the sound."""
        check(lib.ss_source_seek(self, seconds))

    repeat_count = c_property("ss_source_get_repeat_count", "ss_source_set_repeat_count", ctypes.c_int,
                              "Extra gapless plays after the first, 0 ... 10000 (from the next play).")

    def set_repeat_count(self, repeats):
        """Sets repeat_count."""
        self.repeat_count = repeats

    def set_buffer(self, buffer):
        """Changes the buffer (stops it first); None for none."""
        check(lib.ss_source_set_buffer(self, buffer))

    def on_completion(self, function):
        """Calls function() each time it plays to its end: inside Device.render on a loopback
        device, on the update thread on an output. None removes it."""
        key = register(function) if function else None
        check(lib.ss_source_set_completion_callback(self, _source_completed if function else _ffi.ss_source_callback(), key))
        self._set_callback("completion", key)

    def fade(self, level, seconds, stop_at_end=False):
        """Fades its level to `level` over `seconds` of mix time."""
        check(lib.ss_source_fade(self, level, seconds, int(bool(stop_at_end))))

    def set_group(self, group):
        """Puts it in `group` (None: none)."""
        check(lib.ss_source_set_group(self, group))

    def set_zone_send(self, zone, level):
        """Its send to one reverb zone, 0 ... 1; None removes the override."""
        check(lib.ss_source_set_zone_send(self, zone, -1.0 if level is None else level))

    def zone_send(self, zone):
        """Its send level to one reverb zone: its override, else reverb_send."""
        return value(lib.ss_source_get_zone_send, ctypes.c_float, self, zone)

    def set_voice_limit(self, limit):
        """Puts it under a VoiceLimit (None: none)."""
        check(lib.ss_source_set_voice_limit(self, limit))

    priority = c_property("ss_source_get_priority", "ss_source_set_priority", ctypes.c_int,
                          "-1,000,000 ... 1,000,000; higher wins a voice; default 0.")

    def set_priority(self, priority):
        """Sets priority."""
        self.priority = priority

    metering = c_property("ss_source_is_metering", "ss_source_set_metering", bool, "Set True to meter it (read levels).")

    @property
    def levels(self):
        """Its Levels since the last reading."""
        return levels(value(lib.ss_source_get_levels, _ffi.ss_levels, self))


class Group(Handle):
    """A group (bus) of sources: gain, mute, pitch, pause, fades, ducking."""

    _destroy = "ss_group_destroy"

    @property
    def gain(self):
        """>= 0: multiplies its sources' and child groups' gain."""
        return value(lib.ss_group_get_gain, ctypes.c_float, self)

    @gain.setter
    def gain(self, gain):
        check(lib.ss_group_set_gain(self, gain))

    muted = c_property("ss_group_is_muted", "ss_group_set_muted", bool,
                       "Whether muted (its sources keep playing, silently); its own flag, not its parents'.")
    pitch = c_property("ss_group_get_pitch", "ss_group_set_pitch", ctypes.c_float,
                       "> 0: multiplies down the tree (its own, not its parents').")

    @property
    def paused(self):
        """Whether paused (pause() / resume())."""
        return bool(value(lib.ss_group_is_paused, ctypes.c_int, self))

    def pause(self):
        """Pauses exactly what plays in it and its children."""
        check(lib.ss_group_pause(self))

    def resume(self):
        """Resumes what pause() paused."""
        check(lib.ss_group_resume(self))

    def fade(self, gain, seconds, stop_at_end=False, then=None):
        """Moves its gain to `gain` over `seconds`; `then()` (optional) runs once at the end."""
        key = register(then) if then else None
        try:
            check(lib.ss_group_fade(self, gain, seconds, int(bool(stop_at_end)), _fade_ended if then else _ffi.ss_group_callback(), key))
        except BaseException:
            if key:
                unregister(key)
            raise

    metering = c_property("ss_group_is_metering", "ss_group_set_metering", bool, "Set True to meter it (read levels).")

    @property
    def levels(self):
        """Its Levels since the last reading."""
        return levels(value(lib.ss_group_get_levels, _ffi.ss_levels, self))


def reverb_presets():
    """The names of the reverb presets ("cave", "castle-small-room", ...)."""
    return [lib.ss_reverb_preset_name(i).decode() for i in range(lib.ss_reverb_preset_count())]


def _region(region):
    """An ss_reverb_region from None (everywhere), ("sphere", center, radius[, fade]) or
    ("box", min, max[, fade])."""
    raw = _ffi.ss_reverb_region()
    if region is None:
        raw.kind = _ffi.SS_REGION_EVERYWHERE
    elif region[0] == "sphere":
        raw.kind, raw.center, raw.radius = _ffi.SS_REGION_SPHERE, vec3(region[1]), region[2]
        raw.fade = region[3] if len(region) > 3 else 0.0
    elif region[0] == "box":
        raw.kind, raw.min, raw.max = _ffi.SS_REGION_BOX, vec3(region[1]), vec3(region[2])
        raw.fade = region[3] if len(region) > 3 else 0.0
    else:
        raise ValueError(f"a region is None, ('sphere', center, radius[, fade]) or ('box', min, max[, fade]), not {region!r}")
    return raw


def _tuple(v):
    return (v.x, v.y, v.z)


class ReverbZone(Handle):
    """A reverb zone heard where the listener is. Closing it removes it."""

    _destroy = "ss_reverb_zone_destroy"

    def set_preset(self, preset):
        """Switches to another preset (a name from reverb_presets())."""
        check(lib.ss_reverb_zone_set_preset(self, encode(preset)))

    def set_value(self, setting, number):
        """Changes one reverb value, named as in scene files ("decayTime", ...)."""
        check(lib.ss_reverb_zone_set_value(self, encode(setting), number))

    def value(self, setting):
        """One reverb value, named as for set_value (after set_preset, the new preset's)."""
        return value(lib.ss_reverb_zone_get_value, ctypes.c_float, self, encode(setting))

    gain = c_property("ss_reverb_zone_get_gain", "ss_reverb_zone_set_gain", ctypes.c_float, "0 ... 1.")

    def set_gain(self, gain):
        """Sets gain."""
        self.gain = gain

    @property
    def region(self):
        """Where it is heard: None (everywhere), ("sphere", center, radius, fade) or
        ("box", min, max, fade); setting it moves it (see Scene.create_reverb_zone)."""
        raw = value(lib.ss_reverb_zone_get_region, _ffi.ss_reverb_region, self)
        if raw.kind == _ffi.SS_REGION_SPHERE:
            return ("sphere", _tuple(raw.center), raw.radius, raw.fade)
        if raw.kind == _ffi.SS_REGION_BOX:
            return ("box", _tuple(raw.min), _tuple(raw.max), raw.fade)
        return None

    @region.setter
    def region(self, region):
        check(lib.ss_reverb_zone_set_region(self, ctypes.byref(_region(region))))

    def set_region(self, region):
        """Sets region."""
        self.region = region

    @property
    def weight(self):
        """How much of it the listener hears now, 0 ... 1."""
        return value(lib.ss_reverb_zone_get_weight, ctypes.c_float, self)


class VoiceLimit(Handle):
    """A cap on how many of its sources sound at once."""

    _destroy = "ss_voice_limit_destroy"


class Scene(Handle):
    """A listener and sources, mixed with the device's other scenes. Closing it stops its sources
    and closes its sources', groups', zones' and limits' handles."""

    _destroy = "ss_scene_destroy"

    def create_source(self, buffer=None):
        """A Source playing `buffer` (None: none yet)."""
        return made(Source, lib.ss_source_create, self, buffer)

    def create_streaming_source(self, path, *, buffer_duration=None, buffer_count=None, loop=False,
                                loop_start=None, loop_end=None):
        """A Source streaming the file at `path` (any length, bounded memory)."""
        options = _ffi.ss_stream_options()
        check(lib.ss_stream_options_init(ctypes.byref(options)))
        for field, given in (("buffer_duration", buffer_duration), ("buffer_count", buffer_count),
                             ("loop_start", loop_start), ("loop_end", loop_end)):
            if given is not None:
                setattr(options, field, given)
        options.loops = int(bool(loop))
        return made(Source, lib.ss_source_create_streaming, self, encode(os.fspath(path)), ctypes.byref(options))

    def create_group(self, name, parent=None):
        """A Group named `name` under `parent` (None: top level)."""
        return made(Group, lib.ss_group_create, self, encode(name), parent)

    def create_reverb_zone(self, name, preset, region=None, gain=1.0):
        """A ReverbZone running `preset`, heard in `region`: None (everywhere),
        ("sphere", center, radius[, fade]) or ("box", min, max[, fade])."""
        return made(ReverbZone, lib.ss_reverb_zone_create, self, encode(name), encode(preset),
                    ctypes.byref(_region(region)), gain)

    def create_voice_limit(self, name, max_voices, policy=StealPolicy.OLDEST):
        """A VoiceLimit: at most `max_voices` of its sources sound at once."""
        return made(VoiceLimit, lib.ss_voice_limit_create, self, encode(name), max_voices, int(policy))

    @property
    def distance_model(self):
        """Its DistanceModel."""
        return DistanceModel(value(lib.ss_scene_get_distance_model, ctypes.c_int, self))

    @distance_model.setter
    def distance_model(self, model):
        check(lib.ss_scene_set_distance_model(self, int(model)))

    doppler_factor = c_property("ss_scene_get_doppler_factor", "ss_scene_set_doppler_factor", ctypes.c_float,
                                ">= 0 (0: no Doppler); default 1.")
    speed_of_sound = c_property("ss_scene_get_speed_of_sound", "ss_scene_set_speed_of_sound", ctypes.c_float,
                                "Units per second, > 0; default 343.3.")

    def set_doppler_factor(self, factor):
        """Sets doppler_factor."""
        self.doppler_factor = factor

    def set_speed_of_sound(self, speed):
        """Sets speed_of_sound."""
        self.speed_of_sound = speed

    @property
    def active_source_count(self):
        """Sources playing or paused now."""
        return value(lib.ss_scene_get_active_source_count, ctypes.c_int, self)

    @property
    def refused_value_count(self):
        """Values its objects refused (NaN, out of range) since it was made."""
        return value(lib.ss_scene_get_refused_value_count, ctypes.c_int64, self)

    @property
    def listener_position(self):
        """The listener's (x, y, z)."""
        v = value(lib.ss_listener_get_position, _ffi.ss_vec3, self)
        return (v.x, v.y, v.z)

    @listener_position.setter
    def listener_position(self, position):
        check(lib.ss_listener_set_position(self, vec3(position)))

    @property
    def listener_velocity(self):
        """The listener's (x, y, z) velocity, for Doppler."""
        return _tuple(value(lib.ss_listener_get_velocity, _ffi.ss_vec3, self))

    @listener_velocity.setter
    def listener_velocity(self, velocity):
        check(lib.ss_listener_set_velocity(self, vec3(velocity)))

    def set_listener_velocity(self, velocity):
        """Sets listener_velocity."""
        self.listener_velocity = velocity

    @property
    def listener_orientation(self):
        """((at), (up)): where the listener looks and which way is up."""
        at, up = _ffi.ss_vec3(), _ffi.ss_vec3()
        check(lib.ss_listener_get_orientation(self, ctypes.byref(at), ctypes.byref(up)))
        return (at.x, at.y, at.z), (up.x, up.y, up.z)

    @listener_orientation.setter
    def listener_orientation(self, orientation):
        at, up = orientation
        check(lib.ss_listener_set_orientation(self, vec3(at), vec3(up)))

    @property
    def listener_gain(self):
        """The scene's master gain, >= 0."""
        return value(lib.ss_listener_get_gain, ctypes.c_float, self)

    @listener_gain.setter
    def listener_gain(self, gain):
        check(lib.ss_listener_set_gain(self, gain))

    def batch(self):
        """A context manager: the changes and plays made inside land in the same mixer update.

        >>> with scene.batch():
        ...     a.play(); b.play()       # start on the same sample
        """
        return _Batch(self)

    def play_at(self, sources, time):
        """Starts `sources` on the same sample at `time` on the device's mix clock."""
        handles = (ctypes.c_void_p * len(sources))(*[s.as_parameter for s in sources])
        check(lib.ss_scene_play_at(self, handles, len(sources), time))

    def crossfade(self, outgoing, incoming, seconds):
        """Fades `incoming` up from 0 while `outgoing` fades down and stops."""
        check(lib.ss_scene_crossfade(self, outgoing, incoming, seconds))

    def add_ducking(self, target, trigger, gain, attack, release):
        """Ducks `target` to `gain` while anything in `trigger` sounds."""
        check(lib.ss_scene_add_ducking(self, target, trigger, gain, attack, release))

    metering = c_property("ss_scene_is_metering", "ss_scene_set_metering", bool, "Set True to meter the scene (read levels).")

    @property
    def levels(self):
        """The scene's Levels since the last reading."""
        return levels(value(lib.ss_scene_get_levels, _ffi.ss_levels, self))

    @property
    def virtualizes_voices(self):
        """Set True to let any number of sources play (the most important get voices)."""
        return bool(value(lib.ss_scene_get_virtualizes_voices, ctypes.c_int, self))

    @virtualizes_voices.setter
    def virtualizes_voices(self, enabled):
        check(lib.ss_scene_set_virtualizes_voices(self, int(bool(enabled))))
        if not enabled:
            self._set_callback("voice", None)

    def on_voice_event(self, function):
        """Calls function(source_handle, VoiceEventKind) for each voice event (compare the handle
        with Source.as_parameter); needs virtualizes_voices. None removes it."""
        key = register(function) if function else None
        check(lib.ss_scene_set_voice_callback(self, _voice_event if function else _ffi.ss_voice_callback(), key))
        self._set_callback("voice", key)

    @property
    def voice_statistics(self):
        """The voice manager's VoiceStatistics."""
        raw = value(lib.ss_scene_get_voice_statistics, _ffi.ss_voice_statistics, self)
        return VoiceStatistics(raw.real_voices, raw.virtual_voices, raw.steals, raw.virtualizations,
                               raw.realizations, raw.rankings, raw.last_ranking_us, raw.peak_ranking_us,
                               raw.total_ranking_us)


class _Batch:
    def __init__(self, scene):
        self._scene = scene

    def __enter__(self):
        check(lib.ss_scene_begin_batch(self._scene))
        return self._scene

    def __exit__(self, *exc):
        check(lib.ss_scene_end_batch(self._scene))
        return False
