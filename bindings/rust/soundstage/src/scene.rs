//! Scenes: a listener and sources, mixed with the device's other scenes (an OpenAL context).
use std::os::raw::c_void;
use std::ptr;

use soundstage_sys as sys;

use crate::callbacks::{find, guard, Registration};
use crate::error::{check, Result};
use crate::types::{flag, read_levels, Levels, Vec3};
use crate::{handle, out, Device, Group, Source, SourceId};

/// Distance models (as OpenAL's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum DistanceModel {
    /// No attenuation by distance.
    None,
    /// Inverse distance.
    Inverse,
    /// Inverse distance, clamped (the default).
    #[default]
    InverseClamped,
    /// Linear.
    Linear,
    /// Linear, clamped.
    LinearClamped,
    /// Exponent.
    Exponent,
    /// Exponent, clamped.
    ExponentClamped,
}

impl DistanceModel {
    fn raw(self) -> sys::ss_distance_model {
        use DistanceModel::*;
        match self {
            None => sys::SS_DISTANCE_NONE,
            Inverse => sys::SS_DISTANCE_INVERSE,
            InverseClamped => sys::SS_DISTANCE_INVERSE_CLAMPED,
            Linear => sys::SS_DISTANCE_LINEAR,
            LinearClamped => sys::SS_DISTANCE_LINEAR_CLAMPED,
            Exponent => sys::SS_DISTANCE_EXPONENT,
            ExponentClamped => sys::SS_DISTANCE_EXPONENT_CLAMPED,
        }
    }
    fn from_raw(raw: sys::ss_distance_model) -> DistanceModel {
        use DistanceModel::*;
        match raw {
            sys::SS_DISTANCE_NONE => None,
            sys::SS_DISTANCE_INVERSE => Inverse,
            sys::SS_DISTANCE_LINEAR => Linear,
            sys::SS_DISTANCE_LINEAR_CLAMPED => LinearClamped,
            sys::SS_DISTANCE_EXPONENT => Exponent,
            sys::SS_DISTANCE_EXPONENT_CLAMPED => ExponentClamped,
            _ => InverseClamped,
        }
    }
}

/// What the voice manager did to a source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VoiceEventKind {
    /// A new play under a full voice limit stopped it.
    Stolen,
    /// It lost its voice to more important sources; its clock runs on.
    Virtualized,
    /// It got a voice back and plays on at its clock's offset.
    Realized,
}

/// A voice event: which source (compare with [`Source::id`]; `None` for a scene file's source
/// nobody asked for) and what happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct VoiceEvent {
    /// The source.
    pub source: Option<SourceId>,
    /// What happened to it.
    pub kind: VoiceEventKind,
}

/// Counters of a scene's voice manager.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct VoiceStatistics {
    /// Playing sources that hold an OpenAL voice now.
    pub real_voices: u32,
    /// Playing sources without one.
    pub virtual_voices: u32,
    /// Sources stopped by voice limits.
    pub steals: u64,
    /// Times a source lost its voice.
    pub virtualizations: u64,
    /// Times a source got one back.
    pub realizations: u64,
    /// Engine updates that ranked the voices.
    pub rankings: u64,
    /// The last ranking's cost, microseconds.
    pub last_ranking_us: f64,
    /// The most a ranking cost, microseconds.
    pub peak_ranking_us: f64,
    /// All rankings' cost, microseconds.
    pub total_ranking_us: f64,
}

type VoiceCallback = Box<dyn Fn(VoiceEvent) + Send + Sync>;
const VOICE: u8 = 0;

handle!(
    /// A scene: a listener and sources. Dropping it stops its sources and destroys its sources',
    /// groups', zones' and voice limits' handles.
    Scene, sys::ss_scene, sys::ss_scene_destroy
);

impl Device {
    /// Creates a scene with the default source budget (256 sources playing or paused at once).
    pub fn create_scene(&self) -> Result<Scene> {
        self.create_scene_with_budget(0)
    }

    /// Creates a scene where `source_budget` (1 ... 4096) sources may play or be paused at once.
    pub fn create_scene_with_budget(&self, source_budget: u32) -> Result<Scene> {
        let mut raw = ptr::null_mut();
        // SAFETY: plain values and an out-pointer.
        check(unsafe { sys::ss_scene_create(self.as_raw(), source_budget.min(i32::MAX as u32) as i32, &mut raw) })?;
        Ok(Scene::from_raw(raw))
    }
}

impl Scene {
    /// Sets the distance model.
    pub fn set_distance_model(&self, model: DistanceModel) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_scene_set_distance_model(self.raw, model.raw()) })
    }
    /// The distance model.
    pub fn distance_model(&self) -> Result<DistanceModel> {
        out!(|p| sys::ss_scene_get_distance_model(self.raw, p)).map(DistanceModel::from_raw)
    }
    /// Doppler factor, >= 0 (0 turns Doppler off); default 1.
    pub fn set_doppler_factor(&self, factor: f32) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_scene_set_doppler_factor(self.raw, factor) })
    }
    /// The Doppler factor.
    pub fn doppler_factor(&self) -> Result<f32> {
        out!(|p| sys::ss_scene_get_doppler_factor(self.raw, p))
    }
    /// Speed of sound in units per second, > 0; default 343.3.
    pub fn set_speed_of_sound(&self, speed: f32) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_scene_set_speed_of_sound(self.raw, speed) })
    }
    /// The speed of sound in units per second.
    pub fn speed_of_sound(&self) -> Result<f32> {
        out!(|p| sys::ss_scene_get_speed_of_sound(self.raw, p))
    }
    /// How many of the scene's sources play or are paused now.
    pub fn active_source_count(&self) -> Result<u32> {
        out!(|p| sys::ss_scene_get_active_source_count(self.raw, p)).map(|n: i32| n.max(0) as u32)
    }
    /// How many values the scene's objects refused (NaN, out of range) since it was made.
    pub fn refused_value_count(&self) -> Result<u64> {
        out!(|p| sys::ss_scene_get_refused_value_count(self.raw, p)).map(|n: i64| n.max(0) as u64)
    }

    /// Moves the listener.
    pub fn set_listener_position(&self, position: impl Into<Vec3>) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_listener_set_position(self.raw, position.into().raw()) })
    }
    /// The listener's position.
    pub fn listener_position(&self) -> Result<Vec3> {
        out!(|p| sys::ss_listener_get_position(self.raw, p)).map(Vec3::from_raw)
    }
    /// The listener's velocity, for Doppler.
    pub fn set_listener_velocity(&self, velocity: impl Into<Vec3>) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_listener_set_velocity(self.raw, velocity.into().raw()) })
    }
    /// The listener's velocity.
    pub fn listener_velocity(&self) -> Result<Vec3> {
        out!(|p| sys::ss_listener_get_velocity(self.raw, p)).map(Vec3::from_raw)
    }
    /// Where the listener looks (`at`) and which way is up; the two must not be parallel.
    pub fn set_listener_orientation(&self, at: impl Into<Vec3>, up: impl Into<Vec3>) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_listener_set_orientation(self.raw, at.into().raw(), up.into().raw()) })
    }
    /// The listener's orientation: (at, up).
    pub fn listener_orientation(&self) -> Result<(Vec3, Vec3)> {
        let (mut at, mut up) = (Vec3::default().raw(), Vec3::default().raw());
        // SAFETY: two valid out-pointers.
        check(unsafe { sys::ss_listener_get_orientation(self.raw, &mut at, &mut up) })?;
        Ok((Vec3::from_raw(at), Vec3::from_raw(up)))
    }
    /// The listener's gain: the scene's master gain, >= 0.
    pub fn set_listener_gain(&self, gain: f32) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_listener_set_gain(self.raw, gain) })
    }
    /// The listener's gain.
    pub fn listener_gain(&self) -> Result<f32> {
        out!(|p| sys::ss_listener_get_gain(self.raw, p))
    }

    /// Runs `changes` as one batch: the property changes and plays it makes to the scene's
    /// sources and listener land in the same mixer update (a chord starts on one sample).
    /// Pause and stop act at once. The batch closes even if `changes` returns an error.
    pub fn batch<T>(&self, changes: impl FnOnce() -> Result<T>) -> Result<T> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_scene_begin_batch(self.raw) })?;
        let result = changes();
        // SAFETY: closes the batch opened above.
        let closed = check(unsafe { sys::ss_scene_end_batch(self.raw) });
        let value = result?;
        closed.map(|_| value)
    }

    /// Starts `sources` (of this scene or other scenes of the same device) on exactly the same
    /// sample, at `time` on the device's mix clock. A time in the past is an error; if one source
    /// cannot be set up, none is.
    pub fn play_at(&self, sources: &[&Source], time: f64) -> Result<()> {
        let raw: Vec<*mut sys::ss_source> = sources.iter().map(|s| s.as_raw()).collect();
        // SAFETY: raw holds raw.len() handles.
        check(unsafe { sys::ss_scene_play_at(self.raw, raw.as_ptr(), raw.len(), time) })
    }

    /// Starts `incoming` at level 0 and, over `seconds`, fades it up while `outgoing` fades down
    /// and then stops.
    pub fn crossfade(&self, outgoing: &Source, incoming: &Source, seconds: f64) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_scene_crossfade(self.raw, outgoing.as_raw(), incoming.as_raw(), seconds) })
    }

    /// Ducks `target` to `gain` (0 ... 1) over `attack` seconds while anything in `trigger`
    /// sounds, and brings it back over `release` seconds after.
    pub fn add_ducking(&self, target: &Group, trigger: &Group, gain: f32, attack: f64, release: f64) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_scene_add_ducking(self.raw, target.as_raw(), trigger.as_raw(), gain, attack, release) })
    }

    /// Turns metering of the scene (the summed power of its sources) on or off.
    pub fn set_metering(&self, enabled: bool) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_scene_set_metering(self.raw, flag(enabled)) })
    }
    /// Whether the scene is metered.
    pub fn is_metering(&self) -> Result<bool> {
        out!(|p| sys::ss_scene_is_metering(self.raw, p)).map(|v: i32| v != 0)
    }
    /// The scene's levels since the last reading.
    pub fn levels(&self) -> Result<Levels> {
        // SAFETY: the out-pointer is valid for the call.
        read_levels(|p| unsafe { sys::ss_scene_get_levels(self.raw, p) })
    }

    /// With voice virtualization on, any number of sources may play: the most important ones
    /// (priority, then audibility) get the budget's voices, the rest play silently.
    pub fn set_virtualizes_voices(&self, enabled: bool) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_scene_set_virtualizes_voices(self.raw, flag(enabled)) })?;
        if !enabled {
            self.callbacks.replace(VOICE, None); // turning it off drops the callback
        }
        Ok(())
    }
    /// Whether the scene virtualizes voices.
    pub fn virtualizes_voices(&self) -> Result<bool> {
        out!(|p| sys::ss_scene_get_virtualizes_voices(self.raw, p)).map(|v: i32| v != 0)
    }

    /// Calls `callback` for each voice event, on the thread of the engine update that ranked the
    /// voices (inside [`Device::render`] on a loopback device) or of the play that stole. Voice
    /// virtualization must be on.
    pub fn on_voice_event(&self, callback: impl Fn(VoiceEvent) + Send + Sync + 'static) -> Result<()> {
        unsafe extern "C" fn call(
            _: *mut sys::ss_scene,
            source: *mut sys::ss_source,
            kind: sys::ss_voice_event_kind,
            user_data: *mut c_void,
        ) {
            guard(|| {
                if let Some(callback) = find::<VoiceCallback>(user_data) {
                    let kind = match kind {
                        sys::SS_VOICE_STOLEN => VoiceEventKind::Stolen,
                        sys::SS_VOICE_VIRTUALIZED => VoiceEventKind::Virtualized,
                        _ => VoiceEventKind::Realized,
                    };
                    let source = if source.is_null() { None } else { Some(SourceId(source as usize)) };
                    callback(VoiceEvent { source, kind });
                }
            })
        }
        let registration = Registration::new::<VoiceCallback>(Box::new(callback));
        // SAFETY: the trampoline finds the closure by key while it is registered.
        check(unsafe { sys::ss_scene_set_voice_callback(self.raw, Some(call), registration.user_data()) })?;
        self.callbacks.replace(VOICE, Some(registration));
        Ok(())
    }

    /// The voice manager's counters.
    pub fn voice_statistics(&self) -> Result<VoiceStatistics> {
        let raw: sys::ss_voice_statistics = out!(|p| sys::ss_scene_get_voice_statistics(self.raw, p))?;
        Ok(VoiceStatistics {
            real_voices: raw.real_voices.max(0) as u32,
            virtual_voices: raw.virtual_voices.max(0) as u32,
            steals: raw.steals.max(0) as u64,
            virtualizations: raw.virtualizations.max(0) as u64,
            realizations: raw.realizations.max(0) as u64,
            rankings: raw.rankings.max(0) as u64,
            last_ranking_us: raw.last_ranking_us,
            peak_ranking_us: raw.peak_ranking_us,
            total_ranking_us: raw.total_ranking_us,
        })
    }
}
