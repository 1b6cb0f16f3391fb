"""The daemon client: UI sounds played by `soundstage serve`."""
import ctypes
import os

from . import _ffi
from ._handles import Handle, encode, find, made, register, value
from ._library import lib
from .errors import check
from .types import SoundOutcome


@_ffi.ss_client_callback
def _completed(_client, sound_id, outcome, user_data):
    function = find(user_data)
    if function:
        function(sound_id, SoundOutcome(outcome))


class Client(Handle):
    """A connection to the Soundstage daemon; each call blocks until the daemon answers.

    >>> with Client.connect() as client:
    ...     client.play_event("bell")
    """

    _destroy = "ss_client_destroy"

    @classmethod
    def connect(cls, socket=None):
        """Connects to the daemon at `socket` (None: $XDG_RUNTIME_DIR/soundstage/socket). Raises
        ConnectionFailedError (a ConnectionError) when none listens."""
        return made(cls, lib.ss_client_connect, encode(None if socket is None else os.fspath(socket)))

    def play_event(self, event, *, alert=False):
        """Plays a sound-theme event through the daemon; gives the sound's id."""
        return value(lib.ss_client_play_event, ctypes.c_uint32, self, encode(event), int(alert))

    def play_file(self, path, *, alert=False):
        """Plays a sound file (read by the daemon); gives the sound's id."""
        return value(lib.ss_client_play_file, ctypes.c_uint32, self, encode(os.fspath(path)), int(alert))

    def play_id(self, sound_id, *, alert=False):
        """Plays a sound registered with the daemon."""
        check(lib.ss_client_play_id(self, sound_id, int(alert)))

    def register_file(self, path):
        """Registers a sound file with the daemon; gives its id."""
        return value(lib.ss_client_register_file, ctypes.c_uint32, self, encode(os.fspath(path)))

    def register_event(self, event):
        """Registers a sound-theme event with the daemon; gives its id."""
        return value(lib.ss_client_register_event, ctypes.c_uint32, self, encode(event))

    def dispose(self, sound_id):
        """Frees a sound registered with the daemon."""
        check(lib.ss_client_dispose(self, sound_id))

    def on_completion(self, function):
        """Calls function(id, SoundOutcome) when a sound this client plays ends, on a thread of
        the client's; None removes it."""
        key = register(function) if function else None
        check(lib.ss_client_set_completion_callback(self, _completed if function else _ffi.ss_client_callback(), key))
        self._set_callback("completion", key)
