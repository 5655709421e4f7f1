#!/usr/bin/env bash
# Many live subscribers on one instance (chat.buzz.bench.live.SubscribersBenchmark): a fresh packaged relay
# in local mode (embedded PostgreSQL, sync gate on) with -Xmx<heap>, -XX:+ExitOnOutOfMemoryError and Native
# Memory Tracking; <subscribers> authenticated WebSocket subscribers, each with its own key and one sync
# subscription, connected <SUBSCRIBERS_AT_ONCE> (64) at a time until all reached EOSE; <busy> of them read a
# busy channel and the channel all of them read, the rest that one only. Then 10 writes/s into the busy
# channel and 1 write/s into the other for <seconds>. Prints the time until all are live, the relay's heap
# after full collections, native memory and RSS per idle subscriber, frames delivered, write-to-frame
# p50/p99/max, and the CPU of relay, PostgreSQL and load generator. Exits 1 when a subscriber was lost,
# any frame is missing, or the relay ran out of heap. Results: docs/benchmarks.md; the relay's log is left
# in benchmark/target/subscribers-relay.log.
# Every subscriber connects from 127.0.0.1: the relay's per-address caps are raised for this relay only
# (bench_admit_subscribers), as an operator would for a load test from one address.
# Usage: bench/subscribers.sh [subscribers=10000] [seconds=60] [busy=subscribers/10] [heap=1g]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
subscribers=${1:-10000}
seconds=${2:-60}
busy=${3:-$(( subscribers / 10 ))}
heap=${4:-1g}
at_once=${SUBSCRIBERS_AT_ONCE:-64}
bench_begin subscribers
bench_open_files $(( subscribers + 4096 ))
bench_package relay
token="subscribers-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
bench_start_relay BUZZ_ARTIFACT_SYNC_ENABLED=true BUZZ_ADMIN_TOKEN="$token" \
  JAVA_TOOL_OPTIONS="-Xmx$heap -XX:+ExitOnOutOfMemoryError -XX:NativeMemoryTracking=summary $(bench_admit_subscribers "$subscribers" "$at_once")"
echo "relay pid $RELAY_PID on 127.0.0.1:$RELAY_PORT (admin $RELAY_ADMIN_PORT, PostgreSQL $RELAY_PG_PORT), -Xmx$heap"
status=0
# The load generator holds every subscriber's socket and listener: 2 GiB is room for 10,000 with the frames' timings.
bench_java -Xmx2g chat.buzz.bench.live.SubscribersBenchmark --url "http://127.0.0.1:$RELAY_PORT" \
  --admin-url "http://127.0.0.1:$RELAY_ADMIN_PORT" --admin-token "$token" --relay-pid "$RELAY_PID" \
  --jdbc "jdbc:postgresql://127.0.0.1:$RELAY_PG_PORT/postgres?user=postgres" --subscribers "$subscribers" \
  --busy "$busy" --seconds "$seconds" --at-once "$at_once" || status=$?
cp "$RELAY_DIR/relay.log" "$BENCH_ROOT/benchmark/target/subscribers-relay.log" 2>/dev/null || true
if grep -q "java\.lang\.OutOfMemoryError" "$RELAY_DIR/relay.log"; then
  echo "FAILED: the relay ran out of heap (-Xmx$heap):" >&2
  grep "java\.lang\.OutOfMemoryError" "$RELAY_DIR/relay.log" >&2
  status=1
fi
exit $status
