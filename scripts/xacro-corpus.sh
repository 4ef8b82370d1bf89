#!/bin/sh
# Expands the robot xacros of ROS packages with ROS's real xacro and with `rmodel xacro`, and
# compares them (tests/oracle/xacro_ros/compare.py): every `*.xacro` whose root is <robot>,
# below each DIR, with every DIR as a package path (its own first), and the expansions an
# --args-file lists. The packages stay where they are; nothing is copied here.
#
#   scripts/xacro-corpus.sh [--rmodel BIN] [--xacro-src DIR] [--args-file FILE] DIR...
#
# BIN defaults to build/bin/rmodel, DIR (a checkout of ros/xacro, branch ros2) to
# $RMODEL_XACRO_SRC. Prints each difference and a count per DIR; exits 1 if any differs.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
rmodel="$here/build/bin/rmodel"
xacro_src="${RMODEL_XACRO_SRC:-}"
args_file=""
while [ $# -gt 0 ]; do
  case "$1" in
    --rmodel) rmodel=$2; shift 2 ;;
    --xacro-src) xacro_src=$2; shift 2 ;;
    --args-file) args_file=$2; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || { echo "usage: $0 [--rmodel BIN] [--xacro-src DIR] [--args-file FILE] DIR..." >&2; exit 2; }
[ -n "$xacro_src" ] || { echo "$0: give --xacro-src DIR or RMODEL_XACRO_SRC (a checkout of ros/xacro, branch ros2)" >&2; exit 2; }
compare() {  # compare LABEL ARGS...: one compare.py run, its count labelled
  label=$1
  shift
  if python3 "$here/tests/oracle/xacro_ros/compare.py" --quiet --rmodel "$rmodel" --xacro-src "$xacro_src" "$@" >"$out"; then
    result=0
  else
    result=$?
  fi
  sed "s|^\([0-9]* of [0-9]* agree\)|$label: \1|" "$out"
  [ "$result" -eq 0 ] || status=1
}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
status=0
for dir in "$@"; do
  paths="--package-path $dir"
  for other in "$@"; do [ "$other" = "$dir" ] || paths="$paths --package-path $other"; done
  # shellcheck disable=SC2086
  compare "$dir" $paths "$dir"
done
if [ -n "$args_file" ]; then
  paths=""
  for dir in "$@"; do paths="$paths --package-path $dir"; done
  # shellcheck disable=SC2086
  compare "$args_file" $paths --args-file "$args_file"
fi
exit $status
