"""Shared fixtures: a stereo loopback device at 48 kHz, and a mono tone buffer."""
import math
import pathlib

import pytest

import soundstage

RATE = 48000
ROOT = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture
def device():
    with soundstage.Device.loopback(RATE, soundstage.ChannelLayout.STEREO) as device:
        yield device


@pytest.fixture
def scene(device):
    return device.create_scene()


def tone(device, seconds, frequency=440.0):
    """A mono sine at amplitude 0.5."""
    frames = int(seconds * RATE)
    return device.create_buffer([0.5 * math.sin(2 * math.pi * frequency * i / RATE) for i in range(frames)], 1, RATE)


@pytest.fixture
def assets():
    return ROOT / "assets" / "sounds"
