#!/usr/bin/env bash
# bags-to-mcap.sh [--tasks N] [--max-parallel M] [--no-wait] BAGDIR OUTDIR [-- AGGREGATE-OPTIONS...]
#
# Converts the robot logs of BAGDIR (ROS 1 bags *.bag, MCAP files *.mcap, rosbag2 directories
# holding a metadata.yaml; not its subdirectories' files) to MCAP files Foxglove replays as a
# moving robot, on a Slurm cluster: a job array of N tasks (default: one per log, at most
# 100), task K running
#   rmodel aggregate AGGREGATE-OPTIONS --tf -f mcap --output-dir OUTDIR --shard K/N LOGS...
# at most M at once (sbatch --array=1-N%M): OUTDIR/<log name>.mcap, the full sorted poses with
# the robot's frames on /tf and its model beside them. It waits for the array (sbatch --wait),
# prints each task's total, and exits
#   0  every log converted
#   1  a log was not: its messages were rejected in part, or it could not be read (the task's
#      output in OUTDIR/slurm/ says which and why)
#   2  a usage error (nothing submitted)
# With --no-wait it prints the array's job id and exits 0 once it is submitted.
#
# AGGREGATE-OPTIONS name the model (--urdf robot.urdf --semantics robot.srdf; none for logs
# that carry theirs on /robot_description) and the aggregator (--kind, --period, ...). The jobs
# run in this directory with this shell's environment (sbatch's default), so `rmodel` must be on
# PATH on the nodes, and BAGDIR, OUTDIR and the model files on a file system every node sees.
# sbatch's own variables choose the rest: SBATCH_PARTITION, SBATCH_ACCOUNT, SBATCH_TIMELIMIT, ...
set -u

self=$(readlink -f "$0")

# In the job array (the script submits itself): --task OUTDIR N -- OPTIONS...
if [ "${1-}" = --task ]; then
  outdir=$2 tasks=$3
  shift 4
  mapfile -t logs < "$outdir/slurm/logs.txt"
  exec rmodel aggregate "$@" --tf -f mcap --output-dir "$outdir" --shard "$SLURM_ARRAY_TASK_ID/$tasks" "${logs[@]}"
fi

usage() {
  echo "bags-to-mcap.sh: $1" >&2
  echo "usage: bags-to-mcap.sh [--tasks N] [--max-parallel M] [--no-wait] BAGDIR OUTDIR [-- AGGREGATE-OPTIONS...]" >&2
  exit 2
}
tasks='' max_parallel='' wait=1
while [ $# -gt 0 ]; do
  case $1 in
    --tasks) [ $# -ge 2 ] || usage "--tasks needs N"; tasks=$2; shift 2 ;;
    --max-parallel) [ $# -ge 2 ] || usage "--max-parallel needs M"; max_parallel=$2; shift 2 ;;
    --no-wait) wait=''; shift ;;
    -*) usage "unknown option '$1'" ;;
    *) break ;;
  esac
done
[ $# -ge 2 ] || usage "BAGDIR and OUTDIR are needed"
bagdir=$1 outdir=$2
shift 2
if [ $# -gt 0 ]; then
  [ "$1" = -- ] || usage "'--' goes before the options of aggregate, not '$1'"
  shift
fi
for n in "$tasks" "$max_parallel"; do
  case $n in *[!0-9]* | 0*) usage "'$n' is not a whole number of at least 1" ;; esac
done
[ -d "$bagdir" ] || usage "'$bagdir' is not a directory"
mkdir -p "$outdir/slurm" || exit 2
outdir=$(readlink -f "$outdir")
# The logs, named as BAGDIR names them; the tasks read this list, made once.
find -L "$bagdir" -mindepth 1 -maxdepth 1 \( -type f \( -name '*.bag' -o -name '*.mcap' \) -o \
  -type d -exec test -f '{}/metadata.yaml' ';' \) -print | LC_ALL=C sort > "$outdir/slurm/logs.txt"
count=$(wc -l < "$outdir/slurm/logs.txt")
[ "$count" -gt 0 ] || usage "'$bagdir' holds no .bag, .mcap or rosbag2 directory"
[ -n "$tasks" ] || tasks=$((count < 100 ? count : 100))

array=$(sbatch --parsable ${wait:+--wait} --job-name=rmodel-bags-to-mcap \
  --array="1-$tasks${max_parallel:+%$max_parallel}" --output="$outdir/slurm/aggregate-%A_%a.out" \
  "$self" --task "$outdir" "$tasks" -- "$@")
status=$?
array=${array%%;*}
[ -n "$array" ] || exit 2  # sbatch refused the job and said why
if [ -z "$wait" ]; then
  echo "bags-to-mcap.sh: job array $array: $count logs in $tasks tasks, written to $outdir" >&2
  exit 0
fi
# Each task's last line is its total: "rmodel aggregate: shard K/N: ... (F failed): read ...".
for k in $(seq "$tasks"); do
  out=$outdir/slurm/aggregate-${array}_$k.out
  [ -f "$out" ] && tail -n 1 "$out"
done
[ "$status" -eq 0 ] && exit 0
echo "bags-to-mcap.sh: a task failed (exit status $status): see $outdir/slurm/" >&2
exit 1
