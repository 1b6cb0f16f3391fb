#!/usr/bin/env bash
# Sets up and runs the whole test suite: once normally (tests run in parallel), then the C API's
# tests (scripts/test-c.sh), the bindings and packages (scripts/test-bindings.sh), the size report (scripts/size-report.sh), the fuzz targets
# (scripts/fuzz.sh: replayed, then 30 s each), the FFmpeg versions check
# (scripts/test-ffmpeg-versions.sh), then the Swift suite again under ThreadSanitizer, then the
# README's demo command end to end. Each time the tests on a real
# desktop server run after the others, alone. Fails if anything fails.
# Warnings are errors (see Package.swift). The desktop tests start their own throw-away
# PulseAudio and PipeWire servers (installed by setup.sh --tests); nothing else is needed.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each phase's wall time, printed at the end (also when a phase fails), so a CI log says where
# its minutes went.
phase_times=()
phase() {   # phase NAME COMMAND...: runs COMMAND and notes how long it took
    local name=$1 start=$SECONDS
    shift
    "$@" || { phase_times+=("$(printf '%5d s  %s (failed)' $((SECONDS - start)) "$name")"); return 1; }
    phase_times+=("$(printf '%5d s  %s' $((SECONDS - start)) "$name")")
}
report_times() {
    echo "test.sh: time per phase (${SECONDS} s in all):"
    printf '  %s\n' "${phase_times[@]}"
}
trap report_times EXIT

phase "setup (system packages)" scripts/setup.sh --tests
phase "debug build with tests" swift build --build-tests

# The tests that play on a real PulseAudio/PipeWire server run in a pass of their own: they time
# and count what reaches a sink, and on a 2-core machine a CPU-heavy test beside them can starve
# the servers they start (CI once failed a default-sink test while the daemon's hundred-clients
# load test ran beside it).
# The iOS programs' desktop suites run in a pass after the engine's: run beside them, they starved
# each other's servers under ThreadSanitizer (a pulled sink's move, a podcast at 1.5x heard with gaps).
servers='^(DesktopTests\.|CLITests\.DesktopCLITests)'
programs='^CompatTests\.CompatPrograms/(CompatDesktopTests|ProgramsOnTheDesktopTests)'
run_tests() {   # run_tests LABEL SWIFT-TEST-OPTIONS...
    local label=$1
    shift
    phase "$label: the suite" run_pass "$@" --skip "($servers|$programs)"
    phase "$label: engine on real servers" run_pass "$@" --filter "$servers"
    phase "$label: iOS programs on real servers" run_pass "$@" --filter "$programs"
}

# One `swift test`. When it fails, its failures are printed again at the end, so that the tail
# of a long log (all a CI page may show) says which expectations failed and with what values.
run_pass() {
    local log status=0
    log=$(mktemp)
    swift test "$@" 2>&1 | tee "$log" || status=$?
    # The slowest tests (they run side by side, so their times overlap): where a pass's time goes.
    echo "test.sh: the slowest tests of this pass (seconds):"
    sed 's/\x1b\[[0-9;]*m//g' "$log" | awk '/Test .* (passed|failed) after [0-9.]+ seconds/ && !/Test run with/ {
        for (i = 1; i <= NF; i++) if ($i == "after") print $(i + 1), $3 }' | sort -rn | head -n 12 | sed 's/^/  /'
    if [ "$status" -ne 0 ]; then
        echo "test.sh: swift test $* failed ($status); its failures again:" >&2
        # Each failure line, with the "↳" lines of its message that follow it: issues, failed
        # tests, compiler errors, crashes (not the "error:" lines decoders print on purpose-made
        # corrupt files, nor tests with "Crash" in their names).
        awk '/recorded an issue|^✘|\.swift:[0-9]+:[0-9]+: error:|^error: |Fatal error|unexpected signal/ { print; more = 1; next }
             more && /^↳/ { print; next }
             { more = 0 }' <(sed 's/\x1b\[[0-9;]*m//g' "$log") | tail -n 80 >&2
    fi
    rm -f "$log"
    return "$status"
}
run_tests "tests"
# The C API as a C game meets it: the shipped library (self-contained, exports), C tests, leak
# check, the C/C++/Python examples (scripts/test-c.sh).
phase "C API (test-c.sh)" scripts/test-c.sh
# The Rust, Python and C# bindings from their languages, and the Debian packages built, checked by
# lintian and installed (scripts/test-bindings.sh).
phase "bindings and packages (test-bindings.sh)" scripts/test-bindings.sh
# What the library weighs (size, parts, no ICU, the glibc floor, memory against OpenAL Soft), so a
# regression shows in CI's log; fails if ICU comes back or the library passes its 20 MB ceiling.
phase "size report" scripts/size-report.sh
# The fuzz targets: every seed and regression once, then each target for 30 s from its corpus
# with AddressSanitizer (scripts/fuzz.sh; docs/testing.md).
phase "fuzz: replay" scripts/fuzz.sh --replay
phase "fuzz: 30 s per target" scripts/fuzz.sh --all 30
# Decoding through FFmpeg 6.1 and 7.1 (from PyAV's wheels) as well as Debian 12's 5.1.
phase "FFmpeg versions" scripts/test-ffmpeg-versions.sh
run_tests "ThreadSanitizer" --sanitize=thread --scratch-path .build-tsan
phase "fuzz: replay under ThreadSanitizer" scripts/fuzz.sh --replay --tsan

# The quick start's demo, end to end: it must play or render the scene.
demo_dir=$(mktemp -d)
trap 'rm -rf "$demo_dir"; report_times' EXIT
phase "the README's demo" sh -c 'cd "$1" && "$2/scripts/demo.sh" 2> "$1/stderr"' demo "$demo_dir" "$PWD" || { cat "$demo_dir/stderr" >&2; exit 1; }
if grep -q "rendering to" "$demo_dir/stderr"; then
    test -s "$demo_dir/orbit-render.wav" || { echo "test.sh: the demo said it rendered, but wrote no file" >&2; exit 1; }
fi
echo "test.sh: demo scene ran end to end"
