#!/usr/bin/env bash
# Keeps libsoundstage.so.0's ABI (docs/c-api.md, "ABI stability"), against two baselines in abi/:
#   abi/libsoundstage.so.0.abi     abidw's view of the shipped library: its soname and every
#                                  exported function (the library is stripped: symbols only)
#   abi/soundstage.h.layout        what the header fixes in memory: every struct's size,
#                                  alignment and field offsets, every enum constant's value,
#                                  as a C compiler lays them out
#   scripts/abi-check.sh LIBRARY            fails on an incompatible change (a function removed, a
#                                           struct or constant changed) unless the soname changed;
#                                           additions pass and are listed
#   scripts/abi-check.sh --update LIBRARY   rewrites both baselines (commit them on purpose)
set -euo pipefail
cd "$(dirname "$0")/.."
update=false
if [ "${1:-}" = "--update" ]; then update=true; shift; fi
library=${1:?usage: abi-check.sh [--update] LIBRARY}
baseline=${ABI_BASELINE:-abi/libsoundstage.so.0.abi}
layout_baseline=${ABI_LAYOUT_BASELINE:-abi/soundstage.h.layout}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The header's layout, printed by a C program generated from the Python binding's struct list
# (itself generated from the header) and every SS_ constant of the header.
python3 - "$work/layout.c" <<'PY'
import ctypes, pathlib, re, sys
sys.path.insert(0, "bindings/python/src/soundstage")
import importlib.util
spec = importlib.util.spec_from_file_location("_ffi", "bindings/python/src/soundstage/_ffi.py")
ffi = importlib.util.module_from_spec(spec); spec.loader.exec_module(ffi)
header = pathlib.Path("include/soundstage.h").read_text()
constants = sorted(set(re.findall(r"^\s+(SS_[A-Z0-9_]+)\s*=", header, re.M)))
lines = ["#include <stdio.h>", "#include <stddef.h>", "#include <soundstage.h>", "int main(void) {"]
for name in sorted(n for n in dir(ffi) if n.startswith("ss_") and isinstance(getattr(ffi, n), type) and issubclass(getattr(ffi, n), ctypes.Structure)):
    lines.append(f'    printf("struct {name} size %zu align %zu\\n", sizeof({name}), _Alignof({name}));')
    for field, _ in getattr(ffi, name)._fields_:
        lines.append(f'    printf("struct {name} field {field} offset %zu\\n", offsetof({name}, {field}));')
for constant in constants:
    lines.append(f'    printf("constant {constant} = %ld\\n", (long){constant});')
lines += ["    return 0;", "}"]
pathlib.Path(sys.argv[1]).write_text("\n".join(lines) + "\n")
PY
cc -std=c11 -Iinclude "$work/layout.c" -o "$work/layout"
"$work/layout" > "$work/current.layout"
abidw --no-corpus-path "$library" > "$work/current.abi"

if $update; then
    cp "$work/current.abi" "$baseline"
    cp "$work/current.layout" "$layout_baseline"
    echo "abi-check.sh: baselines updated: $baseline ($(grep -c "elf-symbol name='ss_" "$baseline") functions), $layout_baseline ($(wc -l < "$layout_baseline") lines)"
    exit 0
fi

status=0
soname() { sed -n "s/.*soname='\([^']*\)'.*/\1/p" "$1" | head -1; }
if [ "$(soname "$baseline")" != "$(soname "$work/current.abi")" ]; then
    echo "abi-check.sh: the soname changed ($(soname "$baseline") -> $(soname "$work/current.abi")): a new ABI, nothing to compare; update the baselines"
    exit 0
fi
# abidiff's exit status is a bit mask: 4 an ABI change (additions too), 8 an incompatible change.
abidiff_status=0
abidiff "$baseline" "$work/current.abi" > "$work/abidiff.txt" 2>&1 || abidiff_status=$?
if [ $((abidiff_status & 8)) -ne 0 ] || [ $((abidiff_status & 3)) -ne 0 ]; then
    echo "abi-check.sh: abidiff found an incompatible change of $(soname "$baseline"):"
    sed 's/^/  /' "$work/abidiff.txt"
    status=1
elif [ $((abidiff_status & 4)) -ne 0 ]; then
    echo "abi-check.sh: compatible additions (update the baseline with --update once released):"
    sed 's/^/  /' "$work/abidiff.txt" | grep -E "Added|'function" || true
fi
# The layout: every baseline line must still hold; new lines are additions.
removed=$(comm -23 <(sort "$layout_baseline") <(sort "$work/current.layout"))
added=$(comm -13 <(sort "$layout_baseline") <(sort "$work/current.layout"))
if [ -n "$removed" ]; then
    echo "abi-check.sh: the header's layout changed incompatibly (baseline lines no longer true):"
    sed 's/^/  - /' <<< "$removed"
    [ -n "$added" ] && sed 's/^/  + /' <<< "$added"
    status=1
elif [ -n "$added" ]; then
    echo "abi-check.sh: the header adds (compatible):"
    sed 's/^/  + /' <<< "$added"
fi
[ "$status" -eq 0 ] && echo "abi-check.sh: $(soname "$baseline") keeps its ABI ($(grep -c "elf-symbol name='ss_" "$baseline") functions, $(wc -l < "$layout_baseline") layout facts)"
exit "$status"
