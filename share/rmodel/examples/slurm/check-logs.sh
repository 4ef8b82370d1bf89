#!/usr/bin/env bash
# check-logs.sh [--tasks N] [--max-parallel M] [--no-wait] LIST OUTDIR [-- CHECK-LOG-OPTIONS...]
#
# Checks the joint-state logs LIST names (a path a line; blank lines ignored) on a Slurm
# cluster: a job array of N tasks (default: one per log, at most 100), task K running
#   rmodel check-log CHECK-LOG-OPTIONS -f json --output-dir OUTDIR/reports --shard K/N LOGS...
# at most M at once (sbatch --array=1-N%M), then a job that depends on them (afterok) and
# sums their reports up with `rmodel check-log --reduce`: OUTDIR/summary.json (per log: its
# verdict, message counts and problems by code; then the totals) and OUTDIR/summary.txt.
# It waits for that job (sbatch --wait), prints summary.txt, and exits
#   0  every log is valid
#   1  a log is invalid, or could not be read (summary.txt says which)
#   2  a usage error (nothing submitted)
#   3  the jobs did not finish: a task failed or was cancelled (OUTDIR/slurm/ has their output)
# With --no-wait it prints the two job ids and exits 0 once they are submitted.
#
# CHECK-LOG-OPTIONS name the model and the checks (--urdf robot.urdf --semantics robot.srdf,
# --sample, --dynamics, ...). The jobs run in this directory with this shell's environment
# (sbatch's default), so `rmodel` must be on PATH on the nodes, and LIST, OUTDIR, the logs and
# the model files on a file system every node sees. sbatch's own variables choose the rest:
# SBATCH_PARTITION, SBATCH_ACCOUNT, SBATCH_TIMELIMIT, ... OUTDIR must be new or empty: a report
# left by another run would be taken for this one's. Every task gets the whole list on rmodel's
# command line (its shard is chosen from all of them), which holds some ten thousand paths
# (`getconf ARG_MAX` bytes); split a longer list into several runs.
set -u

self=$(readlink -f "$0")

# In the jobs (the script submits itself): --task OUTDIR N -- OPTIONS..., --reduce OUTDIR.
if [ "${1-}" = --task ]; then
  outdir=$2 tasks=$3
  shift 4
  mapfile -t logs < "$outdir/logs.txt"
  rmodel check-log "$@" -f json --output-dir "$outdir/reports" --shard "$SLURM_ARRAY_TASK_ID/$tasks" "${logs[@]}"
  status=$?
  # 1: a log is invalid or could not be read, which the reduce tells; the task did its work.
  [ "$status" -le 1 ] && exit 0
  exit "$status"
fi
if [ "${1-}" = --reduce ]; then
  outdir=$2
  mapfile -t logs < "$outdir/logs.txt"
  rmodel check-log --reduce "${logs[@]}" --output-dir "$outdir/reports" -f json -o "$outdir/summary.json"
  status=$?
  rmodel check-log --reduce "${logs[@]}" --output-dir "$outdir/reports" -o "$outdir/summary.txt"
  exit "$status"
fi

usage() {
  echo "check-logs.sh: $1" >&2
  echo "usage: check-logs.sh [--tasks N] [--max-parallel M] [--no-wait] LIST OUTDIR [-- CHECK-LOG-OPTIONS...]" >&2
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
[ $# -ge 2 ] || usage "LIST and OUTDIR are needed"
list=$1 outdir=$2
shift 2
if [ $# -gt 0 ]; then
  [ "$1" = -- ] || usage "'--' goes before the options of check-log, not '$1'"
  shift
fi
for n in "$tasks" "$max_parallel"; do
  case $n in *[!0-9]* | 0*) usage "'$n' is not a whole number of at least 1" ;; esac
done
[ -r "$list" ] || usage "cannot read the list '$list'"
if [ -e "$outdir" ] && [ -n "$(ls -A "$outdir")" ]; then
  usage "'$outdir' is not empty: give a new directory (reports left there would count as this run's)"
fi
mkdir -p "$outdir/reports" "$outdir/slurm" || exit 2
outdir=$(readlink -f "$outdir")
# The tasks read this copy: a list edited after the submission would move logs between shards.
grep -v '^[[:space:]]*$' "$list" > "$outdir/logs.txt"
count=$(wc -l < "$outdir/logs.txt")
[ "$count" -gt 0 ] || usage "'$list' names no log"
[ -n "$tasks" ] || tasks=$((count < 100 ? count : 100))

array=$(sbatch --parsable --job-name=rmodel-check-logs --array="1-$tasks${max_parallel:+%$max_parallel}" \
  --output="$outdir/slurm/check-%A_%a.out" "$self" --task "$outdir" "$tasks" -- "$@") || exit 3
array=${array%%;*}
echo "check-logs.sh: job array $array: $count logs in $tasks tasks; reports in $outdir/reports" >&2
if [ -z "$wait" ]; then
  reduce=$(sbatch --parsable --job-name=rmodel-check-logs-reduce --dependency="afterok:$array" \
    --kill-on-invalid-dep=yes --output="$outdir/slurm/reduce-%j.out" "$self" --reduce "$outdir") || exit 3
  echo "check-logs.sh: job $reduce writes $outdir/summary.json once the array has run" >&2
  exit 0
fi
sbatch --parsable --wait --job-name=rmodel-check-logs-reduce --dependency="afterok:$array" \
  --kill-on-invalid-dep=yes --output="$outdir/slurm/reduce-%j.out" "$self" --reduce "$outdir" > /dev/null
status=$?
if [ ! -f "$outdir/summary.json" ] || [ ! -f "$outdir/summary.txt" ]; then
  echo "check-logs.sh: the jobs did not finish (a task failed or was cancelled): see $outdir/slurm/" >&2
  exit 3
fi
cat "$outdir/summary.txt"
[ "$status" -le 1 ] && exit "$status"
exit 3
