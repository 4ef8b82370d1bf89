#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) and runs each for a given time.
#
#   scripts/fuzz.sh [-t SECONDS] [-j PARALLEL] [TARGET...]     (default: 60 s, nproc, all)
#
# Targets: one per tests/fuzz/fuzz_<target>.cpp (urdf, cpf, srdf, jsonl, mcap, ...; the
# list is read from those files, as tests/fuzz/CMakeLists.txt does).
# Corpora start from tests/fuzz/seeds/<target>, the kept findings of
# tests/fuzz/regressions/<target> and, when ../shared/fixtures is present, the fixture files
# of that kind (copied into the build directory, never into the
# repository). Working corpora and findings stay in $BUILD_DIR (default build-fuzz):
# corpus/<target>/ grows run after run, findings/<target>/ holds crashing inputs. Keep each
# finding, once fixed, in tests/fuzz/regressions/<target>/: ctest replays them.
#
# Prints, per target: executions, executions per second, edges covered (of those
# instrumented in the program), features, corpus size and findings. Exit 1 on any finding.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=60
PARALLEL=$(nproc)
while getopts "t:j:h" option; do
  case $option in
    t) SECONDS_PER_TARGET=$OPTARG ;;
    j) PARALLEL=$OPTARG ;;
    *) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
# Every fuzz_<target>.cpp is a target: a new reader's fuzz file needs no line here.
ALL_TARGETS=()
for source in tests/fuzz/fuzz_*.cpp; do
  target=${source##*/fuzz_}
  ALL_TARGETS+=("${target%.cpp}")
done
TARGETS=("${@:-${ALL_TARGETS[@]}}")
BUILD_DIR=${BUILD_DIR:-build-fuzz}
FIXTURES=${RMODEL_FIXTURES_DIR:-../shared/fixtures}

command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ is missing (apt-get install clang)" >&2; exit 2; }
# A build directory configured for fuzzing already (scripts/test.sh's sanitizer build) is used
# as it is: configuring it again with other flags would rebuild it.
if ! grep -qs '^RMODEL_FUZZ:BOOL=ON$' "$BUILD_DIR/CMakeCache.txt"; then
  cmake -S . -B "$BUILD_DIR" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DRMODEL_FUZZ=ON -DRMODEL_BUILD_BENCH=OFF >"$BUILD_DIR.configure.log" 2>&1 ||
    { cat "$BUILD_DIR.configure.log" >&2; exit 2; }
fi
cmake --build "$BUILD_DIR" -j"$(nproc)" --target "${TARGETS[@]/#/fuzz_}"

dictionary_of() {
  case $1 in
    urdf|cpf|srdf) echo tests/fuzz/dict/xml.dict ;;
    xacro) echo tests/fuzz/dict/xacro.dict ;;
    csv) echo tests/fuzz/dict/csv.dict ;;
    mcap|rosbag1|db3) echo tests/fuzz/dict/roslog.dict ;;
    ros_yaml) echo tests/fuzz/dict/ros_yaml.dict ;;
    rostopic_csv) echo tests/fuzz/dict/rostopic_csv.dict ;;
    *) echo tests/fuzz/dict/json.dict ;;
  esac
}

# Fixture files of each target's kind, as extra seeds.
fixture_seeds() {
  local target=$1 dir=$BUILD_DIR/fixture-seeds/$1
  rm -rf "$dir" && mkdir -p "$dir"
  [ -d "$FIXTURES" ] || return 0
  case $target in
    urdf) find "$FIXTURES" -name '*.urdf' -exec cp {} "$dir" \; ;;
    srdf) find "$FIXTURES" -name '*.srdf' -exec cp {} "$dir" \; ;;
    cpf) find "$FIXTURES" -name '*.cpf' -exec cp {} "$dir" \; ;;
    xacro) find "$FIXTURES" -name '*.xacro' -size -64k -exec cp {} "$dir" \; ;;
    json) cp "$FIXTURES"/sweetie_bot_proto2/joint_state/*.json "$dir" ;;
    trajectory) cp "$FIXTURES"/sweetie_bot_proto2/joint_trajectories/*.json "$dir" ;;
    mcap) find "$FIXTURES" -name '*.mcap' -size -64k -exec cp {} "$dir" \; ;;
    rosbag1) find "$FIXTURES" -name '*.bag' -size -64k -exec cp {} "$dir" \; ;;
  esac
}

run_one() {
  local target=$1
  local corpus=$BUILD_DIR/corpus/$target findings=$BUILD_DIR/findings/$target/
  mkdir -p "$corpus" "$findings" "$BUILD_DIR/logs"
  fixture_seeds "$target"
  # -timeout: an input taking over 10 s is a hang; -rss_limit_mb bounds memory per input.
  # The kept findings start the run too: a fix that regressed is found at once.
  local regressions=()
  [ -d "tests/fuzz/regressions/$target" ] && regressions=("tests/fuzz/regressions/$target")
  nice -n 10 "$BUILD_DIR/fuzz/fuzz_$target" "$corpus" "tests/fuzz/seeds/$target" "$BUILD_DIR/fixture-seeds/$target" \
    "${regressions[@]}" \
    -dict="$(dictionary_of "$target")" -max_total_time="$SECONDS_PER_TARGET" -timeout=10 \
    -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1 -artifact_prefix="$findings" \
    >"$BUILD_DIR/logs/$target.log" 2>&1 || true
}
export -f run_one fixture_seeds dictionary_of
export BUILD_DIR FIXTURES SECONDS_PER_TARGET

echo "fuzzing ${TARGETS[*]} for ${SECONDS_PER_TARGET} s each, $PARALLEL at a time" >&2
printf '%s\n' "${TARGETS[@]}" | xargs -P "$PARALLEL" -I{} bash -c 'run_one {}'

status=0
printf '%-15s %12s %9s %15s %9s %8s %9s\n' target executions exec/s "edges covered" features corpus findings
for target in "${TARGETS[@]}"; do
  log=$BUILD_DIR/logs/$target.log
  [ -f "$log" ] || { echo "$target: no log" >&2; status=1; continue; }
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  edges=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2 || true)
  total=$(sed -n 's/^INFO: Loaded [0-9]* modules *(\([0-9]*\) inline 8-bit counters).*/\1/p' "$log" | head -1)
  features=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2 || true)
  corpus=$(find "$BUILD_DIR/corpus/$target" -type f | wc -l)
  found=$(find "$BUILD_DIR/findings/$target" -type f | wc -l)
  printf '%-15s %12s %9s %15s %9s %8s %9s\n' "$target" "${execs:-?}" "${rate:-?}" "${edges:-?}/${total:-?}" \
    "${features:-?}" "$corpus" "$found"
  if [ "$found" -gt 0 ] || grep -q '^==[0-9]*==ERROR\|^SUMMARY\|fuzz finding' "$log"; then
    echo "  $target: findings in $BUILD_DIR/findings/$target (log: $log)" >&2
    # A finding kept from an earlier run leaves this run's log without an error: no match is
    # no reason to stop before the other targets' rows.
    { grep -A30 '^==[0-9]*==ERROR\|fuzz finding\|^SUMMARY' "$log" || true; } | head -60 >&2
    status=1
  fi
done
exit $status
