//! System sounds: a registry of short UI sounds, played at once by id, event name or file.
use std::os::raw::c_void;
use std::path::Path;
use std::ptr;

use soundstage_sys as sys;

use crate::callbacks::{find, guard, take, Registration};
use crate::error::{check, Result};
use crate::strings::{c_path, c_string, ptr_or_null};
use crate::types::flag;
use crate::{handle, out, Device};

/// How a system sound's play ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SoundOutcome {
    /// It played to its end.
    Finished,
    /// A newer sound took its place.
    Replaced,
    /// Dropped: the same sound had just started.
    Coalesced,
    /// The registry is disabled, interrupted or silent.
    Silenced,
    /// The sound was disposed of while it played.
    Disposed,
    /// It could not play.
    Failed,
}

impl SoundOutcome {
    pub(crate) fn from_raw(raw: sys::ss_sound_outcome) -> SoundOutcome {
        match raw {
            sys::SS_SOUND_FINISHED => SoundOutcome::Finished,
            sys::SS_SOUND_REPLACED => SoundOutcome::Replaced,
            sys::SS_SOUND_COALESCED => SoundOutcome::Coalesced,
            sys::SS_SOUND_SILENCED => SoundOutcome::Silenced,
            sys::SS_SOUND_DISPOSED => SoundOutcome::Disposed,
            _ => SoundOutcome::Failed,
        }
    }
}

/// Options of a registry; `Default` gives the library's.
#[derive(Debug, Clone, PartialEq)]
pub struct SoundRegistryOptions {
    /// Sounds at once; 1 (default): a new one replaces the one playing.
    pub max_concurrent: u32,
    /// Seconds within which the same sound again is dropped; default 0.08.
    pub coalescing_window: f64,
    /// Longest sound accepted, seconds; default 30.
    pub maximum_duration: f64,
    /// The freedesktop sound theme; `None`: "freedesktop".
    pub theme: Option<String>,
}

impl Default for SoundRegistryOptions {
    fn default() -> SoundRegistryOptions {
        SoundRegistryOptions { max_concurrent: 1, coalescing_window: 0.08, maximum_duration: 30.0, theme: None }
    }
}

type PlayCallback = Box<dyn Fn(u32, SoundOutcome) + Send + Sync>;
type AttentionCallback = Box<dyn Fn(u32) + Send + Sync>;
const ATTENTION: u8 = 0;

handle!(
    /// A registry of short system sounds with its own scene on a device. Dropping it stops its
    /// sounds and frees them.
    SoundRegistry, sys::ss_sound_registry, sys::ss_sound_registry_destroy
);

impl Device {
    /// Creates a system-sound registry with the default options.
    pub fn create_sound_registry(&self) -> Result<SoundRegistry> {
        self.create_sound_registry_with(&SoundRegistryOptions::default())
    }

    /// Creates a system-sound registry.
    pub fn create_sound_registry_with(&self, options: &SoundRegistryOptions) -> Result<SoundRegistry> {
        let theme = options.theme.as_deref().map(|t| c_string(t, "the theme")).transpose()?;
        let mut raw_options: sys::ss_sound_registry_options = unsafe { std::mem::zeroed() };
        // SAFETY: a valid struct to fill.
        check(unsafe { sys::ss_sound_registry_options_init(&mut raw_options) })?;
        raw_options.max_concurrent = options.max_concurrent.min(i32::MAX as u32) as i32;
        raw_options.coalescing_window = options.coalescing_window;
        raw_options.maximum_duration = options.maximum_duration;
        raw_options.theme = ptr_or_null(&theme);
        let mut raw = ptr::null_mut();
        // SAFETY: the options and theme live until the call returns.
        check(unsafe { sys::ss_sound_registry_create(self.as_raw(), &raw_options, &mut raw) })?;
        Ok(SoundRegistry::from_raw(raw))
    }
}

unsafe extern "C" fn played(_: *mut sys::ss_sound_registry, id: u32, outcome: sys::ss_sound_outcome, user_data: *mut c_void) {
    guard(|| {
        if let Some(callback) = take::<PlayCallback>(user_data) {
            callback(id, SoundOutcome::from_raw(outcome));
        }
    })
}

impl SoundRegistry {
    /// Registers a sound file; gives its id.
    pub fn register_file(&self, path: impl AsRef<Path>) -> Result<u32> {
        let path = c_path(path.as_ref())?;
        out!(|p| sys::ss_sound_register_file(self.raw, path.as_ptr(), p))
    }
    /// Registers a sound file held in memory (copied); `name` names it in error messages.
    pub fn register_memory(&self, data: &[u8], name: Option<&str>) -> Result<u32> {
        let name = name.map(|n| c_string(n, "the name")).transpose()?;
        out!(|p| sys::ss_sound_register_memory(self.raw, data.as_ptr().cast(), data.len(), ptr_or_null(&name), p))
    }
    /// Registers a freedesktop sound-theme event ("bell", "message-new-instant", ...).
    pub fn register_event(&self, event: &str) -> Result<u32> {
        let event = c_string(event, "the event")?;
        out!(|p| sys::ss_sound_register_event(self.raw, event.as_ptr(), p))
    }
    /// Frees a registered sound; its id becomes unknown.
    pub fn dispose(&self, id: u32) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_sound_dispose(self.raw, id) })
    }

    fn play_with(
        &self,
        done: Option<PlayCallback>,
        call: impl FnOnce(sys::ss_sound_callback, *mut c_void) -> sys::ss_result,
    ) -> Result<()> {
        let Some(done) = done else {
            return check(call(None, ptr::null_mut()));
        };
        let user_data = Registration::new::<PlayCallback>(done).into_one_shot();
        let result = check(call(Some(played), user_data));
        if result.is_err() {
            // A play that fails at once has called back already (outcome Failed), unless the
            // handle itself was refused; either way nothing is left to call.
            drop(take::<PlayCallback>(user_data));
        }
        result
    }

    /// Plays a registered sound.
    pub fn play(&self, id: u32) -> Result<()> {
        // SAFETY: no callback.
        self.play_with(None, |cb, ud| unsafe { sys::ss_sound_play(self.raw, id, cb, ud) })
    }
    /// Plays a registered sound and calls `done` (id, outcome) exactly once when it ends: on the
    /// device's update thread, or inside this call when it ends at once.
    pub fn play_then(&self, id: u32, done: impl Fn(u32, SoundOutcome) + Send + Sync + 'static) -> Result<()> {
        // SAFETY: the trampoline takes the closure out of the table when it is called.
        self.play_with(Some(Box::new(done)), |cb, ud| unsafe { sys::ss_sound_play(self.raw, id, cb, ud) })
    }
    /// Plays a registered sound as an alert: it also calls the attention callback.
    pub fn play_alert(&self, id: u32) -> Result<()> {
        // SAFETY: no callback.
        self.play_with(None, |cb, ud| unsafe { sys::ss_sound_play_alert(self.raw, id, cb, ud) })
    }
    /// Plays a sound-theme event by name (registered on first use).
    pub fn play_event(&self, event: &str, alert: bool) -> Result<()> {
        let event = c_string(event, "the event")?;
        // SAFETY: the event lives until the call returns.
        self.play_with(None, |cb, ud| unsafe { sys::ss_sound_play_event(self.raw, event.as_ptr(), flag(alert), cb, ud) })
    }
    /// [`SoundRegistry::play_event`], calling `done` exactly once when it ends.
    pub fn play_event_then(
        &self,
        event: &str,
        alert: bool,
        done: impl Fn(u32, SoundOutcome) + Send + Sync + 'static,
    ) -> Result<()> {
        let event = c_string(event, "the event")?;
        // SAFETY: the event lives until the call returns.
        self.play_with(Some(Box::new(done)), |cb, ud| unsafe {
            sys::ss_sound_play_event(self.raw, event.as_ptr(), flag(alert), cb, ud)
        })
    }
    /// Plays a sound file (registered on first use).
    pub fn play_file(&self, path: impl AsRef<Path>, alert: bool) -> Result<()> {
        let path = c_path(path.as_ref())?;
        // SAFETY: the path lives until the call returns.
        self.play_with(None, |cb, ud| unsafe { sys::ss_sound_play_file(self.raw, path.as_ptr(), flag(alert), cb, ud) })
    }
    /// [`SoundRegistry::play_file`], calling `done` exactly once when it ends.
    pub fn play_file_then(
        &self,
        path: impl AsRef<Path>,
        alert: bool,
        done: impl Fn(u32, SoundOutcome) + Send + Sync + 'static,
    ) -> Result<()> {
        let path = c_path(path.as_ref())?;
        // SAFETY: the path lives until the call returns.
        self.play_with(Some(Box::new(done)), |cb, ud| unsafe {
            sys::ss_sound_play_file(self.raw, path.as_ptr(), flag(alert), cb, ud)
        })
    }
    /// The registry's volume, 0 ... 1.
    pub fn set_volume(&self, volume: f32) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_sound_registry_set_volume(self.raw, volume) })
    }
    /// The registry's volume.
    pub fn volume(&self) -> Result<f32> {
        out!(|p| sys::ss_sound_registry_get_volume(self.raw, p))
    }
    /// Turns the registry's sounds on or off (off: plays end [`SoundOutcome::Silenced`]).
    pub fn set_enabled(&self, enabled: bool) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_sound_registry_set_enabled(self.raw, flag(enabled)) })
    }
    /// Whether the registry's sounds are on.
    pub fn is_enabled(&self) -> Result<bool> {
        out!(|p| sys::ss_sound_registry_is_enabled(self.raw, p)).map(|v: i32| v != 0)
    }
    /// Calls `callback` (the sound's id) when an alert plays, on the thread that played it.
    pub fn on_attention(&self, callback: impl Fn(u32) + Send + Sync + 'static) -> Result<()> {
        unsafe extern "C" fn call(_: *mut sys::ss_sound_registry, id: u32, user_data: *mut c_void) {
            guard(|| {
                if let Some(callback) = find::<AttentionCallback>(user_data) {
                    callback(id);
                }
            })
        }
        let registration = Registration::new::<AttentionCallback>(Box::new(callback));
        // SAFETY: the trampoline finds the closure by key while it is registered.
        check(unsafe { sys::ss_sound_registry_set_attention_callback(self.raw, Some(call), registration.user_data()) })?;
        self.callbacks.replace(ATTENTION, Some(registration));
        Ok(())
    }
}

