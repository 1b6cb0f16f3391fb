//! Voice limits: caps on how many sources of a kind sound at once.
use std::ptr;

use soundstage_sys as sys;

use crate::error::{check, Result};
use crate::handle;
use crate::strings::c_string;
use crate::Scene;

/// What a voice limit does when one more source of its kind plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StealPolicy {
    /// Stops the oldest.
    Oldest,
    /// Stops the quietest.
    Quietest,
    /// Stops the farthest.
    Farthest,
    /// Refuses the new play ([`crate::ErrorCode::VoiceLimitReached`]).
    None,
}

handle!(
    /// A cap on how many of its sources sound at once. Sources keep their limit after it is
    /// dropped.
    VoiceLimit, sys::ss_voice_limit, sys::ss_voice_limit_destroy
);

impl Scene {
    /// Creates a voice limit: at most `max_voices` (>= 1) of its sources sound at once.
    pub fn create_voice_limit(&self, name: &str, max_voices: u32, policy: StealPolicy) -> Result<VoiceLimit> {
        let name = c_string(name, "the limit's name")?;
        let policy = match policy {
            StealPolicy::Oldest => sys::SS_STEAL_OLDEST,
            StealPolicy::Quietest => sys::SS_STEAL_QUIETEST,
            StealPolicy::Farthest => sys::SS_STEAL_FARTHEST,
            StealPolicy::None => sys::SS_STEAL_NONE,
        };
        let mut raw = ptr::null_mut();
        // SAFETY: the name lives until the call returns.
        check(unsafe {
            sys::ss_voice_limit_create(self.as_raw(), name.as_ptr(), max_voices.min(i32::MAX as u32) as i32, policy, &mut raw)
        })?;
        Ok(VoiceLimit::from_raw(raw))
    }
}
