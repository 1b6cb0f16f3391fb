//! The safe API heard on the loopback renderer: what reaches the mix, not what the calls return.
#![forbid(unsafe_code)]

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread;

use soundstage::*;

const RATE: u32 = 48_000;

fn assets() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../assets/sounds")
}

/// A mono sine at 440 Hz, `seconds` long, at amplitude 0.5.
fn tone(device: &Device, seconds: f64) -> Buffer {
    let frames = (seconds * f64::from(RATE)) as usize;
    let samples: Vec<f32> =
        (0..frames).map(|i| 0.5 * (2.0 * std::f64::consts::PI * 440.0 * i as f64 / f64::from(RATE)).sin() as f32).collect();
    device.create_buffer(&samples, 1, RATE).expect("a tone buffer")
}

/// RMS of each channel of interleaved stereo.
fn rms(samples: &[f32]) -> (f32, f32) {
    let (mut left, mut right) = (0.0f64, 0.0f64);
    for frame in samples.chunks_exact(2) {
        left += f64::from(frame[0]).powi(2);
        right += f64::from(frame[1]).powi(2);
    }
    let n = (samples.len() / 2).max(1) as f64;
    ((left / n).sqrt() as f32, (right / n).sqrt() as f32)
}

fn stereo() -> Device {
    Device::loopback(RATE, ChannelLayout::Stereo).expect("a loopback device")
}

#[test]
fn a_source_on_the_right_is_heard_on_the_right() {
    let device = stereo();
    let scene = device.create_scene().unwrap();
    let source = scene.create_source(Some(&tone(&device, 1.0))).unwrap();
    source.set_looping(true).unwrap();
    source.set_position([2.0, 0.0, 0.0]).unwrap();
    source.play().unwrap();
    let (left, right) = rms(&device.render_frames(4800).unwrap()[2 * 480..]);
    assert!(right > 0.1, "the right channel carries the tone ({right})");
    assert!(right > 2.0 * left, "right {right} is well above left {left}");

    source.set_position([-2.0, 0.0, 0.0]).unwrap();
    device.render_frames(2400).unwrap(); // the move lands in the next update
    let (left, right) = rms(&device.render_frames(4800).unwrap());
    assert!(left > 2.0 * right, "after moving left: left {left}, right {right}");
}

#[test]
fn the_listener_turning_moves_the_sound_to_the_other_ear() {
    let device = stereo();
    let scene = device.create_scene().unwrap();
    let source = scene.create_source(Some(&tone(&device, 1.0))).unwrap();
    source.set_looping(true).unwrap();
    source.set_position([0.0, 0.0, -2.0]).unwrap(); // in front
    scene.set_listener_orientation([-1.0, 0.0, 0.0], [0.0, 1.0, 0.0]).unwrap(); // facing left: it is on the right
    source.play().unwrap();
    let (left, right) = rms(&device.render_frames(4800).unwrap()[2 * 480..]);
    assert!(right > 2.0 * left, "right {right}, left {left}");
    let (at, up) = scene.listener_orientation().unwrap();
    assert_eq!((at, up), (Vec3::new(-1.0, 0.0, 0.0), Vec3::new(0.0, 1.0, 0.0)));
}

#[test]
fn completion_runs_once_inside_render_when_the_sound_ends() {
    let device = stereo();
    let scene = device.create_scene().unwrap();
    let source = scene.create_source(Some(&tone(&device, 0.1))).unwrap();
    let calls = Arc::new(AtomicUsize::new(0));
    let (counted, thread_id) = (Arc::clone(&calls), Arc::new(Mutex::new(None)));
    let seen = Arc::clone(&thread_id);
    source
        .on_completion(move || {
            counted.fetch_add(1, Ordering::SeqCst);
            *seen.lock().unwrap() = Some(thread::current().id());
        })
        .unwrap();
    source.play().unwrap();
    device.render_frames(2400).unwrap(); // 0.05 s: still playing
    assert_eq!(calls.load(Ordering::SeqCst), 0);
    assert_eq!(source.state().unwrap(), SourceState::Playing);
    let after = device.render_frames(9600).unwrap(); // past its end
    assert_eq!(calls.load(Ordering::SeqCst), 1, "called once");
    assert_eq!(*thread_id.lock().unwrap(), Some(thread::current().id()), "on the rendering thread");
    assert_eq!(source.state().unwrap(), SourceState::Stopped);
    let (left, right) = rms(&after[2 * 4800..]);
    assert!(left < 1e-4 && right < 1e-4, "silent after the end: {left} {right}");
    device.render_frames(4800).unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), 1, "not again");
}

#[test]
fn a_bad_file_is_an_error_value_with_the_code_and_message() {
    let device = stereo();
    let missing = device.load_buffer("/nonexistent/bee.wav").unwrap_err();
    assert_eq!(missing.code(), ErrorCode::NotFound);
    assert!(missing.message().contains("bee.wav"), "the message names the file: {}", missing.message());
    assert_eq!(missing.code_name(), "SS_ERROR_NOT_FOUND");

    let garbage = device.load_buffer_from_memory(b"this is not a sound file at all, just text", Some("notes.txt")).unwrap_err();
    assert!(
        matches!(garbage.code(), ErrorCode::UnsupportedFormat | ErrorCode::CorruptData),
        "garbage is refused as such: {garbage}"
    );
    let nul = device.load_buffer("bee\0.wav").unwrap_err();
    assert_eq!(nul.code(), ErrorCode::InvalidArgument);
}

#[test]
fn refused_values_leave_the_property_and_are_counted() {
    let device = stereo();
    let scene = device.create_scene().unwrap();
    let source = scene.create_source(None).unwrap();
    source.set_gain(0.5).unwrap();
    assert_eq!(source.set_gain(f32::NAN).unwrap_err().code(), ErrorCode::NotFinite);
    assert_eq!(source.set_gain(-1.0).unwrap_err().code(), ErrorCode::OutOfRange);
    assert_eq!(source.gain().unwrap(), 0.5);
    assert_eq!(source.set_position([f32::INFINITY, 0.0, 0.0]).unwrap_err().code(), ErrorCode::NotFinite);
    assert!(scene.refused_value_count().unwrap() >= 3);
    assert_eq!(device.create_buffer(&[0.0, f32::NAN], 1, RATE).unwrap_err().code(), ErrorCode::NotFinite);
    assert_eq!(device.create_buffer(&[0.0, 0.0, 0.0], 2, RATE).unwrap_err().code(), ErrorCode::InvalidArgument);
}

#[test]
fn rendering_on_an_output_or_with_a_partial_frame_is_refused() {
    let device = stereo();
    let mut odd = [0.0f32; 3];
    assert_eq!(device.render(&mut odd).unwrap_err().code(), ErrorCode::InvalidArgument);
    let info = device.info().unwrap();
    assert_eq!((info.kind, info.sample_rate, info.channels), (DeviceKind::Loopback, RATE, 2));
}

#[test]
fn a_batch_starts_a_chord_on_one_sample() {
    let device = stereo();
    let scene = device.create_scene().unwrap();
    let buffer = tone(&device, 1.0);
    let (a, b) = (scene.create_source(Some(&buffer)).unwrap(), scene.create_source(Some(&buffer)).unwrap());
    device.render_frames(100).unwrap();
    scene
        .batch(|| {
            a.play()?;
            device.render_frames(480)?; // a render inside the batch: nothing is heard yet
            b.play()
        })
        .unwrap();
    let chord = device.render_frames(4800).unwrap();
    // The same tone alone, on a fresh device: the chord must be exactly twice it, sample for
    // sample — one source starting an update early would show as a difference.
    let alone_device = stereo();
    let alone_scene = alone_device.create_scene().unwrap();
    let alone = alone_scene.create_source(Some(&tone(&alone_device, 1.0))).unwrap();
    alone_device.render_frames(100 + 480).unwrap();
    alone.play().unwrap();
    let single = alone_device.render_frames(4800).unwrap();
    let worst = chord.iter().zip(&single).map(|(c, s)| (c - 2.0 * s).abs()).fold(0.0f32, f32::max);
    assert!(rms(&single).0 > 0.1, "the tone is heard");
    assert!(worst < 1e-3, "the chord is the tone twice, in phase (worst difference {worst})");
    assert!((a.offset().unwrap() - b.offset().unwrap()).abs() < 1e-6);
}

#[test]
fn a_group_fade_calls_back_once_and_silences_its_sources() {
    let device = stereo();
    let scene = device.create_scene().unwrap();
    let music = scene.create_group("music", None).unwrap();
    let source = scene.create_source(Some(&tone(&device, 1.0))).unwrap();
    source.set_looping(true).unwrap();
    source.set_group(Some(&music)).unwrap();
    source.play().unwrap();
    let (done, faded) = mpsc::channel();
    music.fade_then(0.0, 0.2, true, move || done.send(()).unwrap()).unwrap();
    device.render_frames(RATE as usize / 2).unwrap();
    faded.try_recv().expect("the fade ended within 0.5 s of mix");
    assert!(faded.try_recv().is_err(), "once");
    assert_eq!(source.state().unwrap(), SourceState::Stopped);
    assert_eq!(music.gain().unwrap(), 0.0);
}

#[test]
fn a_system_sound_reports_how_it_ended() {
    let device = stereo();
    let registry = device.create_sound_registry().unwrap();
    let click = registry.register_file(assets().join("click.wav")).unwrap();
    let (ended, outcome) = mpsc::channel();
    let report = ended.clone();
    registry.play_then(click, move |id, how| report.send((id, how)).unwrap()).unwrap();
    device.render_frames(RATE as usize).unwrap();
    assert_eq!(outcome.try_recv().unwrap(), (click, SoundOutcome::Finished));
    registry.set_enabled(false).unwrap();
    let _ = registry.play_then(click, move |id, how| ended.send((id, how)).unwrap());
    assert_eq!(outcome.try_recv().unwrap(), (click, SoundOutcome::Silenced));
    assert_eq!(registry.play(12345).unwrap_err().code(), ErrorCode::UnknownSoundId);
}

#[test]
fn a_session_interruption_silences_and_resumes_exactly() {
    let device = stereo();
    let scene = device.create_scene().unwrap();
    let session = device.create_session(Category::Playback, SessionOptions::default()).unwrap();
    let events = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&events);
    session.on_event(move |event| seen.lock().unwrap().push(event)).unwrap();
    session.attach_scene(&scene).unwrap();
    session.set_active(true).unwrap();
    let source = scene.create_source(Some(&tone(&device, 2.0))).unwrap();
    source.play().unwrap();
    device.render_frames(4800).unwrap();
    session.begin_interruption().unwrap();
    let during = device.render_frames(4800).unwrap();
    assert!(rms(&during[2 * 960..]).0 < 1e-4, "silent while interrupted");
    let paused_at = source.offset().unwrap();
    session.end_interruption(true).unwrap();
    let after = device.render_frames(4800).unwrap();
    assert!(rms(&after[2 * 960..]).0 > 0.1, "heard again");
    assert!((source.offset().unwrap() - paused_at - 0.1).abs() < 0.03, "resumed where it paused");
    let events = events.lock().unwrap();
    assert_eq!(events[0], SessionEvent::Activated);
    assert!(events.contains(&SessionEvent::InterruptionBegan(InterruptionReason::Application)));
    assert!(events.contains(&SessionEvent::InterruptionEnded { should_resume: true }));
    assert!(session.state().unwrap().active);
}

#[test]
fn a_panicking_callback_does_not_take_the_game_down() {
    let device = stereo();
    let scene = device.create_scene().unwrap();
    let source = scene.create_source(Some(&tone(&device, 0.05))).unwrap();
    source.on_completion(|| panic!("a bug in the game's callback")).unwrap();
    source.play().unwrap();
    device.render_frames(4800).unwrap();
    assert_eq!(source.state().unwrap(), SourceState::Stopped);
    device.render_frames(480).unwrap(); // the library carries on
}

#[test]
fn every_type_is_send_and_sync_and_works_from_many_threads() {
    fn shared<T: Send + Sync>() {}
    shared::<Device>();
    shared::<Scene>();
    shared::<Source>();
    shared::<Buffer>();
    shared::<Group>();
    shared::<SoundRegistry>();
    shared::<Session>();
    shared::<Client>();
    shared::<SceneFile>();
    shared::<Recorder>();
    let device = Arc::new(stereo());
    let scene = Arc::new(device.create_scene().unwrap());
    let buffer = Arc::new(tone(&device, 0.2));
    let workers: Vec<_> = (0..4)
        .map(|w| {
            let (device, scene, buffer) = (Arc::clone(&device), Arc::clone(&scene), Arc::clone(&buffer));
            thread::spawn(move || {
                for i in 0..50 {
                    let source = scene.create_source(Some(&buffer)).unwrap();
                    source.set_position([w as f32, 0.0, -(i as f32)]).unwrap();
                    source.on_completion(|| {}).unwrap();
                    source.play().unwrap();
                    if i % 10 == 0 {
                        let _ = device.render_frames(480); // renders race with the other threads' calls
                    }
                }
                thread_detach();
            })
        })
        .collect();
    for worker in workers {
        worker.join().unwrap();
    }
    assert!(device.render_frames(480).unwrap().iter().all(|s| s.is_finite()));
    assert_eq!(device.non_finite_mix_count().unwrap(), 0);
}

#[test]
fn a_scene_file_renders_to_a_file() {
    let device = stereo();
    let scene = device.load_scene_file(assets().join("../../Examples/scenes/tones.json")).unwrap();
    assert!(scene.duration().unwrap() > 0.0);
    let out = std::env::temp_dir().join(format!("soundstage-rust-{}.wav", std::process::id()));
    scene.render(&out, FileFormat::WavPcm16).unwrap();
    let size = std::fs::metadata(&out).unwrap().len();
    std::fs::remove_file(&out).unwrap();
    assert!(size > 44 + 48_000, "the file holds the scene ({size} bytes)");
    let bad = std::env::temp_dir().join(format!("soundstage-rust-{}.json", std::process::id()));
    std::fs::write(&bad, "{\"duration\": \"long\"}").unwrap();
    let error = device.load_scene_file(&bad).unwrap_err();
    std::fs::remove_file(&bad).unwrap();
    assert_eq!(error.code(), ErrorCode::InvalidScene, "{error}");
}

#[test]
fn the_version_matches_the_header_the_binding_was_made_from() {
    assert_eq!(version_number(), soundstage_sys_version());
    assert!(version().starts_with("0."));
    assert!(reverb_presets().iter().any(|name| name == "cave"));
}

fn soundstage_sys_version() -> u32 {
    0 * 10000 + 2 * 100 // SS_VERSION_NUMBER of include/soundstage.h 0.2.0
}
