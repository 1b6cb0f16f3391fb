#!/usr/bin/env bash
# Installs what Soundstage needs from Debian (12 "bookworm" and later), when it is missing:
# OpenAL Soft, libsndfile and libpulse with their headers, and OpenAL Soft's HRTF data.
# With --tests, also what the tests start and use: PulseAudio, PipeWire (with pipewire-pulse,
# WirePlumber and a D-Bus daemon), pactl/parec, libcanberra-dev and libcanberra-pulse (the latency benchmark's peer, on its own PulseAudio backend), tmux (the `top` test),
# gcc, g++, binutils and python3 (the C API's tests and examples), and FFmpeg's runtime libraries
# with the ffmpeg tool (AAC and ALAC: optional for Soundstage, which loads them at run time; the
# tests make their fixtures with them, and the decode benchmark compares against the tool), and
# pip (scripts/test-ffmpeg-versions.sh fetches FFmpeg 6.1 and 7.1 from PyAV's wheels on PyPI), and
# chromium (the live view's tests open its page in a real headless browser), and espeak-ng (the iLBC tests'
# spoken sentence).
# Needs a Swift 6.2+ toolchain on PATH (https://www.swift.org/install/linux/).
set -euo pipefail

packages=(libopenal-dev libsndfile1-dev libpulse-dev libopenal-data sound-theme-freedesktop pkg-config)
if [ "${1:-}" = "--tests" ]; then
    packages+=(pulseaudio pulseaudio-utils pipewire pipewire-pulse wireplumber dbus libcanberra-dev libcanberra-pulse tmux gcc g++ binutils python3
          libavformat59 libavcodec59 ffmpeg python3-pip chromium libsoundtouch1
          bindgen libclang1-14 libclang-common-14-dev mono-mcs mono-runtime libmono-system-core4.0-cil
          dpkg-dev fakeroot lintian abigail-tools python3-venv systemd espeak-ng)
fi
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}" >&2
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || { echo "setup: run as root or install sudo to install ${missing[*]}" >&2; exit 1; }
        sudo="sudo"
    fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

command -v swift >/dev/null || { echo "setup: no 'swift' on PATH; install a Swift 6.2+ toolchain first" >&2; exit 1; }
