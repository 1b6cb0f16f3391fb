//! Small values shared by several objects.
use std::os::raw::{c_char, c_void};

use soundstage_sys as sys;

use crate::callbacks::guard;
use crate::error::{check, Result};
use crate::strings::owned;

/// A position, velocity or direction in metres (OpenAL's axes: +x right, +y up, the listener
/// looks down -z by default).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Vec3 {
    /// Right.
    pub x: f32,
    /// Up.
    pub y: f32,
    /// Towards the listener's back.
    pub z: f32,
}

impl Vec3 {
    /// The vector (x, y, z).
    pub const fn new(x: f32, y: f32, z: f32) -> Vec3 {
        Vec3 { x, y, z }
    }
    pub(crate) fn raw(self) -> sys::ss_vec3 {
        sys::ss_vec3 { x: self.x, y: self.y, z: self.z }
    }
    pub(crate) fn from_raw(v: sys::ss_vec3) -> Vec3 {
        Vec3 { x: v.x, y: v.y, z: v.z }
    }
}

impl From<[f32; 3]> for Vec3 {
    fn from([x, y, z]: [f32; 3]) -> Vec3 {
        Vec3 { x, y, z }
    }
}

impl From<(f32, f32, f32)> for Vec3 {
    fn from((x, y, z): (f32, f32, f32)) -> Vec3 {
        Vec3 { x, y, z }
    }
}

/// Speaker layouts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChannelLayout {
    /// One channel.
    Mono,
    /// Left, right.
    Stereo,
    /// Four speakers.
    Quad,
    /// 5.1 surround.
    Surround51,
    /// 6.1 surround.
    Surround61,
    /// 7.1 surround.
    Surround71,
}

impl ChannelLayout {
    pub(crate) fn raw(self) -> sys::ss_channel_layout {
        match self {
            ChannelLayout::Mono => sys::SS_LAYOUT_MONO,
            ChannelLayout::Stereo => sys::SS_LAYOUT_STEREO,
            ChannelLayout::Quad => sys::SS_LAYOUT_QUAD,
            ChannelLayout::Surround51 => sys::SS_LAYOUT_5_1,
            ChannelLayout::Surround61 => sys::SS_LAYOUT_6_1,
            ChannelLayout::Surround71 => sys::SS_LAYOUT_7_1,
        }
    }
    /// How many channels a frame has.
    pub fn channels(self) -> usize {
        self.raw() as usize
    }
}

/// File formats for rendering and recording.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FileFormat {
    /// WAV, 16-bit PCM.
    WavPcm16,
    /// WAV, 24-bit PCM.
    WavPcm24,
    /// WAV, 32-bit float.
    WavFloat32,
    /// FLAC.
    Flac,
    /// Ogg Vorbis.
    OggVorbis,
    /// Ogg Opus.
    Opus,
    /// MP3.
    Mp3,
    /// CAF, 16-bit PCM.
    CafPcm16,
    /// AIFF, 16-bit PCM.
    AiffPcm16,
    /// AAC-LC in M4A, through FFmpeg ([`crate::ErrorCode::CodecUnavailable`] without it).
    M4aAac,
    /// Apple Lossless in M4A, through FFmpeg.
    M4aAlac,
    /// iLBC speech in CAF as iOS writes it (8 kHz mono: the mix is mixed down and resampled).
    CafIlbc,
}

impl FileFormat {
    pub(crate) fn raw(self) -> sys::ss_file_format {
        use FileFormat::*;
        match self {
            WavPcm16 => sys::SS_FORMAT_WAV_PCM16,
            WavPcm24 => sys::SS_FORMAT_WAV_PCM24,
            WavFloat32 => sys::SS_FORMAT_WAV_FLOAT32,
            Flac => sys::SS_FORMAT_FLAC,
            OggVorbis => sys::SS_FORMAT_OGG_VORBIS,
            Opus => sys::SS_FORMAT_OPUS,
            Mp3 => sys::SS_FORMAT_MP3,
            CafPcm16 => sys::SS_FORMAT_CAF_PCM16,
            AiffPcm16 => sys::SS_FORMAT_AIFF_PCM16,
            M4aAac => sys::SS_FORMAT_M4A_AAC,
            M4aAlac => sys::SS_FORMAT_M4A_ALAC,
            CafIlbc => sys::SS_FORMAT_CAF_ILBC,
        }
    }
}

/// Levels of a meter since the last reading, per channel, in dBFS (0 = full scale, -160 =
/// silence).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Levels {
    /// Frames measured since the last reading.
    pub frames: usize,
    /// RMS power per channel (empty when nothing was metered).
    pub average_power: Vec<f32>,
    /// Peak power per channel.
    pub peak_power: Vec<f32>,
}

impl Levels {
    pub(crate) fn from_raw(raw: &sys::ss_levels) -> Levels {
        let channels = (raw.channels.clamp(0, 8)) as usize;
        Levels {
            frames: raw.frames.max(0) as usize,
            average_power: raw.average_power[..channels].to_vec(),
            peak_power: raw.peak_power[..channels].to_vec(),
        }
    }
}

/// Reads a meter through `call`.
pub(crate) fn read_levels(call: impl FnOnce(*mut sys::ss_levels) -> sys::ss_result) -> Result<Levels> {
    let mut raw = sys::ss_levels { channels: 0, frames: 0, average_power: [0.0; 8], peak_power: [0.0; 8] };
    check(call(&mut raw))?;
    Ok(Levels::from_raw(&raw))
}

/// Runs an enumeration that calls back with (name, description) pairs on the calling thread.
pub(crate) fn collect_names(
    enumerate: impl FnOnce(sys::ss_name_callback, *mut c_void) -> sys::ss_result,
) -> Result<Vec<(String, Option<String>)>> {
    unsafe extern "C" fn add(name: *const c_char, description: *const c_char, user_data: *mut c_void) {
        guard(|| {
            // SAFETY: user_data is the Vec below, alive for the enumeration, which calls back on
            // this thread only; the strings are valid during the call.
            let names = &mut *(user_data as *mut Vec<(String, Option<String>)>);
            if let Some(name) = owned(name) {
                names.push((name, owned(description)));
            }
        })
    }
    let mut names: Vec<(String, Option<String>)> = Vec::new();
    check(enumerate(Some(add), &mut names as *mut _ as *mut c_void))?;
    Ok(names)
}

/// A C `int` flag.
pub(crate) fn flag(value: bool) -> std::os::raw::c_int {
    value as std::os::raw::c_int
}

/// A tri-state from `None` (the library decides), `Some(false)`, `Some(true)`.
pub(crate) fn tristate(value: Option<bool>) -> sys::ss_tristate {
    match value {
        None => sys::SS_DEFAULT,
        Some(false) => sys::SS_OFF,
        Some(true) => sys::SS_ON,
    }
}
