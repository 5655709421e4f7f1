#!/usr/bin/env bash
# The relay's peak heap during one bootstrap with large pages (chat.buzz.bench.scale.BootstrapHeap): a
# fresh packaged relay in local mode (embedded PostgreSQL, incremental gate on) with -Xmx<heap>,
# -XX:+ExitOnOutOfMemoryError and a flight recording; the reference shape seeded by COPY at <artifacts>;
# one reader's bootstrap with pages of <limit> until more is false. Prints the peak heap used from the
# admin /metrics (every 250 ms) and from the recording's jdk.GCHeapSummary (every collection), and exits
# non-zero when the relay ran out of heap or the bootstrap did not bring every seeded artifact.
# Results: docs/benchmarks.md; the recording is left in benchmark/target/bootstrap-heap.jfr.
# Usage: bench/bootstrap-heap.sh [artifacts=100000] [heap=512m] [limit=1000]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
artifacts=${1:-100000}
heap=${2:-512m}
limit=${3:-1000}
bench_begin bootstrap-heap
bench_package relay
token="heap-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
recording="$BENCH_ROOT/benchmark/target/bootstrap-heap.jfr"
rm -f "$recording"
# The recording's name is the one BootstrapHeap dumps by.
bench_start_relay BUZZ_ARTIFACT_INCREMENTAL_ENABLED=true BUZZ_ADMIN_TOKEN="$token" \
  JAVA_TOOL_OPTIONS="-Xmx$heap -XX:+ExitOnOutOfMemoryError -XX:StartFlightRecording=name=bootstrap-heap,settings=default"
echo "relay pid $RELAY_PID on 127.0.0.1:$RELAY_PORT (admin $RELAY_ADMIN_PORT, PostgreSQL $RELAY_PG_PORT), -Xmx$heap"
status=0
bench_java chat.buzz.bench.scale.BootstrapHeap --url "http://127.0.0.1:$RELAY_PORT" \
  --admin-url "http://127.0.0.1:$RELAY_ADMIN_PORT" --admin-token "$token" --relay-pid "$RELAY_PID" \
  --jdbc "jdbc:postgresql://127.0.0.1:$RELAY_PG_PORT/postgres?user=postgres" --artifacts "$artifacts" \
  --limit "$limit" --jfr "$recording" || status=$?
if grep -q "java\.lang\.OutOfMemoryError" "$RELAY_DIR/relay.log"; then
  echo "FAILED: the relay ran out of heap (-Xmx$heap) during the bootstrap:" >&2
  grep "java\.lang\.OutOfMemoryError" "$RELAY_DIR/relay.log" >&2
  status=1
fi
exit $status
