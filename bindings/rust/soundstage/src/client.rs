//! The daemon client: UI sounds played by `soundstage serve` for programs without audio of their
//! own.
use std::os::raw::c_void;
use std::path::Path;
use std::ptr;

use soundstage_sys as sys;

use crate::callbacks::{find, guard, Registration};
use crate::error::{check, Result};
use crate::strings::{c_path, c_string, ptr_or_null};
use crate::types::flag;
use crate::{handle, out, SoundOutcome};

type CompletionCallback = Box<dyn Fn(u32, SoundOutcome) + Send + Sync>;
const COMPLETION: u8 = 0;

handle!(
    /// A connection to the Soundstage daemon. Each call blocks until the daemon answers.
    /// Dropping it closes the connection.
    Client, sys::ss_client, sys::ss_client_destroy
);

impl Client {
    /// Connects to the daemon at `$XDG_RUNTIME_DIR/soundstage/socket`.
    /// [`crate::ErrorCode::Connection`] when none listens.
    pub fn connect() -> Result<Client> {
        Client::connect_to(None::<&Path>)
    }

    /// Connects to the daemon listening at `socket` (`None`: the default socket).
    pub fn connect_to(socket: Option<impl AsRef<Path>>) -> Result<Client> {
        let socket = socket.map(|s| c_path(s.as_ref())).transpose()?;
        let mut raw = ptr::null_mut();
        // SAFETY: the path lives until the call returns.
        check(unsafe { sys::ss_client_connect(ptr_or_null(&socket), &mut raw) })?;
        Ok(Client::from_raw(raw))
    }

    /// Plays a sound-theme event ("bell", ...) through the daemon; gives the sound's id.
    pub fn play_event(&self, event: &str, alert: bool) -> Result<u32> {
        let event = c_string(event, "the event")?;
        out!(|p| sys::ss_client_play_event(self.raw, event.as_ptr(), flag(alert), p))
    }
    /// Plays a sound file through the daemon (the daemon reads the path); gives the sound's id.
    pub fn play_file(&self, path: impl AsRef<Path>, alert: bool) -> Result<u32> {
        let path = c_path(path.as_ref())?;
        out!(|p| sys::ss_client_play_file(self.raw, path.as_ptr(), flag(alert), p))
    }
    /// Plays a sound registered with the daemon by id.
    pub fn play_id(&self, id: u32, alert: bool) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_client_play_id(self.raw, id, flag(alert)) })
    }
    /// Registers a sound file with the daemon; gives its id.
    pub fn register_file(&self, path: impl AsRef<Path>) -> Result<u32> {
        let path = c_path(path.as_ref())?;
        out!(|p| sys::ss_client_register_file(self.raw, path.as_ptr(), p))
    }
    /// Registers a sound-theme event with the daemon; gives its id.
    pub fn register_event(&self, event: &str) -> Result<u32> {
        let event = c_string(event, "the event")?;
        out!(|p| sys::ss_client_register_event(self.raw, event.as_ptr(), p))
    }
    /// Frees a sound registered with the daemon.
    pub fn dispose(&self, id: u32) -> Result<()> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_client_dispose(self.raw, id) })
    }
    /// Calls `callback` (id, outcome) when a sound this client plays ends, on a thread of the
    /// client's, one at a time. Plays made before it are not reported.
    pub fn on_completion(&self, callback: impl Fn(u32, SoundOutcome) + Send + Sync + 'static) -> Result<()> {
        unsafe extern "C" fn call(_: *mut sys::ss_client, id: u32, outcome: sys::ss_sound_outcome, user_data: *mut c_void) {
            guard(|| {
                if let Some(callback) = find::<CompletionCallback>(user_data) {
                    callback(id, SoundOutcome::from_raw(outcome));
                }
            })
        }
        let registration = Registration::new::<CompletionCallback>(Box::new(callback));
        // SAFETY: the trampoline finds the closure by key while it is registered.
        check(unsafe { sys::ss_client_set_completion_callback(self.raw, Some(call), registration.user_data()) })?;
        self.callbacks.replace(COMPLETION, Some(registration));
        Ok(())
    }
}
