#!/usr/bin/env bash
# Times `rmodel check` against urdfdom's `check_urdf` on the same URDF in one hyperfine run.
# Usage: scripts/bench-check.sh [URDF]   (default: ../shared/fixtures/.../talos_reduced.urdf)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
urdf=${1:-../shared/fixtures/example_robot_data/talos_reduced.urdf}
command -v hyperfine >/dev/null || { echo "hyperfine not found: apt-get install hyperfine" >&2; exit 2; }
command -v check_urdf >/dev/null || { echo "check_urdf not found: apt-get install liburdfdom-tools" >&2; exit 2; }
out=$(mktemp)
hyperfine -N --warmup 20 --runs 300 --export-json "$out" \
  "check_urdf $urdf" "$BUILD_DIR/bin/rmodel check --urdf $urdf" >&2
python3 - "$out" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
ref, ours = r[0]["mean"], r[1]["mean"]
print(f"check_urdf   {ref*1e3:.2f} ms")
print(f"rmodel check {ours*1e3:.2f} ms")
print(f"ratio rmodel/check_urdf = {ours/ref:.2f} (below 1 means rmodel is faster)")
PY
rm -f "$out"
# Wall time on a shared machine is noisy; instruction counts are repeatable.
if command -v valgrind >/dev/null; then
  count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
  a=$(count check_urdf "$urdf"); b=$(count "$BUILD_DIR/bin/rmodel" check --urdf "$urdf")
  echo "instructions: check_urdf $a, rmodel check $b, ratio $(python3 -c "print(f'{$b/$a:.2f}')")"
fi
