#!/usr/bin/env bash
# What Soundstage weighs (issue 36), printed so that a regression shows in CI's log:
#   - libsoundstage.so (stripped, as installed): its size, its largest sections, what each part
#     costs (the Swift standard library, FoundationEssentials, Dispatch, SwiftNIO, the engine, the
#     live view and daemon client, the C layer), and whether ICU and Foundation's
#     internationalization are absent;
#   - the statically linked `soundstage` command scripts/install.sh installs: its size, no ICU;
#   - the oldest glibc and libstdc++ it loads on, and the versioned symbols that set them;
#   - the memory a C game pays (Benchmarks/C/memory-bench.c, against OpenAL Soft in the same run).
#
#   scripts/size-report.sh [--no-memory]
#
# Exits 1 if ICU or FoundationInternationalization is in either binary, the library is over its
# ceiling of 20 MB, or a memory goal is missed: at most 4 MB more than OpenAL Soft, libsndfile and
# libpulse when idle, at most 1.5 times raw OpenAL's peak for the orbit render (docs/c-api.md,
# "What the library weighs").
set -euo pipefail
cd "$(dirname "$0")/.."
ceiling=20000000
stage=$(scripts/build-c-library.sh --cli)
lib=$(readlink -f "$stage/lib/libsoundstage.so.0")
unstripped=.build-capi/release/libSoundstageC.so
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
mb() { awk -v b="$1" 'BEGIN { printf "%.2f MB", b / 1e6 }'; }

size=$(stat -c %s "$lib")
echo "libsoundstage: $(basename "$lib"), stripped: $(mb "$size") (ceiling $(mb $ceiling))"
[ "$size" -le "$ceiling" ] || { echo "  OVER THE CEILING"; status=1; }
echo "  largest sections:"
size -A "$lib" | awk 'NR > 2 && $2 > 0 && $1 != "Total" { printf "    %-20s %6.2f MB\n", $1, $2 / 1e6 }' | sort -k2 -n -r | head -n 6

# What each part costs: the unstripped library's symbols, by the module their names say.
echo "  what each part costs (symbol bytes; the rest of the file is metadata, unwind tables, relocations):"
nm -S --size-sort "$unstripped" | python3 -c '
import re, sys, collections
parts = collections.Counter()
def part(name):
    m = re.match(r"_?\$s(\d+)([A-Za-z_]\w*)", name)
    module = m.group(2)[:int(m.group(1))] if m else ("Swift" if re.match(r"_?\$s[sS]", name) else None)
    if module is None:
        if name.startswith("ss_"): return "the C layer (SoundstageC, CSoundstage)"
        if name.startswith(("Audio", "ExtAudioFile", "soundstage_CF", "soundstage___CF", "soundstage_kCF")):
            return "the Apple-named layer (AudioToolbox, its CoreFoundation)"
        if name.startswith(("swift_", "_swift", "_Z")): return "the Swift standard library and runtime"
        return "C code (the Swift runtime, NIO, FFmpeg and libsndfile glue)"
    if module in ("Swift", "_StringProcessing", "_RegexParser", "Synchronization", "Glibc", "SwiftGlibc", "_Concurrency"):
        return "the Swift standard library and runtime"
    if module.startswith(("Foundation", "_Foundation")): return "FoundationEssentials"
    if module == "Dispatch": return "Dispatch"
    if module.startswith(("NIO", "_NIO", "CNIO")) or module in ("Atomics", "DequeModule", "InternalCollectionsUtilities", "Logging"):
        return "SwiftNIO (and swift-log, swift-atomics, swift-collections)"
    if module in ("SoundstageLiveView", "SoundstageClient", "SoundstageProtocol"): return "the live view and the daemon client"
    if module in ("SoundstageC", "CSoundstage"): return "the C layer (SoundstageC, CSoundstage)"
    if module in ("AudioToolbox", "CAudioToolbox"): return "the Apple-named layer (AudioToolbox, its CoreFoundation)"
    if module.startswith(("Soundstage", "SoundFile", "NumberText")): return "the engine (Soundstage, SoundFile, scenes, JSON)"
    return "other Swift symbols (specializations, witnesses)"
for line in sys.stdin:
    f = line.split()
    if len(f) >= 4: parts[part(f[3])] += int(f[1], 16)
total = sum(parts.values())
for name, size in parts.most_common():
    print("    %-62s %6.2f MB" % (name, size / 1e6))
print("    %-62s %6.2f MB" % ("all symbols", total / 1e6))
'

# Strings survive stripping: ICU's data table is named icudt<version>, and Swift type metadata
# names its module.
international() {   # international FILE: prints what of ICU or FoundationInternationalization it has
    strings -n 8 "$1" | { grep -oE 'icudt[0-9]+[a-z]?|FoundationInternationalization|_FoundationICU' || true; } | sort | uniq -c
}
cp .build-capi/release/soundstage "$work/soundstage"
strip "$work/soundstage"
for binary in "$lib" "$work/soundstage"; do
    found=$(international "$binary")
    if [ -n "$found" ]; then echo "  $(basename "$binary"): CARRIES ICU / FOUNDATION INTERNATIONALIZATION:"; echo "$found"; status=1
    else echo "  $(basename "$binary"): no ICU, no FoundationInternationalization"; fi
done
echo "soundstage command (static Swift runtime), stripped: $(mb "$(stat -c %s "$work/soundstage")")"

# The oldest system it loads on: the highest glibc and libstdc++ symbol versions it needs.
echo "runs on: glibc and libstdc++ at least"
for family in GLIBC GLIBCXX; do
    newest=$(objdump -T "$lib" | { grep -oE "\(${family}_[0-9.]+\)" || true; } | tr -d '()' | sort -V | tail -n 1)
    [ -n "$newest" ] || { echo "  $family: none needed"; continue; }
    echo "  $newest, needed by: $(objdump -T "$lib" | awk -v v="($newest)" '$0 ~ v { print $NF }' | sort | head -n 8 | tr '\n' ' ')"
done

if [ "${1:-}" != "--no-memory" ]; then
    memory=$(scripts/bench-c.sh --memory)
    echo "$memory"
    if grep -q MISSED <<<"$memory"; then echo "size-report: a memory goal is missed (above)"; status=1; fi
fi
exit "$status"
