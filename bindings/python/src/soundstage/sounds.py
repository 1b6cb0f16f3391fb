"""System sounds: a registry of short UI sounds played at once by id, event name or file."""
import ctypes
import os

from . import _ffi
from ._handles import Handle, c_property, encode, find, register, take, value
from ._library import lib
from .errors import check
from .types import SoundOutcome


@_ffi.ss_sound_callback
def _sound_ended(_registry, sound_id, outcome, user_data):
    function = take(user_data)
    if function:
        function(sound_id, SoundOutcome(outcome))


@_ffi.ss_attention_callback
def _attention(_registry, sound_id, user_data):
    function = find(user_data)
    if function:
        function(sound_id)


class SoundRegistry(Handle):
    """Short system sounds on a device. Closing it stops and frees them."""

    _destroy = "ss_sound_registry_destroy"

    def register_file(self, path):
        """Registers a sound file; gives its id."""
        return value(lib.ss_sound_register_file, ctypes.c_uint32, self, encode(os.fspath(path)))

    def register_memory(self, data, name=None):
        """Registers a sound file held in `data` (bytes-like); gives its id."""
        data = bytes(data)
        return value(lib.ss_sound_register_memory, ctypes.c_uint32, self, data, len(data), encode(name))

    def register_event(self, event):
        """Registers a freedesktop sound-theme event ("bell", ...); gives its id."""
        return value(lib.ss_sound_register_event, ctypes.c_uint32, self, encode(event))

    def dispose(self, sound_id):
        """Frees a registered sound."""
        check(lib.ss_sound_dispose(self, sound_id))

    def _play(self, call, *arguments, then=None):
        key = register(then) if then else None
        try:
            check(call(self, *arguments, _sound_ended if then else _ffi.ss_sound_callback(), key))
        except BaseException:
            # A play that fails at once has called back already, or never will: forget it.
            take(key)
            raise

    def play(self, sound_id, *, alert=False, then=None):
        """Plays a registered sound. `then(id, SoundOutcome)` (optional) runs exactly once when it
        ends: on the device's update thread, or inside this call when it ends at once."""
        self._play(lib.ss_sound_play_alert if alert else lib.ss_sound_play, sound_id, then=then)

    def play_event(self, event, *, alert=False, then=None):
        """Plays a sound-theme event by name (registered on first use)."""
        self._play(lib.ss_sound_play_event, encode(event), int(alert), then=then)

    def play_file(self, path, *, alert=False, then=None):
        """Plays a sound file (registered on first use)."""
        self._play(lib.ss_sound_play_file, encode(os.fspath(path)), int(alert), then=then)

    volume = c_property("ss_sound_registry_get_volume", "ss_sound_registry_set_volume", ctypes.c_float, "0 ... 1.")
    enabled = c_property("ss_sound_registry_is_enabled", "ss_sound_registry_set_enabled", bool, "False: plays end SILENCED.")

    def on_attention(self, function):
        """Calls function(id) when an alert plays; None removes it."""
        key = register(function) if function else None
        check(lib.ss_sound_registry_set_attention_callback(self, _attention if function else _ffi.ss_attention_callback(), key))
        self._set_callback("attention", key)
