#!/usr/bin/env bash
# ctest collision_oracles: `rmodel collisions` against the collision matrices MoveIt's Setup
# Assistant wrote in public MoveIt configurations (scripts/collision-oracles.py), in the
# directory RMODEL_COLLISION_ORACLES names: moveit_resources and the ros-industrial robot support
# repositories, with their meshes, as their repositories keep them (CI has no network: skipped
# when the variable is unset). The bounds are below what the 37 configurations of those
# repositories give (docs/design.md, "Self-collision": 93.7 % of the pairs agree, the Adjacent
# pairs are equal in 36), so that a change that breaks the matrix fails here.
#   collision_oracles.sh RMODEL SCRIPT
set -u
if [ -z "${RMODEL_COLLISION_ORACLES:-}" ]; then
  echo "RMODEL_COLLISION_ORACLES is not set: no MoveIt configurations to compare with (skipped)"
  exit 77
fi
if [ ! -d "$RMODEL_COLLISION_ORACLES" ]; then
  echo "RMODEL_COLLISION_ORACLES=$RMODEL_COLLISION_ORACLES is not a directory"
  exit 1
fi
exec python3 "$2" "$RMODEL_COLLISION_ORACLES" --rmodel "$1" --min-agreement 0.9 --min-adjacent-equal 0.9
