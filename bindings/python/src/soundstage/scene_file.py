"""Scene files: timed scenes in JSON (docs/scene-format.md)."""
import ctypes
import os

from ._handles import Handle, encode, made, value
from ._library import lib
from .errors import check
from .types import FileFormat


class SceneFile(Handle):
    """A loaded scene file. Closing it stops it and destroys its scenes."""

    _destroy = "ss_scene_file_destroy"

    @property
    def duration(self):
        """The scene's length in seconds."""
        return value(lib.ss_scene_file_get_duration, ctypes.c_double, self)

    def render(self, path, format=FileFormat.WAV_PCM16):
        """Loopback devices: renders the whole scene to the file at `path`."""
        check(lib.ss_scene_file_render(self, encode(os.fspath(path)), int(format)))

    def play(self):
        """Output devices: plays the whole scene in real time; blocks until it ends."""
        check(lib.ss_scene_file_play(self))

    def advance(self, seconds):
        """Moves everything to `seconds`, for driving it yourself."""
        check(lib.ss_scene_file_advance(self, seconds))

    def source(self, name):
        """The scene's Source named `name` (closing it stops that source)."""
        from .scene import Source
        return made(Source, lib.ss_scene_file_get_source, self, encode(name))
