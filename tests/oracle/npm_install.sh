#!/usr/bin/env bash
# Installs the npm packages an oracle test uses, pinned by the package-lock.json in
# PACKAGE_DIR, into DIR, once. Without node/npm or the registry, it says why, and the tests
# that need the packages skip with that message; it fails only where RMODEL_REQUIRE_ORACLES=1
# (scripts/test.sh: the README's test command and CI must run every oracle).
# Usage: npm_install.sh PACKAGE_DIR DIR MARKER_PACKAGE WHAT
#   MARKER_PACKAGE: a package whose presence means the install is done (e.g. @mcap/core)
#   WHAT: the tests, as the messages name them (e.g. "the Foxglove decode tests")
set -u
here=$1 dir=$2 marker=$3 what=$4
failed=0
[ "${RMODEL_REQUIRE_ORACLES:-0}" = 1 ] && failed=1
if [ -f "$dir/node_modules/$marker/package.json" ] && cmp -s "$here/package-lock.json" "$dir/package-lock.json"; then
  exit 0
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "node or npm not found: $what will skip"
  exit "$failed"
fi
mkdir -p "$dir"
cp "$here/package.json" "$here/package-lock.json" "$dir/"
if ! (cd "$dir" && timeout 600 npm ci --no-audit --no-fund --loglevel=error); then
  rm -rf "$dir/node_modules"
  echo "npm ci failed (registry unreachable?): $what will skip"
  exit "$failed"
fi
exit 0
