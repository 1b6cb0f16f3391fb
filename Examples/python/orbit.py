#!/usr/bin/env python3
"""orbit (Python): the orbit example driven through libsoundstage's C API with ctypes.

A bee circles your head once every 4 seconds: in front at 0 s, right at 1 s, behind at 2 s,
left at 3 s. Any language with a C FFI drives the library the same way.

    python3 Examples/python/orbit.py                  # real time (desktop server or sound card)
    python3 Examples/python/orbit.py --render FILE    # the same 8 s, offline, to a WAV file

The library is found as $SOUNDSTAGE_LIBRARY, else as libsoundstage.so.0 on the loader's path
(after scripts/install.sh, or with LD_LIBRARY_PATH set). The sound is assets/sounds/bee.wav, or
$SOUNDSTAGE_ASSETS/bee.wav.
"""
import ctypes
import math
import os
import sys
import time

SS_OK = 0
SS_LAYOUT_STEREO = 2
SS_OFF = 0
SS_BACKEND_AUTOMATIC = 0
SS_FORMAT_WAV_PCM16 = 0
SECONDS = 8


class SoundstageError(Exception):
    """A call of the C API failed; the message is the library's."""


def load_library():
    lib = ctypes.CDLL(os.environ.get("SOUNDSTAGE_LIBRARY", "libsoundstage.so.0"))
    handle = ctypes.c_void_p
    out = ctypes.POINTER(ctypes.c_void_p)
    signatures = {
        "ss_device_open_output": [ctypes.c_int, ctypes.c_void_p, out],
        "ss_device_open_loopback": [ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int, out],
        "ss_device_destroy": [handle],
        "ss_scene_create": [handle, ctypes.c_int, out],
        "ss_buffer_load_file": [handle, ctypes.c_char_p, out],
        "ss_source_create": [handle, handle, out],
        "ss_source_set_looping": [handle, ctypes.c_int],
        "ss_source_set_gain": [handle, ctypes.c_float],
        "ss_source_set_position": [handle, ctypes.c_float, ctypes.c_float, ctypes.c_float],
        "ss_source_set_velocity": [handle, ctypes.c_float, ctypes.c_float, ctypes.c_float],
        "ss_source_play": [handle],
        "ss_device_render": [handle, ctypes.POINTER(ctypes.c_float), ctypes.c_size_t],
        "ss_device_start_recording_output": [handle, ctypes.c_char_p, ctypes.c_int],
        "ss_device_stop_recording_output": [handle, ctypes.c_void_p],
    }
    for name, arguments in signatures.items():
        function = getattr(lib, name)
        function.argtypes = arguments
        function.restype = ctypes.c_int
    lib.ss_error_message.restype = ctypes.c_char_p
    lib.ss_error_message.argtypes = []
    return lib


def f32(value):
    """Rounds to a C float, as the C example's float arithmetic does."""
    return ctypes.c_float(value).value


def main(argv):
    render_path = None
    if len(argv) == 3 and argv[1] == "--render":
        render_path = argv[2]
    elif len(argv) != 1:
        print("usage: orbit.py [--render FILE]", file=sys.stderr)
        return 64
    lib = load_library()

    def check(result, what):
        if result != SS_OK:
            raise SoundstageError(f"{what}: {lib.ss_error_message().decode()}")

    device = ctypes.c_void_p()
    if render_path is None and lib.ss_device_open_output(SS_BACKEND_AUTOMATIC, None, ctypes.byref(device)) != SS_OK:
        print("orbit.py: no audio output device; rendering to orbit.wav instead", file=sys.stderr)
        render_path = "orbit.wav"
    if render_path is not None:
        check(lib.ss_device_open_loopback(48000, SS_LAYOUT_STEREO, SS_OFF, -1, ctypes.byref(device)), "loopback")
    try:
        scene, buffer, bee = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_void_p()
        sound = os.path.join(os.environ.get("SOUNDSTAGE_ASSETS", "assets/sounds"), "bee.wav")
        check(lib.ss_scene_create(device, 0, ctypes.byref(scene)), "scene")
        check(lib.ss_buffer_load_file(device, sound.encode(), ctypes.byref(buffer)), sound)
        check(lib.ss_source_create(scene, buffer, ctypes.byref(bee)), "source")
        lib.ss_source_set_looping(bee, 1)
        lib.ss_source_set_gain(bee, 0.8)
        check(lib.ss_source_play(bee), "play")

        previous = None

        def tick(t):
            nonlocal previous
            angle = 2 * math.pi * t / 4
            x, z = f32(2 * math.sin(angle)), f32(-2 * math.cos(angle))
            if previous is not None:
                lib.ss_source_set_velocity(bee, f32(f32(x - previous[0]) * 60), 0, f32(f32(z - previous[1]) * 60))
            lib.ss_source_set_position(bee, x, 0, z)
            previous = (x, z)

        if render_path is not None:
            frames = (ctypes.c_float * (2 * 800))()
            check(lib.ss_device_start_recording_output(device, render_path.encode(), SS_FORMAT_WAV_PCM16), render_path)
            for step in range(SECONDS * 60):
                tick(step / 60)
                check(lib.ss_device_render(device, frames, 800), "render")
            check(lib.ss_device_stop_recording_output(device, None), render_path)
            print(f"A bee circles your head, once every 4 seconds: rendered {SECONDS} s to {render_path}")
        else:
            print(f"A bee circles your head, once every 4 seconds ({SECONDS} s)")
            start = time.monotonic()
            while (t := time.monotonic() - start) < SECONDS:
                tick(t)
                time.sleep(0.016)
    except SoundstageError as error:
        print(f"orbit.py: {error}", file=sys.stderr)
        return 1
    finally:
        lib.ss_device_destroy(device)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
