//! Buffers: decoded audio shared by any number of sources of one device.
use std::path::Path;
use std::ptr;

use soundstage_sys as sys;

use crate::error::{check, Error, Result};
use crate::strings::{c_path, c_string, ptr_or_null};
use crate::{handle, out, Device};

/// A buffer's shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BufferInfo {
    /// Frames.
    pub frames: u64,
    /// Channels per frame.
    pub channels: usize,
    /// Hz.
    pub sample_rate: u32,
    /// Seconds.
    pub duration: f64,
}

handle!(
    /// Decoded audio. Mono buffers are positioned in 3D; others play straight to the speakers.
    /// Sources playing it keep its audio after it is dropped.
    Buffer, sys::ss_buffer, sys::ss_buffer_destroy
);

fn made(call: impl FnOnce(*mut *mut sys::ss_buffer) -> sys::ss_result) -> Result<Buffer> {
    let mut raw = ptr::null_mut();
    check(call(&mut raw))?;
    Ok(Buffer::from_raw(raw))
}

impl Device {
    /// Decodes the sound file at `path` (WAV, AIFF, CAF, FLAC, Ogg Vorbis/Opus, MP3, M4A...).
    /// Decoded once per device and cached by path.
    pub fn load_buffer(&self, path: impl AsRef<Path>) -> Result<Buffer> {
        let path = c_path(path.as_ref())?;
        // SAFETY: the path lives until the call returns.
        made(|out| unsafe { sys::ss_buffer_load_file(self.as_raw(), path.as_ptr(), out) })
    }

    /// Decodes a whole sound file held in memory (at most 1 GiB; copied). `name` names it in
    /// error messages.
    pub fn load_buffer_from_memory(&self, data: &[u8], name: Option<&str>) -> Result<Buffer> {
        let name = name.map(|n| c_string(n, "the name")).transpose()?;
        // SAFETY: data holds data.len() bytes; the name lives until the call returns.
        made(|out| unsafe {
            sys::ss_buffer_load_memory(self.as_raw(), data.as_ptr().cast(), data.len(), ptr_or_null(&name), out)
        })
    }

    /// Makes a buffer from interleaved float samples, `channels` (1, 2, 4, 6, 7 or 8) per frame,
    /// at `sample_rate` Hz. NaN, infinite or huge (beyond ±65536) samples are refused.
    pub fn create_buffer(&self, samples: &[f32], channels: usize, sample_rate: u32) -> Result<Buffer> {
        let frames = frames_of(samples.len(), channels)?;
        // SAFETY: samples holds frames * channels floats.
        made(|out| unsafe {
            sys::ss_buffer_create_pcm(self.as_raw(), samples.as_ptr(), frames, channels as i32, rate(sample_rate), out)
        })
    }

    /// Makes a buffer from interleaved 16-bit samples.
    pub fn create_buffer_i16(&self, samples: &[i16], channels: usize, sample_rate: u32) -> Result<Buffer> {
        let frames = frames_of(samples.len(), channels)?;
        // SAFETY: samples holds frames * channels values.
        made(|out| unsafe {
            sys::ss_buffer_create_pcm16(self.as_raw(), samples.as_ptr(), frames, channels as i32, rate(sample_rate), out)
        })
    }
}

fn frames_of(samples: usize, channels: usize) -> Result<usize> {
    if channels == 0 || channels > 8 || samples % channels != 0 {
        return Err(Error::invalid_argument(format!(
            "{samples} samples is not a whole number of frames of {channels} channels"
        )));
    }
    Ok(samples / channels)
}

fn rate(sample_rate: u32) -> i32 {
    sample_rate.min(i32::MAX as u32) as i32
}

impl Buffer {
    /// The buffer's shape.
    pub fn info(&self) -> Result<BufferInfo> {
        let raw: sys::ss_buffer_info = out!(|p| sys::ss_buffer_get_info(self.raw, p))?;
        Ok(BufferInfo {
            frames: raw.frames.max(0) as u64,
            channels: raw.channels.max(0) as usize,
            sample_rate: raw.sample_rate.max(0) as u32,
            duration: raw.duration,
        })
    }
}
