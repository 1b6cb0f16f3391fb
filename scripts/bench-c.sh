#!/usr/bin/env bash
# The C API's benchmarks:
#   - Benchmarks/C/frame-bench.c: the frame loop of soundstage-bench, 256 sources moved every
#     10 ms, from C: the C API against raw OpenAL, taking turns;
#   - `soundstage-bench capi`: ss_source_set_position against the Swift setter, in one process;
#   - Benchmarks/C/memory-bench.c: peak resident memory of a C program that links libsoundstage
#     against one linked to OpenAL Soft, libsndfile and libpulse, and of Examples/C/orbit.c's 8 s
#     offline render against the same render in raw OpenAL (Benchmarks/C/orbit-openal.c).
#
#   scripts/bench-c.sh [updates-per-round]   all three
#   scripts/bench-c.sh --memory [runs]       the memory benchmark only (scripts/size-report.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
stage=$(scripts/build-c-library.sh)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
strict=(-O2 -std=c99 -Wall -Wextra -Werror -pedantic)
soundstage=(-I"$stage/include" -L"$stage/lib" -lsoundstage)
export LD_LIBRARY_PATH="$stage/lib" ALSOFT_LOGLEVEL=0 SOUNDSTAGE_ASSETS="$root/assets/sounds"

memory() {  # memory [runs]: builds memory-bench's programs side by side, runs it
    gcc "${strict[@]}" -DWITH_SOUNDSTAGE Benchmarks/C/idle.c "${soundstage[@]}" -o "$work/idle-soundstage"
    # shellcheck disable=SC2046
    gcc "${strict[@]}" Benchmarks/C/idle.c $(pkg-config --cflags --libs openal sndfile libpulse) -o "$work/idle-peers"
    gcc "${strict[@]}" Examples/C/orbit.c "${soundstage[@]}" -lm -o "$work/orbit"
    # shellcheck disable=SC2046
    gcc "${strict[@]}" Benchmarks/C/orbit-openal.c $(pkg-config --cflags --libs openal sndfile) -lm -o "$work/orbit-openal"
    gcc "${strict[@]}" Benchmarks/C/memory-bench.c -o "$work/memory-bench"
    "$work/memory-bench" "$@"
}

if [ "${1:-}" = "--memory" ]; then
    shift
    memory "$@"
    exit
fi
# shellcheck disable=SC2046
gcc "${strict[@]}" Benchmarks/C/frame-bench.c "${soundstage[@]}" $(pkg-config --cflags --libs openal) -lm -o "$work/frame-bench"
"$work/frame-bench" "${1:-1000}"
echo
memory
echo
swift run -c release soundstage-bench capi
