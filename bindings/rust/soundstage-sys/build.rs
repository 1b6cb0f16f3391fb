//! Finds libsoundstage for the linker: `$SOUNDSTAGE_LIB_DIR` if set, else what
//! `pkg-config --libs soundstage` says (an install, or scripts/build-c-library.sh's staging with
//! PKG_CONFIG_PATH set), else the loader's default path. No crate is needed for it.
use std::env;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=SOUNDSTAGE_LIB_DIR");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    if let Ok(dir) = env::var("SOUNDSTAGE_LIB_DIR") {
        println!("cargo:rustc-link-search=native={dir}");
    } else if let Ok(output) = Command::new("pkg-config").args(["--libs-only-L", "soundstage"]).output() {
        if output.status.success() {
            for flag in String::from_utf8_lossy(&output.stdout).split_whitespace() {
                if let Some(dir) = flag.strip_prefix("-L") {
                    println!("cargo:rustc-link-search=native={dir}");
                }
            }
        }
    }
    println!("cargo:rustc-link-lib=dylib=soundstage");
}
