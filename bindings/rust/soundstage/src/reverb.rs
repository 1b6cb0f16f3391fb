//! Reverb zones: EFX reverbs heard where the listener is.
use std::ptr;

use soundstage_sys as sys;

use crate::error::{check, Result};
use crate::strings::{c_string, owned};
use crate::types::Vec3;
use crate::{handle, out, Scene};

/// Where a reverb zone is heard fully; outside it the zone fades out linearly over `fade` units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Region {
    /// Everywhere.
    Everywhere,
    /// Within `radius` of `center`.
    Sphere {
        /// The centre.
        center: Vec3,
        /// The radius.
        radius: f32,
        /// Fade-out distance.
        fade: f32,
    },
    /// Between `min` and `max`.
    Box {
        /// One corner.
        min: Vec3,
        /// The opposite corner.
        max: Vec3,
        /// Fade-out distance.
        fade: f32,
    },
}

impl Region {
    fn raw(&self) -> sys::ss_reverb_region {
        let zero = Vec3::default().raw();
        let mut raw = sys::ss_reverb_region { kind: sys::SS_REGION_EVERYWHERE, center: zero, radius: 0.0, min: zero, max: zero, fade: 0.0 };
        match *self {
            Region::Everywhere => {}
            Region::Sphere { center, radius, fade } => {
                raw.kind = sys::SS_REGION_SPHERE;
                raw.center = center.raw();
                raw.radius = radius;
                raw.fade = fade;
            }
            Region::Box { min, max, fade } => {
                raw.kind = sys::SS_REGION_BOX;
                raw.min = min.raw();
                raw.max = max.raw();
                raw.fade = fade;
            }
        }
        raw
    }

    fn from_raw(raw: &sys::ss_reverb_region) -> Region {
        match raw.kind {
            sys::SS_REGION_SPHERE => Region::Sphere { center: Vec3::from_raw(raw.center), radius: raw.radius, fade: raw.fade },
            sys::SS_REGION_BOX => Region::Box { min: Vec3::from_raw(raw.min), max: Vec3::from_raw(raw.max), fade: raw.fade },
            _ => Region::Everywhere,
        }
    }
}

/// The names of the reverb presets ("cave", "castle-small-room", ...: OpenAL Soft's 113).
pub fn reverb_presets() -> Vec<String> {
    // SAFETY: no arguments.
    let count = unsafe { sys::ss_reverb_preset_count() };
    // SAFETY: each name is static or NULL.
    (0..count).filter_map(|i| unsafe { owned(sys::ss_reverb_preset_name(i)) }).collect()
}

handle!(
    /// A reverb zone (an EFX effect slot running an EAX reverb). Dropping it removes it.
    ReverbZone, sys::ss_reverb_zone, sys::ss_reverb_zone_destroy
);

impl Scene {
    /// Creates a reverb zone named `name` running `preset` (from [`reverb_presets`]), heard in
    /// `region` at `gain` (0 ... 1).
    pub fn create_reverb_zone(&self, name: &str, preset: &str, region: Region, gain: f32) -> Result<ReverbZone> {
        let name = c_string(name, "the zone's name")?;
        let preset = c_string(preset, "the preset")?;
        let region = region.raw();
        let mut raw = ptr::null_mut();
        // SAFETY: the strings and region live until the call returns.
        check(unsafe { sys::ss_reverb_zone_create(self.as_raw(), name.as_ptr(), preset.as_ptr(), &region, gain, &mut raw) })?;
        Ok(ReverbZone::from_raw(raw))
    }
}

impl ReverbZone {
    /// Switches to another preset.
    pub fn set_preset(&self, preset: &str) -> Result<()> {
        let preset = c_string(preset, "the preset")?;
        // SAFETY: the preset lives until the call returns.
        check(unsafe { sys::ss_reverb_zone_set_preset(self.raw, preset.as_ptr()) })
    }
    /// Changes one value of the reverb, named as in scene files ("decayTime", "gainHF", ...).
    pub fn set_value(&self, setting: &str, value: f32) -> Result<()> {
        let setting = c_string(setting, "the setting")?;
        // SAFETY: the name lives until the call returns.
        check(unsafe { sys::ss_reverb_zone_set_value(self.raw, setting.as_ptr(), value) })
    }
    /// One value of the reverb, named as for [`ReverbZone::set_value`] (after
    /// [`ReverbZone::set_preset`], the new preset's).
    pub fn value(&self, setting: &str) -> Result<f32> {
        let setting = c_string(setting, "the setting")?;
        out!(|p| sys::ss_reverb_zone_get_value(self.raw, setting.as_ptr(), p))
    }
    /// The zone's gain, 0 ... 1.
    pub fn set_gain(&self, gain: f32) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_reverb_zone_set_gain(self.raw, gain) })
    }
    /// The zone's gain.
    pub fn gain(&self) -> Result<f32> {
        out!(|p| sys::ss_reverb_zone_get_gain(self.raw, p))
    }
    /// Moves the zone's region.
    pub fn set_region(&self, region: Region) -> Result<()> {
        let region = region.raw();
        // SAFETY: the region lives until the call returns.
        check(unsafe { sys::ss_reverb_zone_set_region(self.raw, &region) })
    }
    /// The zone's region.
    pub fn region(&self) -> Result<Region> {
        out!(|p| sys::ss_reverb_zone_get_region(self.raw, p)).map(|r| Region::from_raw(&r))
    }
    /// How much of the zone the listener hears where it is now, 0 ... 1.
    pub fn weight(&self) -> Result<f32> {
        out!(|p| sys::ss_reverb_zone_get_weight(self.raw, p))
    }
}
