#!/usr/bin/env bash
# Speed of the Python module (README, "From Python"), in one run:
# - rmodel.read_log of a generated log of MESSAGES partial joint states of the Sweetie Bot (the
#   log scripts/bench-aggregate.sh makes) against json.loads + numpy on the same JSON Lines
#   (the same arrays: a row per message, NaN where it did not set a joint), both with the
#   model's full pose as columns; the arrays are checked to be equal;
# - the cost of one call of Model.fk and Model.rnea from Python on the Talos humanoid and the
#   Sweetie Bot, one pose at a time and N poses per call, against the C++ benchmarks of the
#   same functions (tests/bench/bench_kinematics.cpp, bench_dynamics.cpp) when they are built
#   (cmake --build build --target bench_kinematics bench_dynamics).
# RUNS=N takes the best of N runs of the log read (default 3).
# Usage: scripts/bench-python.sh [MESSAGES]   (default 200000; needs ../shared/fixtures)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
N=${1:-200000}
export RMODEL_FIXTURES_DIR=${RMODEL_FIXTURES_DIR:-$(cd .. && pwd)/shared/fixtures}
# The interpreter the module was built for (python/CMakeLists.txt).
PYTHON=${PYTHON:-$(sed -n 's/^Python3_EXECUTABLE:[A-Z]*=//p' "$BUILD_DIR/CMakeCache.txt")}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The C++ figures, CPU time per call (ns; the least of 5 repetitions), when the benchmarks are
# built. CPU time, here and for Python: on a shared machine wall time also counts the time the
# process waited for a core.
cpp="$work/cpp.json"
echo '{}' > "$cpp"
if [ -x "$BUILD_DIR/bench/bench_kinematics" ] && [ -x "$BUILD_DIR/bench/bench_dynamics" ]; then
  "$BUILD_DIR/bench/bench_kinematics" --benchmark_filter='^BM_Tree_AllLinks_rmodel$' \
    --benchmark_format=json --benchmark_min_time=0.2 --benchmark_repetitions=5 > "$work/kin.json" 2>/dev/null
  "$BUILD_DIR/bench/bench_dynamics" --benchmark_filter='^BM_Tree_InverseDynamics_rmodel/[01]$' \
    --benchmark_format=json --benchmark_min_time=0.2 --benchmark_repetitions=5 > "$work/dyn.json" 2>/dev/null
  "$PYTHON" - "$work" > "$cpp" <<'PY'
import json, sys
out = {}
for name in ("kin", "dyn"):
    for b in json.load(open(f"{sys.argv[1]}/{name}.json"))["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        scale = {"ns": 1, "us": 1e3, "ms": 1e6}[b["time_unit"]]
        name = b["run_name"]
        out[name] = min(out.get(name, float("inf")), b["cpu_time"] * scale)
print(json.dumps(out))
PY
fi

PYTHONPATH="$BUILD_DIR/python" "$PYTHON" - "$N" "$work" "$cpp" "${RUNS:-3}" <<'PY'
import json, os, random, sys, time, timeit

import numpy as np
import rmodel

n, work, cpp, runs = int(sys.argv[1]), sys.argv[2], json.load(open(sys.argv[3])), int(sys.argv[4])
fix = os.environ["RMODEL_FIXTURES_DIR"]
sweetie = rmodel.Model(f"{fix}/sweetie_bot_proto2/sweetie_bot_proto2.urdf",
                       semantics=f"{fix}/sweetie_bot_proto2/kinematic_chains.cpf")

# The log of scripts/bench-aggregate.sh: each message one chain's joints (with its virtual ones).
chains = [list(c.joints + c.virtual_joints) for c in sweetie.chains.values()]
rng = random.Random(7)
path = f"{work}/log.jsonl"
with open(path, "w") as out:
    for k in range(n):
        names = chains[k % len(chains)]
        out.write(json.dumps({"t": round(0.001 * k, 6), "name": names,
                              "position": [rng.uniform(-1, 1) for _ in names],
                              "velocity": [rng.uniform(-1, 1) for _ in names]}, separators=(",", ":")) + "\n")


def with_json(path, names):
    """The same arrays with the json module and numpy: a row per message, NaN elsewhere."""
    index = {name: i for i, name in enumerate(names)}
    t, rows, cols, pos, vel = [], [], [], [], []
    with open(path) as f:
        for k, line in enumerate(f):
            m = json.loads(line)
            t.append(m["t"])
            c = [index[name] for name in m["name"]]
            rows.extend([k] * len(c))
            cols.extend(c)
            pos.extend(m["position"])
            vel.extend(m["velocity"])
    position = np.full((len(t), len(names)), np.nan)
    velocity = np.full((len(t), len(names)), np.nan)
    position[rows, cols] = pos
    velocity[rows, cols] = vel
    return np.round(np.array(t) * 1e9).astype(np.int64), position, velocity


def per_row(path, names):
    """The same, as a notebook would write it: json.loads and numpy per message."""
    index = {name: i for i, name in enumerate(names)}
    with open(path) as f:
        lines = f.read().splitlines()
    t = np.empty(len(lines), dtype=np.int64)
    position = np.full((len(lines), len(names)), np.nan)
    velocity = np.full((len(lines), len(names)), np.nan)
    for k, line in enumerate(lines):
        m = json.loads(line)
        t[k] = round(m["t"] * 1e9)
        cols = [index[name] for name in m["name"]]
        position[k, cols] = m["position"]
        velocity[k, cols] = m["velocity"]
    return t, position, velocity


def best(fn):
    """Best wall time and best CPU time (every thread of the process) of RUNS runs."""
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        result = fn()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus), result


def same(log, arrays):
    t, position, velocity = arrays
    return np.array_equal(log.t, t) and np.array_equal(log.position, position, equal_nan=True) \
        and np.array_equal(log.velocity, velocity, equal_nan=True)


w_rmodel, c_rmodel, log = best(lambda: rmodel.read_log(path, model=sweetie))
w_json, c_json, arrays = best(lambda: with_json(path, sweetie.joint_names))
assert same(log, arrays), "read_log and json.loads + numpy (vectorised) differ"
w_row, c_row, arrays = best(lambda: per_row(path, sweetie.joint_names))
assert same(log, arrays), "read_log and json.loads + numpy (per message) differ"
mb = os.path.getsize(path) / 1e6
print(f"read {n} messages ({mb:.0f} MB of JSON Lines) into {log.position.shape[0]} x {log.position.shape[1]} arrays "
      f"(best of {runs}; wall time, and CPU time of all threads):")
print(f"  rmodel.read_log:                 {w_rmodel:7.3f} s  cpu {c_rmodel:7.3f} s  {n / w_rmodel:9.0f} msg/s")
for label, w, c in (("json.loads + numpy, vectorised", w_json, c_json), ("json.loads + numpy per message", w_row, c_row)):
    print(f"  {label}: {w:7.3f} s  cpu {c:7.3f} s  {n / w:9.0f} msg/s   "
          f"read_log {w / w_rmodel:4.1f}x faster (cpu {c / c_rmodel:4.1f}x)")
load = os.getloadavg()[0]
print(f"  (load average {load:.1f} on {os.cpu_count()} cores while measuring)")


def per_call(stmt, number):
    """CPU time per call (ns), the least of 5 repetitions."""
    return min(timeit.repeat(stmt, number=number, repeat=5, timer=time.process_time)) / number * 1e9


talos = rmodel.Model(f"{fix}/example_robot_data/talos_reduced.urdf")
dynamics = rmodel.Model(f"{fix}/sweetie_bot_proto2/sweetie_bot_proto2_dynamics.urdf")
print("CPU time per call from Python (least of 5), against the C++ benchmark of the same function:")
for label, model, fk_cpp, rnea_cpp in (
        ("talos_reduced", talos, "BM_Tree_AllLinks_rmodel", "BM_Tree_InverseDynamics_rmodel/0"),
        ("sweetie_bot_proto2_dynamics", dynamics, None, "BM_Tree_InverseDynamics_rmodel/1")):
    size = len(model.joint_names)
    q = np.random.default_rng(1).uniform(-0.5, 0.5, size)
    v, a = np.full(size, 0.3), np.full(size, -0.2)
    batch = np.random.default_rng(2).uniform(-0.5, 0.5, (1000, size))
    one_link = [model.links[-1]]
    first = model.joint_names[0]
    rows = [
        ("fk(q): all links, dict", per_call(lambda: model.fk(q), 2000), fk_cpp),
        ("fk(q, links=[one])", per_call(lambda: model.fk(q, links=one_link), 5000), fk_cpp),
        ("fk of 1000 poses, per pose", per_call(lambda: model.fk(batch, links=one_link), 5) / 1000, fk_cpp),
        ("rnea(q, v, a)", per_call(lambda: model.rnea(q, v, a), 5000), rnea_cpp),
        ("rnea of 1000 poses, per pose", per_call(lambda: model.rnea(batch, v, a), 5) / 1000, rnea_cpp),
        ("index(name): a call's floor", per_call(lambda: model.index(first), 20000), None),
    ]
    print(f"  {label} ({len(model.links)} links, {size} joints):")
    for name, ns, ref in rows:
        c = cpp.get(ref) if ref else None
        extra = f"   C++ {c / 1e3:6.2f} us, overhead {(ns - c) / 1e3:6.2f} us" if c else ""
        print(f"    {name:30s} {ns / 1e3:8.2f} us{extra}")
PY
