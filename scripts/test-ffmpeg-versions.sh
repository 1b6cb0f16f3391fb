#!/usr/bin/env bash
# Decoding through the FFmpeg versions a Linux game meets beside Debian 12's 5.1: FFmpeg 6.1
# (libavformat 60) and 7.1 (libavformat 61, Debian 13), taken from PyAV's wheels on PyPI (pinned
# versions; each bundles a complete FFmpeg). Files written here with the system's FFmpeg 5.1 are
# read with SOUNDSTAGE_FFMPEG_PATH pointing at each: the same frames, priming and remainder, and
# the same samples as 5.1 decodes (within 1e-4); writing is refused with a clear error (it needs
# 5.1's struct layout). Run by scripts/test.sh after the Swift build; needs python3 with pip.
set -euo pipefail
cd "$(dirname "$0")/.."
soundstage=.build/debug/soundstage
work=.build/ffmpeg-versions
mkdir -p "$work"
failed=0

fail() { echo "FAIL $*"; failed=$((failed + 1)); }

# Fixtures, written and decoded with the system's FFmpeg 5.1.
python3 - "$work/source.wav" <<'PY'
import math, struct, sys, wave
rate, n = 48000, 48000
out = wave.open(sys.argv[1], "wb"); out.setnchannels(2); out.setsampwidth(2); out.setframerate(rate)
frames = bytearray()
for i in range(n):
    t = i / rate
    fade = min(1.0, min(i, n - 1 - i) / 240)
    left = fade * 0.5 * math.sin(2 * math.pi * 440 * t)
    right = fade * 0.5 * math.sin(2 * math.pi * (200 * t + 900 * t * t))
    frames += struct.pack("<hh", int(left * 32767), int(right * 32767))
out.writeframes(bytes(frames)); out.close()
PY
for format in m4a-aac m4a-alac adts-aac; do
    "$soundstage" convert "$work/source.wav" "$work/$format.${format%%-*}" --format "$format"
    "$soundstage" convert "$work/$format.${format%%-*}" "$work/$format-5.1.wav" --format wav-f32
    "$soundstage" inspect --json "$work/$format.${format%%-*}" > "$work/$format-5.1.json"
done

for pin in "12.3.0 6.1 60" "14.0.1 7.1 61"; do
    read -r av ffmpeg major <<< "$pin"
    dir="$work/av-$av"
    if [ ! -d "$dir/lib" ]; then
        if ! python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.11 \
                --platform manylinux_2_17_x86_64 "av==$av" -d "$dir" >/dev/null 2>&1; then
            fail "FFmpeg $ffmpeg: could not download PyAV $av from PyPI"
            continue
        fi
        python3 -m zipfile -e "$dir"/av-*.whl "$dir/wheel" >/dev/null
        mkdir -p "$dir/lib"
        for lib in "$dir"/wheel/av.libs/*; do
            name=$(basename "$lib")
            ln -sf "$PWD/$lib" "$dir/lib/$name"
            # libavformat-744f8610.so.60.16.100 -> libavformat.so.60, the name Soundstage loads.
            case "$name" in libavutil-*|libavcodec-*|libavformat-*)
                soname="${name%%-*}.so.$(echo "$name" | sed -E 's/.*\.so\.([0-9]+)\..*/\1/')"
                ln -sf "$PWD/$lib" "$dir/lib/$soname" ;;
            esac
        done
    fi
    # The wheel's libraries find each other through the library path (they carry no RPATH).
    export SOUNDSTAGE_FFMPEG_PATH="$PWD/$dir/lib" LD_LIBRARY_PATH="$PWD/$dir/lib"
    for format in m4a-aac m4a-alac adts-aac; do
        file="$work/$format.${format%%-*}"
        if ! "$soundstage" inspect --json "$file" > "$work/$format-$ffmpeg.json"; then fail "FFmpeg $ffmpeg: inspect $format"; continue; fi
        "$soundstage" convert "$file" "$work/$format-$ffmpeg.wav" --format wav-f32 || { fail "FFmpeg $ffmpeg: decode $format"; continue; }
        python3 - "$work/$format-5.1.json" "$work/$format-$ffmpeg.json" "$work/$format-5.1.wav" "$work/$format-$ffmpeg.wav" "$major" <<'PY' || fail "FFmpeg $ffmpeg: $format differs from 5.1"
import json, struct, sys
old, new = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert f"libavformat {sys.argv[5]}." in new["codec"]["decoder"], new["codec"]["decoder"]
for key in ("frames", "sampleRate", "channels", "encoding", "container"):
    assert old[key] == new[key], (key, old[key], new[key])
for key in ("primingFrames", "remainderFrames", "gapless", "profile"):
    assert old["codec"].get(key) == new["codec"].get(key), (key, old["codec"].get(key), new["codec"].get(key))
def samples(path):
    # A 32-bit float WAV (which Python's wave module does not read): the floats of its data chunk.
    raw = open(path, "rb").read()
    at = 12
    while at + 8 <= len(raw):
        kind, size = raw[at:at + 4], struct.unpack("<I", raw[at + 4:at + 8])[0]
        if kind == b"data":
            return struct.unpack("<%df" % (size // 4), raw[at + 8:at + 8 + size])
        at += 8 + size + (size & 1)
    raise ValueError("no data chunk in " + path)
a, b = samples(sys.argv[3]), samples(sys.argv[4])
assert len(a) == len(b), (len(a), len(b))
worst = max(abs(x - y) for x, y in zip(a, b))
assert worst < 1e-4, worst
print(f"ok   {new['codec']['decoder']}: {new['container']} {new['encoding']}, {new['frames']} frames, "
      f"priming {new['codec'].get('primingFrames')}, within {worst:.1e} of FFmpeg 5.1")
PY
    done
    if "$soundstage" convert "$work/source.wav" "$work/refused.m4a" 2> "$work/refused.txt"; then
        fail "FFmpeg $ffmpeg: writing M4A should be refused"
    elif grep -q "needs FFmpeg 5.1" "$work/refused.txt" && [ ! -e "$work/refused.m4a" ]; then
        echo "ok   FFmpeg $ffmpeg: writing is refused in one line: $(cat "$work/refused.txt")"
    else
        fail "FFmpeg $ffmpeg: the refusal says: $(cat "$work/refused.txt")"
    fi
    unset SOUNDSTAGE_FFMPEG_PATH LD_LIBRARY_PATH
done
[ "$failed" -eq 0 ] || { echo "FFmpeg versions: $failed failed"; exit 1; }
echo "FFmpeg versions: all passed"
