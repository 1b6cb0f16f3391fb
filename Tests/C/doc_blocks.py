#!/usr/bin/env python3
"""Writes the C code blocks of the given Markdown files into OUTDIR, one file each, for
scripts/test-c.sh to compile (and, for a whole program, to run).

Each ```c block must carry a mark on the line before it:
    <!-- checked: program -->    a whole program: compiled as it stands, and run
    <!-- checked: fragment -->   statements: compiled inside `int main(void)`, after the header
Prints one line per block, "KIND FILE PLACE" (PLACE is document:line); exits 1 if a block has no
mark or an unknown one. (The Swift blocks are checked by CLITests.DocumentationTests.)

    python3 Tests/C/doc_blocks.py OUTDIR README.md docs/getting-started.md
"""
import os
import sys

FRAGMENT_HEAD = "#include <soundstage.h>\n#include <stdio.h>\n\nint main(void) {\n"
FRAGMENT_TAIL = "    return 0;\n}\n"


def blocks(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i] != "```c":
            i += 1
            continue
        before = lines[i - 1].strip() if i > 0 else ""
        mark = None
        if before.startswith("<!-- checked:") and before.endswith("-->"):
            mark = before[len("<!-- checked:"):-3].strip()
        end = i + 1
        while end < len(lines) and lines[end] != "```":
            end += 1
        yield i + 1, mark, "".join(line + "\n" for line in lines[i + 1:end])
        i = end + 1


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    outdir, documents = sys.argv[1], sys.argv[2:]
    bad = 0
    count = 0
    for document in documents:
        for line, mark, code in blocks(document):
            place = f"{document}:{line}"
            if mark not in ("program", "fragment"):
                print(f"doc_blocks.py: {place}: a ```c block needs <!-- checked: program --> or "
                      f"<!-- checked: fragment --> on the line before it (has: {mark})", file=sys.stderr)
                bad += 1
                continue
            count += 1
            name = os.path.join(outdir, f"block{count}.c")
            with open(name, "w", encoding="utf-8") as out:
                out.write(f"#line {line + 1} \"{document}\"\n" if mark == "program" else FRAGMENT_HEAD)
                if mark == "fragment":
                    out.write(f"#line {line + 1} \"{document}\"\n")
                out.write(code)
                if mark == "fragment":
                    out.write(FRAGMENT_TAIL)
            print(mark, name, place)
    sys.exit(1 if bad else 0)


main()
