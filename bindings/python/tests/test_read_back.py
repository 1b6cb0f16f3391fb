"""Properties read the library, not the binding's memory of the last value it set: a value set
through the C API directly (another binding, a C caller), by a fade or a preset switch, is what
the property answers (issue 45, item 8)."""
import ctypes

import pytest

import soundstage
from soundstage import errors
from soundstage._ffi import SS_REGION_SPHERE, ss_reverb_region, ss_vec3
from soundstage._library import lib
from soundstage.errors import check

from conftest import tone


def test_a_group_reads_what_a_c_caller_set(device, scene):
    group = scene.create_group("music")
    assert (group.muted, group.pitch, group.metering) == (False, 1.0, False)
    check(lib.ss_group_set_muted(group, 1))
    check(lib.ss_group_set_pitch(group, ctypes.c_float(2.0)))
    check(lib.ss_group_set_metering(group, 1))
    assert (group.muted, group.pitch, group.metering) == (True, 2.0, True)
    group.muted, group.pitch, group.metering = False, 0.5, False
    check(lib.ss_group_set_muted(group, 1))
    assert group.muted and group.pitch == 0.5 and not group.metering


def test_a_group_fade_is_read_back(device, scene):
    group = scene.create_group("music")
    group.gain = 1.0
    group.fade(0.25, 0.05)
    device.render(4800)
    assert group.gain == pytest.approx(0.25)


def test_metering_switches_read_the_library(device, scene):
    source = scene.create_source(tone(device, 0.1))
    check(lib.ss_device_set_output_metering(device, 1))
    check(lib.ss_scene_set_metering(scene, 1))
    check(lib.ss_source_set_metering(source, 1))
    assert device.output_metering and scene.metering and source.metering
    device.output_metering = scene.metering = source.metering = True
    check(lib.ss_device_set_output_metering(device, 0))
    check(lib.ss_scene_set_metering(scene, 0))
    check(lib.ss_source_set_metering(source, 0))
    assert not (device.output_metering or scene.metering or source.metering)


def test_a_scene_reads_what_a_c_caller_set(device, scene):
    assert not scene.virtualizes_voices
    check(lib.ss_scene_set_virtualizes_voices(scene, 1))
    assert scene.virtualizes_voices
    assert (scene.doppler_factor, scene.speed_of_sound) == (1.0, pytest.approx(343.3))
    check(lib.ss_scene_set_doppler_factor(scene, ctypes.c_float(2.5)))
    check(lib.ss_scene_set_speed_of_sound(scene, ctypes.c_float(100)))
    check(lib.ss_listener_set_velocity(scene, ss_vec3(1, -2, 3)))
    assert (scene.doppler_factor, scene.speed_of_sound) == (2.5, 100.0)
    assert scene.listener_velocity == (1.0, -2.0, 3.0)
    scene.doppler_factor, scene.listener_velocity = 0.0, (0, 0, 0)
    assert scene.doppler_factor == 0.0 and scene.listener_velocity == (0.0, 0.0, 0.0)
    with pytest.raises(errors.OutOfRangeError):
        scene.speed_of_sound = 0
    assert scene.speed_of_sound == 100.0


def test_a_source_and_a_zone_read_what_a_c_caller_set(device, scene):
    source = scene.create_source(tone(device, 0.1))
    zone = scene.create_reverb_zone("hall", "generic", gain=0.5)
    assert (source.repeat_count, source.priority, zone.gain) == (0, 0, 0.5)
    check(lib.ss_source_set_repeat_count(source, 3))
    check(lib.ss_source_set_priority(source, -42))
    check(lib.ss_reverb_zone_set_gain(zone, ctypes.c_float(0.75)))
    assert (source.repeat_count, source.priority, zone.gain) == (3, -42, 0.75)
    source.reverb_send = 0.25
    assert source.zone_send(zone) == 0.25
    check(lib.ss_source_set_zone_send(source, zone, ctypes.c_float(0.5)))
    assert source.zone_send(zone) == 0.5
    assert zone.region is None
    region = ss_reverb_region(kind=SS_REGION_SPHERE, center=ss_vec3(1, 2, 3), radius=4, fade=1)
    check(lib.ss_reverb_zone_set_region(zone, ctypes.byref(region)))
    assert zone.region == ("sphere", (1.0, 2.0, 3.0), 4.0, 1.0)
    zone.region = ("box", (-1, -1, -1), (2, 2, 2), 0.5)
    assert zone.region == ("box", (-1.0, -1.0, -1.0), (2.0, 2.0, 2.0), 0.5)
    assert zone.value("decayTime") == pytest.approx(1.49)
    zone.set_preset("cave")
    assert zone.value("decayTime") == pytest.approx(2.91)


def test_a_registry_reads_what_a_c_caller_set(device):
    with device.create_sound_registry() as registry:
        assert (registry.volume, registry.enabled) == (1.0, True)
        check(lib.ss_sound_registry_set_volume(registry, ctypes.c_float(0.25)))
        check(lib.ss_sound_registry_set_enabled(registry, 0))
        assert (registry.volume, registry.enabled) == (0.25, False)


def test_the_decode_limit_reads_back(device):
    assert device.max_decoded_bytes == 512 * 1024 * 1024
    check(lib.ss_device_set_max_decoded_bytes(device, 1000000))
    assert device.max_decoded_bytes == 1000000


def test_getters_of_closed_objects_raise_stale_handle():
    device = soundstage.Device.loopback(48000, soundstage.ChannelLayout.STEREO)
    group = device.create_scene().create_group("g")
    registry = device.create_sound_registry()
    device.close()
    for read in (lambda: group.muted, lambda: group.pitch, lambda: registry.volume, lambda: registry.enabled):
        with pytest.raises(errors.StaleHandleError):
            read()
