#!/usr/bin/env bash
# Coverage-guided fuzzing (libFuzzer, with AddressSanitizer) of the C API and every parser.
#
#   scripts/fuzz.sh --list                  the targets, one a line
#   scripts/fuzz.sh TARGET SECONDS [ARGS]   builds TARGET and fuzzes it for SECONDS from its corpus
#                                           (ARGS go to libFuzzer, e.g. -jobs=2 -workers=2)
#   scripts/fuzz.sh --all SECONDS           every target from its corpus, from a fixed seed, as many
#                                           at once as there are CPUs (FUZZ_JOBS=1: one at a time;
#                                           CI runs --all 10: a smoke test of every target)
#   scripts/fuzz.sh --campaign [SECONDS]    the long campaign: every target for SECONDS (default
#                                           1800; 1.5 hours in all on two CPUs), random seeds
#   scripts/fuzz.sh --build                 builds every target for fuzzing, and fuzzes nothing
#   scripts/fuzz.sh --replay [--tsan]       replays every corpus and regression input once through
#                                           a plain build (or one under ThreadSanitizer): no fuzzing
#
# Targets live in Tests/Fuzz/<Name>/FuzzTarget.swift; seeds in Tests/Fuzz/corpus/TARGET/ and every
# input that once broke something in Tests/Fuzz/regressions/TARGET/ (replayed by scripts/test.sh).
# What a run finds is in .build-fuzz/artifacts/TARGET/ (crash-*, timeout-*, leak-*, oom-*); replay
# one with `.build-fuzz/release/fuzz-TARGET FILE`, fix it, and add the file to the regressions.
# The growing corpus of local runs is kept in .build-fuzz/corpus/TARGET/ (not committed).
# Exits 1 when a target found something; prints "N passed, N failed" over the targets run.
set -uo pipefail
cd "$(dirname "$0")/.."
targets=(capi scene-file daemon-request sound-file json audio-file)
scratch=.build-fuzz
export ALSOFT_LOGLEVEL=0
# No output for the app (where Audio Queue Services' device queues would play): no desktop server,
# no OpenAL backend, whatever the machine has, so a queue's start is refused with its code and no
# device outlives an input (the targets' loopback devices need no backend). Device queues' threads
# are the ThreadSanitizer suites' (AudioQueueThreadTests).
export PULSE_SERVER=unix:/nonexistent ALSOFT_DRIVERS=none

usage() { sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 64; }

known() { local t; for t in "${targets[@]}"; do [ "$t" = "$1" ] && return 0; done; return 1; }

build() {   # build TARGET...: the fuzzing build (libFuzzer + AddressSanitizer, optimized)
    local t
    for t in "$@"; do
        swift build -c release --scratch-path "$scratch" --product "fuzz-$t" \
            -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld -Xcc -fsanitize=address >&2 \
            || { echo "fuzz.sh: fuzz-$t did not build" >&2; return 1; }
    done
}

fuzz() {    # fuzz TARGET SECONDS [ARGS]: one run; 0 when it found nothing
    local target=$1 seconds=$2
    shift 2
    local work="$scratch/corpus/$target" artifacts="$scratch/artifacts/$target"
    mkdir -p "$work" "$artifacts"
    echo "fuzz.sh: fuzz-$target for $seconds s"
    # The first folder collects what the run discovers; the seeds and regressions are read too.
    # Swift's own crash backtracer off: AddressSanitizer reports a crash once, not twice.
    SWIFT_BACKTRACE=enable=no \
    ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1:${ASAN_OPTIONS:-}" \
    LSAN_OPTIONS="suppressions=$PWD/Tests/Fuzz/lsan-suppressions.txt:print_suppressions=0:${LSAN_OPTIONS:-}" \
        "$scratch/release/fuzz-$target" "$work" "Tests/Fuzz/corpus/$target" "Tests/Fuzz/regressions/$target" \
        -max_total_time="$seconds" -timeout=30 -rss_limit_mb=6144 -max_len=65536 \
        -artifact_prefix="$artifacts/" -print_final_stats=1 ${FUZZ_SEED:+-seed=$FUZZ_SEED} "$@" 2>&1 | tee "$artifacts/last-run.log" \
        | grep -E '^(#[0-9]+ +(INITED|DONE)|stat::number_of_executed_units|stat::peak_rss|==[0-9]+==ERROR|FUZZ RULE BROKEN|SUMMARY|artifact_prefix|Test unit written|.*deadly signal)' 
    local status=${PIPESTATUS[0]}
    [ "$status" -eq 0 ] || echo "fuzz.sh: fuzz-$target found something (exit $status): $artifacts/ and $artifacts/last-run.log"
    return "$status"
}

fuzz_each() {   # fuzz_each SECONDS: every target, as many at once as there are CPUs (FUZZ_JOBS)
    # A libFuzzer run is one busy thread, so on two cores two targets fuzz side by side, each as
    # long and about as fast as alone; what each says is printed when its batch is done.
    local seconds=$1 jobs=${FUZZ_JOBS:-$(nproc)} passed=0 failed=0 i t
    local batch=() pids=()
    mkdir -p "$scratch/artifacts"
    for ((i = 0; i < ${#targets[@]}; i += jobs)); do
        batch=("${targets[@]:i:jobs}") pids=()
        for t in "${batch[@]}"; do
            fuzz "$t" "$seconds" > "$scratch/artifacts/$t.said" 2>&1 &
            pids+=($!)
        done
        for ((j = 0; j < ${#batch[@]}; j++)); do
            if wait "${pids[j]}"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
            cat "$scratch/artifacts/${batch[j]}.said"
        done
    done
    echo "fuzz: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}

replay() {  # replay [--tsan]: every seed and regression once, through a plain build
    local flags=() t passed=0 failed=0
    [ "${1:-}" = "--tsan" ] && flags=(--scratch-path .build-tsan --sanitize=thread -Xswiftc -gline-tables-only)   # as scripts/test.sh's
    for t in "${targets[@]}"; do swift build ${flags[@]+"${flags[@]}"} --product "fuzz-$t" >&2 || return 1; done
    local bin
    bin=$(swift build ${flags[@]+"${flags[@]}"} --show-bin-path)
    for t in "${targets[@]}"; do
        if "$bin/fuzz-$t" "Tests/Fuzz/corpus/$t" $(ls -A "Tests/Fuzz/regressions/$t" | grep -q . && echo "Tests/Fuzz/regressions/$t"); then
            passed=$((passed + 1))
        else
            failed=$((failed + 1)); echo "FAIL fuzz-$t replay"
        fi
    done
    echo "fuzz replay: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}

case "${1:-}" in
    --list) printf '%s\n' "${targets[@]}" ;;
    --replay) shift; replay "$@" ;;
    --build) build "${targets[@]}" ;;
    --all|--campaign)
        if [ "$1" = "--all" ]; then
            [ $# -eq 2 ] || usage
            seconds=$2
            # CI's short runs start from a fixed seed, so a run explores the same mutations each
            # time (threads still vary); campaigns are random.
            export FUZZ_SEED=${FUZZ_SEED:-1}
        else
            [ $# -le 2 ] || usage
            seconds=${2:-1800}
        fi
        build "${targets[@]}" || exit 1
        fuzz_each "$seconds" ;;
    ""|-h|--help) usage ;;
    *)
        [ $# -ge 2 ] || usage
        known "$1" || { echo "fuzz.sh: no target '$1' (scripts/fuzz.sh --list)" >&2; exit 64; }
        target=$1 seconds=$2
        shift 2
        build "$target" || exit 1
        fuzz "$target" "$seconds" "$@" ;;
esac
