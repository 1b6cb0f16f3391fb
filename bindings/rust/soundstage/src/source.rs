//! Sources: a sound in a scene — where it is, how it sounds, its playback.
use std::os::raw::c_void;
use std::path::Path;
use std::ptr;

use soundstage_sys as sys;

use crate::callbacks::{find, guard, Registration};
use crate::error::{check, Result};
use crate::strings::c_path;
use crate::types::{flag, read_levels, Levels, Vec3};
use crate::{handle, out, Buffer, Group, ReverbZone, Scene, VoiceLimit};

/// Playback states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SourceState {
    /// Never played, or rewound.
    Initial,
    /// Playing.
    Playing,
    /// Paused.
    Paused,
    /// Stopped, or played to its end.
    Stopped,
}

/// Identifies a source in a [`crate::VoiceEvent`]: equal to [`Source::id`] of the same source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SourceId(pub(crate) usize);

/// Options of a streaming source; `Default` gives the library's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StreamOptions {
    /// Seconds per queued buffer; default 0.25.
    pub buffer_duration: f64,
    /// Queued buffers; default 4.
    pub buffer_count: u32,
    /// Loop between `loop_start` and `loop_end`, gaplessly.
    pub looping: bool,
    /// Seconds; default 0.
    pub loop_start: f64,
    /// Seconds; `None`: the end of the file.
    pub loop_end: Option<f64>,
}

impl Default for StreamOptions {
    fn default() -> StreamOptions {
        StreamOptions { buffer_duration: 0.25, buffer_count: 4, looping: false, loop_start: 0.0, loop_end: None }
    }
}

type CompletionCallback = Box<dyn Fn() + Send + Sync>;
const COMPLETION: u8 = 0;

handle!(
    /// A sound in a scene. Dropping it stops it.
    Source, sys::ss_source, sys::ss_source_destroy
);

impl Scene {
    /// Creates a source playing `buffer` (`None`: none yet). It holds one of the scene's voices
    /// only while it plays or is paused.
    pub fn create_source(&self, buffer: Option<&Buffer>) -> Result<Source> {
        let mut raw = ptr::null_mut();
        let buffer = buffer.map_or(ptr::null_mut(), |b| b.as_raw());
        // SAFETY: plain handles and an out-pointer.
        check(unsafe { sys::ss_source_create(self.as_raw(), buffer, &mut raw) })?;
        Ok(Source::from_raw(raw))
    }

    /// Creates a source that streams the file at `path` (any length, bounded memory), decoded on
    /// a background thread.
    pub fn create_streaming_source(&self, path: impl AsRef<Path>, options: &StreamOptions) -> Result<Source> {
        let path = c_path(path.as_ref())?;
        let mut raw_options: sys::ss_stream_options = unsafe { std::mem::zeroed() };
        // SAFETY: a valid struct to fill.
        check(unsafe { sys::ss_stream_options_init(&mut raw_options) })?;
        raw_options.buffer_duration = options.buffer_duration;
        raw_options.buffer_count = options.buffer_count.min(i32::MAX as u32) as i32;
        raw_options.loops = flag(options.looping);
        raw_options.loop_start = options.loop_start;
        raw_options.loop_end = options.loop_end.unwrap_or(-1.0);
        let mut raw = ptr::null_mut();
        // SAFETY: the path and options live until the call returns.
        check(unsafe { sys::ss_source_create_streaming(self.as_raw(), path.as_ptr(), &raw_options, &mut raw) })?;
        Ok(Source::from_raw(raw))
    }
}

macro_rules! float_property {
    ($(#[$doc:meta])* $set:ident, $get:ident, $property:ident) => {
        $(#[$doc])*
        pub fn $set(&self, value: f32) -> Result<()> {
            // SAFETY: plain values.
            check(unsafe { sys::ss_source_set_float(self.raw, sys::$property, value) })
        }
        #[doc = concat!("Reads what [`Source::", stringify!($set), "`] sets.")]
        pub fn $get(&self) -> Result<f32> {
            out!(|p| sys::ss_source_get_float(self.raw, sys::$property, p))
        }
    };
}

impl Source {
    /// This source's identity in voice events.
    pub fn id(&self) -> SourceId {
        SourceId(self.raw as usize)
    }

    /// Moves the source (per frame; never waits for the mixer).
    pub fn set_position(&self, position: impl Into<Vec3>) -> Result<()> {
        let p = position.into();
        // SAFETY: plain values.
        check(unsafe { sys::ss_source_set_position(self.raw, p.x, p.y, p.z) })
    }
    /// The source's position.
    pub fn position(&self) -> Result<Vec3> {
        out!(|p| sys::ss_source_get_vec3(self.raw, sys::SS_SOURCE_POSITION, p)).map(Vec3::from_raw)
    }
    /// The source's velocity, for Doppler (per frame).
    pub fn set_velocity(&self, velocity: impl Into<Vec3>) -> Result<()> {
        let v = velocity.into();
        // SAFETY: plain values.
        check(unsafe { sys::ss_source_set_velocity(self.raw, v.x, v.y, v.z) })
    }
    /// The source's velocity.
    pub fn velocity(&self) -> Result<Vec3> {
        out!(|p| sys::ss_source_get_vec3(self.raw, sys::SS_SOURCE_VELOCITY, p)).map(Vec3::from_raw)
    }
    /// Where the source faces; zero (the default) means omnidirectional.
    pub fn set_direction(&self, direction: impl Into<Vec3>) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_source_set_vec3(self.raw, sys::SS_SOURCE_DIRECTION, direction.into().raw()) })
    }
    /// Where the source faces.
    pub fn direction(&self) -> Result<Vec3> {
        out!(|p| sys::ss_source_get_vec3(self.raw, sys::SS_SOURCE_DIRECTION, p)).map(Vec3::from_raw)
    }

    float_property!(
        /// The source's gain, >= 0 (default 1).
        set_gain, gain, SS_SOURCE_GAIN);
    float_property!(
        /// The source's pitch, > 0 (2 doubles the frequency).
        set_pitch, pitch, SS_SOURCE_PITCH);
    float_property!(
        /// The least gain distance may give, 0 ... 1.
        set_min_gain, min_gain, SS_SOURCE_MIN_GAIN);
    float_property!(
        /// The most gain distance may give, 0 ... 1.
        set_max_gain, max_gain, SS_SOURCE_MAX_GAIN);
    float_property!(
        /// Distance at which the gain is unchanged, >= 0 (default 1).
        set_reference_distance, reference_distance, SS_SOURCE_REFERENCE_DISTANCE);
    float_property!(
        /// Distance beyond which it gets no quieter, >= 0 (default: no limit).
        set_max_distance, max_distance, SS_SOURCE_MAX_DISTANCE);
    float_property!(
        /// How fast it fades with distance, >= 0 (default 1).
        set_rolloff_factor, rolloff_factor, SS_SOURCE_ROLLOFF_FACTOR);
    float_property!(
        /// Inner cone angle in degrees, 0 ... 360.
        set_cone_inner_angle, cone_inner_angle, SS_SOURCE_CONE_INNER_ANGLE);
    float_property!(
        /// Outer cone angle in degrees, 0 ... 360.
        set_cone_outer_angle, cone_outer_angle, SS_SOURCE_CONE_OUTER_ANGLE);
    float_property!(
        /// Gain outside the outer cone, 0 ... 1.
        set_cone_outer_gain, cone_outer_gain, SS_SOURCE_CONE_OUTER_GAIN);
    float_property!(
        /// Occlusion in dB, -100 ... 0: behind a wall (direct sound and reverb).
        set_occlusion, occlusion, SS_SOURCE_OCCLUSION);
    float_property!(
        /// Obstruction in dB, -100 ... 0: behind a pillar (direct sound only).
        set_obstruction, obstruction, SS_SOURCE_OBSTRUCTION);
    float_property!(
        /// Air absorption factor, 0 ... 10.
        set_air_absorption, air_absorption, SS_SOURCE_AIR_ABSORPTION);
    float_property!(
        /// How much reaches every reverb zone, 0 ... 1 (default 1).
        set_reverb_send, reverb_send, SS_SOURCE_REVERB_SEND);

    /// Whether the source loops forever (a looping source never completes).
    pub fn set_looping(&self, looping: bool) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_source_set_looping(self.raw, flag(looping)) })
    }
    /// Whether the source loops.
    pub fn is_looping(&self) -> Result<bool> {
        out!(|p| sys::ss_source_is_looping(self.raw, p)).map(|v: i32| v != 0)
    }
    /// Whether position, velocity and direction are relative to the listener.
    pub fn set_head_relative(&self, relative: bool) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_source_set_head_relative(self.raw, flag(relative)) })
    }
    /// Whether the source is head-relative.
    pub fn is_head_relative(&self) -> Result<bool> {
        out!(|p| sys::ss_source_is_head_relative(self.raw, p)).map(|v: i32| v != 0)
    }
    /// Extra gapless plays after the first, 0 ... 10000 (from the next play).
    pub fn set_repeat_count(&self, repeats: u32) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_source_set_repeat_count(self.raw, repeats.min(i32::MAX as u32) as i32) })
    }
    /// Extra gapless plays after the first.
    pub fn repeat_count(&self) -> Result<u32> {
        out!(|p| sys::ss_source_get_repeat_count(self.raw, p)).map(|n: i32| n.max(0) as u32)
    }
    /// Changes the buffer (stops the source first); `None` for none.
    pub fn set_buffer(&self, buffer: Option<&Buffer>) -> Result<()> {
        // SAFETY: plain handles.
        check(unsafe { sys::ss_source_set_buffer(self.raw, buffer.map_or(ptr::null_mut(), |b| b.as_raw())) })
    }

    /// Starts the source, or resumes it when paused; restarts it when playing.
    pub fn play(&self) -> Result<()> {
        // SAFETY: plain handle.
        check(unsafe { sys::ss_source_play(self.raw) })
    }
    /// Pauses the source.
    pub fn pause(&self) -> Result<()> {
        // SAFETY: plain handle.
        check(unsafe { sys::ss_source_pause(self.raw) })
    }
    /// Stops the source (its completion callback does not run).
    pub fn stop(&self) -> Result<()> {
        // SAFETY: plain handle.
        check(unsafe { sys::ss_source_stop(self.raw) })
    }
    /// Stops the source and puts it back at its start.
    pub fn rewind(&self) -> Result<()> {
        // SAFETY: plain handle.
        check(unsafe { sys::ss_source_rewind(self.raw) })
    }
    /// Moves to `seconds` into the sound; on a stopped source the next play starts there.
    pub fn seek(&self, seconds: f64) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_source_seek(self.raw, seconds) })
    }
    /// The playback state.
    pub fn state(&self) -> Result<SourceState> {
        out!(|p| sys::ss_source_get_state(self.raw, p)).map(|state| match state {
            sys::SS_SOURCE_PLAYING => SourceState::Playing,
            sys::SS_SOURCE_PAUSED => SourceState::Paused,
            sys::SS_SOURCE_STOPPED => SourceState::Stopped,
            _ => SourceState::Initial,
        })
    }
    /// The play position in seconds.
    pub fn offset(&self) -> Result<f64> {
        out!(|p| sys::ss_source_get_offset(self.raw, p))
    }
    /// How loud the source reaches the listener now, as OpenAL computes it (to rank sources).
    pub fn audibility(&self) -> Result<f32> {
        out!(|p| sys::ss_source_get_audibility(self.raw, p))
    }

    /// Calls `callback` once each time the source plays to its end (not after [`Source::stop`]):
    /// inside [`crate::Device::render`] on a loopback device, on the device's update thread on an
    /// output. Replaces any earlier one.
    pub fn on_completion(&self, callback: impl Fn() + Send + Sync + 'static) -> Result<()> {
        unsafe extern "C" fn call(_: *mut sys::ss_source, user_data: *mut c_void) {
            guard(|| {
                if let Some(callback) = find::<CompletionCallback>(user_data) {
                    callback();
                }
            })
        }
        let registration = Registration::new::<CompletionCallback>(Box::new(callback));
        // SAFETY: the trampoline finds the closure by key while it is registered.
        check(unsafe { sys::ss_source_set_completion_callback(self.raw, Some(call), registration.user_data()) })?;
        self.callbacks.replace(COMPLETION, Some(registration));
        Ok(())
    }
    /// Removes the completion callback.
    pub fn clear_completion(&self) -> Result<()> {
        // SAFETY: NULL removes it.
        check(unsafe { sys::ss_source_set_completion_callback(self.raw, None, ptr::null_mut()) })?;
        self.callbacks.replace(COMPLETION, None);
        Ok(())
    }

    /// Fades the source's level (a multiplier on its gain) to `level` over `seconds` of mix
    /// time; with `stop_at_end` it stops when the fade ends.
    pub fn fade(&self, level: f32, seconds: f64, stop_at_end: bool) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_source_fade(self.raw, level, seconds, flag(stop_at_end)) })
    }
    /// Puts the source in `group` (`None`: none); the group must be of the same scene.
    pub fn set_group(&self, group: Option<&Group>) -> Result<()> {
        // SAFETY: plain handles.
        check(unsafe { sys::ss_source_set_group(self.raw, group.map_or(ptr::null_mut(), |g| g.as_raw())) })
    }
    /// The source's send level to one zone, 0 ... 1, over [`Source::set_reverb_send`]; `None`
    /// removes the override.
    pub fn set_zone_send(&self, zone: &ReverbZone, level: Option<f32>) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_source_set_zone_send(self.raw, zone.as_raw(), level.unwrap_or(-1.0)) })
    }
    /// The source's send level to one zone: its override, else the reverb send of every zone.
    pub fn zone_send(&self, zone: &ReverbZone) -> Result<f32> {
        out!(|p| sys::ss_source_get_zone_send(self.raw, zone.as_raw(), p))
    }
    /// Puts the source under `limit` (`None`: none).
    pub fn set_voice_limit(&self, limit: Option<&VoiceLimit>) -> Result<()> {
        // SAFETY: plain handles.
        check(unsafe { sys::ss_source_set_voice_limit(self.raw, limit.map_or(ptr::null_mut(), |l| l.as_raw())) })
    }
    /// The source's priority, -1,000,000 ... 1,000,000 (higher wins); default 0.
    pub fn set_priority(&self, priority: i32) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_source_set_priority(self.raw, priority) })
    }
    /// The source's priority.
    pub fn priority(&self) -> Result<i32> {
        out!(|p| sys::ss_source_get_priority(self.raw, p))
    }
    /// Whether the source plays virtually now (silent, its clock running).
    pub fn is_virtual(&self) -> Result<bool> {
        out!(|p| sys::ss_source_is_virtual(self.raw, p)).map(|v: i32| v != 0)
    }
    /// Turns metering of the source on or off.
    pub fn set_metering(&self, enabled: bool) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_source_set_metering(self.raw, flag(enabled)) })
    }
    /// Whether the source is metered.
    pub fn is_metering(&self) -> Result<bool> {
        out!(|p| sys::ss_source_is_metering(self.raw, p)).map(|v: i32| v != 0)
    }
    /// The source's levels since the last reading.
    pub fn levels(&self) -> Result<Levels> {
        // SAFETY: the out-pointer is valid for the call.
        read_levels(|p| unsafe { sys::ss_source_get_levels(self.raw, p) })
    }
    /// Streaming sources: how many times the queue ran dry and the engine restarted it.
    pub fn underrun_count(&self) -> Result<u32> {
        out!(|p| sys::ss_source_get_underrun_count(self.raw, p)).map(|n: i32| n.max(0) as u32)
    }
}
