//! Soundstage: positional audio for Linux games, from Rust.
//!
//! The safe API of libsoundstage (the C library, `include/soundstage.h`). A [`Device`] is an
//! output or an offline renderer; it holds [`Scene`]s (a listener and [`Source`]s), shared
//! [`Buffer`]s, [`SoundRegistry`]s of short UI sounds, [`Session`]s and [`SceneFile`]s.
//!
//! ```no_run
//! use soundstage::{ChannelLayout, Device};
//! # fn main() -> soundstage::Result<()> {
//! let device = Device::loopback(48_000, ChannelLayout::Stereo)?;
//! let scene = device.create_scene()?;
//! let bee = scene.create_source(Some(&device.load_buffer("bee.wav")?))?;
//! bee.set_position([2.0, 0.0, 0.0])?;
//! bee.play()?;
//! let mut samples = vec![0.0f32; 2 * 4800];
//! device.render(&mut samples)?; // 0.1 s, louder on the right
//! # Ok(()) }
//! ```
//!
//! **Ownership.** Every object destroys its handle when dropped. Dropping a device destroys
//! what was made on it (a scene: its sources, groups, zones and limits); the Rust values that
//! remain are then harmless, and their calls return [`ErrorCode::StaleHandle`] — a handle is an
//! index the library checks, never a pointer, so no order of drops is unsafe.
//!
//! **Threads.** Any thread may call any function (the header's promise), so every type is
//! `Send` and `Sync`. Callbacks are `'static` closures, `Send + Sync`, run on the thread each
//! method's documentation names; they may call this API. A panic in one is stopped at the
//! boundary and printed.
//!
//! **Errors.** Every failing call returns an [`Error`] with its [`ErrorCode`] and the library's
//! message. A NaN or out-of-range value is refused and leaves the property as it was.
#![deny(missing_docs)]

mod buffer;
mod callbacks;
mod client;
mod device;
mod error;
mod group;
mod recorder;
mod reverb;
mod scene;
mod scene_file;
mod session;
mod source;
mod sounds;
mod strings;
mod types;
mod voices;

pub use buffer::{Buffer, BufferInfo};
pub use client::Client;
pub use device::{Backend, DesktopOptions, Device, DeviceInfo, DeviceKind, MixRecording, OutputEvent, OutputStatus, RouteReason};
pub use error::{Error, ErrorCode, Result};
pub use group::Group;
pub use recorder::{enumerate_inputs, Recorder, RecorderSettings, RecorderState, Recording, RecordingEnd, capture_available};
pub use reverb::{reverb_presets, Region, ReverbZone};
pub use scene::{DistanceModel, Scene, VoiceEvent, VoiceEventKind, VoiceStatistics};
pub use scene_file::SceneFile;
pub use session::{Category, InterruptionReason, Session, SessionEvent, SessionOptions, SessionState};
pub use sounds::{SoundOutcome, SoundRegistry, SoundRegistryOptions};
pub use source::{Source, SourceId, SourceState, StreamOptions};
pub use types::{ChannelLayout, FileFormat, Levels, Vec3};
pub use voices::{StealPolicy, VoiceLimit};

use soundstage_sys as sys;

/// The library's version, "MAJOR.MINOR.PATCH".
pub fn version() -> String {
    // SAFETY: ss_version returns a static NUL-terminated string.
    unsafe { strings::owned(sys::ss_version()) }.unwrap_or_default()
}

/// The library's version as major * 10000 + minor * 100 + patch.
pub fn version_number() -> u32 {
    // SAFETY: no arguments; any thread.
    unsafe { sys::ss_version_number() as u32 }
}

/// How many handles of every kind are alive: for leak checks.
pub fn live_handles() -> usize {
    // SAFETY: no arguments; any thread.
    unsafe { sys::ss_live_handles() }
}

/// The names of OpenAL Soft's output devices (for [`Device::open_openal`]), with descriptions.
pub fn openal_outputs() -> Result<Vec<(String, Option<String>)>> {
    types::collect_names(|callback, user_data| unsafe { sys::ss_enumerate_openal_outputs(callback, user_data) })
}

/// Clears the OpenAL context the library left current on this thread. Call it on a thread of
/// yours (a worker) that used the library, before the thread ends.
pub fn thread_detach() {
    // SAFETY: no arguments; harmless on any thread.
    unsafe { sys::ss_thread_detach() }
}

/// Declares a handle type: the raw pointer, its destroy call on drop, `Send + Sync` (the header:
/// any thread may call any function) and the callbacks it keeps alive.
macro_rules! handle {
    ($(#[$doc:meta])* $name:ident, $raw:ty, $destroy:path) => {
        $(#[$doc])*
        pub struct $name {
            raw: *mut $raw,
            #[allow(dead_code)]
            callbacks: crate::callbacks::Slots,
        }

        // SAFETY: the handle is an index the library checks on every call, and every function
        // of the C API may be called from any thread (include/soundstage.h, "Threads").
        unsafe impl Send for $name {}
        // SAFETY: as above; the Rust side keeps its own state behind mutexes.
        unsafe impl Sync for $name {}

        impl $name {
            #[allow(dead_code)]
            pub(crate) fn from_raw(raw: *mut $raw) -> $name {
                $name { raw, callbacks: Default::default() }
            }
            /// The C handle, for calling `soundstage-sys` functions directly. It stays owned by
            /// this value.
            pub fn as_raw(&self) -> *mut $raw {
                self.raw
            }
        }

        impl Drop for $name {
            fn drop(&mut self) {
                // SAFETY: a stale handle (its parent was dropped first) is an error code, not a
                // crash; the result is of no use here. The closures go after the handle.
                unsafe {
                    $destroy(self.raw);
                }
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}({:p})", stringify!($name), self.raw)
            }
        }
    };
}
pub(crate) use handle;

/// Calls a C function that writes one value through an out-pointer, and gives the value.
macro_rules! out {
    ($call:expr) => {{
        let mut value = std::mem::MaybeUninit::zeroed();
        // SAFETY: the out-pointer is valid for the call; on SS_OK the library wrote the value,
        // and the zeroed start is a valid value of every plain C type the API writes.
        let result = unsafe { $call(value.as_mut_ptr()) };
        crate::error::check(result).map(|_| unsafe { value.assume_init() })
    }};
}
pub(crate) use out;

/// Live OpenAL objects in the whole process (not only through this library): for leak checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LiveObjects {
    /// Devices.
    pub devices: u32,
    /// Contexts.
    pub contexts: u32,
    /// Buffers.
    pub buffers: u32,
    /// Sources.
    pub sources: u32,
    /// EFX effect slots.
    pub effect_slots: u32,
    /// EFX effects.
    pub effects: u32,
    /// EFX filters.
    pub filters: u32,
}

/// The live OpenAL objects of the process.
pub fn live_openal_objects() -> Result<LiveObjects> {
    let raw: sys::ss_live_objects = out!(|p| sys::ss_get_live_objects(p))?;
    let n = |v: i32| v.max(0) as u32;
    Ok(LiveObjects {
        devices: n(raw.devices),
        contexts: n(raw.contexts),
        buffers: n(raw.buffers),
        sources: n(raw.sources),
        effect_slots: n(raw.effect_slots),
        effects: n(raw.effects),
        filters: n(raw.filters),
    })
}
