#!/usr/bin/env bash
# The C API's tests, from where a C or C++ game stands: builds libsoundstage as it ships
# (scripts/build-c-library.sh), checks that it is self-contained and exports exactly the headers'
# functions (soundstage.h's and Core Audio's by Apple's names) and carries no ICU, compiles the C tests with -std=c99 -Wall -Wextra -Werror -pedantic and the header as
# C++17, runs the tests (once plainly, once under AddressSanitizer's leak checker), then runs the
# examples: orbit in C, C++ and Python must render the same samples as the Swift orbit, and
# ui-sound must play through a daemon started here; and the C code blocks of README.md and
# docs/getting-started.md compile and run.
# Needs the debug build of the package (swift build): the Swift orbit and the soundstage daemon.
# Ends with "N passed, N failed" over its checks; exits 1 if any failed.
#
# With --quick (scripts/test.sh --quick, the inner loop): the C tests once, compiled as C99 with
# every warning an error, against the debug build's libSoundstageC.so (the same Swift code, built
# without the release build's minutes), and the documents' C blocks against it; nothing else.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$(mktemp -d)
daemon=""
cleanup() {
    [ -n "$daemon" ] && kill "$daemon" 2>/dev/null && wait "$daemon" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
# shellcheck source=scripts/checks.sh
source scripts/checks.sh

strict=(-std=c99 -Wall -Wextra -Werror -pedantic)

# The C code blocks of README.md and docs/getting-started.md, as a reader copies them
# (Tests/C/doc_blocks.py writes each out; a block without its <!-- checked: ... --> mark fails):
# each compiles as C99 with every warning an error, and each whole program runs, in the
# repository (its assets' paths are relative), on OpenAL Soft's silent device, no desktop server
# answering. The Swift blocks are CLITests.DocumentationTests'.
doc_blocks() {   # doc_blocks LINK-FLAGS...
    local list kind file place
    mkdir -p "$work/doc"
    list=$(python3 Tests/C/doc_blocks.py "$work/doc" README.md docs/getting-started.md) || return 1
    [ -n "$list" ] || { echo "no C blocks found"; return 1; }
    while read -r kind file place; do
        echo "$place: $kind"
        gcc "${strict[@]}" "$file" "$@" -o "${file%.c}" || return 1
        if [ "$kind" = program ]; then
            ALSOFT_DRIVERS=null PULSE_SERVER="unix:$work/no-server" "${file%.c}" ||
                { echo "$place: the program failed"; return 1; }
        fi
    done <<< "$list"
}
doc_blocks_name="the C blocks of README.md and docs/getting-started.md compile as C99 with every warning an error, and run"

# The Core Audio programs (Tests/C/audio_*.c: Apple's interfaces called as iOS and macOS developers
# write them, each checking its own results), compiled as C99 and as C++17 by gcc and g++ with
# every warning an error, run, then once more under LeakSanitizer (every CF object, AudioFileID and
# converter made is released; the false positives Tests/Fuzz/lsan-suppressions.txt explains are
# ignored, such as a weak reference's side table). `apple_programs LINK-FLAGS...` builds them against a library: the
# shipped one through pkg-config soundstage-audiotoolbox (the headers from include/soundstage/apple,
# as a port builds), or in --quick the debug build's libSoundstageC.so with the source headers.
apple_programs=(audio_format audio_file audio_file_stream audio_converter audio_queue_offline audio_queue_player audio_units audio_queue_session audio_session openal_engine openal_extensions openal_loader openal_orbit recorder_to_file)
apple_program() {   # apple_program NAME LINK-FLAGS...
    local name=$1 compiler inputs=() listed
    shift
    listed=$(apple_inputs "$name") || return 1
    [ -z "$listed" ] || mapfile -t inputs <<< "$listed"
    for compiler in "gcc -std=c99" "g++ -x c++ -std=c++17"; do
        # shellcheck disable=SC2086
        $compiler -Wall -Wextra -Werror -pedantic "Tests/C/$name.c" "$@" -lm -o "$work/$name" || return 1
        apple_session_output "$work/$name" "${inputs[@]}" || return 1
    done
    gcc -std=c99 -g -fsanitize=address "Tests/C/$name.c" "$@" -lm -o "$work/${name}_asan" &&
        ASAN_OPTIONS=detect_leaks=$(apple_leak_check "$name") LSAN_OPTIONS="suppressions=$root/Tests/Fuzz/lsan-suppressions.txt:print_suppressions=0" \
            apple_session_output "$work/${name}_asan" "${inputs[@]}" > /dev/null
}
# Programs that need a desktop server (CompatTests runs them on real ones: audio_queue_recorder
# records the default source; remote_io_sine's unit mixes into the desktop output, which OpenAL
# Soft's null output is not): compiled here as C99 and C++17 with every warning an error, not run.
apple_server_programs=(audio_queue_recorder remote_io_sine)
apple_compile() {   # apple_compile NAME LINK-FLAGS...
    local name=$1 compiler
    shift
    for compiler in "gcc -std=c99" "g++ -x c++ -std=c++17"; do
        # shellcheck disable=SC2086
        $compiler -Wall -Wextra -Werror -pedantic "Tests/C/$name.c" "$@" -lm -o "$work/$name" || return 1
    done
}
apple_compile_name() { echo "Tests/C/$1.c (Core Audio's C interfaces, run on real servers by CompatTests) compiles as C99 and C++17 with every warning an error"; }
# Leak checks, 1 or 0: the suppressions match frames by name, and the shipped library is stripped,
# so a weak reference's side table (lsan-suppressions.txt) made while audio_session.c plays a system
# sound, or (one run in five here) while audio_queue_player.c's queues play on the app's device, is
# reported there as a leak; those programs' leaks are checked against the debug build (--quick),
# whose names the suppression matches.
apple_leak_check() {
    case $1 in audio_session | audio_queue_player | audio_queue_session | openal_engine) [ "${apple_stripped:-0}" = 1 ] && echo 0 || echo 1 ;; *) echo 1 ;; esac
}
# The programs run with no desktop server (PULSE_SERVER points nowhere) and OpenAL Soft's null
# output, which mixes in real time and plays nowhere: audio_session's session and
# audio_queue_player's and audio_queue_session's queues open the app's default output, which is then that one (the others open
# no output; openal_extensions renders its mix on OpenAL Soft's loopback device and listens to it).
apple_session_output() { PULSE_SERVER=unix:/nonexistent ALSOFT_DRIVERS=null ALSOFT_LOGLEVEL=0 "$@"; }
# The files a program is given: audio_converter decodes AAC, MP3 and ALAC the ffmpeg tool makes,
# and openal_loader loads them and a WAVE file (each one second of a sine) when ffmpeg is installed
# (both programs make their own PCM files either way); recorder_to_file writes its recordings in
# the work directory. audio_queue_player plays, in real time, five files of 0.6 s of a 1 kHz sine
# (0.25 on the right of the stereo ones) that ffmpeg makes as CompatTests' AudioQueuePlayerInputs
# does: AAC and Apple Lossless in M4A, MP3, IMA4 in CAF, 16-bit WAVE (without ffmpeg, none: it then
# runs its synchronised start and error paths alone). audio_queue_session plays half a second of
# its music (its interruption and route change are heard on real servers, in CompatTests);
# openal_orbit orbits a tone it loads from a WAVE file for half a second.
apple_inputs() {   # apple_inputs NAME: one path a line
    case $1 in recorder_to_file | audio_session | audio_queue_offline) echo "$work"; return 0 ;; esac
    # openal_engine plays until its stop file exists: given one that does, it starts and stops.
    [ "$1" = openal_engine ] && { echo "$work"; return 0; }
    [ "$1" = audio_queue_player ] && { player_inputs; return; }
    [ "$1" = audio_queue_session ] && { echo 0.5; return 0; }
    # openal_orbit loads a tone through Extended Audio File Services and orbits it for half a second.
    [ "$1" = openal_orbit ] && { orbit_input; return; }
    [ "$1" = audio_converter ] || [ "$1" = openal_loader ] || return 0
    command -v ffmpeg > /dev/null || return 0
    local sine=(-v error -nostdin -y -f lavfi -i sine=frequency=1000:sample_rate=44100:duration=1)
    [ -f "$work/conv-alac.m4a" ] || {
        ffmpeg "${sine[@]}" -ac 2 -c:a aac "$work/conv-aac.m4a" && ffmpeg "${sine[@]}" -c:a libmp3lame "$work/conv.mp3" &&
            ffmpeg "${sine[@]}" -c:a alac "$work/conv-alac.m4a" && ffmpeg "${sine[@]}" -c:a pcm_s16le "$work/conv.wav"
    } >&2 || return 1
    printf '%s\n' "$work/conv-aac.m4a" "$work/conv.mp3" "$work/conv-alac.m4a"
    [ "$1" = openal_loader ] && echo "$work/conv.wav"
    return 0
}
orbit_input() {   # a second of a 440 Hz tone, 16-bit stereo WAVE, and the run's length
    [ -f "$work/orbit.wav" ] || python3 -c '
import math, struct, sys, wave
with wave.open(sys.argv[1], "wb") as w:
    w.setnchannels(2); w.setsampwidth(2); w.setframerate(44100)
    w.writeframes(b"".join(struct.pack("<hh", v, v) for v in (int(8000 * math.sin(2 * math.pi * 440 * i / 44100)) for i in range(44100))))
' "$work/orbit.wav" || return 1
    printf '%s\n' "$work/orbit.wav" 0.5
}
player_inputs() {
    command -v ffmpeg > /dev/null || return 0
    local mono="aevalsrc=0.5*sin(2*PI*1000*t):s=44100:d=0.3" stereo="aevalsrc=0.5*sin(2*PI*1000*t)|0.25*sin(2*PI*1000*t):s=44100:d=0.3"
    local name source codec
    while read -r name source codec; do
        [ -f "$work/$name" ] || ffmpeg -v error -nostdin -y -f lavfi -i "${!source}" -c:a "$codec" "$work/$name" >&2 || return 1
        echo "$work/$name"
    done <<< "player-aac.m4a stereo aac
player.mp3 mono libmp3lame
player-alac.m4a stereo alac
player-ima4.caf mono adpcm_ima_qt
player.wav stereo pcm_s16le"
}
apple_program_name() {   # apple_program_name NAME: the check's name
    echo "Tests/C/$1.c (Core Audio's C interfaces) as C99 and C++17 with every warning an error, run, and under LeakSanitizer"
}
debug_apple=(-ISources/CAudioToolbox/include -L"$root/.build/debug" -l:libSoundstageC.so -Wl,-rpath,"$root/.build/debug" -lopenal)



if [ "${1:-}" = "--quick" ]; then
    debug=$root/.build/debug
    [ -f "$debug/libSoundstageC.so" ] || { echo "test-c.sh: no $debug/libSoundstageC.so; run swift build first" >&2; exit 1; }
    check "the C tests compile as C99 with every warning an error (against the debug build)" \
        gcc "${strict[@]}" -Iinclude Tests/C/capi_tests.c -L"$debug" -l:libSoundstageC.so -Wl,-rpath,"$debug" \
            -lm -lpthread -o "$work/capi_tests"
    if "$work/capi_tests"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL the C tests"; fi
    for name in "${apple_programs[@]}"; do
        check "$(apple_program_name "$name") (against the debug build)" apple_program "$name" "${debug_apple[@]}"
    done
    for name in "${apple_server_programs[@]}"; do
        check "$(apple_compile_name "$name") (against the debug build)" apple_compile "$name" "${debug_apple[@]}"
    done
    check "$doc_blocks_name (against the debug build)" \
        doc_blocks -Iinclude -L"$debug" -l:libSoundstageC.so -Wl,-rpath,"$debug" -lm -lpthread
    echo "C API (quick): $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
fi

stage=$(scripts/build-c-library.sh) || { echo "test-c.sh: the library did not build" >&2; exit 1; }
export PKG_CONFIG_PATH="$stage/lib/pkgconfig" LD_LIBRARY_PATH="$stage/lib"
lib="$stage/lib/libsoundstage.so.0"

self_contained() {
    readelf -d "$lib" | grep -q 'SONAME.*\[libsoundstage.so.0\]' || { echo "no soname libsoundstage.so.0"; return 1; }
    local needed
    needed=$(readelf -d "$lib" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | sort | tr '\n' ' ')
    echo "NEEDED: $needed"
    for library in $needed; do
        case $library in
            libopenal.so.1|libsndfile.so.1|libpulse.so.0|libc.so.6|libm.so.6|libgcc_s.so.1|ld-linux*) ;;
            *) echo "depends on $library"; return 1 ;;
        esac
    done
    ! ldd "$lib" | grep -Ei 'swift|Foundation|dispatch' || { echo "links the Swift runtime dynamically"; return 1; }
}
check "the library is self-contained (soname, NEEDED, no Swift runtime)" self_contained

exports_match_header() {
    { grep -oE '\bss_[a-z0-9_]+\(' include/soundstage.h | tr -d '(' && scripts/apple-symbols.py; } | sort -u > "$work/header"
    nm -D --defined-only --extern-only "$lib" | awk '{print $3}' | sort -u > "$work/exports"
    echo "header: $(wc -l < "$work/header") functions, exports: $(wc -l < "$work/exports") symbols"
    diff "$work/header" "$work/exports"
}
check "the library exports exactly the headers' functions (soundstage.h's and the Apple-named ones)" exports_match_header

# ICU's 34 MB data table comes with Foundation's internationalization (String(format:), a
# formatter, Locale); the library carries FoundationEssentials at most (docs/c-api.md). Strings
# survive stripping: ICU's table is named icudt<version>, and Swift metadata names its module.
no_internationalization() {
    local found
    found=$(strings -n 8 "$lib" | grep -oE 'icudt[0-9]+[a-z]?|FoundationInternationalization|_FoundationICU' | sort | uniq -c)
    [ -z "$found" ] || { echo "the library carries: $found"; return 1; }
    echo "$(stat -L -c %s "$lib") bytes, no ICU"
}
check "the library carries no ICU and nothing of FoundationInternationalization" no_internationalization

# The ABI of libsoundstage.so.0 against the committed baselines (abi/, scripts/abi-check.sh), and
# the check itself: a baseline naming one more function (as if this build had removed it) fails.
check "the ABI is the baseline's (abidiff: every function; the header's layout)" scripts/abi-check.sh "$lib"
abi_check_catches_a_removal() {
    sed "s|<elf-symbol name='ss_version' |<elf-symbol name='ss_removed_function' type='func-type' binding='global-binding' visibility='protected-visibility' is-defined='yes'/><elf-symbol name='ss_version' |" \
        abi/libsoundstage.so.0.abi > "$work/removed.abi"
    ! ABI_BASELINE="$work/removed.abi" scripts/abi-check.sh "$lib" > "$work/abi.txt" 2>&1 && cat "$work/abi.txt" &&
        grep -q "ss_removed_function" "$work/abi.txt"
}
check "the ABI check fails on a removed function" abi_check_catches_a_removal

check "the C tests compile as C99 with every warning an error" \
    gcc "${strict[@]}" Tests/C/capi_tests.c $(pkg-config --cflags --libs soundstage) -lm -lpthread -o "$work/capi_tests"
check "the header compiles as C++17 with every warning an error" \
    g++ -std=c++17 -Wall -Wextra -Werror -pedantic Tests/C/header.cpp $(pkg-config --cflags --libs soundstage) -o "$work/header_cpp"
check "the header works from C++" "$work/header_cpp"

# The test suite itself: its own output, then its verdict.
if "$work/capi_tests"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL the C tests"; fi

without_ffmpeg() {
    mkdir -p "$work/no-ffmpeg"
    SOUNDSTAGE_FFMPEG_PATH="$work/no-ffmpeg" "$work/capi_tests" aac_files
}
check "without FFmpeg, an M4A is SS_ERROR_CODEC_UNAVAILABLE naming the packages" without_ffmpeg

leaks() {
    gcc -std=c99 -g -fsanitize=address Tests/C/capi_tests.c $(pkg-config --cflags --libs soundstage) -lm -lpthread -o "$work/capi_asan" &&
        ASAN_OPTIONS=detect_leaks=1 "$work/capi_asan"
}
check "the C tests under LeakSanitizer (every handle kind created and destroyed)" leaks

# A game that returns from main while its threads still render and change scenes: OpenAL Soft's
# teardown must not abort it (Soundstage's exit handler; 5 runs in 20 did before it).
exits_cleanly() {
    gcc "${strict[@]}" Tests/C/exit_while_rendering.c $(pkg-config --cflags --libs soundstage) -lpthread \
        -o "$work/exit_while_rendering" || return 1
    local run status
    for run in $(seq 1 20); do
        status=0
        "$work/exit_while_rendering" 2> "$work/exit.err" || status=$?
        if [ "$status" -ne 0 ] || grep -q "Assertion" "$work/exit.err"; then
            echo "run $run: exit status $status"
            cat "$work/exit.err"
            return 1
        fi
    done
}
check "a game exiting while its threads render and change scenes exits cleanly (20 runs)" exits_cleanly

apple_stripped=1
# shellcheck disable=SC2046
for name in "${apple_programs[@]}"; do
    check "$(apple_program_name "$name")" apple_program "$name" $(pkg-config --cflags --libs soundstage-audiotoolbox)
done
# shellcheck disable=SC2046
for name in "${apple_server_programs[@]}"; do
    check "$(apple_compile_name "$name")" apple_compile "$name" $(pkg-config --cflags --libs soundstage-audiotoolbox)
done

check "orbit.c compiles" gcc "${strict[@]}" Examples/C/orbit.c $(pkg-config --cflags --libs soundstage) -lm -o "$work/orbit"
check "orbit.cpp compiles as C++17" \
    g++ -std=c++17 -Wall -Wextra -Werror -pedantic Examples/C/orbit.cpp $(pkg-config --cflags --libs soundstage) -o "$work/orbit-cpp"
check "ui-sound.c compiles" gcc "${strict[@]}" Examples/C/ui-sound.c $(pkg-config --cflags --libs soundstage) -lpthread -o "$work/ui-sound"
# shellcheck disable=SC2046
check "$doc_blocks_name" doc_blocks $(pkg-config --cflags --libs soundstage) -lm

check "the Swift orbit renders" .build/debug/orbit --render "$work/swift.wav"
check "orbit.c renders the Swift orbit's samples (front, right, behind, left)" \
    sh -c "'$work/orbit' --render '$work/c.wav' && python3 Tests/C/check_orbit.py '$work/c.wav' '$work/swift.wav'"
check "orbit.cpp renders the orbit (front, right, behind, left)" \
    sh -c "'$work/orbit-cpp' --render '$work/cpp.wav' && python3 Tests/C/check_orbit.py '$work/cpp.wav'"
check "orbit.py (the Python package) renders the Swift orbit's samples" \
    sh -c "python3 Examples/python/orbit.py --render '$work/py.wav' && python3 Tests/C/check_orbit.py '$work/py.wav' '$work/swift.wav'"

no_daemon() {
    local said
    if said=$("$work/ui-sound" bell --socket "$work/nobody" 2>&1); then return 1; fi
    echo "$said"
    grep -q "no Soundstage daemon is listening" <<< "$said"
}
check "ui-sound says so when no daemon listens" no_daemon

XDG_RUNTIME_DIR="$work" .build/debug/soundstage serve --socket "$work/socket" > "$work/daemon.log" 2>&1 &
daemon=$!
for _ in $(seq 100); do [ -S "$work/socket" ] && break; sleep 0.1; done
ui_sound() {
    "$work/ui-sound" bell --socket "$work/socket" | grep -E "played bell as sound [0-9]+" &&
        "$work/ui-sound" bell --wait --socket "$work/socket" | grep -E "sound [0-9]+ finished" &&
        "$work/ui-sound" --file assets/sounds/click.wav --socket "$work/socket" | grep -q "as sound" &&
        ! "$work/ui-sound" no-such-event-anywhere --socket "$work/socket"
}
check "ui-sound plays through the daemon (event, file, waiting for its end; an unknown event is an error)" ui_sound

# Install into a throw-away prefix, build a game against it with pkg-config alone, uninstall.
install_and_uninstall() {
    local prefix="$work/prefix"
    scripts/install.sh --prefix "$prefix" || return 1
    # shellcheck disable=SC2046
    cc Tests/C/game.c $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs soundstage) -o "$work/game" &&
        LD_LIBRARY_PATH="$prefix/lib" "$work/game" &&
        # A port's Core Audio code, with Apple's headers from the prefix and nothing else.
        cc -std=c99 -Wall -Wextra -Werror Tests/C/audio_format.c \
            $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs soundstage-audiotoolbox) -o "$work/port" &&
        LD_LIBRARY_PATH="$prefix/lib" "$work/port" > /dev/null &&
        test -x "$prefix/bin/soundstage" && ! ldd "$prefix/bin/soundstage" | grep -qi swift &&
        ! strings -n 8 "$prefix/bin/soundstage" | grep -qE 'icudt[0-9]+|FoundationInternationalization' &&
        "$prefix/bin/soundstage" --help > /dev/null &&
        grep -q "ExecStart=$prefix/bin/soundstage serve" "$prefix/lib/systemd/user/soundstage.service" &&
        test -f "$prefix/share/soundstage/sound-theme/soundstage-fallback/index.theme" || return 1
    scripts/install.sh --uninstall --prefix "$prefix" || return 1
    local left
    left=$(find "$prefix" -mindepth 1 -not -type d | head -5)
    [ -z "$left" ] || { echo "left after --uninstall: $left"; return 1; }
}
check "install.sh installs a library, headers and pkg-config files a game and a port build with; --uninstall removes it" install_and_uninstall

echo "C API: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
