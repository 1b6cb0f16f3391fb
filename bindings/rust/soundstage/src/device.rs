//! Devices: an output, or an offline renderer that mixes into memory or a file.
use std::ffi::CString;
use std::os::raw::{c_char, c_void};
use std::path::Path;
use std::ptr;

use soundstage_sys as sys;

use crate::callbacks::{find, guard, Registration};
use crate::error::{check, Error, Result};
use crate::strings::{c_path, c_string, from_array, owned, ptr_or_null};
use crate::types::{read_levels, tristate, ChannelLayout, FileFormat, Levels};
use crate::{handle, out};

/// Which output [`Device::open_output`] uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Backend {
    /// The desktop server if one answers, else OpenAL Soft's own output.
    #[default]
    Automatic,
    /// Only PulseAudio/PipeWire, through Soundstage's own stream.
    Desktop,
    /// Only OpenAL Soft's own output (ALSA).
    OpenAl,
}

/// Options of the desktop output; `Default` gives the library's defaults.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DesktopOptions {
    /// Shown by the desktop's mixer; default: the process name.
    pub application_name: Option<String>,
    /// Default: the application name.
    pub application_id: Option<String>,
    /// Default: the application name.
    pub stream_name: Option<String>,
    /// media.role: "game" (default), "event", "music", "phone".
    pub role: Option<String>,
    /// Target latency in seconds, 0.005 ... 0.5; default 0.020.
    pub latency: Option<f64>,
    /// Server address; default: the default server.
    pub server: Option<String>,
    /// Sink name; default: follow the default sink.
    pub sink: Option<String>,
    /// Mix rate; default 48000.
    pub sample_rate: Option<u32>,
    /// Default stereo.
    pub layout: Option<ChannelLayout>,
    /// Binaural mixing for headphones; `None`: OpenAL decides.
    pub hrtf: Option<bool>,
    /// Frames between engine updates; default 10 ms.
    pub update_frames: Option<u32>,
    /// Reverb zones a scene may hold, 0 ... 4; default 4.
    pub reverb_zones: Option<u32>,
    /// Seconds of silence after which the output rests (0: never); default 2.
    pub idle_timeout: Option<f64>,
}

/// What kind of device.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DeviceKind {
    /// OpenAL Soft's own output.
    OpenAl,
    /// An offline renderer.
    Loopback,
    /// Soundstage's own stream on PulseAudio/PipeWire.
    Desktop,
}

/// A device's fixed properties.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeviceInfo {
    /// What kind of device.
    pub kind: DeviceKind,
    /// Mix rate in Hz.
    pub sample_rate: u32,
    /// Channels of the layout.
    pub channels: usize,
    /// Frames between engine updates.
    pub update_frames: u32,
    /// Reverb zones a scene may hold.
    pub reverb_zones: u32,
    /// Whether it mixes binaurally.
    pub hrtf: bool,
}

/// The state of a device's output.
#[derive(Debug, Clone, PartialEq)]
pub struct OutputStatus {
    /// "desktop", "openal" or "loopback".
    pub backend: String,
    /// The server's name, or "".
    pub server: String,
    /// The sink played to, or "" when unknown.
    pub sink: String,
    /// Target latency in seconds, when it applies.
    pub target_latency: Option<f64>,
    /// Latency as the server reports it, when known.
    pub latency: Option<f64>,
    /// Underruns so far.
    pub underruns: u32,
    /// The user's volume of the stream, 0 ... 1.
    pub volume: f32,
    /// Whether the user muted the stream.
    pub muted: bool,
    /// Corked by the server (e.g. a phone call).
    pub paused: bool,
    /// Whether the server is connected.
    pub connected: bool,
}

/// What a finished mix recording wrote.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MixRecording {
    /// Frames written.
    pub frames: u64,
    /// Seconds written.
    pub duration: f64,
    /// Whether it ended early (disk full, or too far behind).
    pub failed: bool,
}

/// Why the output changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RouteReason {
    /// The output went away.
    OldDeviceUnavailable,
    /// A new output appeared.
    NewDeviceAvailable,
    /// The output was overridden.
    Override,
    /// The session's category changed.
    CategoryChange,
    /// The server moved the stream.
    OutputMoved,
}

/// What the desktop server did to a desktop device's stream.
#[derive(Debug, Clone, PartialEq)]
pub enum OutputEvent {
    /// The server asks the stream to pause (e.g. a phone call).
    PauseRequested,
    /// The server lets it play again.
    ResumeRequested,
    /// The user changed the stream's volume or mute.
    VolumeChanged {
        /// 0 ... 1.
        volume: f32,
        /// Whether muted.
        muted: bool,
    },
    /// The server ran out of audio to play.
    Underrun {
        /// How many so far.
        count: u32,
    },
    /// The server went away; the device waits for it.
    ServerLost {
        /// Why, when known.
        reason: Option<String>,
    },
    /// The server is back.
    ServerReconnected,
}

type RouteCallback = Box<dyn Fn(RouteReason, Option<&str>, Option<&str>) + Send + Sync>;
type OutputCallback = Box<dyn Fn(&OutputEvent) + Send + Sync>;
const ROUTE: u8 = 0;
const OUTPUT: u8 = 1;

handle!(
    /// An output or an offline renderer (an OpenAL device). Dropping it closes it: everything
    /// made on it is freed (on an output, the queued tail plays out first).
    Device, sys::ss_device, sys::ss_device_destroy
);

impl Device {
    fn opened(call: impl FnOnce(*mut *mut sys::ss_device) -> sys::ss_result) -> Result<Device> {
        let mut raw = ptr::null_mut();
        check(call(&mut raw))?;
        Ok(Device::from_raw(raw))
    }

    /// Opens the best output there is; `options` apply to the desktop output.
    /// [`crate::ErrorCode::NoOutputDevice`] when nothing opens: render to a file instead.
    pub fn open_output(backend: Backend, options: &DesktopOptions) -> Result<Device> {
        let text = |value: &Option<String>, what| value.as_deref().map(|s| c_string(s, what)).transpose();
        let application_name = text(&options.application_name, "application_name")?;
        let application_id = text(&options.application_id, "application_id")?;
        let stream_name = text(&options.stream_name, "stream_name")?;
        let role = text(&options.role, "role")?;
        let server = text(&options.server, "server")?;
        let sink = text(&options.sink, "sink")?;
        let mut raw: sys::ss_desktop_options = unsafe { std::mem::zeroed() };
        // SAFETY: raw is a valid struct to fill.
        check(unsafe { sys::ss_desktop_options_init(&mut raw) })?;
        raw.application_name = ptr_or_null(&application_name);
        raw.application_id = ptr_or_null(&application_id);
        raw.stream_name = ptr_or_null(&stream_name);
        raw.role = ptr_or_null(&role);
        raw.server = ptr_or_null(&server);
        raw.sink = ptr_or_null(&sink);
        if let Some(latency) = options.latency {
            raw.latency = latency;
        }
        if let Some(rate) = options.sample_rate {
            raw.sample_rate = rate.min(i32::MAX as u32) as i32;
        }
        if let Some(layout) = options.layout {
            raw.layout = layout.raw();
        }
        raw.hrtf = tristate(options.hrtf);
        if let Some(frames) = options.update_frames {
            raw.update_frames = frames.min(i32::MAX as u32) as i32;
        }
        if let Some(zones) = options.reverb_zones {
            raw.reverb_zones = zones.min(i32::MAX as u32) as i32;
        }
        if let Some(timeout) = options.idle_timeout {
            raw.idle_timeout = timeout;
        }
        let backend = match backend {
            Backend::Automatic => sys::SS_BACKEND_AUTOMATIC,
            Backend::Desktop => sys::SS_BACKEND_DESKTOP,
            Backend::OpenAl => sys::SS_BACKEND_OPENAL,
        };
        // SAFETY: the strings live until the call returns; the library copies them.
        Device::opened(|out| unsafe { sys::ss_device_open_output(backend, &raw, out) })
    }

    /// Opens the default output with the default options.
    pub fn open_default_output() -> Result<Device> {
        Device::open_output(Backend::Automatic, &DesktopOptions::default())
    }

    /// Opens OpenAL Soft's own output: `name` `None` for the default device (names from
    /// [`crate::openal_outputs`]); `reverb_zones` 0 ... 4 (`None`: 4).
    pub fn open_openal(name: Option<&str>, hrtf: Option<bool>, reverb_zones: Option<u32>) -> Result<Device> {
        let name = name.map(|n| c_string(n, "the device name")).transpose()?;
        let zones = reverb_zones.map_or(-1, |z| z.min(i32::MAX as u32) as i32);
        // SAFETY: the name lives until the call returns.
        Device::opened(|out| unsafe { sys::ss_device_open_openal(ptr_or_null(&name), tristate(hrtf), zones, out) })
    }

    /// Opens an offline renderer at `sample_rate` Hz (8000 ... 192000), without HRTF: nothing
    /// plays; [`Device::render`] mixes into your memory, deterministically.
    pub fn loopback(sample_rate: u32, layout: ChannelLayout) -> Result<Device> {
        Device::loopback_with(sample_rate, layout, Some(false), None)
    }

    /// Opens an offline renderer with HRTF chosen (`None`: OpenAL decides) and `reverb_zones`
    /// 0 ... 4 (`None`: 4).
    pub fn loopback_with(
        sample_rate: u32,
        layout: ChannelLayout,
        hrtf: Option<bool>,
        reverb_zones: Option<u32>,
    ) -> Result<Device> {
        let rate = sample_rate.min(i32::MAX as u32) as i32;
        let zones = reverb_zones.map_or(-1, |z| z.min(i32::MAX as u32) as i32);
        // SAFETY: plain values and an out-pointer.
        Device::opened(|out| unsafe { sys::ss_device_open_loopback(rate, layout.raw(), tristate(hrtf), zones, out) })
    }

    /// The device's fixed properties.
    pub fn info(&self) -> Result<DeviceInfo> {
        let raw: sys::ss_device_info = out!(|p| sys::ss_device_get_info(self.raw, p))?;
        Ok(DeviceInfo {
            kind: match raw.kind {
                sys::SS_DEVICE_LOOPBACK => DeviceKind::Loopback,
                sys::SS_DEVICE_DESKTOP => DeviceKind::Desktop,
                _ => DeviceKind::OpenAl,
            },
            sample_rate: raw.sample_rate.max(0) as u32,
            channels: raw.channels.max(0) as usize,
            update_frames: raw.update_frames.max(0) as u32,
            reverb_zones: raw.reverb_zones.max(0) as u32,
            hrtf: raw.hrtf_enabled != 0,
        })
    }

    /// Loopback devices: mixes `samples.len() / channels` frames of interleaved floats into
    /// `samples`. Completion callbacks of sources that end in this mix run on this thread, inside
    /// this call. [`crate::ErrorCode::InvalidState`] on any other kind of device.
    pub fn render(&self, samples: &mut [f32]) -> Result<()> {
        let channels = self.info()?.channels.max(1);
        if samples.len() % channels != 0 {
            return Err(Error::invalid_argument(format!(
                "render: {} samples is not a whole number of {channels}-channel frames",
                samples.len()
            )));
        }
        // SAFETY: samples holds exactly frames * channels floats.
        check(unsafe { sys::ss_device_render(self.raw, samples.as_mut_ptr(), samples.len() / channels) })
    }

    /// Loopback devices: mixes `frames` frames and gives them, interleaved.
    pub fn render_frames(&self, frames: usize) -> Result<Vec<f32>> {
        let channels = self.info()?.channels.max(1);
        let mut samples = vec![0.0; frames.checked_mul(channels).ok_or_else(|| Error::invalid_argument("render: too many frames"))?];
        self.render(&mut samples)?;
        Ok(samples)
    }

    /// Loopback devices: mixes `seconds` of audio into the file at `path`.
    pub fn render_to_file(&self, seconds: f64, path: impl AsRef<Path>, format: FileFormat) -> Result<()> {
        let path = c_path(path.as_ref())?;
        // SAFETY: the path lives until the call returns.
        check(unsafe { sys::ss_device_render_to_file(self.raw, seconds, path.as_ptr(), format.raw()) })
    }

    /// The mix clock in seconds: audio rendered so far on a loopback device; on an output, the
    /// time since it opened. Scheduled starts ([`crate::Scene::play_at`]) are on this clock.
    pub fn mix_time(&self) -> Result<f64> {
        out!(|p| sys::ss_device_get_mix_time(self.raw, p))
    }

    /// How many mixed chunks held NaN or an infinity and were replaced by silence (0 in a
    /// healthy engine).
    pub fn non_finite_mix_count(&self) -> Result<u64> {
        out!(|p| sys::ss_device_get_non_finite_mix_count(self.raw, p)).map(|n: i64| n.max(0) as u64)
    }

    /// Limits how much audio [`Device::load_buffer`] decodes (bytes of float samples); default
    /// 512 MiB.
    pub fn set_max_decoded_bytes(&self, bytes: usize) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_device_set_max_decoded_bytes(self.raw, bytes) })
    }
    /// The decode limit of [`Device::set_max_decoded_bytes`], in bytes.
    pub fn max_decoded_bytes(&self) -> Result<usize> {
        out!(|p| sys::ss_device_get_max_decoded_bytes(self.raw, p))
    }

    /// Forgets the file cache of [`Device::load_buffer`] (buffers in use stay alive).
    pub fn evict_cached_buffers(&self) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_device_evict_cached_buffers(self.raw) })
    }

    /// The output's state.
    pub fn output_status(&self) -> Result<OutputStatus> {
        let raw: sys::ss_output_status = out!(|p| sys::ss_device_get_output_status(self.raw, p))?;
        let known = |v: f64| if v < 0.0 { None } else { Some(v) };
        Ok(OutputStatus {
            backend: from_array(&raw.backend),
            server: from_array(&raw.server),
            sink: from_array(&raw.sink),
            target_latency: known(raw.target_latency),
            latency: known(raw.latency),
            underruns: raw.underruns.max(0) as u32,
            volume: raw.volume,
            muted: raw.muted != 0,
            paused: raw.paused != 0,
            connected: raw.connected != 0,
        })
    }

    /// Whether the output rests now because nothing plays, and how many times it has rested.
    pub fn output_rest(&self) -> Result<(bool, u32)> {
        let (mut resting, mut rests) = (0, 0);
        // SAFETY: two valid out-pointers.
        check(unsafe { sys::ss_device_get_output_rest(self.raw, &mut resting, &mut rests) })?;
        Ok((resting != 0, rests.max(0) as u32))
    }

    /// Waits until everything mixed so far has reached the output, at most `timeout` seconds;
    /// [`crate::ErrorCode::InvalidState`] when the time ran out.
    pub fn drain(&self, timeout: f64) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_device_drain(self.raw, timeout) })
    }

    /// Starts a live view of the mix in a browser on 127.0.0.1:`port` (0: any free port) and
    /// gives its URL (with the token every request needs).
    pub fn start_live_view(&self, port: u16) -> Result<String> {
        let mut url = [0 as c_char; 256];
        // SAFETY: url has url.len() bytes.
        check(unsafe { sys::ss_device_start_live_view(self.raw, port as i32, url.as_mut_ptr(), url.len()) })?;
        Ok(from_array(&url))
    }

    /// Stops the live view, if there is one.
    pub fn stop_live_view(&self) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_device_stop_live_view(self.raw) })
    }

    /// Calls `callback` (reason, previous output, output) when the output changes, on a thread of
    /// the library. Replaces any earlier route callback.
    pub fn on_route_change(
        &self,
        callback: impl Fn(RouteReason, Option<&str>, Option<&str>) + Send + Sync + 'static,
    ) -> Result<()> {
        unsafe extern "C" fn call(
            _: *mut sys::ss_device,
            reason: sys::ss_route_reason,
            previous: *const c_char,
            output: *const c_char,
            user_data: *mut c_void,
        ) {
            guard(|| {
                if let Some(callback) = find::<RouteCallback>(user_data) {
                    let reason = match reason {
                        sys::SS_ROUTE_OLD_DEVICE_UNAVAILABLE => RouteReason::OldDeviceUnavailable,
                        sys::SS_ROUTE_NEW_DEVICE_AVAILABLE => RouteReason::NewDeviceAvailable,
                        sys::SS_ROUTE_OVERRIDE => RouteReason::Override,
                        sys::SS_ROUTE_CATEGORY_CHANGE => RouteReason::CategoryChange,
                        _ => RouteReason::OutputMoved,
                    };
                    // SAFETY: both are NULL or valid during the call.
                    let (previous, output) = unsafe { (owned(previous), owned(output)) };
                    callback(reason, previous.as_deref(), output.as_deref());
                }
            })
        }
        let registration = Registration::new::<RouteCallback>(Box::new(callback));
        // SAFETY: the trampoline finds the closure by key while it is registered.
        check(unsafe { sys::ss_device_set_route_callback(self.raw, Some(call), registration.user_data()) })?;
        self.callbacks.replace(ROUTE, Some(registration));
        Ok(())
    }

    /// Removes the route callback.
    pub fn clear_route_callback(&self) -> Result<()> {
        // SAFETY: NULL removes it.
        check(unsafe { sys::ss_device_set_route_callback(self.raw, None, ptr::null_mut()) })?;
        self.callbacks.replace(ROUTE, None);
        Ok(())
    }

    /// Calls `callback` with what the desktop server does to the stream, on the device's output
    /// thread (desktop devices only; others post nothing). Replaces any earlier one.
    pub fn on_output_event(&self, callback: impl Fn(&OutputEvent) + Send + Sync + 'static) -> Result<()> {
        unsafe extern "C" fn call(_: *mut sys::ss_device, event: *const sys::ss_output_event, user_data: *mut c_void) {
            guard(|| {
                if event.is_null() {
                    return;
                }
                if let Some(callback) = find::<OutputCallback>(user_data) {
                    // SAFETY: event is valid during the call.
                    let e = unsafe { &*event };
                    let event = match e.kind {
                        sys::SS_OUTPUT_PAUSE_REQUESTED => OutputEvent::PauseRequested,
                        sys::SS_OUTPUT_RESUME_REQUESTED => OutputEvent::ResumeRequested,
                        sys::SS_OUTPUT_VOLUME_CHANGED => OutputEvent::VolumeChanged { volume: e.volume, muted: e.muted != 0 },
                        sys::SS_OUTPUT_UNDERRUN => OutputEvent::Underrun { count: e.underruns.max(0) as u32 },
                        sys::SS_OUTPUT_SERVER_LOST => OutputEvent::ServerLost { reason: unsafe { owned(e.reason) } },
                        _ => OutputEvent::ServerReconnected,
                    };
                    callback(&event);
                }
            })
        }
        let registration = Registration::new::<OutputCallback>(Box::new(callback));
        // SAFETY: the trampoline finds the closure by key while it is registered.
        check(unsafe { sys::ss_device_set_output_callback(self.raw, Some(call), registration.user_data()) })?;
        self.callbacks.replace(OUTPUT, Some(registration));
        Ok(())
    }

    /// Removes the output callback.
    pub fn clear_output_callback(&self) -> Result<()> {
        // SAFETY: NULL removes it.
        check(unsafe { sys::ss_device_set_output_callback(self.raw, None, ptr::null_mut()) })?;
        self.callbacks.replace(OUTPUT, None);
        Ok(())
    }

    /// Turns metering of the output on or off (desktop and loopback devices).
    pub fn set_output_metering(&self, enabled: bool) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_device_set_output_metering(self.raw, enabled as i32) })
    }
    /// Whether the output is metered.
    pub fn is_output_metering(&self) -> Result<bool> {
        out!(|p| sys::ss_device_is_output_metering(self.raw, p)).map(|v: i32| v != 0)
    }

    /// The output's levels since the last reading.
    pub fn output_levels(&self) -> Result<Levels> {
        // SAFETY: the out-pointer is valid for the call.
        read_levels(|p| unsafe { sys::ss_device_get_output_levels(self.raw, p) })
    }

    /// Starts writing exactly the mix the device sends out to `path`, on a thread of its own.
    pub fn start_recording_output(&self, path: impl AsRef<Path>, format: FileFormat) -> Result<()> {
        let path: CString = c_path(path.as_ref())?;
        // SAFETY: the path lives until the call returns.
        check(unsafe { sys::ss_device_start_recording_output(self.raw, path.as_ptr(), format.raw()) })
    }

    /// Stops the mix recording and completes its file.
    pub fn stop_recording_output(&self) -> Result<MixRecording> {
        let raw: sys::ss_mix_recording = out!(|p| sys::ss_device_stop_recording_output(self.raw, p))?;
        Ok(MixRecording { frames: raw.frames.max(0) as u64, duration: raw.duration, failed: raw.failed != 0 })
    }
}
