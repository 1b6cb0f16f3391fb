//! Handles outliving their parents, and the handle count: alone in its own test binary, since
//! the count is the whole process's.
#![forbid(unsafe_code)]

use soundstage::*;

#[test]
fn objects_outliving_their_device_are_stale_not_unsafe() {
    let before = live_handles();
    let device = Device::loopback(48_000, ChannelLayout::Stereo).unwrap();
    let scene = device.create_scene().unwrap();
    let buffer = device.create_buffer(&[0.25; 4800], 1, 48_000).unwrap();
    let source = scene.create_source(Some(&buffer)).unwrap();
    drop(device);
    assert_eq!(source.play().unwrap_err().code(), ErrorCode::StaleHandle);
    assert_eq!(scene.set_listener_gain(1.0).unwrap_err().code(), ErrorCode::StaleHandle);
    assert_eq!(buffer.info().unwrap_err().code(), ErrorCode::StaleHandle);
    drop((source, scene, buffer));
    assert_eq!(live_handles(), before, "every handle was freed");
}

