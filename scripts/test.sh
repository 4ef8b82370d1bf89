#!/usr/bin/env bash
# Runs the whole test suite: first on the build made by quickstart.sh (GCC), then again in the
# sanitizer configuration built with clang (AddressSanitizer + UndefinedBehaviorSanitizer,
# build-asan): the library, the command and the tests rebuilt with
# -fsanitize=address,undefined, every test run under them (the packaging tests, label `install`, and the README and man page examples
# run once, in the plain build; the command's processes skip LeakSanitizer's exit scan, see
# tests/CMakeLists.txt).
#
#   RMODEL_SANITIZE=0 scripts/test.sh          # the plain build's tests only
#   RMODEL_FUZZ_SECONDS=60 scripts/test.sh     # each fuzz target longer (default 10 s; 0: none)
#   RMODEL_REQUIRE_ORACLES=0 scripts/test.sh   # let the oracle tests skip where one is missing
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
ASAN_BUILD_DIR=${ASAN_BUILD_DIR:-build-asan}
JOBS=$(nproc)
# Every oracle must be here (scripts/install-deps.sh brings them): a missing one fails the
# run instead of letting its tests skip (tests/oracle/oracles_available.sh).
export RMODEL_REQUIRE_ORACLES=${RMODEL_REQUIRE_ORACLES:-1}

ctest --test-dir "$BUILD_DIR" --output-on-failure -j"$JOBS"

if [ "${RMODEL_SANITIZE:-1}" != 0 ]; then
  echo "== the same suite under ASan + UBSan, built with clang ($ASAN_BUILD_DIR)"
  # clang, where the first build is GCC's: code one compiler lets pass is not yet standard
  # C++, and clang brings libFuzzer (RMODEL_FUZZ: the fuzz targets are built here too, with
  # its coverage instrumentation). Only what the tests need (no benchmarks), at -O1 with line
  # tables only: a quicker compile than RelWithDebInfo, and reports still name files and
  # lines. The kinematics loops are built for the x86-64 baseline only: the plain build's
  # tests run the AVX clone the loader picks here, these run the other
  # (src/kinematics/clones.hpp). A directory configured with another compiler starts afresh.
  if [ -f "$ASAN_BUILD_DIR/CMakeCache.txt" ] && ! grep -q '^CMAKE_CXX_COMPILER:.*clang' "$ASAN_BUILD_DIR/CMakeCache.txt"; then
    rm -rf "$ASAN_BUILD_DIR"
  fi
  cmake -S . -B "$ASAN_BUILD_DIR" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1 -g1" \
    -DRMODEL_SANITIZE=ON -DRMODEL_FUZZ=ON -DRMODEL_WERROR=ON -DRMODEL_BUILD_BENCH=OFF \
    -DRMODEL_KINEMATICS_CLONES=OFF >/dev/null
  cmake --build "$ASAN_BUILD_DIR" -j"$JOBS"
  # The plain run's times order this run: ctest starts the longest tests first (the MCAP
  # round trips run Node.js checkers), instead of in file order with a long tail at the end.
  mkdir -p "$ASAN_BUILD_DIR/Testing/Temporary"
  cp "$BUILD_DIR/Testing/Temporary/CTestCostData.txt" "$ASAN_BUILD_DIR/Testing/Temporary/" 2>/dev/null || true
  # Any report fails the test that triggered it (UBSan does not recover: see RmodelWarnings).
  # One test more than cores: many wait on the rmodel processes they start.
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir "$ASAN_BUILD_DIR" --output-on-failure -j"$((JOBS + 1))" -LE install

  # Every fuzz target runs a little, from its seeds and kept findings, so that the harness
  # cannot rot unseen (scripts/fuzz.sh; RMODEL_FUZZ_SECONDS=0 skips it).
  if [ "${RMODEL_FUZZ_SECONDS:-10}" != 0 ]; then
    echo "== every fuzz target for ${RMODEL_FUZZ_SECONDS:-10} s"
    BUILD_DIR=$ASAN_BUILD_DIR scripts/fuzz.sh -t "${RMODEL_FUZZ_SECONDS:-10}" -j "$JOBS"
  fi
fi
