# Shared by the cluster tests (tests/cluster/*.sh): a temporary folder, the
# mock service with a request log, a manifest listed from it, the rate check,
# and a single-node Slurm cluster. Sourced, never run. Every wait is bounded,
# and everything started here is stopped by process id when the test exits.
#
# The caller sets MGNIFY (the CLI) and MOCK (mgnify-mock) and sources this file.

set -euo pipefail

# ctest's SKIP_RETURN_CODE for these tests.
readonly SKIP=77

WORK="$(mktemp -d "${TMPDIR:-/tmp}/mgnify-cluster.XXXXXX")"
PIDS=()

cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${PIDS[@]}"; do
    # Bounded: ten seconds per process, then SIGKILL.
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  if [ -z "${KEEP_WORK:-}" ]; then rm -rf "$WORK"; else echo "kept $WORK" >&2; fi
}
trap cleanup EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

skip() {
  echo "SKIPPED: $*" >&2
  exit "$SKIP"
}

# wait_for SECONDS COMMAND...: polls every 0.1 s until COMMAND succeeds.
wait_for() {
  local seconds=$1
  shift
  local tries=$((seconds * 10))
  for _ in $(seq "$tries"); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.1
  done
  return 1
}

# start_mock LATENCY_MS: the mock on an ephemeral port, its requests logged to
# $WORK/requests.log; exports the three base URLs the CLI reads.
# MOCK_FILE_RATE, when set, is the bytes per second of each file transfer.
start_mock() {
  local latency=${1:-0}
  : >"$WORK/requests.log"
  "$MOCK" --latency-ms "$latency" --file-rate "${MOCK_FILE_RATE:-0}" --request-log "$WORK/requests.log" \
    >"$WORK/mock.urls" 2>"$WORK/mock.err" &
  PIDS+=($!)
  wait_for 20 grep -q '^v2 ' "$WORK/mock.urls" || fail "the mock did not start: $(cat "$WORK/mock.err")"
  MGNIFY_PROTEINS_URL="$(awk '$1 == "proteins" {print $2}' "$WORK/mock.urls")"
  MGNIFY_API_V1_URL="$(awk '$1 == "v1" {print $2}' "$WORK/mock.urls")"
  MGNIFY_API_V2_URL="$(awk '$1 == "v2" {print $2}' "$WORK/mock.urls")"
  export MGNIFY_PROTEINS_URL MGNIFY_API_V1_URL MGNIFY_API_V2_URL
}

# requests_since LINE: the request log from that line on (1-based).
requests_since() {
  tail -n "+$1" "$WORK/requests.log"
}

# check_rate BUDGET SHARDS [FROM_LINE]: no one-second window of the request
# log (sliding, at every request) holds more than BUDGET + SHARDS requests.
# The N extra are the stated tolerance: each shard's token bucket holds one
# token (burst 1) when it starts, so N processes starting together may each
# send one request before pacing begins; past that the sum of the N rates is
# BUDGET. Prints the peak.
check_rate() {
  local budget=$1 shards=$2 from=${3:-1}
  requests_since "$from" | python3 -c '
import sys
budget, shards = float(sys.argv[1]), int(sys.argv[2])
times = sorted(int(line.split("\t")[0]) for line in sys.stdin if line.strip())
peak, first = 0, 0
for last, t in enumerate(times):
    while times[first] <= t - 1_000_000:
        first += 1
    peak = max(peak, last - first + 1)
print(f"requests: {len(times)}, peak in any 1 s window: {peak}, budget {budget:g} + {shards} shards")
sys.exit(0 if peak <= budget + shards else 1)
' "$budget" "$shards"
}

# list_manifest STUDY OUT [OPTIONS...]: the study's V6 files as a manifest,
# from the mock (unpaced: setting up, not under test).
list_manifest() {
  local study=$1 out=$2
  shift 2
  "$MGNIFY" --rate-limit 0 --format tsv downloads "$study" -p V6 "$@" --manifest "$out" >/dev/null
}

# file_requests FROM_LINE: GETs of result files (not of API pages) from that line of the log on.
file_requests() {
  requests_since "$1" | awk -F'\t' '$2 == "GET" && $3 ~ /^\/pub\//' || true
}

# free_port_pair: a port P such that P and P + 1 can both be bound on
# 127.0.0.1 now, in 20000-39999 (away from Slurm's defaults and the
# ephemeral range). Twenty random tries at most.
free_port_pair() {
  python3 -c '
import random, socket, sys
for _ in range(20):
    port = random.randrange(20000, 39999)
    held = []
    try:
        for p in (port, port + 1):
            s = socket.socket()
            held.append(s)
            s.bind(("127.0.0.1", p))
    except OSError:
        continue
    finally:
        for s in held:
            s.close()
    print(port)
    sys.exit(0)
sys.exit(1)
'
}

# start_slurm: slurmctld and slurmd of a one-node cluster in $WORK/slurm, with
# munged on its own key and socket, on ports that are not Slurm's defaults.
# SLURM_CPUS, when set, declares that many CPUs (task slots) on the node.
# Skips (exit 77) with the reason when a daemon cannot start here.
start_slurm() {
  local dir="$WORK/slurm"
  mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
  for tool in munged slurmctld slurmd sbatch scontrol sinfo; do
    command -v "$tool" >/dev/null || skip "$tool is not installed (Debian: slurm-wlm, munge)"
  done
  [ "$(id -u)" -eq 0 ] || skip "a one-node Slurm cluster needs root here (slurmd runs jobs as their user)"
  chmod 700 "$dir/munge"
  head -c 1024 /dev/urandom >"$dir/munge/munge.key"
  chmod 400 "$dir/munge/munge.key"
  munged --foreground --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.sock" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
    --seed-file="$dir/munge/munged.seed" 2>"$dir/munge/munged.err" &
  PIDS+=($!)
  wait_for 10 test -S "$dir/munge/munge.sock" || skip "munged did not start: $(tail -3 "$dir/munge/munged.err" "$dir/munge/munged.log" 2>/dev/null)"

  # Two clusters may run at once (ctest runs two of these tests side by side):
  # each takes a pair of ports that were free when it started.
  local port
  port="$(free_port_pair)" || skip "no two free consecutive ports found for slurmctld and slurmd"
  local node
  node="$(slurmd -C 2>/dev/null | head -1 | sed 's/ UpTime=.*//')"
  [ -n "$node" ] || skip "slurmd -C cannot describe this machine"
  local overrides=""
  if [ -n "${SLURM_CPUS:-}" ]; then
    # More task slots than cores, for jobs that wait on the network (the benchmark).
    node="$(printf '%s\n' "$node" | awk '{print $1}') CPUs=$SLURM_CPUS"
    overrides="SlurmdParameters=config_overrides"
  fi
  cat >"$dir/slurm.conf" <<CONF
ClusterName=mgnifytest
SlurmctldHost=$(hostname -s)(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SlurmdTimeout=30
MaxArraySize=10001
# sbatch --wait polls after 2 s, then every 8, then every 32 s while those stay
# under MinJobAge / 2: at the default (300 s) it sees a job up to 32 s after it
# ended. At 4 it polls every 2 s, and a finished job (every task of an array)
# stays listed for at least 4 s, so each poll still sees the ones that ended
# since the last. SLURM_MIN_JOB_AGE, when set, replaces it: Snakemake asks
# for a job's state every 10 s or more, and without accounting (sacct) a job
# the controller has forgotten cannot be told from a failed one.
MinJobAge=${SLURM_MIN_JOB_AGE:-4}
$overrides
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=60 State=UP
CONF
  export SLURM_CONF="$dir/slurm.conf"
  slurmctld -D -i -f "$SLURM_CONF" >"$dir/slurmctld.out" 2>&1 &
  PIDS+=($!)
  slurmd -D -f "$SLURM_CONF" >"$dir/slurmd.out" 2>&1 &
  PIDS+=($!)
  if ! wait_for 30 sh -c 'sinfo -h -o %T 2>/dev/null | grep -Eq "^(idle|mixed|allocated)"'; then
    skip "the one-node Slurm cluster did not come up: $(tail -3 "$dir/slurmd.log" "$dir/slurmd.out" "$dir/slurmctld.log" 2>/dev/null | tr '\n' ' ')"
  fi
}

# complete_files DIR: the downloaded files (accession/alias) under DIR, no
# .part or validator files, no result logs, locks or response cache.
complete_files() {
  (cd "$1" && find . -type f ! -name '*.part' ! -name '*.validator' ! -path './.mgnify-results/*' \
    ! -path './.mgnify-cache/*' |
    sed 's|^\./||' | sort)
}

# result_log DIR MANIFEST NAME: the result log `download --manifest MANIFEST`
# keeps in DIR for NAME (shard-I-of-N, or all without --shard): its folder is
# named by the manifest's file name and a hash of its path.
result_log() {
  local stem found
  stem="$(basename "$2")"
  stem="${stem%.*}"
  found="$(find "$1/.mgnify-results" -mindepth 2 -maxdepth 2 -path "*/$stem-*/$3.tsv" 2>/dev/null | head -1)"
  [ -n "$found" ] || { echo "$1/.mgnify-results/$stem-?/$3.tsv"; return 1; }
  echo "$found"
}

# fetched_paths FROM_LINE: the URL paths of the files requested from that
# line of the request log on, sorted, one line per request. Several rows may
# share a URL (analyses of one run), so requests are compared with rows by
# their URLs, as multisets.
fetched_paths() {
  file_requests "$1" | awk -F'\t' '{sub(/\?.*/, "", $3); print $3}' | sort
}

# row_paths MANIFEST: the URL path of each row named on stdin (accession/alias), sorted.
row_paths() {
  python3 -c '
import csv, sys, urllib.parse
by_row = {r["accession"] + "/" + r["alias"]: urllib.parse.urlsplit(r["url"]).path
          for r in csv.DictReader(open(sys.argv[1]), delimiter="\t")}
print("\n".join(sorted(by_row[line.strip()] for line in sys.stdin if line.strip())))
' "$1" | sed '/^$/d'
}

# victim_with_part: "PID PART" of a `download --shard` process of this test
# (its .part files are in $WORK/data) that has a non-empty .part file open,
# left stopped (SIGSTOP) for the caller to kill: a file takes a fraction of a
# second, and on a busy machine a running process could finish it between this
# look and the kill. A process that finished it before it stopped is let go on.
victim_with_part() {
  local pid fd target
  for pid in $(ps -e -o pid=,args= | awk -v m="$MGNIFY" '$2 == m && / download --manifest / {print $1}'); do
    grep -q -- '--shard' "/proc/$pid/cmdline" 2>/dev/null || continue
    for fd in /proc/"$pid"/fd/*; do
      target="$(readlink "$fd" 2>/dev/null)" || continue
      case "$target" in
        "$WORK"/data/*.part)
          [ -s "$target" ] || continue
          kill -STOP "$pid" 2>/dev/null || continue
          if [ -s "$target" ] && [ "$(readlink "$fd" 2>/dev/null)" = "$target" ]; then
            echo "$pid $target"
            return 0
          fi
          kill -CONT "$pid" 2>/dev/null || true
          ;;
      esac
    done
  done
  return 1
}

# find_victim WATCHED_PID: waits (60 s at most, while WATCHED_PID runs) until
# the shards have finished 20 files between them, so that the victim has
# finished files to keep as well as a half-written one, then prints
# victim_with_part's answer.
find_victim() {
  local watched=$1 found
  for _ in $(seq 600); do
    if [ "$(complete_files "$WORK/data" 2>/dev/null | wc -l)" -ge 20 ]; then
      found="$(victim_with_part)" && { echo "$found"; return 0; }
    fi
    kill -0 "$watched" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

# check_rerun MANIFEST RESULTS BEFORE PARTIAL MARK KILLED_RESULTS: after a
# shard was killed and rerun, the requests from line MARK of the log on are
# exactly the shard's files that were not complete (listed in BEFORE) when it
# was killed and its complete ones that the manifest cannot verify (no
# checksum, no size) and that the killed shard's result manifest, as the kill
# left it (KILLED_RESULTS, one row appended per finished file), does not
# vouch for; the half-written PARTIAL was resumed or fetched again, never
# kept; every other file of the shard is `present` in its result manifest RESULTS.
check_rerun() {
  local m=$1 r=$2 before=$3 partial=$4 mark=$5 killed=$6
  awk -F'\t' 'NR > 1 {print $1 "/" $2}' "$r" | sort >"$WORK/shard.txt"
  grep -qx "$partial" "$WORK/shard.txt" || fail "$partial is not in $r"
  awk -F'\t' 'NR > 1 && $10 == "" && $11 == "" {print $1 "/" $2}' "$m" | sort >"$WORK/unverifiable.txt"
  awk -F'\t' 'NR > 1 && ($4 == "downloaded" || $4 == "resumed" || $4 == "present") && $7 != "" {
    print $1 "/" $2}' "$killed" | sort >"$WORK/recorded.txt"
  comm -12 "$WORK/shard.txt" "$before" | comm -12 - "$WORK/unverifiable.txt" |
    comm -23 - "$WORK/recorded.txt" >"$WORK/refetched.txt"
  comm -12 "$WORK/shard.txt" "$before" | comm -23 - "$WORK/refetched.txt" >"$WORK/kept.txt"
  { comm -23 "$WORK/shard.txt" "$before"; cat "$WORK/refetched.txt"; } | row_paths "$m" >"$WORK/expected.txt"
  fetched_paths "$mark" >"$WORK/fetched.txt"
  echo "rerun: the shard has $(wc -l <"$WORK/shard.txt") files, $(wc -l <"$WORK/kept.txt") complete" \
    "ones were kept ($(comm -12 "$WORK/kept.txt" "$WORK/unverifiable.txt" | wc -l) unverifiable, by" \
    "the killed shard's rows), $(wc -l <"$WORK/refetched.txt") unverifiable ones fetched again," \
    "$(wc -l <"$WORK/fetched.txt") requests"
  [ -s "$WORK/kept.txt" ] || fail "no file of the shard was complete when it was killed"
  diff "$WORK/expected.txt" "$WORK/fetched.txt" >&2 || fail "the rerun fetched other files than the shard's remaining ones"
  local status present
  status="$(awk -F'\t' -v f="$partial" 'NR > 1 && $1 "/" $2 == f {print $4}' "$r")"
  case "$status" in
    resumed | downloaded) echo "the half-written $partial was $status" ;;
    *) fail "the half-written $partial has status '$status' after the rerun" ;;
  esac
  present=$(awk -F'\t' 'NR > 1 && $4 == "present"' "$r" | wc -l)
  [ "$present" -eq "$(wc -l <"$WORK/kept.txt")" ] || fail "$present present, not the $(wc -l <"$WORK/kept.txt") kept files"
}
