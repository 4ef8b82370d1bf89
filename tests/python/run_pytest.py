#!/usr/bin/env python3
"""Runs pytest on the given test files for ctest (tests/CMakeLists.txt): no cache or bytecode
written into the checkout; exit 77 (ctest's skip) when pytest or numpy is not installed for
this interpreter (Debian: python3-pytest, python3-numpy; scripts/install-deps.sh brings them)."""
import sys

try:
    import numpy  # noqa: F401
    import pytest
except ImportError as missing:
    print(f"skipped: {missing} for {sys.executable} (Debian: python3-pytest python3-numpy)")
    sys.exit(77)

sys.dont_write_bytecode = True
sys.exit(pytest.main(["-p", "no:cacheprovider", "-q", "-rs", *sys.argv[1:]]))
