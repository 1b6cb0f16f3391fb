#!/usr/bin/env python3
"""Prints the C symbols Soundstage's Apple-named headers declare (Sources/CAudioToolbox/include):
every function and extern variable a program including <AudioToolbox/AudioToolbox.h>,
<CoreFoundation/CoreFoundation.h> and <OpenAL/OpenAL.h> links against, one a line, sorted (Core
Foundation's and the OpenAL names Soundstage routes under their soundstage_ link names; OpenAL
Soft's own declarations, from /usr/include/AL, are not ours and are left out). scripts/test-c.sh checks that libsoundstage.so exports exactly these
beside the ss_ functions (scripts/libsoundstage.map's patterns let them out).

    scripts/apple-symbols.py [INCLUDE_DIR]

It reads the preprocessor's output (gcc -E), whose line markers say which header each declaration
came from, and keeps the top-level declarations of those under INCLUDE_DIR that are not typedefs,
static or inline.
"""
import pathlib, re, subprocess, sys

include = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "Sources/CAudioToolbox/include").resolve()
program = "#include <AudioToolbox/AudioToolbox.h>\n#include <CoreFoundation/CoreFoundation.h>\n#include <OpenAL/OpenAL.h>\n"
text = subprocess.run(["gcc", "-x", "c", "-std=c99", "-E", f"-I{include}", "-"], input=program, check=True,
                      capture_output=True, text=True).stdout


def without_attributes(declaration):
    """The declaration with every __attribute__((...)) and __asm__(...) taken out."""
    while True:
        found = re.search(r"__attribute__\s*\(|__asm__\s*\(", declaration)
        if not found:
            return declaration
        depth, end = 0, found.end() - 1
        for end in range(found.end() - 1, len(declaration)):
            depth += {"(": 1, ")": -1}.get(declaration[end], 0)
            if depth == 0:
                break
        declaration = declaration[:found.start()] + declaration[end + 1:]


symbols, ours, statement, depth = set(), False, "", 0
for line in text.splitlines():
    marker = re.match(r'^# \d+ "([^"]+)"', line)
    if marker:
        ours = include in pathlib.Path(marker.group(1)).resolve().parents
        continue
    if line.startswith("#"):   # a #pragma the headers keep (diagnostic push and pop)
        continue
    for character in line + " ":
        if depth == 0 and character == ";":
            declaration = " ".join(without_attributes(statement).split())
            if ours and not re.match(r"(typedef|static|inline|enum|struct|union)\b", declaration.replace("extern ", "")):
                name = re.search(r"\b([A-Za-z_]\w*)\s*(?:\(|\[|$|=)", declaration)
                if name and name.group(1) not in ("const", "void"):
                    symbols.add(name.group(1))
            statement = ""
            continue
        depth += {"{": 1, "}": -1}.get(character, 0)
        if depth == 0 and character == "}" and re.search(r"\)\s*\{", without_attributes(statement)):
            statement = ""   # a function's body (static inline): no semicolon follows
            continue
        statement += character
print("\n".join(sorted(symbols)))
