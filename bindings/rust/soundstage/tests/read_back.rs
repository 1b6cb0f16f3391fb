//! Getters read the library, not a value the binding remembers: what a C caller (another
//! binding) set through `soundstage-sys` on the same handle, or a fade left, is what they answer
//! (issue 45, item 8).
use soundstage::*;
use soundstage_sys as sys;

fn stereo() -> Device {
    Device::loopback(48_000, ChannelLayout::Stereo).expect("a loopback device")
}

/// Calls the C API directly, as another binding or a C caller would.
fn c(result: sys::ss_result) {
    assert_eq!(result, sys::SS_OK, "a direct C call failed");
}

#[test]
fn a_group_reads_what_a_c_caller_set_and_what_a_fade_left() {
    let device = stereo();
    let scene = device.create_scene().unwrap();
    let group = scene.create_group("music", None).unwrap();
    assert_eq!((group.is_muted().unwrap(), group.pitch().unwrap(), group.is_metering().unwrap()), (false, 1.0, false));
    // SAFETY: a live group handle and plain values.
    unsafe {
        c(sys::ss_group_set_muted(group.as_raw(), 1));
        c(sys::ss_group_set_pitch(group.as_raw(), 2.0));
        c(sys::ss_group_set_metering(group.as_raw(), 1));
    }
    assert_eq!((group.is_muted().unwrap(), group.pitch().unwrap(), group.is_metering().unwrap()), (true, 2.0, true));
    group.fade(0.25, 0.05, false).unwrap();
    device.render(&mut vec![0.0; 4800 * 2]).unwrap();
    assert_eq!(group.gain().unwrap(), 0.25);
}

#[test]
fn a_scene_a_source_and_a_zone_read_what_a_c_caller_set() {
    let device = stereo();
    let scene = device.create_scene().unwrap();
    let source = scene.create_source(None).unwrap();
    let zone = scene.create_reverb_zone("hall", "generic", Region::Everywhere, 0.5).unwrap();
    assert_eq!((scene.doppler_factor().unwrap(), scene.virtualizes_voices().unwrap()), (1.0, false));
    assert_eq!((source.repeat_count().unwrap(), source.priority().unwrap(), zone.gain().unwrap()), (0, 0, 0.5));
    let region = sys::ss_reverb_region {
        kind: sys::SS_REGION_SPHERE,
        center: sys::ss_vec3 { x: 1.0, y: 2.0, z: 3.0 },
        radius: 4.0,
        min: sys::ss_vec3 { x: 0.0, y: 0.0, z: 0.0 },
        max: sys::ss_vec3 { x: 0.0, y: 0.0, z: 0.0 },
        fade: 1.0,
    };
    // SAFETY: live handles, plain values and a region that lives until the call returns.
    unsafe {
        c(sys::ss_scene_set_doppler_factor(scene.as_raw(), 2.5));
        c(sys::ss_scene_set_speed_of_sound(scene.as_raw(), 100.0));
        c(sys::ss_listener_set_velocity(scene.as_raw(), sys::ss_vec3 { x: 1.0, y: -2.0, z: 3.0 }));
        c(sys::ss_scene_set_metering(scene.as_raw(), 1));
        c(sys::ss_scene_set_virtualizes_voices(scene.as_raw(), 1));
        c(sys::ss_source_set_repeat_count(source.as_raw(), 3));
        c(sys::ss_source_set_priority(source.as_raw(), -42));
        c(sys::ss_source_set_metering(source.as_raw(), 1));
        c(sys::ss_source_set_zone_send(source.as_raw(), zone.as_raw(), 0.5));
        c(sys::ss_reverb_zone_set_gain(zone.as_raw(), 0.75));
        c(sys::ss_reverb_zone_set_region(zone.as_raw(), &region));
        c(sys::ss_device_set_output_metering(device.as_raw(), 1));
        c(sys::ss_device_set_max_decoded_bytes(device.as_raw(), 1_000_000));
    }
    assert_eq!((scene.doppler_factor().unwrap(), scene.speed_of_sound().unwrap()), (2.5, 100.0));
    assert_eq!(scene.listener_velocity().unwrap(), Vec3::new(1.0, -2.0, 3.0));
    assert!(scene.is_metering().unwrap() && scene.virtualizes_voices().unwrap());
    assert_eq!((source.repeat_count().unwrap(), source.priority().unwrap()), (3, -42));
    assert!(source.is_metering().unwrap());
    assert_eq!(source.zone_send(&zone).unwrap(), 0.5);
    assert_eq!(zone.gain().unwrap(), 0.75);
    assert_eq!(zone.region().unwrap(), Region::Sphere { center: Vec3::new(1.0, 2.0, 3.0), radius: 4.0, fade: 1.0 });
    assert!(device.is_output_metering().unwrap());
    assert_eq!(device.max_decoded_bytes().unwrap(), 1_000_000);
    assert!((zone.value("decayTime").unwrap() - 1.49).abs() < 1e-6);
    zone.set_preset("cave").unwrap();
    assert!((zone.value("decayTime").unwrap() - 2.91).abs() < 1e-6);
}

#[test]
fn a_registry_reads_what_a_c_caller_set_and_is_stale_after_its_device() {
    let device = stereo();
    let registry = device.create_sound_registry().unwrap();
    assert_eq!((registry.volume().unwrap(), registry.is_enabled().unwrap()), (1.0, true));
    // SAFETY: a live registry handle and plain values.
    unsafe {
        c(sys::ss_sound_registry_set_volume(registry.as_raw(), 0.25));
        c(sys::ss_sound_registry_set_enabled(registry.as_raw(), 0));
    }
    assert_eq!((registry.volume().unwrap(), registry.is_enabled().unwrap()), (0.25, false));
    drop(device);
    assert_eq!(registry.volume().unwrap_err().code(), ErrorCode::StaleHandle);
    assert_eq!(registry.is_enabled().unwrap_err().code(), ErrorCode::StaleHandle);
}
