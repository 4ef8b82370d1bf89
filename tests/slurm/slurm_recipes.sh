#!/usr/bin/env bash
# The Slurm recipes of share/rmodel/examples/slurm on a real Slurm: starts a one-node cluster
# of its own (munged, slurmctld, slurmd, with Debian's packages; every file, socket and port
# its own, in a temporary directory), runs the recipes there and compares what they write
# with one serial rmodel run, byte for byte:
#   - check-logs.sh: the example logs (some invalid) in a job array of 3 tasks, at most 2 at
#     once, then the reduce job: every report, summary.json and summary.txt are the serial
#     run's, the recipe prints summary.txt and exits 1 (a log is invalid);
#   - check-logs.sh with a model that does not exist: every task fails, the reduce job is
#     cancelled, and the recipe returns (exit 3) instead of waiting for ever;
#   - bags-to-mcap.sh: the ROS bags of the shared fixtures (when present) to MCAP with --tf,
#     in 2 tasks: every file is the serial run's.
# Then it cancels what is left, stops the daemons by the PIDs it started them with and
# removes the directory (RMODEL_SLURM_KEEP=1 keeps it). Skips (77), saying why, where Slurm
# is not installed, where it is not root (slurmd starts jobs as their user), or where the
# daemons do not come up. About 15 s: sbatch --wait looks at the jobs after 2 s, 10 s, 42 s.
#
# Usage: slurm_recipes.sh BIN_DIR SOURCE_DIR FIXTURES_DIR
set -u
bin=$(readlink -f "$1") src=$(readlink -f "$2") fixtures=$3
recipes=$src/share/rmodel/examples/slurm

skip() {
  echo "skipped: $*"
  exit 77
}
failures=0
fail() {
  echo "FAILED: $*"
  failures=$((failures + 1))
}

for command in munged munge slurmctld slurmd sbatch sinfo squeue scancel python3; do
  command -v "$command" >/dev/null ||
    skip "$command is not installed (Debian packages munge, slurmctld, slurmd, slurm-client; scripts/install-deps.sh)"
done
[ "$(id -u)" -eq 0 ] || skip "not root: slurmd starts each job as its user"

work=$(mktemp -d "${TMPDIR:-/tmp}/rmodel-slurm.XXXXXX") || exit 1
work=$(readlink -f "$work")
chmod 755 "$work"  # munged's socket must be reachable by every user
export SLURM_CONF=$work/slurm.conf PATH=$bin:$PATH
pids=()
started=()

show_logs() {
  for log in "$work"/*.log "$work"/*.out; do
    [ -f "$log" ] || continue
    echo "--- the end of $log"
    tail -n 15 "$log"
  done
}

# Stops what this script started: the jobs left (none when all went well), then the daemons
# in the reverse order, each by its PID (TERM, then KILL after 20 s).
stop_cluster() {
  if [ ${#pids[@]} -gt 2 ]; then
    timeout 20 scancel --quiet --user=root 2>/dev/null
    for _ in $(seq 40); do
      [ -z "$(timeout 10 squeue --noheader 2>/dev/null)" ] && break
      sleep 0.5
    done
  fi
  for ((i = ${#pids[@]} - 1; i >= 0; --i)); do
    pid=${pids[i]}
    kill -TERM "$pid" 2>/dev/null || continue
    for _ in $(seq 40); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.5
    done
    if kill -0 "$pid" 2>/dev/null; then
      echo "${started[i]} (PID $pid) did not stop on TERM: killed"
      kill -KILL "$pid" 2>/dev/null
    fi
    wait "$pid" 2>/dev/null
  done
  pids=()
}
cleanup() {
  stop_cluster
  if [ -n "${RMODEL_SLURM_KEEP-}" ]; then
    echo "RMODEL_SLURM_KEEP: kept $work"
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT
trap 'exit 143' TERM INT HUP

start() {  # start NAME COMMAND...: runs COMMAND in the background, output to $work/NAME.out
  local name=$1
  shift
  "$@" > "$work/$name.out" 2>&1 &
  pids+=($!)
  started+=("$name")
}

# munge: the credentials Slurm's daemons and commands sign their messages with.
mungekey --create --keyfile="$work/munge.key" > /dev/null 2>&1 ||
  dd if=/dev/urandom of="$work/munge.key" bs=1024 count=1 status=none
chmod 600 "$work/munge.key"
start munged munged --foreground --key-file="$work/munge.key" --socket="$work/munge.socket" \
  --pid-file="$work/munged.pid" --log-file="$work/munged.log" --seed-file="$work/munged.seed"
for _ in $(seq 40); do
  munge --socket="$work/munge.socket" --no-input > /dev/null 2>&1 && break
  kill -0 "${pids[0]}" 2>/dev/null || break  # munged gave up
  sleep 0.5
done
if ! munge --socket="$work/munge.socket" --no-input > /dev/null 2>&1; then
  show_logs
  skip "munged did not start here (its output is above)"
fi

# Two free ports for slurmctld and slurmd (another cluster on this machine keeps its own).
read -r ctld_port slurmd_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
host=$(hostname -s)
mkdir -p "$work/state" "$work/spool"
cat > "$SLURM_CONF" <<EOF
ClusterName=rmodeltest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge.socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/builtin
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
MinJobAge=600
NodeName=rmodel NodeAddr=127.0.0.1 NodeHostname=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=rmodel Nodes=rmodel Default=YES MaxTime=INFINITE State=UP
EOF
start slurmctld slurmctld -D -i -f "$SLURM_CONF"
start slurmd slurmd -D -N rmodel -f "$SLURM_CONF"
state=''
for _ in $(seq 120); do
  state=$(timeout 10 sinfo --noheader --nodes=rmodel --format=%T 2>/dev/null)
  [ "$state" = idle ] && break
  if ! kill -0 "${pids[1]}" 2>/dev/null || ! kill -0 "${pids[2]}" 2>/dev/null; then break; fi  # a daemon gave up
  sleep 0.5
done
if [ "$state" != idle ]; then
  show_logs
  skip "the one-node Slurm cluster did not come up here (node state '$state'; the daemons' logs are above)"
fi
echo "a one-node Slurm cluster is up after ${SECONDS} s (slurmctld on port $ctld_port, slurmd on $slurmd_port)"

cd "$work" || exit 1
# The example logs of the sample robot, one of them under a name with a space.
mkdir logs
for log in "$src"/share/rmodel/examples/*.jsonl; do cp "$log" logs/; done
mv logs/fl.jsonl "logs/front left.jsonl"
ls logs/*.jsonl > list.txt
mapfile -t logs < list.txt

# Usage errors: exit 2, a message, and nothing submitted.
mkdir not-empty empty-bags && touch not-empty/summary.json empty.txt
usage_error() {  # usage_error "WHAT IT SAYS" RECIPE ARGUMENTS...
  local says=$1
  shift
  "$recipes/$@" > usage.stdout 2> usage.stderr
  local status=$?
  [ "$status" -eq 2 ] && grep -qF -- "$says" usage.stderr ||
    fail "$*: exit $status, not 2 saying '$says': $(cat usage.stderr)"
}
usage_error "'not-empty' is not empty" check-logs.sh list.txt not-empty -- --sample
usage_error "'0' is not a whole number of at least 1" check-logs.sh --tasks 0 list.txt out-usage -- --sample
usage_error "'2x' is not a whole number of at least 1" check-logs.sh --max-parallel 2x list.txt out-usage -- --sample
usage_error "'empty.txt' names no log" check-logs.sh empty.txt out-usage -- --sample
usage_error "'--' goes before the options of check-log" check-logs.sh list.txt out-usage --sample
usage_error "'empty-bags' holds no .bag, .mcap or rosbag2 directory" bags-to-mcap.sh empty-bags mcap-usage
[ -z "$(squeue --noheader)" ] || fail "a usage error submitted a job: $(squeue)"

# A failing task: the recipe must not wait for ever for a reduce that cannot run. It runs
# beside the next one (the two share the node).
(timeout 240 "$recipes/check-logs.sh" --tasks 2 list.txt out-broken -- --urdf no-such.urdf \
  > broken.stdout 2> broken.stderr; echo $? > broken.status) &
broken=$!

# check-logs.sh against one serial run in the same directory (the summary names the reports).
rmodel check-log --sample -f json --output-dir "$work/out/reports" "${logs[@]}" 2> /dev/null
rmodel check-log --reduce "${logs[@]}" --output-dir "$work/out/reports" -f json -o "$work/out/summary.json"
rmodel check-log --reduce "${logs[@]}" --output-dir "$work/out/reports" -o "$work/out/summary.txt"
mv out serial
timeout 240 "$recipes/check-logs.sh" --tasks 3 --max-parallel 2 list.txt out -- --sample > check.stdout 2> check.stderr
status=$?
echo "check-logs.sh returned after ${SECONDS} s"
[ "$status" -eq 1 ] || fail "check-logs.sh: exit $status, not 1 (a log is invalid): $(cat check.stderr)"
cmp -s check.stdout serial/summary.txt || fail "check-logs.sh did not print the serial run's summary: $(cat check.stdout)"
for file in summary.json summary.txt; do
  cmp -s "out/$file" "serial/$file" || fail "check-logs.sh: $file differs from the serial run's"
done
[ "$(ls out/reports)" = "$(ls serial/reports)" ] || fail "check-logs.sh: reports $(ls out/reports | tr '\n' ' ')"
for report in serial/reports/*; do
  cmp -s "$report" "out/reports/${report##*/}" || fail "check-logs.sh: reports/${report##*/} differs from the serial run's"
done
tasks_run=$(ls out/slurm/check-*.out 2>/dev/null | wc -l)
[ "$tasks_run" -eq 3 ] || fail "check-logs.sh: $tasks_run array tasks wrote their output, not 3"
grep -Eq "^${#logs[@]} logs: [0-9]+ valid, [1-9][0-9]* invalid$" out/summary.txt ||
  fail "check-logs.sh: summary $(tail -n 1 out/summary.txt), not ${#logs[@]} logs with an invalid one"

# bags-to-mcap.sh: the fixtures' ROS 1 bags, MCAP files and rosbag2 directories.
robot=$fixtures/sweetie_bot_proto2
if [ -d "$fixtures/bags" ] && [ -f "$robot/sweetie_bot_proto2.urdf" ]; then
  mkdir bags
  for bag in greeting.bag hoof_wave.lz4.bag greeting.zstd.mcap hoof_wave.mcap greeting_db3 hoof_wave_db3; do
    ln -s "$fixtures/bags/$bag" bags/
  done
  ln -s "$fixtures/bags/greeting.truth.jsonl" bags/  # not a bag: left out
  model=(--urdf "$robot/sweetie_bot_proto2.urdf" --semantics "$robot/kinematic_chains.cpf")
  timeout 240 "$recipes/bags-to-mcap.sh" --tasks 2 bags mcap -- "${model[@]}" > bags.stdout 2> bags.stderr
  status=$?
  echo "bags-to-mcap.sh returned after ${SECONDS} s"
  [ "$status" -eq 0 ] || fail "bags-to-mcap.sh: exit $status: $(cat bags.stderr)"
  rmodel aggregate "${model[@]}" --tf -f mcap --output-dir serial-mcap bags/*.bag bags/*.mcap bags/*_db3 2> /dev/null
  [ "$(ls serial-mcap)" = "$(ls mcap | grep -v '^slurm$')" ] ||
    fail "bags-to-mcap.sh wrote $(ls mcap | tr '\n' ' '), the serial run $(ls serial-mcap | tr '\n' ' ')"
  [ "$(ls serial-mcap | wc -l)" -eq 6 ] || fail "the serial run converted $(ls serial-mcap | wc -l) bags, not 6"
  for file in serial-mcap/*; do
    cmp -s "$file" "mcap/${file##*/}" || fail "bags-to-mcap.sh: ${file##*/} differs from the serial run's"
  done
  [ "$(grep -c '^rmodel aggregate: shard [12]/2: ' bags.stdout)" -eq 2 ] ||
    fail "bags-to-mcap.sh did not print the two tasks' totals: $(cat bags.stdout)"
else
  echo "bags-to-mcap.sh not run: the shared fixtures ($fixtures) are absent"
fi

wait "$broken"
status=$(cat broken.status)
echo "check-logs.sh with a missing model returned after ${SECONDS} s"
[ "$status" -eq 3 ] || fail "check-logs.sh with a missing model: exit $status, not 3: $(cat broken.stderr)"
grep -q "the jobs did not finish" broken.stderr || fail "check-logs.sh with a missing model: $(cat broken.stderr)"
grep -q "no-such.urdf" out-broken/slurm/check-*_1.out || fail "the failed task's output does not say why"
[ ! -e out-broken/summary.json ] || fail "check-logs.sh with a missing model wrote a summary"

if [ "$failures" -gt 0 ]; then
  show_logs
  exit 1
fi
stop_cluster
echo "the recipes ran on Slurm and wrote what the serial runs write; the cluster stopped after ${SECONDS} s"
