"""The Python binding heard on the loopback renderer: what reaches the mix, not what calls return."""
import threading

import numpy
import pytest

import soundstage
from soundstage import errors

from conftest import RATE, ROOT, tone


def rms(samples):
    """RMS of each channel of a (frames, channels) array."""
    return numpy.sqrt(numpy.mean(numpy.square(samples.astype(numpy.float64)), axis=0))


def test_a_source_on_the_right_is_heard_on_the_right(device, scene):
    source = scene.create_source(tone(device, 1.0))
    source.looping = True
    source.position = (2, 0, 0)
    source.play()
    left, right = rms(device.render(4800)[480:])
    assert right > 0.1 and right > 2 * left
    source.position = (-2, 0, 0)
    device.render(2400)
    left, right = rms(device.render(4800))
    assert left > 2 * right
    assert source.position == (-2.0, 0.0, 0.0)


def test_render_gives_a_float32_array_of_frames_by_channels(device):
    samples = device.render(480)
    assert samples.dtype == numpy.float32 and samples.shape == (480, 2)


def test_render_gives_bytes_without_numpy(device, scene, monkeypatch):
    from soundstage import device as device_module
    monkeypatch.setattr(device_module, "numpy", None)
    source = scene.create_source(tone(device, 1.0))
    source.position = (2, 0, 0)
    source.play()
    data = device.render(4800)
    assert isinstance(data, bytes) and len(data) == 4800 * 2 * 4
    samples = numpy.frombuffer(data, dtype=numpy.float32).reshape(-1, 2)
    left, right = rms(samples[480:])
    assert right > 2 * left, "the bytes are the interleaved mix"


def test_render_into_a_buffer_of_the_callers(device):
    out = bytearray(480 * 2 * 4)
    device.render_into(out)
    with pytest.raises(errors.InvalidArgumentError):
        device.render_into(bytearray(7))


def test_completion_runs_once_inside_render_when_the_sound_ends(device, scene):
    source = scene.create_source(tone(device, 0.1))
    calls = []
    source.on_completion(lambda: calls.append(threading.get_ident()))
    source.play()
    device.render(2400)
    assert calls == [] and source.state is soundstage.SourceState.PLAYING
    after = device.render(9600)
    assert calls == [threading.get_ident()], "once, on the rendering thread"
    assert source.state is soundstage.SourceState.STOPPED
    assert rms(after[4800:]).max() < 1e-4
    device.render(4800)
    assert len(calls) == 1


def test_a_bad_file_raises_with_the_code_and_message(device, tmp_path):
    with pytest.raises(soundstage.errors.NotFoundError) as missing:
        device.load_buffer("/nonexistent/bee.wav")
    assert isinstance(missing.value, FileNotFoundError)
    assert missing.value.code == -20 and missing.value.code_name == "SS_ERROR_NOT_FOUND"
    assert "bee.wav" in missing.value.message
    garbage = tmp_path / "notes.wav"
    garbage.write_text("this is not a sound file at all, just text")
    with pytest.raises((errors.UnsupportedFormatError, errors.CorruptDataError)) as bad:
        device.load_buffer(garbage)
    assert isinstance(bad.value, soundstage.SoundstageError)
    with pytest.raises(errors.InvalidArgumentError):
        device.load_buffer("bee\0.wav")


def test_refused_values_leave_the_property(device, scene):
    source = scene.create_source()
    source.gain = 0.5
    with pytest.raises(errors.NotFiniteError):
        source.gain = float("nan")
    with pytest.raises(ValueError):  # OutOfRangeError is a ValueError
        source.gain = -1
    assert source.gain == 0.5
    with pytest.raises(errors.NotFiniteError):
        source.position = (float("inf"), 0, 0)
    assert scene.refused_value_count >= 3
    with pytest.raises(errors.NotFiniteError):
        device.create_buffer([0.0, float("nan")])


def test_objects_outliving_their_device_raise_stale_handle():
    device = soundstage.Device.loopback()
    scene = device.create_scene()
    source = scene.create_source()
    device.close()
    device.close()  # twice is harmless
    with pytest.raises(errors.StaleHandleError):
        source.play()
    with pytest.raises(errors.StaleHandleError):
        scene.listener_gain = 1.0
    assert device.closed and "closed" in repr(device)


def test_context_managers_free_every_handle():
    before = soundstage.live_handles()
    with soundstage.Device.loopback() as device:
        with device.create_scene() as scene:
            with tone(device, 0.5) as buffer, scene.create_source(buffer) as source:
                source.play()
                device.render(480)
    assert soundstage.live_handles() == before


def test_a_batch_starts_a_chord_on_one_sample(device, scene):
    buffer = tone(device, 1.0)
    a, b = scene.create_source(buffer), scene.create_source(buffer)
    device.render(100)
    with scene.batch():
        a.play()
        device.render(480)  # nothing is heard yet
        b.play()
    chord = device.render(4800)
    with soundstage.Device.loopback() as alone_device:
        alone = alone_device.create_scene().create_source(tone(alone_device, 1.0))
        alone_device.render(580)
        alone.play()
        single = alone_device.render(4800)
    assert rms(single).max() > 0.1
    assert numpy.abs(chord - 2 * single).max() < 1e-3


def test_a_group_fade_calls_back_once(device, scene):
    music = scene.create_group("music")
    source = scene.create_source(tone(device, 1.0))
    source.looping = True
    source.set_group(music)
    source.play()
    ended = []
    music.fade(0.0, 0.2, stop_at_end=True, then=lambda: ended.append(True))
    device.render(RATE // 2)
    assert ended == [True]
    assert source.state is soundstage.SourceState.STOPPED and music.gain == 0.0


def test_a_system_sound_reports_how_it_ended(device, assets):
    registry = device.create_sound_registry()
    click = registry.register_file(assets / "click.wav")
    outcomes = []
    registry.play(click, then=lambda sound, how: outcomes.append((sound, how)))
    device.render(RATE)
    assert outcomes == [(click, soundstage.SoundOutcome.FINISHED)]
    registry.enabled = False
    try:
        registry.play(click, then=lambda sound, how: outcomes.append((sound, how)))
    except soundstage.SoundstageError:
        pass
    assert outcomes[-1] == (click, soundstage.SoundOutcome.SILENCED)
    with pytest.raises(errors.UnknownSoundIdError):
        registry.play(12345)


def test_a_session_interruption_silences_and_resumes(device, scene):
    session = device.create_session(soundstage.Category.PLAYBACK)
    events = []
    session.on_event(events.append)
    session.attach(scene)
    session.active = True
    source = scene.create_source(tone(device, 2.0))
    source.play()
    device.render(4800)
    with session.interruption(should_resume=True):
        during = device.render(4800)
        paused_at = source.offset
    assert rms(during[960:]).max() < 1e-4
    after = device.render(4800)
    assert rms(after[960:]).max() > 0.1
    assert abs(source.offset - paused_at - 0.1) < 0.03
    kinds = [event.kind for event in events]
    assert kinds[0] is soundstage.SessionEventKind.ACTIVATED
    assert soundstage.SessionEventKind.INTERRUPTION_BEGAN in kinds
    assert soundstage.SessionEventKind.INTERRUPTION_ENDED in kinds
    assert session.active


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_callback_that_raises_does_not_stop_the_library(device, scene):
    source = scene.create_source(tone(device, 0.05))

    def broken():
        raise RuntimeError("a bug in the game's callback")
    source.on_completion(broken)
    source.play()
    device.render(4800)
    assert source.state is soundstage.SourceState.STOPPED
    device.render(480)


def test_threads_share_a_device(device, scene):
    buffer = tone(device, 0.2)
    failures = []

    def worker(w):
        try:
            for i in range(30):
                source = scene.create_source(buffer)
                source.position = (w, 0, -i)
                source.on_completion(lambda: None)
                source.play()
                if i % 10 == 0:
                    device.render(480)
            soundstage.thread_detach()
        except Exception as error:  # noqa: BLE001 - reported below
            failures.append(error)
    threads = [threading.Thread(target=worker, args=(w,)) for w in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert numpy.isfinite(device.render(480)).all()
    assert device.non_finite_mix_count == 0


def test_a_scene_file_renders_and_a_bad_one_says_so(device, tmp_path):
    scene_file = device.load_scene_file(ROOT / "Examples" / "scenes" / "tones.json")
    assert scene_file.duration > 0
    scene_file.render(tmp_path / "tones.wav")
    assert (tmp_path / "tones.wav").stat().st_size > 44 + 48000
    bad = tmp_path / "bad.json"
    bad.write_text('{"duration": "long"}')
    with pytest.raises(errors.InvalidSceneError):
        device.load_scene_file(bad)


def test_versions_and_presets():
    assert soundstage.__version__ == "%d.%d.%d" % soundstage.HEADER_VERSION
    assert "cave" in soundstage.reverb_presets()
    assert soundstage.Device.loopback().info.kind is soundstage.DeviceKind.LOOPBACK
