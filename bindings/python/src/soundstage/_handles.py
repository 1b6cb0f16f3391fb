"""What every object of the binding shares: its handle, closing, and where callbacks live."""
import ctypes
import itertools
import os
import threading

from . import _ffi
from ._library import lib
from .errors import check

_lock = threading.Lock()
_callbacks = {}
_keys = itertools.count(1)


def register(function):
    """Keeps `function` under a new key; the C side carries the key as user_data. The library's
    threads find it by key, so a callback racing with a close finds nothing rather than freed
    memory."""
    with _lock:
        key = next(_keys)
        _callbacks[key] = function
    return key


def unregister(key):
    """Forgets the function under `key` (no-op if gone)."""
    with _lock:
        return _callbacks.pop(key, None)


def find(user_data):
    """The function registered under a callback's user_data, or None."""
    with _lock:
        return _callbacks.get(user_data or 0)


def take(user_data):
    """A one-shot callback's function, forgotten."""
    return unregister(user_data or 0)


class Handle:
    """An object of the library. Use it as a context manager, or call close(); it also closes
    when garbage-collected. Closing a parent (a device, a scene) closes what was made on it:
    their calls then raise StaleHandleError."""

    _destroy = None

    def __init__(self, raw):
        self._raw = raw
        self._closed = False
        self._keys = {}

    @property
    def as_parameter(self):
        """The C handle (an int), for calling the C API directly."""
        return self._raw

    @property
    def _as_parameter_(self):
        # A closed handle is still passed as it was: the library answers SS_ERROR_STALE_HANDLE.
        return ctypes.c_void_p(self._raw)

    def close(self):
        """Destroys the handle. Safe to call twice, and after the parent was closed."""
        if self._closed:
            return
        self._closed = True
        if self._destroy is not None:
            getattr(lib, self._destroy)(ctypes.c_void_p(self._raw))
        for key in list(self._keys.values()):
            unregister(key)
        self._keys.clear()

    @property
    def closed(self):
        """Whether close() was called."""
        return self._closed

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown: the library may be gone already
            pass

    def __repr__(self):
        state = "closed" if self._closed else hex(self._raw or 0)
        return f"<soundstage.{type(self).__name__} {state}>"

    def _set_callback(self, kind, key):
        """Keeps `key` as this object's `kind` callback, forgetting the one it replaces."""
        old = self._keys.pop(kind, None)
        if key is not None:
            self._keys[kind] = key
        if old is not None:
            unregister(old)


def made(cls, call, *arguments):
    """Calls a create function whose last argument is the out-handle, and wraps the handle. The
    new object keeps its parent (the first argument, when it is an object of the library) alive,
    so that `device.create_scene().create_source()` does not close the scene under the source;
    closing the parent explicitly still closes it (the library's rule)."""
    out = ctypes.c_void_p()
    check(call(*arguments, ctypes.byref(out)))
    made_object = cls(out.value)
    if arguments and isinstance(arguments[0], Handle):
        made_object._parent = arguments[0]
    return made_object


def value(call, ctype, *arguments):
    """Calls a getter whose last argument is an out-pointer of `ctype`, and gives the value."""
    out = ctype()
    check(call(*arguments, ctypes.byref(out)))
    return out.value if hasattr(out, "value") else out


def c_property(getter, setter, ctype, doc):
    """A property read by the C getter and written by the C setter named, both taking the handle:
    it answers what the library holds, whoever set it. `ctype` bool is an int switch (1 or 0)."""
    def get(self):
        if ctype is bool:
            return bool(value(getattr(lib, getter), ctypes.c_int, self))
        return value(getattr(lib, getter), ctype, self)

    def put(self, new):
        check(getattr(lib, setter)(self, int(bool(new)) if ctype is bool else new))
    return property(get, put, doc=doc)


def encode(text, what="a string"):
    """A str or path as bytes for C; None stays None."""
    if text is None:
        return None
    data = os.fsencode(text)
    if b"\0" in data:
        from .errors import InvalidArgumentError
        raise InvalidArgumentError(f"{what} holds a NUL byte", _ffi.SS_ERROR_INVALID_ARGUMENT)
    return data


def vec3(value):
    """An ss_vec3 from any 3-sequence."""
    x, y, z = value
    return _ffi.ss_vec3(x, y, z)


def levels(raw):
    """A Levels from an ss_levels."""
    from .types import Levels
    channels = max(0, min(8, raw.channels))
    return Levels(raw.frames, list(raw.average_power[:channels]), list(raw.peak_power[:channels]))
