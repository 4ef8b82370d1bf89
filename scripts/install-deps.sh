#!/usr/bin/env bash
# Debian 12 packages rmodel needs to build, test and benchmark.
set -euo pipefail
packages=(
  build-essential cmake pkg-config
  libcli11-dev liburdfdom-dev liborocos-kdl-dev libeigen3-dev libtinyxml2-dev
  nlohmann-json3-dev libfmt-dev libsimdjson-dev libyaml-cpp-dev
  libzstd-dev liblz4-dev libbz2-dev libsqlite3-dev
  # The collision plugin (lib/plugins/collision_plugin.cpp): FCL's collision checks, assimp's meshes.
  libfcl-dev libassimp-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  python3 jq gnuplot-nox liburdfdom-tools hyperfine parallel rsync
  # The test suite's oracles (tests/oracle/oracles_available.sh lists them): groff lints the
  # man pages; clang builds the sanitizer and fuzzing pass (scripts/test.sh); xmllint checks
  # check -f junit against its schema; python3-yaml, pre-commit and git run the CI files
  # (tests/ci/check_ci_files.py).
  # MuJoCo's compiler judges check's inertia rule (tests/oracle/test_mujoco_inertia_oracle.cpp),
  # and its collision code the collision checks (tests/oracle/test_mujoco_collision_oracle.cpp);
  # with kdl_parser and sdformat, it judges check --target (tests/oracle/test_*_targets_oracle.cpp).
  groff-base clang libclang-rt-14-dev libxml2-utils python3-yaml pre-commit git libmujoco-dev
  libkdl-parser-dev libsdformat-dev
  # A one-node Slurm cluster runs the recipes of share/rmodel/examples/slurm (tests/slurm).
  slurmctld slurmd slurm-client munge
  # The Python module (python/, built with Debian's pybind11 for Debian's python3) and its
  # tests (pytest, numpy); matplotlib draws the README's Python example's plot.
  pybind11-dev python3-dev python3-numpy python3-pytest python3-matplotlib
)
# Node.js and npm run the npm oracles (xacro-parser, Foxglove's MCAP and CDR readers): Debian's,
# unless the machine has its own node already (two installations would shadow each other).
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  packages+=(nodejs npm)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
