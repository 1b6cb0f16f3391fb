#!/usr/bin/env bash
# Builds libsoundstage, the C API, as one self-contained shared library: the Swift runtime and
# FoundationEssentials linked in statically (-static-stdlib), soname libsoundstage.so.0, only the ss_
# functions and the Apple-named Core Audio functions exported (scripts/libsoundstage.map). Stages it
# in .build-c/prefix like an install:
#   lib/libsoundstage.so.X.Y.Z, lib/libsoundstage.so.0, lib/libsoundstage.so,
#   include/soundstage.h, lib/pkgconfig/soundstage.pc,
#   include/soundstage/apple/ (AudioToolbox/, CoreAudio/, CoreFoundation/, MacTypes.h, ...: the
#   Apple-named headers, docs/audiotoolbox.md), lib/pkgconfig/soundstage-audiotoolbox.pc
# With --cli, also builds the soundstage command with the Swift runtime linked statically.
# Prints the staging directory. Used by scripts/install.sh and scripts/test-c.sh.
# With --cli-only, builds only that command, the same way, and prints its path: scripts/demo.sh
# uses it, so that after the C API's tests the demo has nothing left to build (scripts/test.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
scratch=.build-capi
stage="$root/.build-c/prefix"

version() { sed -n "s/^#define SS_VERSION_$1 \([0-9]*\)$/\1/p" include/soundstage.h; }
VERSION="$(version MAJOR).$(version MINOR).$(version PATCH)"
MAJOR=$(version MAJOR)

# Built small (docs/c-api.md, "What the library weighs"): each function in a section of its own,
# so the linker drops what no ss_ function reaches (SwiftPM passes --gc-sections), and lld folding
# identical functions (--icf=all), and merging string tails (-O2: 4 KB, 2026-11-29). Not -Osize: 1.6 MB smaller, but the frame loop costs 3 % more
# CPU against raw OpenAL (Benchmarks/C/frame-bench.c: 1.105 against 1.077 in the same run).
# The CLI is built the same way, in the same scratch.
small=(-Xswiftc -Xfrontend -Xswiftc -function-sections -Xswiftc -use-ld=lld -Xlinker --icf=all -Xlinker -O2)
# libstdc++ (the Swift runtime is C++) linked in too, from a directory that has only its static
# archive: the game need not load libstdc++.so (0.9 MB resident), and the library asks for no
# GLIBCXX symbol version at all. Its symbols stay local like the runtime's (the version script).
mkdir -p "$scratch/static-libstdc++"
ln -sfn "$(g++ -print-file-name=libstdc++.a)" "$scratch/static-libstdc++/libstdc++.a"
small+=(-Xswiftc -L"$root/$scratch/static-libstdc++")
# The functions a render runs are linked first and together (scripts/libsoundstage.order, made by
# scripts/order-symbols.sh): the kernel maps code 64 KB around each first touch, and spread over
# the library they made the orbit render map 6.2 MB of code; together, 2.9 MB.
order=(-Xlinker --symbol-ordering-file="$root/scripts/libsoundstage.order" -Xlinker --no-warn-symbol-ordering)
if [ "${1:-}" = "--cli-only" ]; then
    swift build -c release --product soundstage --scratch-path "$scratch" -Xswiftc -static-stdlib "${small[@]}" >&2
    echo "$root/$scratch/release/soundstage"
    exit
fi
# SwiftPM relinks when objects change, not when the list does.
if [ "scripts/libsoundstage.order" -nt "$scratch/release/libSoundstageC.so" ]; then rm -f "$scratch/release/libSoundstageC.so"; fi
swift build -c release --product SoundstageC --scratch-path "$scratch" -Xswiftc -static-stdlib "${small[@]}" "${order[@]}" \
    -Xlinker -soname=libsoundstage.so.$MAJOR -Xlinker --version-script="$root/scripts/libsoundstage.map" >&2
if [ "${1:-}" = "--cli" ]; then
    swift build -c release --product soundstage --scratch-path "$scratch" -Xswiftc -static-stdlib "${small[@]}" >&2
fi

rm -rf "$stage"
mkdir -p "$stage/lib/pkgconfig" "$stage/include"
cp "$scratch/release/libSoundstageC.so" "$stage/lib/libsoundstage.so.$VERSION"
strip --strip-unneeded "$stage/lib/libsoundstage.so.$VERSION"
ln -s "libsoundstage.so.$VERSION" "$stage/lib/libsoundstage.so.$MAJOR"
ln -s "libsoundstage.so.$MAJOR" "$stage/lib/libsoundstage.so"
cp include/soundstage.h "$stage/include/"
sed -e "s|@PREFIX@|$stage|" -e "s|@VERSION@|$VERSION|" scripts/soundstage.pc.in > "$stage/lib/pkgconfig/soundstage.pc"
# The Apple-named headers, at Apple's paths under include/soundstage/apple (never at the top of
# include/, where MacTypes.h and CoreFoundation/ would be generic names in a system directory).
(cd Sources/CAudioToolbox/include && find . -name '*.h' | sort) | while IFS= read -r header; do
    install -D -m 644 "Sources/CAudioToolbox/include/$header" "$stage/include/soundstage/apple/$header"
done
sed -e "s|@PREFIX@|$stage|" -e "s|@VERSION@|$VERSION|" scripts/soundstage-audiotoolbox.pc.in \
    > "$stage/lib/pkgconfig/soundstage-audiotoolbox.pc"
echo "$stage"
