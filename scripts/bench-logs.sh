#!/usr/bin/env bash
# Replay of the same full poses as JSON Lines and as MCAP: `rmodel aggregate` of a generated
# log of partial messages for the Sweetie Bot model writes its full sorted poses once as
# .jsonl and once as .mcap (zstd, rmodel's default; and uncompressed); then
# `rmodel aggregate` of each of those files (every message a full pose) is timed, writing
# JSON Lines to /dev/null. CPU time (user + sys) is reported beside wall time: the machine
# may be shared. RUNS=N takes the best of N runs of each (default 3).
# Usage: scripts/bench-logs.sh [MESSAGES]   (default 200000; needs ../shared/fixtures)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
N=${1:-200000}
FIX=../shared/fixtures/sweetie_bot_proto2
rmodel="$BUILD_DIR/bin/rmodel"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
model="--urdf $FIX/sweetie_bot_proto2.urdf --semantics $FIX/kinematic_chains.cpf"

"$rmodel" chains $model --with-virtual -f json > "$work/chains.json"
python3 - "$N" "$work" <<'PY'
import json, random, sys
n, work = int(sys.argv[1]), sys.argv[2]
chains = json.load(open(f"{work}/chains.json"))["chains"]
rng = random.Random(7)
with open(f"{work}/log.jsonl", "w") as out:
    for k in range(n):
        names = chains[k % len(chains)]["joints"]
        out.write(json.dumps({"t": round(0.001 * k, 6), "name": names,
                              "position": [rng.uniform(-1, 1) for _ in names],
                              "velocity": [rng.uniform(-1, 1) for _ in names]},
                             separators=(",", ":")) + "\n")
PY
# The same messages (full poses, support states left out) in each format.
"$rmodel" aggregate -q --no-support $model "$work/log.jsonl" -o "$work/poses.jsonl" 2>/dev/null
"$rmodel" aggregate -q --no-support $model "$work/log.jsonl" -o "$work/poses.mcap" 2>/dev/null
"$rmodel" aggregate -q --no-support $model "$work/poses.mcap" -o "$work/check.jsonl" 2>/dev/null
cmp -s "$work/poses.jsonl" "$work/check.jsonl" || { echo "MCAP replay differs from the JSON Lines" >&2; exit 1; }

# "wall cpu" seconds of one run (cpu = user + sys of the children).
run() {
  python3 - "$@" <<'PY'
import os, subprocess, sys, time
t0, c0 = time.perf_counter(), os.times()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
t1, c1 = time.perf_counter(), os.times()
print(t1 - t0, (c1.children_user - c0.children_user) + (c1.children_system - c0.children_system))
PY
}
RUNS=${RUNS:-3}
best() {
  local bw="" bc="" w c
  for _ in $(seq "$RUNS"); do
    read -r w c < <(run "$@")
    bw=$(python3 -c "print(min($w, ${bw:-float('inf')}))")
    bc=$(python3 -c "print(min($c, ${bc:-float('inf')}))")
  done
  echo "$bw $bc"
}
replay() { best "$rmodel" aggregate -q --no-support $model "$1" -o /dev/null; }
# Writing: aggregating the partial-message log into each format.
read -r wjw wjc < <(best "$rmodel" aggregate -q --no-support $model "$work/log.jsonl" -o "$work/w.jsonl")
read -r wmw wmc < <(best "$rmodel" aggregate -q --no-support $model "$work/log.jsonl" -o "$work/w.mcap")
read -r jw jc < <(replay "$work/poses.jsonl")
read -r mw mc < <(replay "$work/poses.mcap")
size() { python3 -c "import os; print(os.path.getsize('$1') / 1e6)"; }
joints=$(head -1 "$work/poses.jsonl" | python3 -c "import json, sys; print(len(json.loads(sys.stdin.readline())['name']))")
python3 - "$N" "$joints" "$(size "$work/poses.jsonl")" "$(size "$work/poses.mcap")" "$jw" "$jc" "$mw" "$mc" "$wjw" "$wjc" "$wmw" "$wmc" <<'PY'
import sys
n, joints = int(sys.argv[1]), int(sys.argv[2])
js, ms, jw, jc, mw, mc, wjw, wjc, wmw, wmc = map(float, sys.argv[3:])
print(f"{n} full poses ({joints} joints, position + velocity); best of runs; aggregate → JSON Lines on /dev/null")
print(f"JSON Lines replay  {js:7.1f} MB  wall {jw:6.3f} s  cpu {jc:6.3f} s  {n / jc:10.0f} msg/s (cpu)")
print(f"MCAP (zstd) replay {ms:7.1f} MB  wall {mw:6.3f} s  cpu {mc:6.3f} s  {n / mc:10.0f} msg/s (cpu)"
      f"   {jc / mc:4.2f}x")
print(f"aggregate of the partial log -o .jsonl   wall {wjw:6.3f} s  cpu {wjc:6.3f} s  {n / wjc:10.0f} msg/s (cpu)")
print(f"aggregate of the partial log -o .mcap    wall {wmw:6.3f} s  cpu {wmc:6.3f} s  {n / wmc:10.0f} msg/s (cpu)")
PY
