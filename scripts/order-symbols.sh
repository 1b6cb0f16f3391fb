#!/usr/bin/env bash
# Regenerates scripts/libsoundstage.order, the functions of libsoundstage that a game's common path
# runs: Examples/C/orbit.c's offline render (load the library, open a device, load a buffer, make
# sources, move them, mix), as callgrind sees them. scripts/build-c-library.sh links those
# functions first and side by side (lld's --symbol-ordering-file), so the pages the kernel maps
# for them (64 KB around each first touch) hold little else: the render's code pages went from
# 6.2 MB to 2.9 MB resident (docs/c-api.md, "What the library weighs").
#
#   scripts/order-symbols.sh        rewrites scripts/libsoundstage.order (needs valgrind)
#
# A stale list costs memory, never correctness: names the linker does not find are skipped.
# Run it after large changes to the engine and commit the result; scripts/size-report.sh shows
# the effect (the orbit render's peak against raw OpenAL's).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "order-symbols.sh: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
touch scripts/libsoundstage.order   # build-c-library.sh links with it
stage=$(scripts/build-c-library.sh)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The unstripped library, for its local symbols; valgrind cannot read Swift's DWARF, so without it.
cp .build-capi/release/libSoundstageC.so "$work/libsoundstage.so.0"
strip --strip-debug "$work/libsoundstage.so.0"
gcc -O2 -std=c99 Examples/C/orbit.c -I"$stage/include" -L"$stage/lib" -lsoundstage -lm -o "$work/orbit"
LD_LIBRARY_PATH="$work" ALSOFT_LOGLEVEL=0 SOUNDSTAGE_ASSETS="$PWD/assets/sounds" \
    valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/callgrind.out" \
    "$work/orbit" --render "$work/orbit.wav" >/dev/null 2>"$work/valgrind.log" \
    || { cat "$work/valgrind.log" >&2; exit 1; }
# callgrind names an object or function in full once ("ob=(3) /path", "fn=(7) name"), then by
# number ("fn=(7)"); every fn= line under an ob= of the library is a function that ran.
awk '
    /^c?ob=\(/ { id = $1; sub(/^c?ob=/, "", id); if (NF > 1) objects[id] = $2; if ($1 ~ /^ob=/) current = objects[id] }
    /^c?fn=\(/ { id = $1; sub(/^c?fn=/, "", id); if (NF > 1) functions[id] = $2
                 if ($1 ~ /^fn=/ && current ~ /libsoundstage/ && functions[id] !~ /^0x/) print functions[id] }
' "$work/callgrind.out" | LC_ALL=C sort -u > scripts/libsoundstage.order
echo "scripts/libsoundstage.order: $(wc -l < scripts/libsoundstage.order) functions" >&2
