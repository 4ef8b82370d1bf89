#!/usr/bin/env bash
# Throughput of `rmodel aggregate` on a generated log of partial messages for the Sweetie
# Bot model, against a plain Python implementation of the same merge (json module) and
# `jq -c .` (parse and print only), in one run: the simple kind and the sync kind, each also
# with --threads 1 (`--kind sync --period 0.01`). RUNS=N takes the best of N runs (default 3).
# Usage: scripts/bench-aggregate.sh [MESSAGES]   (default 200000; needs ../shared/fixtures)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
N=${1:-200000}
FIX=../shared/fixtures/sweetie_bot_proto2
rmodel="$BUILD_DIR/bin/rmodel"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$rmodel" joints --urdf $FIX/sweetie_bot_proto2.urdf --semantics $FIX/kinematic_chains.cpf -f json > "$work/joints.json"
"$rmodel" chains --urdf $FIX/sweetie_bot_proto2.urdf --semantics $FIX/kinematic_chains.cpf --with-virtual -f json > "$work/chains.json"

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

cat > "$work/merge.py" <<'PY'
# The same merge in plain Python: full sorted pose updated by each partial message.
import json, sys
names = [j["name"] for j in json.load(open(sys.argv[1]))["joints"]]
index = {n: i for i, n in enumerate(names)}
position = [0.0] * len(names)
velocity = None
out = sys.stdout
for line in sys.stdin:
    m = json.loads(line)
    pos, vel = m.get("position") or [], m.get("velocity") or []
    if vel and velocity is None:
        velocity = [0.0] * len(names)
    for k, name in enumerate(m["name"]):
        i = index.get(name)
        if i is None:
            continue
        if pos: position[i] = pos[k]
        if vel: velocity[i] = vel[k]
    doc = {"t": m.get("t"), "name": names, "position": position}
    if velocity is not None: doc["velocity"] = velocity
    out.write(json.dumps(doc, separators=(",", ":")) + "\n")
PY

seconds() { local s e; s=$(date +%s.%N); "$@" > /dev/null; e=$(date +%s.%N); python3 -c "print($e - $s)"; }
model="--urdf $FIX/sweetie_bot_proto2.urdf --semantics $FIX/kinematic_chains.cpf"
# Best of RUNS (default 3) for each program: wall time on a shared machine is noisy.
RUNS=${RUNS:-3}
best() {
  local b="" t
  for _ in $(seq "$RUNS"); do
    t=$(seconds sh -c "$1")
    b=$(python3 -c "print(min(float('$t'), float('${b:-inf}')))")
  done
  echo "$b"
}
t_simple=$(best "'$rmodel' aggregate -q --no-support $model < '$work/log.jsonl' 2>/dev/null")
t_sync=$(best "'$rmodel' aggregate -q --no-support --kind sync --period 0.01 $model < '$work/log.jsonl' 2>/dev/null")
# The same runs on one thread (--threads 1): the file is parsed where it is aggregated.
t_simple1=$(best "'$rmodel' aggregate -q --no-support --threads 1 $model < '$work/log.jsonl' 2>/dev/null")
t_sync1=$(best "'$rmodel' aggregate -q --no-support --threads 1 --kind sync --period 0.01 $model < '$work/log.jsonl' 2>/dev/null")
t_python=$(best "python3 '$work/merge.py' '$work/joints.json' < '$work/log.jsonl'")
t_jq=$(best "jq -c . < '$work/log.jsonl'")
in_mb=$(python3 -c "import os; print(os.path.getsize('$work/log.jsonl') / 1e6)")
out_mb=$("$rmodel" aggregate -q --no-support $model < "$work/log.jsonl" 2>/dev/null | wc -c | python3 -c "import sys; print(int(sys.stdin.read()) / 1e6)")
python3 - "$N" "$in_mb" "$out_mb" "$t_simple" "$t_sync" "$t_python" "$t_jq" "$t_simple1" "$t_sync1" <<'PY'
import sys
n, in_mb, out_mb = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
s, y, p, j, s1, y1 = map(float, sys.argv[4:])
print(f"messages: {n}  ({in_mb:.0f} MB in, {out_mb:.0f} MB of full poses out; best of runs)")
print(f"rmodel aggregate (simple):        {s:8.3f} s  {n / s:10.0f} msg/s")
print(f"rmodel aggregate (sync, T=0.01):  {y:8.3f} s  {n / y:10.0f} msg/s")
print(f"  the same with --threads 1:       {s1:8.3f} s  {n / s1:10.0f} msg/s (simple), "
      f"{n / y1:.0f} msg/s (sync)")
print(f"python json merge:                {p:8.3f} s  {n / p:10.0f} msg/s"
      f"   simple {p / s:5.1f}x, sync {p / y:5.1f}x faster")
print(f"jq -c . (parse and print only):   {j:8.3f} s  {n / j:10.0f} msg/s"
      f"   simple {j / s:5.1f}x, sync {j / y:5.1f}x faster")
PY
