#!/usr/bin/env bash
# Runs the whole test suite: first on the build made by quickstart.sh, then again in the
# sanitizer configuration (AddressSanitizer + UndefinedBehaviorSanitizer, build-asan): the
# library, the command and the tests rebuilt with -fsanitize=address,undefined, every test
# run under them (the packaging tests, label `install`, and the README and man page examples
# run once, in the plain build; the command's processes skip LeakSanitizer's exit scan, see
# tests/CMakeLists.txt).
#
#   RMODEL_SANITIZE=0 scripts/test.sh          # the plain build's tests only
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
  echo "== the same suite under ASan + UBSan ($ASAN_BUILD_DIR)"
  # Only what the tests need (no benchmarks), at -O1 with line tables only: a quicker
  # compile than RelWithDebInfo, and reports still name files and lines. The kinematics
  # loops are built for the x86-64 baseline only: the plain build's tests run the AVX clone
  # the loader picks here, these run the other (src/kinematics/clones.hpp).
  cmake -S . -B "$ASAN_BUILD_DIR" -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1 -g1" \
    -DRMODEL_SANITIZE=ON -DRMODEL_BUILD_BENCH=OFF -DRMODEL_KINEMATICS_CLONES=OFF >/dev/null
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
fi
