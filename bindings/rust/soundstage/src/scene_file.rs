//! Scene files: timed scenes in JSON (docs/scene-format.md), loaded and ready to play or render.
use std::path::Path;
use std::ptr;

use soundstage_sys as sys;

use crate::error::{check, Result};
use crate::strings::{c_path, c_string};
use crate::types::FileFormat;
use crate::{handle, out, Device, Source};

handle!(
    /// A loaded scene file. Dropping it stops it and destroys its scenes.
    SceneFile, sys::ss_scene_file, sys::ss_scene_file_destroy
);

impl Device {
    /// Loads and validates the scene file at `path`; every sound is loaded now. A malformed
    /// file is [`crate::ErrorCode::InvalidScene`] with the place in the message.
    pub fn load_scene_file(&self, path: impl AsRef<Path>) -> Result<SceneFile> {
        let path = c_path(path.as_ref())?;
        let mut raw = ptr::null_mut();
        // SAFETY: the path lives until the call returns.
        check(unsafe { sys::ss_scene_file_load(self.as_raw(), path.as_ptr(), &mut raw) })?;
        Ok(SceneFile::from_raw(raw))
    }
}

impl SceneFile {
    /// The scene's length in seconds.
    pub fn duration(&self) -> Result<f64> {
        out!(|p| sys::ss_scene_file_get_duration(self.raw, p))
    }
    /// Loopback devices: renders the whole scene to the file at `path`.
    pub fn render(&self, path: impl AsRef<Path>, format: FileFormat) -> Result<()> {
        let path = c_path(path.as_ref())?;
        // SAFETY: the path lives until the call returns.
        check(unsafe { sys::ss_scene_file_render(self.raw, path.as_ptr(), format.raw()) })
    }
    /// Output devices: plays the whole scene in real time, blocking until it ends (or until the
    /// scene file or its device is dropped on another thread).
    pub fn play(&self) -> Result<()> {
        // SAFETY: plain handle.
        check(unsafe { sys::ss_scene_file_play(self.raw) })
    }
    /// Moves everything to `seconds` (positions, starts and stops), for driving it yourself.
    pub fn advance(&self, seconds: f64) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_scene_file_advance(self.raw, seconds) })
    }
    /// The scene's source named `name`, to drive further; dropping it stops that source.
    pub fn source(&self, name: &str) -> Result<Source> {
        let name = c_string(name, "the source's name")?;
        let mut raw = ptr::null_mut();
        // SAFETY: the name lives until the call returns.
        check(unsafe { sys::ss_scene_file_get_source(self.raw, name.as_ptr(), &mut raw) })?;
        Ok(Source::from_raw(raw))
    }
}
