#!/bin/sh
# check-model.sh URDF SEMANTICS [OLD_URDF OLD_SEMANTICS]
# For CI: fails when the model is invalid, or when joint-state logs recorded with the old
# model would be misread with this one (the full pose changed order). Without OLD_URDF and
# OLD_SEMANTICS, the old model is the one at the merge base with origin/main (git).
set -eu
urdf=$1 semantics=$2
if [ $# -ge 4 ]; then
  old_urdf=$3 old_semantics=$4
else
  base=$(git merge-base origin/main HEAD)
  old_urdf=${TMPDIR:-/tmp}/main-$(basename "$urdf") old_semantics=${TMPDIR:-/tmp}/main-$(basename "$semantics")
  git show "$base:$urdf" > "$old_urdf"
  git show "$base:$semantics" > "$old_semantics"
fi
rmodel check --strict --urdf "$urdf" --semantics "$semantics"
rmodel diff "$old_urdf" "$urdf" --old-semantics "$old_semantics" --new-semantics "$semantics"
