#!/usr/bin/env bash
# Sets up and runs Soundstage's tests. Fails if anything fails.
#
#   scripts/test.sh                 the whole suite, what CI runs (.ci/run): every phase below
#   scripts/test.sh --quick         the inner loop, at most 5 minutes on a warm build: the Swift
#                                   suite without the real servers, then the C tests once
#   scripts/test.sh --only PHASE... the named phases alone, in the order given
#   scripts/test.sh --list          the phases, with what each runs
#
# The phases, in the whole suite's order: the Swift suite (tests run in parallel); the engine and
# the iOS programs on real PulseAudio and PipeWire servers the tests start, each in a pass of its
# own; the suites whose code runs on more than one thread again under ThreadSanitizer (the list and
# the rule: docs/testing.md), then both real-server passes and the fuzz replay under it; the C API
# (scripts/test-c.sh); the bindings and Debian packages (scripts/test-bindings.sh); the size report;
# the fuzz targets (replayed, then a short run each); the FFmpeg versions; the README's demo.
# Warnings are errors (see Package.swift). When a phase fails, the end of the output says which
# tests failed, with their messages, and the command that runs each alone.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 64; }

# CI's short fuzz run per target (the long campaign is scripts/fuzz.sh --campaign; docs/testing.md).
fuzz_seconds=${SOUNDSTAGE_FUZZ_SECONDS:-10}

# The tests that play on a real PulseAudio/PipeWire server run in passes of their own: they time
# and count what reaches a sink, and on a 2-core machine a CPU-heavy test beside them can starve
# the servers they start. Within a pass each serialized suite is one lane (one test at a time, each
# with its own servers), the lanes side by side. The iOS programs' desktop suites run after the
# engine's: beside them, they starved each other's servers under ThreadSanitizer. Their in-process
# programs share the one session of the process (one lane); the C programs are child processes
# (a second lane).
servers='^(DesktopTests\.|CLITests\.DesktopCLI)'
programs='^CompatTests\.(CompatPrograms/(CompatDesktopTests|ProgramsOnTheDesktopTests|AudioQueueInputDesktopTests)|CProgramsOnTheDesktop/)'
# Each pass runs as two processes side by side (run_side_by_side), the first with these suites, the
# other with the rest, balanced by their times alone (docs/testing.md). The programs' second process
# has a session of its own, so its in-process programs run beside the first's.
servers_first='^(DesktopTests\.(DesktopOutputTests|RecorderTests|CAPIDesktopTests|OutputLogTests)|CLITests\.DesktopCLIRestTests)/'
programs_first='^CompatTests\.CompatPrograms/ProgramsOnTheDesktopTests/'
# The suites ThreadSanitizer runs besides those two passes: every suite whose code runs on more
# than one thread (the engine's render and update threads, the C API's handle table, the daemon,
# the compat layer's callbacks, the live view). The rule, each suite's time under the sanitizer
# alone and the suites left out (single-threaded: decoders, parsers, file formats): docs/testing.md.
tsan_suites=$(sed -n 's/^| `\([A-Za-z0-9_]*\.[A-Za-z0-9_/]*\)` | yes |.*/\1/p' docs/testing.md | paste -sd '|')
tsan_suites="^($(sed 's/\./\\./g' <<< "$tsan_suites"))/"
# Line tables only: a report names every frame's file and line, and the build takes 209 s instead
# of 248 s without full debug info (2026-11-28). scripts/fuzz.sh --replay --tsan uses the same flags
# (other flags would rebuild the whole scratch directory).
tsan=(--sanitize=thread --scratch-path .build-tsan -Xswiftc -gline-tables-only)

# Each phase's wall time, printed at the end (also when a phase fails), then what failed, so the
# last screen of a CI log says where the minutes went and what to run again.
phase_times=()
failures=$(mktemp)
demo_dir=""
report() {
    local status=$?
    echo
    echo "test.sh: time per phase (${SECONDS} s in all):"
    [ ${#phase_times[@]} -eq 0 ] || printf '  %s\n' "${phase_times[@]}"
    if [ -s "$failures" ]; then
        echo
        cat "$failures"
    fi
    rm -rf "$failures" ${demo_dir:+"$demo_dir"}
    # A background build still running (a phase before the one that needs it failed and ended the
    # run): its whole process group.
    local pid
    for pid in "${background_pid[@]}"; do kill -- "-$pid" 2> /dev/null || true; done
    exit "$status"
}

cpu_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $2 + $3 + $4 + $5 + $6 + $7 + $8 }' /proc/stat; }
phase() {   # phase NAME: runs the phase NAME and notes how long it took, and how busy the CPUs were
    local name=$1 start=$SECONDS before after busy
    echo "test.sh: == $name =="
    before=$(cpu_ticks)
    if "phase_$(tr '-' '_' <<< "$name")"; then
        after=$(cpu_ticks)
        busy=$(awk -v a="$before" -v b="$after" 'BEGIN { split(a, x, " "); split(b, y, " "); d = y[2] - x[2]; printf "%3d", (d > 0 ? 100 * (y[1] - x[1]) / d : 0) }')
        phase_times+=("$(printf '%5d s  %s %% CPU  %s' $((SECONDS - start)) "$busy" "$name")")
    else
        phase_times+=("$(printf '%5d s           %s (failed)' $((SECONDS - start)) "$name")")
        echo "test.sh: phase '$name' failed; run it alone with: scripts/test.sh --only $name" >> "$failures"
        return 1
    fi
}

# One `swift test`. When it fails, its failures are kept for the end, so that the tail of a long
# log (all a CI page may show) says which expectations failed, with what values, and how to run
# each failed test alone.
run_pass() {   # run_pass SWIFT-TEST-OPTIONS...
    local log status=0
    log=$(mktemp)
    swift test "$@" 2>&1 | tee "$log" || status=$?
    report_pass "$log" "$status" "$@"
}

# Two `swift test` processes side by side, each with its half of a real-server pass. A process runs
# its synchronous tests on Swift's cooperative pool, one thread a CPU: two tests at a time here,
# each a lane of real servers that mostly waits for them (14-25 % CPU in all). Two processes run
# four lanes at once. Built first (the build directory's lock would queue the second process; with
# --skip-build it is not needed). Each process's output is printed when both have ended.
run_side_by_side() {   # run_side_by_side FIRST-FILTER OTHER-FILTER SWIFT-TEST-OPTIONS...: the pass's
    # tests matching OTHER-FILTER split by FIRST-FILTER into two processes
    local first=$1 all=$2 status=0 logs=() pids=() i
    shift 2
    swift build --build-tests "${@}" || return 1
    logs=("$(mktemp)" "$(mktemp)")
    swift test --skip-build --ignore-lock "$@" --filter "$first" > "${logs[0]}" 2>&1 & pids+=($!)
    swift test --skip-build --ignore-lock "$@" --filter "$all" --skip "$first" > "${logs[1]}" 2>&1 & pids+=($!)
    for i in 0 1; do
        local one=0
        wait "${pids[i]}" || one=$?
        cat "${logs[i]}"
        if [ "$i" -eq 0 ]; then
            report_pass "${logs[i]}" "$one" "$@" --filter "$first" || status=1
        else
            report_pass "${logs[i]}" "$one" "$@" --filter "$all" --skip "$first" || status=1
        fi
    done
    return "$status"
}

report_pass() {   # report_pass LOG STATUS SWIFT-TEST-OPTIONS...: the slowest tests; the failures kept
    local log=$1 status=$2
    shift 2
    sed -i 's/\x1b\[[0-9;]*m//g' "$log"
    # The slowest tests (they run side by side, so their times overlap): where a pass's time goes.
    echo "test.sh: the slowest tests of this pass (seconds):"
    awk '/Test .* (passed|failed) after [0-9.]+ seconds/ && !/Test run with/ {
        for (i = 1; i <= NF; i++) if ($i == "after") print $(i + 1), $3 }' "$log" | sort -rn | head -n 12 | sed 's/^/  /'
    if [ "$status" -ne 0 ]; then
        {
            echo "test.sh: swift test $* failed ($status); its failures:"
            # Each failure line, with the "↳" lines of its message that follow it: issues, failed
            # tests, compiler errors, crashes (not the "error:" lines decoders print on purpose-made
            # corrupt files, nor tests with "Crash" in their names).
            awk '/recorded an issue|^✘|\.swift:[0-9]+:[0-9]+: error:|^error: |Fatal error|unexpected signal/ { print; more = 1; next }
                 more && /^↳/ { print; next }
                 { more = 0 }' "$log" | tail -n 60
            # The command that runs each failed test alone, with this pass's options.
            local options=() skip=0 option
            for option in "$@"; do
                if [ $skip -eq 1 ]; then skip=0; continue; fi
                case $option in --filter|--skip) skip=1 ;; *) options+=("$option") ;; esac
            done
            sed -n 's/^✘ Test \([A-Za-z0-9_]*\)(.*failed after.*/\1/p' "$log" | sort -u | head -n 20 |
                while read -r name; do echo "  run alone: swift test ${options[*]+${options[*]} }--filter '$name'"; done
        } >> "$failures"
    fi
    rm -f "$log"
    return "$status"
}

phase_setup() { scripts/setup.sh --tests; }
phase_build() { swift build --build-tests; }
phase_suite() { run_pass --skip "($servers|$programs)"; }
phase_servers() { start_tsan_build; run_side_by_side "$servers_first" "$servers"; }
phase_programs() { run_side_by_side "$programs_first" "$programs"; }
# The C API as a C game meets it: the shipped library (self-contained, exports), C tests, leak
# check, the C/C++/Python examples (scripts/test-c.sh). Needs the debug build's orbit and daemon.
phase_c_api() { start_fuzz_build; swift build --build-tests && scripts/test-c.sh; }
phase_c_quick() { swift build --build-tests && scripts/test-c.sh --quick; }
# The Rust, Python and C# bindings from their languages, and the Debian packages built, checked by
# lintian and installed (scripts/test-bindings.sh).
phase_bindings() { swift build --build-tests && scripts/test-bindings.sh; }
# What the library weighs (size, parts, no ICU, the glibc floor, memory against OpenAL Soft);
# fails if ICU comes back or the library passes its 20 MB ceiling.
phase_size() { scripts/size-report.sh; }
# Every seed and regression once through the plain build, then each target briefly from its corpus
# with AddressSanitizer (scripts/fuzz.sh; docs/testing.md).
phase_fuzz_replay() { scripts/fuzz.sh --replay; }
phase_fuzz() { finish_background fuzz wait && scripts/fuzz.sh --all "$fuzz_seconds"; }
# Builds at idle priority (SCHED_IDLE: they run only on what no one else wants), in a process group
# of their own, beside phases that leave the CPUs idle; the phase that needs one waits for it, or
# stops it and builds the rest itself. Only when that phase is to run.
declare -A background_pid=() background_log=()
start_background() {   # start_background NAME COMMAND...: COMMAND at idle priority, for the phase NAME
    local name=$1
    shift
    [[ " ${phases[*]} " == *" $name "* ]] || return 0
    background_log[$name]=$(mktemp)
    chrt --idle 0 setsid "$@" > "${background_log[$name]}" 2>&1 &
    background_pid[$name]=$!
}
finish_background() {   # finish_background NAME wait|stop: waits for NAME's build (its status), or
    # stops it where it is (what it finished stays built)
    local name=$1 how=$2 status=0
    [ -n "${background_pid[$name]:-}" ] || return 0
    [ "$how" = wait ] || kill -- "-${background_pid[$name]}" 2> /dev/null || true
    wait "${background_pid[$name]}" || status=$?
    echo "test.sh: the $name phase's build, made beside the phases before it ($how):"
    tail -n 20 "${background_log[$name]}"
    rm -f "${background_log[$name]}"
    unset "background_pid[$name]" "background_log[$name]"
    [ "$how" = stop ] || return "$status"
}
# The fuzzing build (release, every module instrumented: about 200 s of both CPUs) starts with the
# C API's phase, when every real-server pass is over, and builds beside the phases that leave the
# CPUs half idle (the C API's tests, the bindings, the size report, the fuzz replay); the fuzz phase
# waits for it.
start_fuzz_build() { start_background fuzz scripts/fuzz.sh --build; }
# The ThreadSanitizer build (about 250 s of both CPUs) starts with the engine's real-server pass, on
# one CPU (-j 1), and builds beside the two real-server passes, which leave the CPUs 75-80 % idle;
# the ThreadSanitizer suite stops it and builds the rest on both. Its real-server passes run after.
start_tsan_build() { start_background tsan-suite swift build --build-tests "${tsan[@]}" -j 1; }

# Decoding through FFmpeg 6.1 and 7.1 (from PyAV's wheels) as well as Debian 12's 5.1.
phase_ffmpeg() { scripts/test-ffmpeg-versions.sh; }
phase_tsan_suite() { finish_background tsan-suite stop; every_suite_is_classified && run_pass "${tsan[@]}" --filter "$tsan_suites"; }
# Every suite has its row in docs/testing.md's table, saying whether ThreadSanitizer runs it: a new
# suite cannot land on neither side of the rule.
every_suite_is_classified() {
    local listed classified missing
    listed=$(swift test list "${tsan[@]}" | sed -n 's|^\([A-Za-z0-9_]*\.[A-Za-z0-9_/]*\)/[^/]*$|\1|p' | sort -u)
    [ -n "$listed" ] || { echo "test.sh: swift test list ${tsan[*]} listed no tests" >&2; return 1; }
    classified=$(sed -n 's/^| `\([A-Za-z0-9_]*\.[A-Za-z0-9_/]*\)` | [a-z ]* |.*/\1/p' docs/testing.md | sort -u)
    missing=$(comm -23 <(echo "$listed") <(echo "$classified"))
    [ -z "$missing" ] && return 0
    {
        echo "test.sh: these suites have no row in docs/testing.md's ThreadSanitizer table; add one (yes if" \
             "their code runs on more than one thread, with their time alone under the sanitizer):"
        echo "$missing" | sed 's/^/  /'
    } | tee -a "$failures" >&2
    return 1
}
phase_tsan_servers() { run_side_by_side "$servers_first" "$servers" "${tsan[@]}"; }
phase_tsan_programs() { run_side_by_side "$programs_first" "$programs" "${tsan[@]}"; }
phase_tsan_fuzz_replay() { scripts/fuzz.sh --replay --tsan; }
# The quick start's demo, end to end: it must play or render the scene.
phase_demo() {
    demo_dir=$(mktemp -d)
    (cd "$demo_dir" && "$OLDPWD/scripts/demo.sh" 2> "$demo_dir/stderr") || { cat "$demo_dir/stderr" >&2; return 1; }
    cat "$demo_dir/stderr" >&2
    if grep -q "rendering to" "$demo_dir/stderr"; then
        test -s "$demo_dir/orbit-render.wav" || { echo "test.sh: the demo said it rendered, but wrote no file" >&2; return 1; }
    fi
    echo "test.sh: demo scene ran end to end"
}

all=(setup build suite servers programs tsan-suite tsan-servers tsan-programs tsan-fuzz-replay
     c-api bindings size fuzz-replay fuzz ffmpeg demo)
describe() {
    cat <<'EOF'
setup             install what the tests need (scripts/setup.sh --tests)
build             the debug build with tests (swift build --build-tests)
suite             the Swift suite, without the real servers
servers           the engine and the CLI on real PulseAudio and PipeWire servers
programs          the iOS-style programs on real PulseAudio and PipeWire servers
tsan-suite        the multithreaded suites under ThreadSanitizer (docs/testing.md lists them)
tsan-servers      the servers pass under ThreadSanitizer (PulseAudio; the CLI's on both)
tsan-programs     the programs pass under ThreadSanitizer (PulseAudio)
tsan-fuzz-replay  the fuzz replay under ThreadSanitizer
c-api             the C API as a C game meets it (scripts/test-c.sh)
c-quick           the C tests once, against the debug build (scripts/test-c.sh --quick)
bindings          Rust, Python, C# and the Debian packages (scripts/test-bindings.sh)
size              what the library weighs (scripts/size-report.sh)
fuzz-replay       every fuzz seed and regression once (scripts/fuzz.sh --replay)
fuzz              each fuzz target for a short run, with AddressSanitizer (scripts/fuzz.sh --all)
ffmpeg            decoding through FFmpeg 5.1, 6.1 and 7.1 (scripts/test-ffmpeg-versions.sh)
demo              the README's demo command, end to end (scripts/demo.sh)
EOF
}

case "${1:-}" in
    "") phases=("${all[@]}") ;;
    --quick) phases=(setup build suite c-quick) ;;
    --only)
        shift
        [ $# -gt 0 ] || usage
        phases=("$@")
        for name in "${phases[@]}"; do
            declare -F "phase_$(tr '-' '_' <<< "$name")" > /dev/null ||
                { echo "test.sh: no phase '$name'; the phases:" >&2; describe >&2; exit 64; }
        done ;;
    --list) describe; exit 0 ;;
    *) usage ;;
esac

# A failed phase does not stop the others (one CI run then reports every failure), except the
# setup and the build, which every later phase needs.
trap report EXIT
status=0
for name in "${phases[@]}"; do
    if ! phase "$name"; then
        status=1
        case $name in setup|build) break ;; esac
    fi
done
exit "$status"
