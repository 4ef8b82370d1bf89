#!/usr/bin/env bash
# Start-up of `rmodel` beside urdfdom's `check_urdf`, pair by pair in one run:
#   check_urdf (its usage)          vs  rmodel --version
#   check_urdf (its usage)          vs  rmodel index --sample neck_pitch
#   check_urdf URDF                 vs  rmodel check --urdf URDF   (every fixture robot)
# Wall time from hyperfine (mean of RUNS runs, default 200) and, where valgrind is present,
# instruction counts, which do not depend on the machine's load. A ratio below 1 means
# rmodel is faster. Usage: scripts/bench-startup.sh   (needs hyperfine and liburdfdom-tools;
# the robots need ../shared/fixtures)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
RUNS=${RUNS:-200}
rmodel="$BUILD_DIR/bin/rmodel"
FIX=../shared/fixtures
command -v hyperfine >/dev/null || { echo "hyperfine not found: apt-get install hyperfine" >&2; exit 2; }
command -v check_urdf >/dev/null || { echo "check_urdf not found: apt-get install liburdfdom-tools" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

instructions() {
  command -v valgrind >/dev/null || { echo "-"; return; }
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'  || true
}

# compare LABEL "REFERENCE COMMAND" "RMODEL COMMAND"
compare() {
  hyperfine -N -i --warmup 20 --runs "$RUNS" --export-json "$work/r.json" "$2" "$3" >/dev/null 2>&1
  # shellcheck disable=SC2086 # the commands are word lists
  local ir_ref ir_ours
  ir_ref=$(instructions $2)
  ir_ours=$(instructions $3)
  python3 - "$work/r.json" "$1" "$ir_ref" "$ir_ours" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
label, a, b = sys.argv[2], sys.argv[3], sys.argv[4]
ref, ours = r[0]["mean"] * 1e3, r[1]["mean"] * 1e3
ir = f"{int(a)/1e6:6.2f} M {int(b)/1e6:6.2f} M {int(b)/int(a):5.2f}" if a.isdigit() and b.isdigit() else "      -        -      -"
print(f"{label:<38} {ref:7.2f} ms {ours:7.2f} ms {ours/ref:5.2f}   {ir}")
PY
}

printf '%-38s %10s %10s %5s   %8s %8s %5s\n' "" check_urdf rmodel ratio "Ir ref" "Ir ours" ratio
compare "--version" "check_urdf" "$rmodel --version"
compare "index --sample neck_pitch" "check_urdf" "$rmodel index --sample neck_pitch"
for urdf in "$FIX"/example_robot_data/*.urdf "$FIX"/sweetie_bot_proto2/*.urdf share/rmodel/examples/robot.urdf; do
  [ -f "$urdf" ] || continue
  compare "check $(basename "$urdf")" "check_urdf $urdf" "$rmodel check --urdf $urdf"
done
