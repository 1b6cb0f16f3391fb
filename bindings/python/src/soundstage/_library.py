"""Finding and loading libsoundstage.so.0."""
import ctypes
import ctypes.util
import os
import shutil
import subprocess

from . import _ffi

SONAME = "libsoundstage.so.0"


def _candidates():
    """Where the library may be, best first: $SOUNDSTAGE_LIBRARY, pkg-config's libdir, the usual
    install prefixes, then the loader's own search (LD_LIBRARY_PATH, ld.so.cache)."""
    explicit = os.environ.get("SOUNDSTAGE_LIBRARY")
    if explicit:
        yield explicit
        return
    if shutil.which("pkg-config"):
        try:
            libdir = subprocess.run(["pkg-config", "--variable=libdir", "soundstage"], capture_output=True,
                                    text=True, timeout=10).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            libdir = ""
        if libdir:
            yield os.path.join(libdir, SONAME)
    for prefix in ("/usr/local/lib", "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib"):
        yield os.path.join(prefix, SONAME)
    yield SONAME
    found = ctypes.util.find_library("soundstage")
    if found:
        yield found


def load():
    """The library, with every function's types set; ImportError naming where it looked."""
    tried = []
    for candidate in _candidates():
        if os.path.sep in candidate and not os.path.exists(candidate):
            tried.append(candidate)
            continue
        try:
            return _ffi.bind(ctypes.CDLL(candidate))
        except OSError as error:
            tried.append(f"{candidate} ({error})")
    raise ImportError(
        "soundstage: cannot load libsoundstage.so.0; install it (the libsoundstage0 package, or "
        "scripts/install.sh) or set SOUNDSTAGE_LIBRARY to its path. Tried: " + "; ".join(tried))


lib = load()
