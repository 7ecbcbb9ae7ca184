"""The installed llama.cpp is the portable build: it can run on any x86-64 CPU with AVX2.

A `-march=native` build made on a machine whose CPU flags list AVX-512/AMX uses zmm/tmm registers and
dies with SIGILL on VMs that advertise but do not deliver them. Reading the disassembly of the installed
libraries proves which instructions the build may execute, whatever machine runs the test.
"""
from __future__ import annotations

import platform
import shutil
import subprocess
from pathlib import Path

import pytest

import llama_cpp

LIB = Path(llama_cpp.__file__).with_name("lib")


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="x86-64 instruction sets only")
@pytest.mark.skipif(shutil.which("objdump") is None, reason="objdump (binutils) is not installed")
def test_llama_cpp_uses_avx2_but_no_avx512_or_amx():
    text = subprocess.run(["objdump", "-d", "--no-show-raw-insn", str(LIB / "libggml-cpu.so")],
                          capture_output=True, text=True, check=True, timeout=300).stdout
    assert "%ymm" in text, "the CPU backend should use AVX2 (ymm registers)"
    assert "%zmm" not in text, "AVX-512 instructions in the CPU backend: a native build, not the portable one"
    assert "%tmm" not in text, "AMX tile instructions in the CPU backend: a native build, not the portable one"
