#!/usr/bin/env bash
# Installs the npm packages an oracle test uses, pinned by the package-lock.json in
# PACKAGE_DIR, into DIR, once. Never fails: without node/npm or the registry, it says why, and
# the tests that need the packages skip with that message.
# Usage: npm_install.sh PACKAGE_DIR DIR MARKER_PACKAGE WHAT
#   MARKER_PACKAGE: a package whose presence means the install is done (e.g. @mcap/core)
#   WHAT: the tests, as the messages name them (e.g. "the Foxglove decode tests")
set -u
here=$1 dir=$2 marker=$3 what=$4
if [ -f "$dir/node_modules/$marker/package.json" ] && cmp -s "$here/package-lock.json" "$dir/package-lock.json"; then
  exit 0
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "node or npm not found: $what will skip"
  exit 0
fi
mkdir -p "$dir"
cp "$here/package.json" "$here/package-lock.json" "$dir/"
if ! (cd "$dir" && timeout 600 npm ci --no-audit --no-fund --loglevel=error); then
  rm -rf "$dir/node_modules"
  echo "npm ci failed (registry unreachable?): $what will skip"
fi
exit 0
