//! Recording an input of the desktop server (a microphone or a sink's monitor) to a file.
use std::os::raw::c_void;
use std::path::Path;
use std::ptr;

use soundstage_sys as sys;

use crate::callbacks::{find, guard, Registration};
use crate::error::{check, Result};
use crate::strings::{c_path, c_string, ptr_or_null};
use crate::types::{collect_names, flag, read_levels, FileFormat, Levels};
use crate::{handle, out, Session};

/// Settings of a recorder; `Default` gives the library's.
#[derive(Debug, Clone, PartialEq)]
pub struct RecorderSettings {
    /// Default WAV, 16-bit PCM.
    pub format: FileFormat,
    /// A server input name ("A.monitor", from [`enumerate_inputs`]); `None`: the default input.
    pub input: Option<String>,
    /// `None`: the input's own.
    pub sample_rate: Option<u32>,
    /// `None`: the input's own.
    pub channels: Option<u32>,
    /// `None`: the default server.
    pub server: Option<String>,
}

impl Default for RecorderSettings {
    fn default() -> RecorderSettings {
        RecorderSettings { format: FileFormat::WavPcm16, input: None, sample_rate: None, channels: None, server: None }
    }
}

/// Recorder states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RecorderState {
    /// Nothing opened yet.
    Idle,
    /// The input and file are open.
    Prepared,
    /// Recording.
    Recording,
    /// Paused.
    Paused,
    /// The file is complete.
    Finished,
}

/// Why a recording ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RecordingEnd {
    /// Stopped.
    Stopped,
    /// The asked duration was reached.
    DurationReached,
    /// The input went away.
    InputLost,
    /// Writing the file failed.
    WriteFailed,
}

/// What a finished recording holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Recording {
    /// Frames.
    pub frames: u64,
    /// Hz.
    pub sample_rate: u32,
    /// Channels.
    pub channels: u32,
    /// Seconds.
    pub duration: f64,
    /// Why it ended.
    pub end: RecordingEnd,
}

impl Recording {
    fn from_raw(raw: &sys::ss_recording) -> Recording {
        Recording {
            frames: raw.frames.max(0) as u64,
            sample_rate: raw.sample_rate.max(0) as u32,
            channels: raw.channels.max(0) as u32,
            duration: raw.duration,
            end: match raw.end {
                sys::SS_RECORDING_DURATION_REACHED => RecordingEnd::DurationReached,
                sys::SS_RECORDING_INPUT_LOST => RecordingEnd::InputLost,
                sys::SS_RECORDING_WRITE_FAILED => RecordingEnd::WriteFailed,
                _ => RecordingEnd::Stopped,
            },
        }
    }
}

type FinishedCallback = Box<dyn Fn(&Recording) + Send + Sync>;
const FINISHED: u8 = 0;

handle!(
    /// A recorder to a file. Dropping it stops it (completing the file).
    Recorder, sys::ss_recorder, sys::ss_recorder_destroy
);

impl Recorder {
    /// Creates a recorder to the file at `path` (nothing is opened yet). Under `session` it
    /// records only in the record and play-and-record categories, while active. `finished` is
    /// called once when the recording ends, on the recorder's thread. Needs PulseAudio or PipeWire.
    pub fn new(
        path: impl AsRef<Path>,
        settings: &RecorderSettings,
        session: Option<&Session>,
        finished: Option<Box<dyn Fn(&Recording) + Send + Sync>>,
    ) -> Result<Recorder> {
        unsafe extern "C" fn call(_: *mut sys::ss_recorder, recording: *const sys::ss_recording, user_data: *mut c_void) {
            guard(|| {
                if recording.is_null() {
                    return;
                }
                if let Some(callback) = find::<FinishedCallback>(user_data) {
                    // SAFETY: recording is valid during the call.
                    callback(&Recording::from_raw(unsafe { &*recording }));
                }
            })
        }
        let path = c_path(path.as_ref())?;
        let input = settings.input.as_deref().map(|s| c_string(s, "the input")).transpose()?;
        let server = settings.server.as_deref().map(|s| c_string(s, "the server")).transpose()?;
        let mut raw_settings: sys::ss_recorder_settings = unsafe { std::mem::zeroed() };
        // SAFETY: a valid struct to fill.
        check(unsafe { sys::ss_recorder_settings_init(&mut raw_settings) })?;
        raw_settings.format = settings.format.raw();
        raw_settings.input = ptr_or_null(&input);
        raw_settings.server = ptr_or_null(&server);
        raw_settings.sample_rate = settings.sample_rate.map_or(0, |r| r.min(i32::MAX as u32) as i32);
        raw_settings.channels = settings.channels.map_or(0, |c| c.min(i32::MAX as u32) as i32);
        let registration = finished.map(Registration::new::<FinishedCallback>);
        let (callback, user_data) = match &registration {
            Some(r) => (Some(call as unsafe extern "C" fn(_, _, _)), r.user_data()),
            None => (None, ptr::null_mut()),
        };
        let session = session.map_or(ptr::null_mut(), |s| s.as_raw());
        let mut raw = ptr::null_mut();
        // SAFETY: the strings and settings live until the call returns; the trampoline finds the
        // closure by key while the recorder holds it.
        check(unsafe { sys::ss_recorder_create(path.as_ptr(), &raw_settings, session, callback, user_data, &mut raw) })?;
        let recorder = Recorder::from_raw(raw);
        recorder.callbacks.replace(FINISHED, registration);
        Ok(recorder)
    }

    /// Opens the input and the file, so that [`Recorder::record`] starts at once.
    pub fn prepare(&self) -> Result<()> {
        // SAFETY: plain handle.
        check(unsafe { sys::ss_recorder_prepare(self.raw) })
    }
    /// Starts or resumes recording.
    pub fn record(&self) -> Result<()> {
        // SAFETY: plain handle.
        check(unsafe { sys::ss_recorder_record(self.raw) })
    }
    /// Records until `seconds` are in the file, then stops by itself.
    pub fn record_for(&self, seconds: f64) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_recorder_record_for(self.raw, seconds) })
    }
    /// Pauses (the file stays open).
    pub fn pause(&self) -> Result<()> {
        // SAFETY: plain handle.
        check(unsafe { sys::ss_recorder_pause(self.raw) })
    }
    /// Stops and completes the file; gives what it holds.
    pub fn stop(&self) -> Result<Recording> {
        out!(|p| sys::ss_recorder_stop(self.raw, p)).map(|raw: sys::ss_recording| Recording::from_raw(&raw))
    }
    /// The recorder's state.
    pub fn state(&self) -> Result<RecorderState> {
        out!(|p| sys::ss_recorder_get_state(self.raw, p)).map(|state| match state {
            sys::SS_RECORDER_PREPARED => RecorderState::Prepared,
            sys::SS_RECORDER_RECORDING => RecorderState::Recording,
            sys::SS_RECORDER_PAUSED => RecorderState::Paused,
            sys::SS_RECORDER_FINISHED => RecorderState::Finished,
            _ => RecorderState::Idle,
        })
    }
    /// Seconds recorded so far.
    pub fn current_time(&self) -> Result<f64> {
        out!(|p| sys::ss_recorder_get_current_time(self.raw, p))
    }
    /// Turns metering of the recorded input on or off.
    pub fn set_metering(&self, enabled: bool) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_recorder_set_metering(self.raw, flag(enabled)) })
    }
    /// Whether the recorded input is metered.
    pub fn is_metering(&self) -> Result<bool> {
        out!(|p| sys::ss_recorder_is_metering(self.raw, p)).map(|v: i32| v != 0)
    }
    /// The input's levels since the last reading.
    pub fn levels(&self) -> Result<Levels> {
        // SAFETY: the out-pointer is valid for the call.
        read_levels(|p| unsafe { sys::ss_recorder_get_levels(self.raw, p) })
    }
}

/// Whether the desktop server at `server` (`None`: the default) has a real input.
pub fn capture_available(server: Option<&str>) -> bool {
    let Ok(server) = server.map(|s| c_string(s, "the server")).transpose() else { return false };
    // SAFETY: the string lives until the call returns.
    unsafe { sys::ss_capture_available(ptr_or_null(&server)) != 0 }
}

/// The desktop server's inputs (name, description): microphones, line inputs and every sink's
/// monitor. Names are for [`RecorderSettings::input`].
pub fn enumerate_inputs(server: Option<&str>) -> Result<Vec<(String, Option<String>)>> {
    let server = server.map(|s| c_string(s, "the server")).transpose()?;
    // SAFETY: the string lives until the call returns.
    collect_names(|callback, user_data| unsafe { sys::ss_enumerate_inputs(ptr_or_null(&server), callback, user_data) })
}
