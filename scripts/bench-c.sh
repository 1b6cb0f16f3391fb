#!/usr/bin/env bash
# The C API's benchmarks: Benchmarks/C/frame-bench.c (the frame loop of soundstage-bench, 256
# sources moved every 10 ms, from C: the C API against raw OpenAL, taking turns) and
# `soundstage-bench capi` (ss_source_set_position against the Swift setter, in one process).
#   scripts/bench-c.sh [updates-per-round]
set -euo pipefail
cd "$(dirname "$0")/.."
stage=$(scripts/build-c-library.sh)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -O2 -std=c99 -Wall -Wextra -Werror -pedantic Benchmarks/C/frame-bench.c -I"$stage/include" -L"$stage/lib" -lsoundstage \
    $(pkg-config --cflags --libs openal) -lm -o "$work/frame-bench"
LD_LIBRARY_PATH="$stage/lib" "$work/frame-bench" "${1:-1000}"
echo
swift run -c release soundstage-bench capi
