#!/usr/bin/env bash
# Whether every independent implementation the test suite compares against is on this machine.
# Tests that need one skip with a message where it is absent, so that the suite runs anywhere;
# but a run that skips its oracles proves less than it seems to. scripts/test.sh (the README's
# test command, and CI) sets RMODEL_REQUIRE_ORACLES=1: there a missing oracle fails this test,
# naming what to install. Without it, this test reports what is missing and is skipped (77).
#
# Usage: oracles_available.sh [NAME=present|absent]...
#   The arguments are what CMake found at configure time (libraries a test links, such as
#   MuJoCo); commands are looked up here.
set -u
missing=()
need_command() {  # need_command COMMAND "what uses it" "the Debian package"
  command -v "$1" >/dev/null || missing+=("$1 (for $2; Debian package $3)")
}
need_command node "the xacro-parser and Foxglove oracle tests" "nodejs"
need_command npm "installing the npm oracles" "npm"
need_command groff "the man pages' roff lint" "groff-base"
need_command python3 "the README and man page examples" "python3"
need_command xmllint "the schema check of check -f junit" "libxml2-utils"
need_command pre-commit "running rmodel's pre-commit hook" "pre-commit"
need_command git "running rmodel's pre-commit hook" "git"
need_command slurmctld "the Slurm recipes' test (tests/slurm)" "slurmctld, with slurmd, slurm-client and munge"
python3 -c "import yaml" 2>/dev/null ||
  missing+=("python3's yaml module (for the checks of action.yml and .pre-commit-hooks.yaml; Debian package python3-yaml)")
for found in "$@"; do
  name=${found%%=*}
  [ "${found#*=}" = present ] || missing+=("$name (found by CMake at configure time: re-run cmake after installing it)")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "every oracle is present"
  exit 0
fi
printf 'missing: %s\n' "${missing[@]}"
if [ "${RMODEL_REQUIRE_ORACLES:-0}" = 1 ]; then
  echo "RMODEL_REQUIRE_ORACLES=1: the oracle tests would skip; run scripts/install-deps.sh" \
    "(or set RMODEL_REQUIRE_ORACLES=0 to let them skip)"
  exit 1
fi
exit 77
