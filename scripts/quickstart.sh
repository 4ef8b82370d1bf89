#!/usr/bin/env bash
# Installs the build dependencies (Debian 12, as root), builds rmodel, and runs it on the
# sample robot shipped in share/.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
scripts/install-deps.sh
# RelWithDebInfo's code (-O2) with line tables only (-g1): backtraces keep file and line, and
# the build takes a third less time than with full debug information.
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
  -DRMODEL_WERROR=ON
cmake --build "$BUILD_DIR" -j"$(nproc)"
"$BUILD_DIR"/bin/rmodel info --sample
"$BUILD_DIR"/bin/rmodel joints --sample
