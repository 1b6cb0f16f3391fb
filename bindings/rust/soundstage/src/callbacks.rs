//! Where Rust closures registered with the library live.
//!
//! The library passes a `user_data` pointer back to each callback. Here it is never a pointer to
//! the closure but a key into one process-wide table: a callback that races with the drop of its
//! object (on a library thread) finds the key gone and does nothing, and one that is running
//! holds its own reference, so no closure is freed while it runs.
use std::any::Any;
use std::collections::HashMap;
use std::os::raw::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

type Entry = Arc<dyn Any + Send + Sync>;

fn table() -> &'static Mutex<HashMap<usize, Entry>> {
    static TABLE: OnceLock<Mutex<HashMap<usize, Entry>>> = OnceLock::new();
    TABLE.get_or_init(|| Mutex::new(HashMap::new()))
}

fn lock() -> std::sync::MutexGuard<'static, HashMap<usize, Entry>> {
    // A panic never happens while the table is locked; recover from poisoning all the same.
    table().lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A closure kept in the table while it is registered; dropping it removes it.
pub(crate) struct Registration {
    key: usize,
}

impl Registration {
    /// Keeps `callback` and gives the key the C side carries as `user_data`.
    pub(crate) fn new<T: Any + Send + Sync>(callback: T) -> Registration {
        static NEXT: AtomicUsize = AtomicUsize::new(1);
        let key = NEXT.fetch_add(1, Ordering::Relaxed);
        lock().insert(key, Arc::new(callback));
        Registration { key }
    }

    /// The key, as the C API's `user_data`.
    pub(crate) fn user_data(&self) -> *mut c_void {
        self.key as *mut c_void
    }

    /// Leaves the closure in the table for a callback that removes it itself ([`take`]).
    pub(crate) fn into_one_shot(self) -> *mut c_void {
        let user_data = self.user_data();
        std::mem::forget(self);
        user_data
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        let removed = lock().remove(&self.key);
        drop(removed); // outside the lock: a closure's captures may call back into this table
    }
}

/// The closure registered under `user_data`, if it is still registered.
pub(crate) fn find<T: Any + Send + Sync>(user_data: *mut c_void) -> Option<Arc<T>> {
    let entry = lock().get(&(user_data as usize)).cloned()?;
    entry.downcast::<T>().ok()
}

/// The one-shot closure registered under `user_data`, removed from the table.
pub(crate) fn take<T: Any + Send + Sync>(user_data: *mut c_void) -> Option<Arc<T>> {
    let entry = lock().remove(&(user_data as usize))?;
    entry.downcast::<T>().ok()
}

/// Runs a callback body, never letting a panic unwind into the library's thread (it would
/// abort the game): the panic is reported on stderr and the callback returns.
pub(crate) fn guard(body: impl FnOnce()) {
    if let Err(panic) = catch_unwind(AssertUnwindSafe(body)) {
        let text = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".to_string());
        eprintln!("soundstage: a callback panicked ({text}); the panic was stopped at the library's boundary");
    }
}

/// The registrations of one object, one per kind of callback.
#[derive(Default)]
pub(crate) struct Slots(Mutex<HashMap<u8, Registration>>);

impl Slots {
    /// Keeps `registration` as the object's `kind` callback (none: removes it), giving the
    /// one it replaces; drop that after the library holds the new one.
    pub(crate) fn replace(&self, kind: u8, registration: Option<Registration>) -> Option<Registration> {
        let mut slots = self.0.lock().unwrap_or_else(|p| p.into_inner());
        match registration {
            Some(registration) => slots.insert(kind, registration),
            None => slots.remove(&kind),
        }
    }
}
