//! Groups (buses) of sources: gain, mute, pitch, pause, fades, ducking.
use std::os::raw::c_void;
use std::ptr;

use soundstage_sys as sys;

use crate::callbacks::{guard, take, Registration};
use crate::error::{check, Result};
use crate::strings::c_string;
use crate::types::{flag, read_levels, Levels};
use crate::{handle, out, Scene};

type FadeCallback = Box<dyn Fn() + Send + Sync>;

handle!(
    /// A group of sources. The group lives on in the scene while sources or child groups use it.
    Group, sys::ss_group, sys::ss_group_destroy
);

impl Scene {
    /// Creates a group named `name`, under `parent` (`None`: top level).
    pub fn create_group(&self, name: &str, parent: Option<&Group>) -> Result<Group> {
        let name = c_string(name, "the group's name")?;
        let mut raw = ptr::null_mut();
        let parent = parent.map_or(ptr::null_mut(), |g| g.as_raw());
        // SAFETY: the name lives until the call returns.
        check(unsafe { sys::ss_group_create(self.as_raw(), name.as_ptr(), parent, &mut raw) })?;
        Ok(Group::from_raw(raw))
    }
}

impl Group {
    /// The group's gain, >= 0: multiplies its sources' and child groups' gain.
    pub fn set_gain(&self, gain: f32) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_group_set_gain(self.raw, gain) })
    }
    /// The group's gain.
    pub fn gain(&self) -> Result<f32> {
        out!(|p| sys::ss_group_get_gain(self.raw, p))
    }
    /// Mutes or unmutes the group (its sources keep playing, silently).
    pub fn set_muted(&self, muted: bool) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_group_set_muted(self.raw, flag(muted)) })
    }
    /// Whether the group is muted (its own flag, not its parents').
    pub fn is_muted(&self) -> Result<bool> {
        out!(|p| sys::ss_group_is_muted(self.raw, p)).map(|v: i32| v != 0)
    }
    /// The group's pitch, > 0: multiplies down the tree.
    pub fn set_pitch(&self, pitch: f32) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_group_set_pitch(self.raw, pitch) })
    }
    /// The group's own pitch (not multiplied by its parents').
    pub fn pitch(&self) -> Result<f32> {
        out!(|p| sys::ss_group_get_pitch(self.raw, p))
    }
    /// Pauses exactly what plays in the group and its children.
    pub fn pause(&self) -> Result<()> {
        // SAFETY: plain handle.
        check(unsafe { sys::ss_group_pause(self.raw) })
    }
    /// Resumes what [`Group::pause`] paused.
    pub fn resume(&self) -> Result<()> {
        // SAFETY: plain handle.
        check(unsafe { sys::ss_group_resume(self.raw) })
    }
    /// Whether the group is paused.
    pub fn is_paused(&self) -> Result<bool> {
        out!(|p| sys::ss_group_is_paused(self.raw, p)).map(|v: i32| v != 0)
    }
    /// Moves the group's gain to `gain` over `seconds` of mix time; with `stop_at_end` its
    /// sources stop when the fade ends.
    pub fn fade(&self, gain: f32, seconds: f64, stop_at_end: bool) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_group_fade(self.raw, gain, seconds, flag(stop_at_end), None, ptr::null_mut()) })
    }
    /// [`Group::fade`], calling `done` once when the fade ends (on the device's update thread;
    /// inside [`crate::Device::render`] on a loopback device).
    pub fn fade_then(
        &self,
        gain: f32,
        seconds: f64,
        stop_at_end: bool,
        done: impl Fn() + Send + Sync + 'static,
    ) -> Result<()> {
        unsafe extern "C" fn call(_: *mut sys::ss_group, user_data: *mut c_void) {
            guard(|| {
                if let Some(done) = take::<FadeCallback>(user_data) {
                    done();
                }
            })
        }
        let user_data = Registration::new::<FadeCallback>(Box::new(done)).into_one_shot();
        // SAFETY: the trampoline takes the closure out of the table when the fade ends.
        let result = check(unsafe { sys::ss_group_fade(self.raw, gain, seconds, flag(stop_at_end), Some(call), user_data) });
        if result.is_err() {
            drop(take::<FadeCallback>(user_data));
        }
        result
    }
    /// Turns metering of the group on or off.
    pub fn set_metering(&self, enabled: bool) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_group_set_metering(self.raw, flag(enabled)) })
    }
    /// Whether the group is metered.
    pub fn is_metering(&self) -> Result<bool> {
        out!(|p| sys::ss_group_is_metering(self.raw, p)).map(|v: i32| v != 0)
    }
    /// The group's levels since the last reading.
    pub fn levels(&self) -> Result<Levels> {
        // SAFETY: the out-pointer is valid for the call.
        read_levels(|p| unsafe { sys::ss_group_get_levels(self.raw, p) })
    }
}
