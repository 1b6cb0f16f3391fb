//! ui_sound (Rust): plays a UI sound through the Soundstage daemon (`soundstage serve`), as a
//! desktop program without audio of its own would — connect once, then one call per sound.
//!
//!     cargo run --example ui_sound -- [EVENT] [--file PATH] [--socket PATH] [--wait]
//!
//! EVENT is a freedesktop sound-theme name (default "bell"). With --wait it waits (at most 10 s)
//! for the daemon to say how the sound ended. Exits 1 with the reason when no daemon listens or
//! the daemon refuses.
#![forbid(unsafe_code)]

use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Duration;

use soundstage::{Client, ErrorCode};

fn main() -> ExitCode {
    let (mut event, mut file, mut socket, mut wait) = ("bell".to_string(), None, None, false);
    let mut arguments = std::env::args().skip(1);
    while let Some(argument) = arguments.next() {
        match argument.as_str() {
            "--socket" => socket = arguments.next(),
            "--file" => file = arguments.next(),
            "--wait" => wait = true,
            other if !other.starts_with('-') => event = other.to_string(),
            _ => {
                eprintln!("usage: ui_sound [EVENT] [--file PATH] [--socket PATH] [--wait]");
                return ExitCode::from(64);
            }
        }
    }
    let client = match Client::connect_to(socket.as_deref()) {
        Ok(client) => client,
        Err(error) if error.code() == ErrorCode::Connection => {
            eprintln!("ui_sound: no Soundstage daemon is listening ({}); start one with `soundstage serve`", error.message());
            return ExitCode::FAILURE;
        }
        Err(error) => {
            eprintln!("ui_sound: {error}");
            return ExitCode::FAILURE;
        }
    };
    let (ended, outcome) = mpsc::channel();
    if wait {
        if let Err(error) = client.on_completion(move |id, how| {
            let _ = ended.send((id, how));
        }) {
            eprintln!("ui_sound: {error}");
            return ExitCode::FAILURE;
        }
    }
    let (what, played) = match &file {
        Some(path) => (path.clone(), client.play_file(path, false)),
        None => (event.clone(), client.play_event(&event, false)),
    };
    let id = match played {
        Ok(id) => id,
        Err(error) => {
            eprintln!("ui_sound: cannot play {what}: {error}");
            return ExitCode::FAILURE;
        }
    };
    println!("played {what} as sound {id}");
    if wait {
        loop {
            match outcome.recv_timeout(Duration::from_secs(10)) {
                Ok((ended_id, how)) if ended_id == id => {
                    println!("sound {id} {}", format!("{how:?}").to_lowercase());
                    break;
                }
                Ok(_) => continue,
                Err(_) => {
                    eprintln!("ui_sound: the daemon did not say how sound {id} ended within 10 s");
                    return ExitCode::FAILURE;
                }
            }
        }
    }
    ExitCode::SUCCESS
}
