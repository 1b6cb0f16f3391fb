"""The raw layer matches include/soundstage.h: generated from it, every exported function bound,
and every struct laid out as a C compiler lays it out."""
import ctypes
import re
import subprocess
import sys

import pytest

from soundstage import _ffi

from conftest import ROOT

HEADER = ROOT / "include" / "soundstage.h"


def test_the_generated_layer_is_up_to_date():
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "generate-python-ffi.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_function_of_the_header_is_bound():
    declared = set(re.findall(r"\b(ss_[a-z0-9_]+)\(", HEADER.read_text()))
    assert declared == set(_ffi.FUNCTIONS)


def test_every_struct_has_the_c_layout(tmp_path):
    structs = sorted(name for name in dir(_ffi) if name.startswith("ss_") and isinstance(getattr(_ffi, name), type)
                     and issubclass(getattr(_ffi, name), ctypes.Structure))
    lines = ["#include <stdio.h>", "#include <stddef.h>", "#include <soundstage.h>", "int main(void) {"]
    expected = []
    for name in structs:
        lines.append(f'    printf("{name} %zu %zu\\n", sizeof({name}), _Alignof({name}));')
        expected.append(f"{name} {ctypes.sizeof(getattr(_ffi, name))} {ctypes.alignment(getattr(_ffi, name))}")
        for field, _ in getattr(_ffi, name)._fields_:
            lines.append(f'    printf("{name}.{field} %zu\\n", offsetof({name}, {field}));')
            expected.append(f"{name}.{field} {getattr(getattr(_ffi, name), field).offset}")
    lines += ["    return 0;", "}"]
    (tmp_path / "layout.c").write_text("\n".join(lines) + "\n")
    compiler = subprocess.run(["cc", "-std=c11", "-I", str(ROOT / "include"), str(tmp_path / "layout.c"), "-o",
                               str(tmp_path / "layout")], capture_output=True, text=True)
    if compiler.returncode != 0:
        pytest.fail(compiler.stderr)
    printed = subprocess.run([str(tmp_path / "layout")], capture_output=True, text=True, check=True).stdout.split("\n")
    assert printed[:-1] == expected
    assert len(structs) == 17
