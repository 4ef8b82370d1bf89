#!/usr/bin/env bash
# rmodel against Pinocchio, side by side in one process (tests/bench/pinocchio/bench_pinocchio.cpp):
# RNEA, CRBA and FK + Jacobian of one link, on TALOS, Panda and Solo-12
# (../shared/fixtures/example_robot_data), after checking that both compute the same results.
#
#   PINOCCHIO_SRC=/path/to/pinocchio scripts/bench-pinocchio.sh [Google Benchmark options]
#
# Pinocchio is not in Debian, and nothing of it is in this repository: PINOCCHIO_SRC is a
# source tree of it (tested with 3.7.0). Its algorithms are header templates (they need
# Debian's libboost-dev, libeigen3-dev and liburdfdom-dev); its URDF reader is two source
# files; the four headers its CMake would configure (config.hpp, deprecated.hpp, warning.hpp,
# parsers/config.hpp: its version, export and deprecation macros) are written here. Pinocchio
# is compiled as it ships, -O3 -DNDEBUG; rmodel is the library of the quick-start build
# ($BUILD_DIR, default build: -O2). Without PINOCCHIO_SRC the script says so and exits 0.
#
# Prints Google Benchmark's table, then one line per algorithm and robot: both median times
# (CPU time, which another load on the machine does not inflate) and rmodel's time over
# Pinocchio's (under 1: rmodel is faster). REPETITIONS=N (default 5).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
FIX=${RMODEL_FIXTURES_DIR:-../shared/fixtures}/example_robot_data
if [ -z "${PINOCCHIO_SRC:-}" ]; then
  echo "bench-pinocchio: skipped: set PINOCCHIO_SRC to a Pinocchio source tree (e.g. a clone of stack-of-tasks/pinocchio)"
  exit 0
fi
[ -f "$PINOCCHIO_SRC/include/pinocchio/fwd.hpp" ] ||
  { echo "bench-pinocchio: $PINOCCHIO_SRC is not a Pinocchio source tree (no include/pinocchio/fwd.hpp)" >&2; exit 2; }
[ -d "$FIX" ] || { echo "bench-pinocchio: no fixtures at $FIX (set RMODEL_FIXTURES_DIR)" >&2; exit 2; }
library=$(find "$BUILD_DIR/lib" -name 'librmodel.so' -print -quit 2>/dev/null || true)
[ -n "$library" ] || { echo "bench-pinocchio: no librmodel.so in $BUILD_DIR: run scripts/quickstart.sh first" >&2; exit 2; }
for header in /usr/include/boost/variant.hpp /usr/include/urdf_parser/urdf_parser.h /usr/include/benchmark/benchmark.h; do
  [ -f "$header" ] || { echo "bench-pinocchio: $header is missing (apt-get install libboost-dev liburdfdom-dev libbenchmark-dev)" >&2; exit 2; }
done

work=$BUILD_DIR/bench-pinocchio
mkdir -p "$work/include/pinocchio/parsers"
version=$(sed -n 's/.*<version>\(.*\)<\/version>.*/\1/p' "$PINOCCHIO_SRC/package.xml" | head -1)
IFS=. read -r major minor patch <<<"${version:-0.0.0}"
# What jrl-cmakemodules' generate_configuration_header would write: the version, and export
# macros that export nothing special (everything is compiled into the one program).
cat >"$work/include/pinocchio/config.hpp" <<EOF
#pragma once
#define PINOCCHIO_MAJOR_VERSION $major
#define PINOCCHIO_MINOR_VERSION $minor
#define PINOCCHIO_PATCH_VERSION $patch
#define PINOCCHIO_VERSION "$version"
#define PINOCCHIO_DLLAPI
#define PINOCCHIO_LOCAL
EOF
cat >"$work/include/pinocchio/parsers/config.hpp" <<'EOF'
#pragma once
#define PINOCCHIO_PARSERS_DLLAPI
#define PINOCCHIO_PARSERS_LOCAL
EOF
cat >"$work/include/pinocchio/deprecated.hpp" <<'EOF'
#pragma once
#define PINOCCHIO_DEPRECATED
#define PINOCCHIO_DEPRECATED_MESSAGE(message)
EOF
cat >"$work/include/pinocchio/warning.hpp" <<'EOF'
#pragma once
EOF

flags=(-O3 -DNDEBUG -I"$work/include" -I"$PINOCCHIO_SRC/include" -I/usr/include/eigen3 -Ilib/include
       -DPINOCCHIO_WITH_URDFDOM -DBOOST_MPL_LIMIT_LIST_SIZE=30 -DBOOST_MPL_CFG_NO_PREPROCESSED_HEADERS -w)
objects=()
for source in model utils; do
  object=$work/urdf_$source.o
  if [ ! -f "$object" ] || [ "$PINOCCHIO_SRC/src/parsers/urdf/$source.cpp" -nt "$object" ]; then
    echo "compiling Pinocchio's src/parsers/urdf/$source.cpp" >&2
    "${CXX:-g++}" -std=c++20 "${flags[@]}" -c "$PINOCCHIO_SRC/src/parsers/urdf/$source.cpp" -o "$object"
  fi
  objects+=("$object")
done
echo "compiling tests/bench/pinocchio/bench_pinocchio.cpp" >&2
"${CXX:-g++}" -std=c++20 "${flags[@]}" tests/bench/pinocchio/bench_pinocchio.cpp "${objects[@]}" \
  -L"$(dirname "$library")" -Wl,-rpath,"$(realpath "$(dirname "$library")")" -lrmodel \
  -lurdfdom_model -lbenchmark -lpthread -o "$work/bench_pinocchio"

"$work/bench_pinocchio" \
  "$FIX/talos_reduced.urdf" arm_left_7_link "$FIX/panda.urdf" panda_link8 "$FIX/solo12.urdf" FL_FOOT \
  --benchmark_repetitions="${REPETITIONS:-5}" --benchmark_report_aggregates_only=true \
  --benchmark_out="$work/results.json" --benchmark_out_format=json "$@"

python3 - "$work/results.json" <<'PY'
import json, sys
rows = {}
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    if b.get("aggregate_name") != "median":
        continue
    algorithm, robot, library = b["run_name"].split("/")
    rows.setdefault((algorithm, robot), {})[library] = b["cpu_time"]
print(f"\n{'algorithm':<12} {'robot':<16} {'rmodel (ns)':>12} {'Pinocchio (ns)':>15} {'ratio':>7}")
for (algorithm, robot), t in rows.items():
    print(f"{algorithm:<12} {robot:<16} {t['rmodel']:>12.0f} {t['pinocchio']:>15.0f} {t['rmodel'] / t['pinocchio']:>7.2f}")
PY
