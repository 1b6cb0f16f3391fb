#!/usr/bin/env python3
"""orbit (Python): a bee circles your head, once every 4 seconds — the orbit example through the
`soundstage` package (bindings/python). `--render FILE` writes the same bytes as the C orbit.

    pip install bindings/python                       # once (or run from a checkout: see below)
    python3 Examples/python/orbit.py                  # real time (desktop server or sound card)
    python3 Examples/python/orbit.py --render FILE    # the same 8 s, offline, to a WAV file

Run from a checkout without installing, it uses bindings/python/src. The library is found as the
package finds it ($SOUNDSTAGE_LIBRARY, pkg-config, /usr/local/lib, the loader's path). The sound
is assets/sounds/bee.wav, or $SOUNDSTAGE_ASSETS/bee.wav.
"""
import ctypes
import math
import os
import pathlib
import sys
import time

try:
    import soundstage
except ImportError:
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "bindings" / "python" / "src"))
    import soundstage

SECONDS = 8
TICKS_PER_SECOND = 60


def f32(value):
    """Rounds to a C float, as the C example's float arithmetic does."""
    return ctypes.c_float(value).value


def tick(bee, t, previous):
    """Moves the bee to where it is at `t` seconds; its velocity follows the motion."""
    angle = 2 * math.pi * t / 4
    x, z = f32(2 * math.sin(angle)), f32(-2 * math.cos(angle))
    if previous:
        bee.velocity = (f32(f32(x - previous[0]) * 60), 0, f32(f32(z - previous[1]) * 60))
    bee.position = (x, 0, z)
    return x, z


def main(argv):
    render_path = None
    if len(argv) == 3 and argv[1] == "--render":
        render_path = argv[2]
    elif len(argv) != 1:
        print("usage: orbit.py [--render FILE]", file=sys.stderr)
        return 64
    sound = os.path.join(os.environ.get("SOUNDSTAGE_ASSETS", "assets/sounds"), "bee.wav")
    device = None
    if render_path is None:
        try:
            device = soundstage.Device.open_output(application_name="orbit")
        except soundstage.SoundstageError as error:
            print(f"orbit: no audio output device ({error.message}); rendering to orbit.wav instead", file=sys.stderr)
            render_path = "orbit.wav"
    if device is None:
        device = soundstage.Device.loopback(48000, soundstage.ChannelLayout.STEREO)
    with device:
        scene = device.create_scene()
        bee = scene.create_source(device.load_buffer(sound))
        bee.looping = True
        bee.gain = 0.8
        bee.play()
        previous = None
        if render_path:
            # Offline: tick, then mix a tick's worth of frames; the mix recorder writes what is mixed.
            device.start_recording_output(render_path, soundstage.FileFormat.WAV_PCM16)
            for step in range(SECONDS * TICKS_PER_SECOND):
                previous = tick(bee, step / TICKS_PER_SECOND, previous)
                device.render(800)
            device.stop_recording_output()
            print(f"A bee circles your head, once every 4 seconds: rendered {SECONDS} s to {render_path}")
        else:
            print(f"A bee circles your head, once every 4 seconds ({SECONDS} s)")
            start = time.monotonic()
            while time.monotonic() - start < SECONDS:
                previous = tick(bee, time.monotonic() - start, previous)
                time.sleep(0.016)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except soundstage.SoundstageError as error:
        print(f"orbit: {error}", file=sys.stderr)
        sys.exit(1)
