#!/usr/bin/env python3
"""Checks an orbit render: the bee is in front at 0 s, right at 1 s, behind at 2 s, left at 3 s.

    check_orbit.py RENDER.wav [REFERENCE.wav]

With a reference (the Swift example's render), the two must hold the same samples. Prints what
it measured; exits 1 on a failed check.
"""
import array
import math
import sys
import wave


def read(path):
    with wave.open(path, "rb") as w:
        assert w.getnchannels() == 2 and w.getsampwidth() == 2, f"{path}: not 16-bit stereo"
        samples = array.array("h", w.readframes(w.getnframes()))
        return w.getframerate(), samples


def levels(rate, samples, t):
    """Left and right RMS over the 100 ms around t."""
    start, end = int((t - 0.05) * rate), int((t + 0.05) * rate)
    start = max(start, 0)
    left = [samples[2 * i] for i in range(start, end)]
    right = [samples[2 * i + 1] for i in range(start, end)]
    rms = lambda xs: math.sqrt(sum(x * x for x in xs) / len(xs))
    return rms(left), rms(right)


def main(argv):
    rate, samples = read(argv[1])
    failures = []
    for t, where in [(0.05, "front"), (1, "right"), (2, "behind"), (3, "left")]:
        left, right = levels(rate, samples, t)
        ratio = right / max(left, 1e-9)
        print(f"{argv[1]}: {t:4.2f} s: left {left:7.1f} right {right:7.1f} (right/left {ratio:5.2f}), expected {where}")
        ok = {"front": 0.8 < ratio < 1.25, "behind": 0.8 < ratio < 1.25, "right": ratio > 4, "left": ratio < 0.25}[where]
        if not ok:
            failures.append(f"at {t} s the bee is not {where}")
    if len(argv) > 2:
        _, reference = read(argv[2])
        if reference != samples:
            first = next((i for i, (a, b) in enumerate(zip(samples, reference)) if a != b), min(len(samples), len(reference)))
            failures.append(f"differs from {argv[2]} from sample {first} on")
        else:
            print(f"{argv[1]}: the same samples as {argv[2]}")
    for failure in failures:
        print(f"check_orbit: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
