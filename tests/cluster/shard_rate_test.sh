#!/usr/bin/env bash
# One rate budget for N shard processes: four `download --shard I/4
# --total-rate 20` processes started together against one mock, whose request
# log must never hold more than 20 + 4 requests in any one-second window
# (cluster_lib.sh, check_rate, states the tolerance), while still using most of
# the budget (the shards did run together).
# Usage: shard_rate_test.sh MGNIFY MOCK
MGNIFY=$1 MOCK=$2
source "$(dirname "$0")/cluster_lib.sh"

start_mock 20
M="$WORK/m.tsv"
list_manifest MGYS00000002 "$M" -g taxonomies.closed_reference.ssu
from=$(($(wc -l <"$WORK/requests.log") + 1))
shard_pids=()
for i in 1 2 3 4; do
  timeout 120 "$MGNIFY" download --manifest "$M" --shard "$i/4" --total-rate 20 --dir "$WORK/data" \
    >/dev/null 2>"$WORK/shard-$i.err" &
  shard_pids+=($!)
done
for pid in "${shard_pids[@]}"; do wait "$pid" || fail "a shard failed: $(cat "$WORK"/shard-*.err)"; done
check_rate 20 4 "$from" | tee "$WORK/rate.txt" || fail "the shards together went over the budget"
peak=$(sed 's/.*window: \([0-9]*\),.*/\1/' "$WORK/rate.txt")
[ "$peak" -ge 15 ] || fail "peak $peak: the shards did not share the budget (expected near 20)"
"$MGNIFY" verify --manifest "$M" --dir "$WORK/data" >/dev/null || fail "verify failed"
echo PASS
