//! orbit (Rust): a bee circles your head, once every 4 seconds — a looping mono source moved
//! every frame, as Examples/C/orbit.c does. `--render FILE` writes the same bytes as the C orbit.
//!
//!     cargo run --example orbit                    # plays on the desktop server or sound card
//!     cargo run --example orbit -- --render FILE   # renders the same 8 s offline to a WAV file
//!
//! The sound is assets/sounds/bee.wav, or $SOUNDSTAGE_ASSETS/bee.wav.
#![forbid(unsafe_code)]

use std::f64::consts::PI;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use soundstage::{ChannelLayout, DesktopOptions, Device, FileFormat, Source};

const SECONDS: u32 = 8;
const TICKS_PER_SECOND: u32 = 60;

/// Where the bee is at `t` seconds; its velocity follows the motion (for Doppler).
fn tick(bee: &Source, t: f64, previous: &mut Option<(f32, f32)>) -> soundstage::Result<()> {
    let angle = 2.0 * PI * t / 4.0;
    let (x, z) = ((2.0 * angle.sin()) as f32, (-2.0 * angle.cos()) as f32);
    if let Some((px, pz)) = *previous {
        bee.set_velocity([(x - px) * 60.0, 0.0, (z - pz) * 60.0])?;
    }
    bee.set_position([x, 0.0, z])?;
    *previous = Some((x, z));
    Ok(())
}

fn run(mut render_path: Option<String>) -> soundstage::Result<()> {
    let assets = std::env::var("SOUNDSTAGE_ASSETS").unwrap_or_else(|_| "assets/sounds".into());
    let device = match render_path {
        Some(_) => Device::loopback(48_000, ChannelLayout::Stereo)?,
        None => {
            let options = DesktopOptions { application_name: Some("orbit".into()), ..Default::default() };
            match Device::open_output(Default::default(), &options) {
                Ok(device) => device,
                Err(error) => {
                    eprintln!("orbit: no audio output device ({}); rendering to orbit.wav instead", error.message());
                    render_path = Some("orbit.wav".into());
                    Device::loopback(48_000, ChannelLayout::Stereo)?
                }
            }
        }
    };
    let scene = device.create_scene()?;
    let bee = scene.create_source(Some(&device.load_buffer(format!("{assets}/bee.wav"))?))?;
    bee.set_looping(true)?;
    bee.set_gain(0.8)?;
    bee.play()?;
    let mut previous = None;
    if let Some(path) = render_path {
        // Offline: tick, then mix a tick's worth of frames; the mix recorder writes what is mixed.
        let mut frames = vec![0.0f32; 2 * 800];
        device.start_recording_output(&path, FileFormat::WavPcm16)?;
        for step in 0..SECONDS * TICKS_PER_SECOND {
            tick(&bee, f64::from(step) / f64::from(TICKS_PER_SECOND), &mut previous)?;
            device.render(&mut frames)?;
        }
        device.stop_recording_output()?;
        println!("A bee circles your head, once every 4 seconds: rendered {SECONDS} s to {path}");
    } else {
        // Real time: a game loop at about 60 frames a second.
        println!("A bee circles your head, once every 4 seconds ({SECONDS} s)");
        let start = Instant::now();
        while start.elapsed().as_secs_f64() < f64::from(SECONDS) {
            tick(&bee, start.elapsed().as_secs_f64(), &mut previous)?;
            std::thread::sleep(Duration::from_millis(16));
        }
    }
    Ok(()) // dropping the device frees the scene, the buffer and the bee, and plays out the tail
}

fn main() -> ExitCode {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let render_path = match arguments.as_slice() {
        [] => None,
        [flag, path] if flag == "--render" => Some(path.clone()),
        _ => {
            eprintln!("usage: orbit [--render FILE]");
            return ExitCode::from(64);
        }
    };
    match run(render_path) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("orbit: {error}");
            ExitCode::FAILURE
        }
    }
}
