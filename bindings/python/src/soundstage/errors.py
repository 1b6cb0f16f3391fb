"""Exceptions: every failing call raises a SoundstageError carrying the result code and the
library's message. Each code has its own subclass (NotFoundError, StaleHandleError, ...), and
the ones with a standard Python meaning also derive from it (NotFoundError is a
FileNotFoundError, NotFiniteError and OutOfRangeError are ValueErrors, ...)."""
from . import _ffi
from ._library import lib


class SoundstageError(Exception):
    """A call of libsoundstage failed.

    Attributes: ``code`` (the negative ``ss_result``), ``code_name`` ("SS_ERROR_NOT_FOUND") and
    ``message`` (the library's text: what failed, on what, and why)."""

    code = None

    def __init__(self, message, code=None):
        super().__init__(message)
        if code is not None:
            self.code = code
        self.message = message

    @property
    def code_name(self):
        """The result code's name in the header."""
        return lib.ss_result_name(self.code if self.code is not None else _ffi.SS_ERROR_INTERNAL).decode()

    def __str__(self):
        return f"{self.message} ({self.code_name})"


_PYTHON_BASES = {
    "NOT_FOUND": (FileNotFoundError,),
    "PERMISSION_DENIED": (PermissionError,),
    "IO": (OSError,),
    "NOT_FINITE": (ValueError,),
    "OUT_OF_RANGE": (ValueError,),
    "INVALID_ARGUMENT": (ValueError,),
    "NULL_ARGUMENT": (ValueError,),
    "BUFFER_TOO_SMALL": (ValueError,),
    "CONNECTION": (ConnectionError,),
    "UNSUPPORTED_FORMAT": (ValueError,),
    "CORRUPT_DATA": (ValueError,),
}

_BY_CODE = {}


def _class_name(constant):
    return "".join(part.capitalize() for part in constant[len("SS_ERROR_"):].split("_")) + "Error"


for _constant in [name for name in dir(_ffi) if name.startswith("SS_ERROR_")]:
    _short = _constant[len("SS_ERROR_"):]
    _code = getattr(_ffi, _constant)
    _cls = type(_class_name(_constant), (SoundstageError,) + _PYTHON_BASES.get(_short, ()),
                {"code": _code, "__doc__": f"{_constant}.", "__module__": __name__})
    globals()[_cls.__name__] = _cls
    _BY_CODE[_code] = _cls

# The names most code catches, spelled out for readers and linters.
NotFoundError = _BY_CODE[_ffi.SS_ERROR_NOT_FOUND]
StaleHandleError = _BY_CODE[_ffi.SS_ERROR_STALE_HANDLE]
NotFiniteError = _BY_CODE[_ffi.SS_ERROR_NOT_FINITE]
OutOfRangeError = _BY_CODE[_ffi.SS_ERROR_OUT_OF_RANGE]
InvalidArgumentError = _BY_CODE[_ffi.SS_ERROR_INVALID_ARGUMENT]
InvalidStateError = _BY_CODE[_ffi.SS_ERROR_INVALID_STATE]
UnsupportedFormatError = _BY_CODE[_ffi.SS_ERROR_UNSUPPORTED_FORMAT]
CorruptDataError = _BY_CODE[_ffi.SS_ERROR_CORRUPT_DATA]
NoOutputDeviceError = _BY_CODE[_ffi.SS_ERROR_NO_OUTPUT_DEVICE]
InvalidSceneError = _BY_CODE[_ffi.SS_ERROR_INVALID_SCENE]
UnknownSoundIdError = _BY_CODE[_ffi.SS_ERROR_UNKNOWN_SOUND_ID]
ConnectionFailedError = _BY_CODE[_ffi.SS_ERROR_CONNECTION]
CodecUnavailableError = _BY_CODE[_ffi.SS_ERROR_CODEC_UNAVAILABLE]


def check(result):
    """Raises the error of a failed call, with the calling thread's message."""
    if result != _ffi.SS_OK:
        message = lib.ss_error_message().decode(errors="replace")
        raise _BY_CODE.get(result, SoundstageError)(message, result)


def error_class(code):
    """The exception class of a result code."""
    return _BY_CODE.get(code, SoundstageError)
