//! Strings and paths crossing into C.
use std::ffi::{CStr, CString};
use std::os::raw::c_char;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use crate::error::{Error, Result};

/// A C string of `text`; an error if it holds a NUL.
pub(crate) fn c_string(text: &str, what: &str) -> Result<CString> {
    CString::new(text).map_err(|_| Error::invalid_argument(format!("{what} holds a NUL byte")))
}

/// A C string of a path's bytes (not necessarily UTF-8); an error if it holds a NUL.
pub(crate) fn c_path(path: &Path) -> Result<CString> {
    CString::new(path.as_os_str().as_bytes())
        .map_err(|_| Error::invalid_argument(format!("the path {} holds a NUL byte", path.display())))
}

/// The optional C string's pointer (NULL for `None`).
pub(crate) fn ptr_or_null(text: &Option<CString>) -> *const c_char {
    text.as_ref().map_or(std::ptr::null(), |s| s.as_ptr())
}

/// Copies a C string the library returned (NULL → `None`).
///
/// # Safety
/// `text` is NULL or a NUL-terminated string valid during the call.
pub(crate) unsafe fn owned(text: *const c_char) -> Option<String> {
    if text.is_null() {
        None
    } else {
        Some(CStr::from_ptr(text).to_string_lossy().into_owned())
    }
}

/// The text of a fixed-size `char` array field, up to its NUL.
pub(crate) fn from_array(field: &[c_char]) -> String {
    let bytes: Vec<u8> = field.iter().take_while(|&&c| c != 0).map(|&c| c as u8).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}
