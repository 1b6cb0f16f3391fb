//! Audio sessions: a category, activation and interruptions (as AVAudioSession's).
use std::os::raw::c_void;
use std::ptr;

use soundstage_sys as sys;

use crate::callbacks::{find, guard, Registration};
use crate::error::{check, Result};
use crate::types::flag;
use crate::{handle, out, Device, Scene, SoundRegistry};

/// Session categories (as AVAudioSession's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Category {
    /// Mixes with others; silenced by the silent switch.
    Ambient,
    /// The default: silences others.
    SoloAmbient,
    /// Music and voice that matter.
    Playback,
    /// Playing and recording.
    PlayAndRecord,
    /// Recording only.
    Record,
    /// Neither: offline processing.
    AudioProcessing,
}

impl Category {
    fn raw(self) -> sys::ss_session_category {
        match self {
            Category::Ambient => sys::SS_CATEGORY_AMBIENT,
            Category::SoloAmbient => sys::SS_CATEGORY_SOLO_AMBIENT,
            Category::Playback => sys::SS_CATEGORY_PLAYBACK,
            Category::PlayAndRecord => sys::SS_CATEGORY_PLAY_AND_RECORD,
            Category::Record => sys::SS_CATEGORY_RECORD,
            Category::AudioProcessing => sys::SS_CATEGORY_AUDIO_PROCESSING,
        }
    }
    fn from_raw(raw: sys::ss_session_category) -> Category {
        match raw {
            sys::SS_CATEGORY_AMBIENT => Category::Ambient,
            sys::SS_CATEGORY_PLAYBACK => Category::Playback,
            sys::SS_CATEGORY_PLAY_AND_RECORD => Category::PlayAndRecord,
            sys::SS_CATEGORY_RECORD => Category::Record,
            sys::SS_CATEGORY_AUDIO_PROCESSING => Category::AudioProcessing,
            _ => Category::SoloAmbient,
        }
    }
}

/// Session options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SessionOptions {
    /// Play alongside other sessions.
    pub mix_with_others: bool,
    /// Lower other sessions while active.
    pub duck_others: bool,
}

impl SessionOptions {
    fn raw(self) -> i32 {
        (if self.mix_with_others { sys::SS_SESSION_MIX_WITH_OTHERS as i32 } else { 0 })
            | (if self.duck_others { sys::SS_SESSION_DUCK_OTHERS as i32 } else { 0 })
    }
    fn from_raw(raw: i32) -> SessionOptions {
        SessionOptions {
            mix_with_others: raw & sys::SS_SESSION_MIX_WITH_OTHERS as i32 != 0,
            duck_others: raw & sys::SS_SESSION_DUCK_OTHERS as i32 != 0,
        }
    }
}

/// A session's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionState {
    /// The category.
    pub category: Category,
    /// The options.
    pub options: SessionOptions,
    /// Whether active.
    pub active: bool,
    /// Whether interrupted.
    pub interrupted: bool,
    /// Whether ducked by another session.
    pub ducked: bool,
}

/// Why an interruption began.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InterruptionReason {
    /// The application began it.
    Application,
    /// Another session took the output.
    OtherSession,
    /// The output device went away.
    DeviceUnavailable,
    /// The desktop server asked (a phone call).
    SystemRequest,
}

/// What happened to a session.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SessionEvent {
    /// It became active.
    Activated,
    /// It became inactive.
    Deactivated,
    /// An interruption began: what played is paused.
    InterruptionBegan(InterruptionReason),
    /// An interruption ended; `should_resume` says whether what played resumed.
    InterruptionEnded {
        /// Whether to resume.
        should_resume: bool,
    },
    /// Another session ducked it to `gain`.
    Ducked {
        /// The duck gain.
        gain: f32,
    },
    /// The duck ended.
    Unducked,
}

type SessionCallback = Box<dyn Fn(SessionEvent) + Send + Sync>;
const EVENTS: u8 = 0;

handle!(
    /// An audio session. Dropping it removes it.
    Session, sys::ss_session, sys::ss_session_destroy
);

impl Device {
    /// Creates an (inactive) session.
    pub fn create_session(&self, category: Category, options: SessionOptions) -> Result<Session> {
        let mut raw = ptr::null_mut();
        // SAFETY: plain values and an out-pointer.
        check(unsafe { sys::ss_session_create(self.as_raw(), category.raw(), options.raw(), &mut raw) })?;
        Ok(Session::from_raw(raw))
    }
}

impl Session {
    /// Changes the category and options.
    pub fn set_category(&self, category: Category, options: SessionOptions) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_session_set_category(self.raw, category.raw(), options.raw()) })
    }
    /// Activates or deactivates the session: attached scenes sound only while it is active.
    pub fn set_active(&self, active: bool) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_session_set_active(self.raw, flag(active)) })
    }
    /// Puts `scene` under the session.
    pub fn attach_scene(&self, scene: &Scene) -> Result<()> {
        // SAFETY: plain handles.
        check(unsafe { sys::ss_session_attach_scene(self.raw, scene.as_raw()) })
    }
    /// Puts a system-sound registry under the session.
    pub fn attach_registry(&self, registry: &SoundRegistry) -> Result<()> {
        // SAFETY: plain handles.
        check(unsafe { sys::ss_session_attach_registry(self.raw, registry.as_raw()) })
    }
    /// Interrupts the session (as a phone call would): what plays pauses.
    pub fn begin_interruption(&self) -> Result<()> {
        // SAFETY: plain handle.
        check(unsafe { sys::ss_session_begin_interruption(self.raw) })
    }
    /// Ends an interruption; with `should_resume` what was playing resumes from its offsets.
    pub fn end_interruption(&self, should_resume: bool) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_session_end_interruption(self.raw, flag(should_resume)) })
    }
    /// The session's state.
    pub fn state(&self) -> Result<SessionState> {
        let raw: sys::ss_session_state = out!(|p| sys::ss_session_get_state(self.raw, p))?;
        Ok(SessionState {
            category: Category::from_raw(raw.category),
            options: SessionOptions::from_raw(raw.options),
            active: raw.active != 0,
            interrupted: raw.interrupted != 0,
            ducked: raw.ducked != 0,
        })
    }
    /// Calls `callback` for each event of the session, on the thread whose call caused it.
    /// Replaces any earlier one.
    pub fn on_event(&self, callback: impl Fn(SessionEvent) + Send + Sync + 'static) -> Result<()> {
        unsafe extern "C" fn call(_: *mut sys::ss_session, event: *const sys::ss_session_event, user_data: *mut c_void) {
            guard(|| {
                if event.is_null() {
                    return;
                }
                if let Some(callback) = find::<SessionCallback>(user_data) {
                    // SAFETY: event is valid during the call.
                    let e = unsafe { &*event };
                    let event = match e.kind {
                        sys::SS_SESSION_ACTIVATED => SessionEvent::Activated,
                        sys::SS_SESSION_DEACTIVATED => SessionEvent::Deactivated,
                        sys::SS_SESSION_INTERRUPTION_BEGAN => SessionEvent::InterruptionBegan(match e.reason {
                            sys::SS_INTERRUPTION_OTHER_SESSION => InterruptionReason::OtherSession,
                            sys::SS_INTERRUPTION_DEVICE_UNAVAILABLE => InterruptionReason::DeviceUnavailable,
                            sys::SS_INTERRUPTION_SYSTEM_REQUEST => InterruptionReason::SystemRequest,
                            _ => InterruptionReason::Application,
                        }),
                        sys::SS_SESSION_INTERRUPTION_ENDED => {
                            SessionEvent::InterruptionEnded { should_resume: e.should_resume != 0 }
                        }
                        sys::SS_SESSION_DUCKED => SessionEvent::Ducked { gain: e.duck_gain },
                        _ => SessionEvent::Unducked,
                    };
                    callback(event);
                }
            })
        }
        let registration = Registration::new::<SessionCallback>(Box::new(callback));
        // SAFETY: the trampoline finds the closure by key while it is registered.
        check(unsafe { sys::ss_session_set_callback(self.raw, Some(call), registration.user_data()) })?;
        self.callbacks.replace(EVENTS, Some(registration));
        Ok(())
    }
}
