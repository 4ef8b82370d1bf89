#!/usr/bin/env bash
# Installs the build dependencies (Debian 12, as root), builds rmodel, and runs it on the
# sample robot shipped in share/.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
scripts/install-deps.sh
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRMODEL_WERROR=ON
cmake --build "$BUILD_DIR" -j"$(nproc)"
"$BUILD_DIR"/bin/rmodel info --sample
"$BUILD_DIR"/bin/rmodel joints --sample
