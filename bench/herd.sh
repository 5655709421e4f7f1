#!/usr/bin/env bash
# Live delivery under a herd (chat.buzz.bench.live.HerdBenchmark): a fresh packaged relay in local mode
# (embedded PostgreSQL, sync gate on); a channel seeded with <artifacts> artifacts through the API; <live>
# WebSocket subscribers of another channel timing every frame of 10 writes/s into it (open loop), for a
# <baseline> s baseline, then while <herd> subscribers with fresh keys connect (<HERD_AT_ONCE>, 200, between
# connect and EOSE at a time; 0 for all at once), AUTH and REQ a sync subscription of the seeded channel,
# each to EOSE. Prints live write-to-frame p50/p99 before and during the herd, their ratio, and the herd's
# own progress and CPU. Exits 1 when a live subscriber missed a frame or a member of the herd was lost or
# short of its snapshot. Results: docs/benchmarks.md; the relay's log is left in benchmark/target/herd-relay.log.
# Every subscriber connects from 127.0.0.1: the relay's per-address caps are raised for this relay only
# (bench_admit_subscribers); its instance-wide cap on connections waiting to authenticate (1,000) is not.
# Usage: bench/herd.sh [herd=2000] [baseline=20] [artifacts=200] [live=5]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
herd=${1:-2000}
baseline=${2:-20}
artifacts=${3:-200}
live=${4:-5}
at_once=${HERD_AT_ONCE:-200}
window=$(( at_once > 0 && at_once < herd ? at_once : herd ))
bench_begin herd
bench_open_files $(( herd + live + 4096 ))
bench_package relay
bench_start_relay BUZZ_ARTIFACT_SYNC_ENABLED=true \
  JAVA_TOOL_OPTIONS="-Xmx512m $(bench_admit_subscribers $(( herd + live )) "$window")"
echo "relay pid $RELAY_PID on 127.0.0.1:$RELAY_PORT (PostgreSQL $RELAY_PG_PORT), -Xmx512m"
status=0
bench_java -Xmx1g chat.buzz.bench.live.HerdBenchmark --url "http://127.0.0.1:$RELAY_PORT" --relay-pid "$RELAY_PID" \
  --jdbc "jdbc:postgresql://127.0.0.1:$RELAY_PG_PORT/postgres?user=postgres" --herd "$herd" \
  --baseline-seconds "$baseline" --artifacts "$artifacts" --live "$live" --at-once "$at_once" || status=$?
cp "$RELAY_DIR/relay.log" "$BENCH_ROOT/benchmark/target/herd-relay.log" 2>/dev/null || true
exit $status
