#!/usr/bin/env bash
# Issue 33's measurement: a manifest of 1,000 files from the mock (20 ms added
# latency) downloaded by a Slurm array of N shards on a one-node cluster
# started here, against one process with the same total budget: wall time,
# requests per second the mock saw (mean and peak one-second window), peak
# memory (RSS) per process. Prints a Markdown table for BENCHMARKS.md.
# Usage: bench/cluster_bench.sh MGNIFY MOCK [FILES=1000] [RATE=40] [SHARDS=4]
MGNIFY=$(realpath "$1") MOCK=$(realpath "$2")
FILES=${3:-1000} RATE=${4:-40} SHARDS=${5:-4}
SRC="$(cd "$(dirname "$0")/.." && pwd)"
source "$SRC/tests/cluster/cluster_lib.sh"
command -v /usr/bin/time >/dev/null || skip "/usr/bin/time is not installed (Debian: time)"

# One slot per shard: downloads wait on the network, not on the cores.
SLURM_CPUS=$SHARDS start_slurm
start_mock 20
cd "$WORK"
for study in MGYS00000002 MGYS00000004; do list_manifest "$study" "$study.tsv"; done
awk -v max="$FILES" 'FNR == 1 && NR != 1 { next } n++ <= max { print }' MGYS00000002.tsv MGYS00000004.tsv >m.tsv
rows=$(($(wc -l <m.tsv) - 1))

# rate_stats FROM TO: mean and peak requests per second of log lines FROM..TO.
rate_stats() {
  sed -n "$1,$2p" requests.log | python3 -c '
import sys
t = sorted(int(l.split("\t")[0]) for l in sys.stdin if l.strip())
peak, first = 0, 0
for last, x in enumerate(t):
    while t[first] <= x - 1_000_000:
        first += 1
    peak = max(peak, last - first + 1)
span = (t[-1] - t[0]) / 1e6
print(f"{len(t) / span:.1f} {peak}")'
}

from=$(($(wc -l <requests.log) + 1))
start=$(date +%s.%N)
/usr/bin/time -f %M -o single.rss "$MGNIFY" --rate-limit "$RATE" download --manifest m.tsv \
  --dir single >/dev/null
single_wall=$(echo "$(date +%s.%N) - $start" | bc)
read -r single_mean single_peak < <(rate_stats "$from" "$(wc -l <requests.log)")

cat >task.sh <<TASK
#!/usr/bin/env bash
exec /usr/bin/time -f %M -o "shard-\$SLURM_ARRAY_TASK_ID.rss" "$MGNIFY" download --manifest m.tsv \
  --dir sharded --shard slurm --total-rate $RATE
TASK
from=$(($(wc -l <requests.log) + 1))
start=$(date +%s.%N)
timeout 900 sbatch --array=1-"$SHARDS" --wait -o /dev/null task.sh >/dev/null || fail "array failed"
sharded_wall=$(echo "$(date +%s.%N) - $start" | bc)
read -r sharded_mean sharded_peak < <(rate_stats "$from" "$(wc -l <requests.log)")
"$MGNIFY" verify --manifest m.tsv --dir sharded >/dev/null 2>&1 || fail "verify failed"
rss=$(cat shard-*.rss | sort -n | tr '\n' ' ')

echo "| $rows files, 20 ms, budget $RATE req/s | one process, --rate-limit $RATE | $(printf %.1f "$single_wall") s | mean $single_mean req/s, peak $single_peak in 1 s | peak RSS $(($(cat single.rss) / 1024)) MB |"
echo "|  | Slurm array of $SHARDS shards, --total-rate $RATE | $(printf %.1f "$sharded_wall") s | mean $sharded_mean req/s, peak $sharded_peak in 1 s | peak RSS per shard (kB): $rss|"
