#!/usr/bin/env bash
# Installs Foxglove's MCAP and ROS 2 message libraries from npm (pinned by package-lock.json)
# into DIR, once, for the Foxglove decode tests. Never fails: without node/npm or the registry,
# it says why and the tests that need the packages skip with that message.
set -u
dir=$1
here=$(cd "$(dirname "$0")" && pwd)
if [ -f "$dir/node_modules/@mcap/core/package.json" ] && cmp -s "$here/package-lock.json" "$dir/package-lock.json"; then
  exit 0
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "node or npm not found: the Foxglove decode tests will skip"
  exit 0
fi
mkdir -p "$dir"
cp "$here/package.json" "$here/package-lock.json" "$dir/"
if ! (cd "$dir" && timeout 600 npm ci --no-audit --no-fund --loglevel=error); then
  rm -rf "$dir/node_modules"
  echo "npm ci failed (registry unreachable?): the Foxglove decode tests will skip"
fi
exit 0
