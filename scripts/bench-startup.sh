#!/usr/bin/env bash
# Start-up of `rmodel` beside urdfdom's `check_urdf`, pair by pair in one run:
#   check_urdf (its usage)          vs  rmodel --version
#   check_urdf (its usage)          vs  rmodel index --sample neck_pitch
#   check_urdf URDF                 vs  rmodel check --urdf URDF   (every fixture robot)
# Wall time from hyperfine (median of RUNS runs, default 200: on a shared machine a few runs
# delayed by other processes move the mean by tenths of a millisecond, not the median) and,
# where valgrind is present, instruction counts, which do not depend on the machine's load.
# A ratio below 1 means rmodel is faster. Usage: scripts/bench-startup.sh   (needs hyperfine and liburdfdom-tools;
# the robots need ../shared/fixtures)
# BEFORE=path/to/an/older/rmodel adds its figures to every row, measured in the same run
# (to compare a change side by side: copy the binary and its library before rebuilding).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
RUNS=${RUNS:-200}
rmodel="$BUILD_DIR/bin/rmodel"
before=${BEFORE:-}
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

# compare LABEL "REFERENCE COMMAND" "RMODEL ARGUMENTS"
compare() {
  local commands=("$2" "$rmodel $3")
  [ -z "$before" ] || commands+=("$before $3")
  hyperfine -N -i --warmup 20 --runs "$RUNS" --export-json "$work/r.json" "${commands[@]}" >/dev/null 2>&1
  local irs=()
  # shellcheck disable=SC2086 # the commands are word lists
  for c in "${commands[@]}"; do irs+=("$(instructions $c)"); done
  python3 - "$work/r.json" "$1" "${irs[@]}" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
label, irs = sys.argv[2], sys.argv[3:]
ms = [x["median"] * 1e3 for x in r]
line = f"{label:<38} {ms[0]:7.2f} ms {ms[1]:7.2f} ms {ms[1]/ms[0]:5.2f}"
if len(ms) > 2:
    line += f" {ms[2]:7.2f} ms {ms[2]/ms[0]:5.2f}"
if all(x.isdigit() for x in irs):
    line += f"   {int(irs[0])/1e6:6.2f} M {int(irs[1])/1e6:6.2f} M {int(irs[1])/int(irs[0]):5.2f}"
    if len(irs) > 2:
        line += f" {int(irs[2])/1e6:6.2f} M {int(irs[2])/int(irs[0]):5.2f}"
print(line)
PY
}

if [ -z "$before" ]; then
  printf '%-38s %10s %10s %5s   %8s %8s %5s\n' "" check_urdf rmodel ratio "Ir ref" "Ir ours" ratio
else
  printf '%-38s %10s %10s %5s %10s %5s   %8s %8s %5s %8s %5s\n' "" check_urdf rmodel ratio before ratio \
    "Ir ref" "Ir ours" ratio "Ir bef." ratio
fi
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
compare "--version" "check_urdf" "--version"
compare "index --sample neck_pitch" "check_urdf" "index --sample neck_pitch"
for urdf in "$FIX"/example_robot_data/*.urdf "$FIX"/sweetie_bot_proto2/*.urdf share/rmodel/examples/robot.urdf; do
  [ -f "$urdf" ] || continue
  compare "check $(basename "$urdf")" "check_urdf $urdf" "check --urdf $urdf"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
