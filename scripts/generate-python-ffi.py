#!/usr/bin/env python3
"""Generates the Python binding's raw ctypes layer (bindings/python/src/soundstage/_ffi.py) from
include/soundstage.h: every enum constant, struct, callback type and function prototype.

    scripts/generate-python-ffi.py           rewrites the file (commit it with the header change)
    scripts/generate-python-ffi.py --check   fails, showing the difference, if it is out of date

The header is plain C99 in one style (one declaration per statement), which is all this parses;
a declaration it cannot read stops it with the line, rather than being skipped.
"""
import difflib
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
HEADER = ROOT / "include" / "soundstage.h"
TARGET = ROOT / "bindings" / "python" / "src" / "soundstage" / "_ffi.py"

SCALARS = {
    "int": "ctypes.c_int", "float": "ctypes.c_float", "double": "ctypes.c_double", "size_t": "ctypes.c_size_t",
    "int64_t": "ctypes.c_int64", "uint32_t": "ctypes.c_uint32", "int16_t": "ctypes.c_int16", "char": "ctypes.c_char",
    "void": "None",
}


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def main():
    text = strip_comments(HEADER.read_text())
    text = re.sub(r"#[^\n]*", " ", text)
    text = text.replace('extern "C" {', " ").replace("}\n\n\n", "\n")
    enums, structs, opaque, callbacks, functions = {}, [], set(), [], []
    enum_names = set()
    for match in re.finditer(r"typedef\s+enum\s+(\w+)\s*\{(.*?)\}\s*(\w+)\s*;", text, re.S):
        enum_names.add(match.group(3))
        values = []
        for item in match.group(2).split(","):
            item = item.strip()
            if item:
                name, value = [part.strip() for part in item.split("=")]
                values.append((name, int(value)))
        enums[match.group(3)] = values
    text = re.sub(r"typedef\s+enum\s+\w+\s*\{.*?\}\s*\w+\s*;", " ", text, flags=re.S)
    for match in re.finditer(r"typedef\s+struct\s+(\w+)\s*\{(.*?)\}\s*(\w+)\s*;", text, re.S):
        fields = []
        for declaration in match.group(2).split(";"):
            declaration = " ".join(declaration.split())
            if not declaration:
                continue
            m = re.match(r"((?:const\s+)?\w+)\s*(\*?)\s*(.*)", declaration)
            base, pointer, names = m.group(1), m.group(2), m.group(3)
            for name in names.split(","):
                name = name.strip()
                array = re.match(r"(\w+)\[(\d+)\]", name)
                if array:
                    fields.append((array.group(1), base, pointer, int(array.group(2))))
                else:
                    fields.append((name, base, pointer, None))
        structs.append((match.group(3), fields))
    text = re.sub(r"typedef\s+struct\s+\w+\s*\{.*?\}\s*\w+\s*;", " ", text, flags=re.S)
    for match in re.finditer(r"typedef\s+struct\s+(\w+)\s+(\w+)\s*;", text):
        opaque.add(match.group(2))
    text = re.sub(r"typedef\s+struct\s+\w+\s+\w+\s*;", " ", text)
    for match in re.finditer(r"typedef\s+([\w\s\*]+?)\s*\(\s*\*\s*(\w+)\s*\)\s*\((.*?)\)\s*;", text, re.S):
        callbacks.append((match.group(2), match.group(1), match.group(3)))
    text = re.sub(r"typedef\s+[\w\s\*]+?\(\s*\*\s*\w+\s*\)\s*\(.*?\)\s*;", " ", text, flags=re.S)
    struct_names = {name for name, _ in structs}
    callback_names = {name for name, _, _ in callbacks}

    def ctype(declaration):
        """The ctypes expression of a parameter or return type."""
        declaration = " ".join(declaration.replace("*", " * ").split())
        declaration = re.sub(r"\s+\w+$", "", declaration) if not declaration.endswith("*") and len(declaration.split()) > 1 and declaration.split()[-1] not in SCALARS and declaration.split()[-1] not in enum_names | struct_names | opaque | callback_names else declaration
        words = [w for w in declaration.split() if w != "const"]
        stars = words.count("*")
        base = [w for w in words if w != "*"][0]
        if base in callback_names and stars == 0:
            return base
        if base == "char" and stars == 1:
            return "ctypes.c_char_p" if "const" in declaration else "ctypes.POINTER(ctypes.c_char)"
        if base == "void" and stars == 1:
            return "ctypes.c_void_p"
        if base in opaque:
            return "ctypes.c_void_p" if stars == 1 else "ctypes.POINTER(ctypes.c_void_p)"
        if base in enum_names:
            inner = "ctypes.c_int"
        elif base in struct_names:
            inner = base
        elif base in SCALARS:
            inner = SCALARS[base]
        else:
            raise SystemExit(f"generate-python-ffi.py: cannot read the type {declaration!r}")
        for _ in range(stars):
            inner = f"ctypes.POINTER({inner})"
        return inner

    def parameters(text):
        text = " ".join(text.split())
        if text in ("", "void"):
            return []
        return [ctype(p) for p in text.split(",")]

    for match in re.finditer(r"([\w\s\*]+?)\b(ss_\w+)\s*\(([^;]*?)\)\s*;", text, re.S):
        functions.append((match.group(2), ctype(match.group(1)), parameters(match.group(3))))

    out = ['"""The raw C API of libsoundstage, through ctypes: generated from include/soundstage.h by',
           "scripts/generate-python-ffi.py. Do not edit; the classes of this package are the API to use.",
           '"""', "# fmt: off", "import ctypes", "", ]
    version = {k: int(v) for k, v in re.findall(r"#define SS_VERSION_(MAJOR|MINOR|PATCH) (\d+)", HEADER.read_text())}
    out.append(f"HEADER_VERSION = ({version['MAJOR']}, {version['MINOR']}, {version['PATCH']})")
    out.append("")
    for name, values in enums.items():
        out.append(f"# {name}")
        for constant, value in values:
            out.append(f"{constant} = {value}")
        out.append("")
    emitted = set()
    pending = list(structs)
    while pending:
        for index, (name, fields) in enumerate(pending):
            needs = {base.split()[-1] for _, base, _, _ in fields} & struct_names
            if needs <= emitted:
                break
        name, fields = pending.pop(index)
        emitted.add(name)
        out.append(f"class {name}(ctypes.Structure):")
        rows = []
        for field, base, pointer, count in fields:
            kind = ctype(base + (" *" if pointer else ""))
            if count:
                kind = f"{kind} * {count}"
            rows.append(f"        ({field!r}, {kind}),")
        out.append("    _fields_ = [")
        out.extend(rows)
        out.append("    ]")
        out.append("")
        out.append("")
    for name, result, params in callbacks:
        out.append(f"{name} = ctypes.CFUNCTYPE({', '.join([ctype(result)] + parameters(params))})")
    out.append("")
    out.append("# name: (result, [arguments])")
    out.append("FUNCTIONS = {")
    for name, result, params in functions:
        out.append(f"    {name!r}: ({result}, [{', '.join(params)}]),")
    out.append("}")
    out.append("")
    out.append("")
    out.append("def bind(library):")
    out.append('    """Sets the argument and result types of every function of `library` (a ctypes.CDLL)."""')
    out.append("    for name, (result, arguments) in FUNCTIONS.items():")
    out.append("        function = getattr(library, name)")
    out.append("        function.restype = result")
    out.append("        function.argtypes = arguments")
    out.append("    return library")
    generated = "\n".join(out) + "\n"
    if sys.argv[1:] == ["--check"]:
        current = TARGET.read_text() if TARGET.exists() else ""
        if current != generated:
            sys.stdout.writelines(difflib.unified_diff(current.splitlines(True), generated.splitlines(True), str(TARGET), "generated"))
            print(f"generate-python-ffi.py: {TARGET} does not match include/soundstage.h; run scripts/generate-python-ffi.py", file=sys.stderr)
            return 1
        print(f"generate-python-ffi.py: {TARGET.relative_to(ROOT)} matches include/soundstage.h ({len(functions)} functions)")
        return 0
    TARGET.write_text(generated)
    print(f"generate-python-ffi.py: wrote {TARGET.relative_to(ROOT)} ({len(functions)} functions, {len(structs)} structs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
