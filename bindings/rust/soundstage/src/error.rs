//! Errors: every failing call gives an [`Error`] with the library's result code and message.
use std::ffi::CStr;
use std::fmt;

use soundstage_sys as sys;

/// Why a call failed: the header's `SS_ERROR_*` codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorCode {
    /// A required pointer was NULL (the safe API never passes one; kept for completeness).
    NullArgument,
    /// Not a handle the library made.
    InvalidHandle,
    /// The object was destroyed, or its parent was (a source after its device was dropped).
    StaleHandle,
    /// A handle of another kind.
    WrongHandleKind,
    /// NaN or an infinity.
    NotFinite,
    /// A finite value outside what the argument allows.
    OutOfRange,
    /// Any other bad argument (an unknown name, a bad size).
    InvalidArgument,
    /// Not now: e.g. rendering on a device that is not a loopback renderer.
    InvalidState,
    /// More than 1,048,576 live handles.
    OutOfHandles,
    /// An output array is shorter than the data.
    BufferTooSmall,
    /// No such file, sound, preset or event.
    NotFound,
    /// The file or device may not be opened.
    PermissionDenied,
    /// Not an audio file this build reads or writes.
    UnsupportedFormat,
    /// A truncated or damaged file.
    CorruptData,
    /// Reading or writing failed.
    Io,
    /// More audio than the decode limit: stream it.
    TooLarge,
    /// No desktop server and no sound card.
    NoOutputDevice,
    /// OpenAL lacks an extension this needs.
    ExtensionMissing,
    /// OpenAL failed (the message names the call).
    OpenAl,
    /// A system sound longer than the registry allows.
    ExceededMaximumDuration,
    /// No sound registered under that id.
    UnknownSoundId,
    /// The session is not active.
    SessionNotActive,
    /// The session cannot be used now.
    SessionUnavailable,
    /// A malformed scene file (the message says where).
    InvalidScene,
    /// The scene's source budget is spent.
    SourceBudgetExhausted,
    /// A voice limit with no stealing is full.
    VoiceLimitReached,
    /// PulseAudio or PipeWire refused or went away.
    AudioServer,
    /// No input to record from.
    NoInputDevice,
    /// The session's category forbids this (e.g. recording).
    CategoryForbids,
    /// The object's scene or device was closed under it.
    Released,
    /// The daemon refused a request.
    Daemon,
    /// No daemon listens, or the connection broke.
    Connection,
    /// AAC/MPEG-4 audio needs FFmpeg's libraries (the message names the packages).
    CodecUnavailable,
    /// A bug in Soundstage; please report the message.
    Internal,
    /// A code this binding does not know (a newer library).
    Other(i32),
}

impl ErrorCode {
    /// The code for a raw `ss_result` (not `SS_OK`).
    pub fn from_raw(result: sys::ss_result) -> ErrorCode {
        use ErrorCode::*;
        match result {
            sys::SS_ERROR_NULL_ARGUMENT => NullArgument,
            sys::SS_ERROR_INVALID_HANDLE => InvalidHandle,
            sys::SS_ERROR_STALE_HANDLE => StaleHandle,
            sys::SS_ERROR_WRONG_HANDLE_KIND => WrongHandleKind,
            sys::SS_ERROR_NOT_FINITE => NotFinite,
            sys::SS_ERROR_OUT_OF_RANGE => OutOfRange,
            sys::SS_ERROR_INVALID_ARGUMENT => InvalidArgument,
            sys::SS_ERROR_INVALID_STATE => InvalidState,
            sys::SS_ERROR_OUT_OF_HANDLES => OutOfHandles,
            sys::SS_ERROR_BUFFER_TOO_SMALL => BufferTooSmall,
            sys::SS_ERROR_NOT_FOUND => NotFound,
            sys::SS_ERROR_PERMISSION_DENIED => PermissionDenied,
            sys::SS_ERROR_UNSUPPORTED_FORMAT => UnsupportedFormat,
            sys::SS_ERROR_CORRUPT_DATA => CorruptData,
            sys::SS_ERROR_IO => Io,
            sys::SS_ERROR_TOO_LARGE => TooLarge,
            sys::SS_ERROR_NO_OUTPUT_DEVICE => NoOutputDevice,
            sys::SS_ERROR_EXTENSION_MISSING => ExtensionMissing,
            sys::SS_ERROR_OPENAL => OpenAl,
            sys::SS_ERROR_EXCEEDED_MAXIMUM_DURATION => ExceededMaximumDuration,
            sys::SS_ERROR_UNKNOWN_SOUND_ID => UnknownSoundId,
            sys::SS_ERROR_SESSION_NOT_ACTIVE => SessionNotActive,
            sys::SS_ERROR_SESSION_UNAVAILABLE => SessionUnavailable,
            sys::SS_ERROR_INVALID_SCENE => InvalidScene,
            sys::SS_ERROR_SOURCE_BUDGET_EXHAUSTED => SourceBudgetExhausted,
            sys::SS_ERROR_VOICE_LIMIT_REACHED => VoiceLimitReached,
            sys::SS_ERROR_AUDIO_SERVER => AudioServer,
            sys::SS_ERROR_NO_INPUT_DEVICE => NoInputDevice,
            sys::SS_ERROR_CATEGORY_FORBIDS => CategoryForbids,
            sys::SS_ERROR_RELEASED => Released,
            sys::SS_ERROR_DAEMON => Daemon,
            sys::SS_ERROR_CONNECTION => Connection,
            sys::SS_ERROR_CODEC_UNAVAILABLE => CodecUnavailable,
            sys::SS_ERROR_INTERNAL => Internal,
            other => Other(other),
        }
    }
}

/// A failed call: the result code and the library's message ("Source.gain = nan (must be finite
/// and >= 0)").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    code: ErrorCode,
    raw: i32,
    message: String,
}

impl Error {
    /// What kind of failure.
    pub fn code(&self) -> ErrorCode {
        self.code
    }
    /// The C API's `ss_result` value (negative).
    pub fn raw_code(&self) -> i32 {
        self.raw
    }
    /// The library's description of what failed, on what, and why.
    pub fn message(&self) -> &str {
        &self.message
    }
    /// The result code's name in the header ("SS_ERROR_STALE_HANDLE").
    pub fn code_name(&self) -> &'static str {
        // SAFETY: ss_result_name returns a static NUL-terminated string for any value.
        let name = unsafe { CStr::from_ptr(sys::ss_result_name(self.raw)) };
        name.to_str().unwrap_or("SS_UNKNOWN")
    }
    /// An error made on the Rust side (an argument the C API cannot carry, such as a string with a
    /// NUL inside).
    pub(crate) fn invalid_argument(message: impl Into<String>) -> Error {
        Error { code: ErrorCode::InvalidArgument, raw: sys::SS_ERROR_INVALID_ARGUMENT, message: message.into() }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.code_name())
    }
}

impl std::error::Error for Error {}

/// The result of a call.
pub type Result<T> = std::result::Result<T, Error>;

/// Turns a raw result into `Ok(())` or the error, with the calling thread's message.
pub(crate) fn check(result: sys::ss_result) -> Result<()> {
    if result == sys::SS_OK {
        return Ok(());
    }
    // SAFETY: ss_error_message never returns NULL; the text is valid until the next failing call
    // on this thread, and it is copied at once.
    let message = unsafe { CStr::from_ptr(sys::ss_error_message()) }.to_string_lossy().into_owned();
    Err(Error { code: ErrorCode::from_raw(result), raw: result, message })
}
