#!/usr/bin/env bash
# Soak: a bounded mixed load (revision writes, incremental delta and known-ID reads, WebSocket
# subscribers) against the packaged relay in local mode on 127.0.0.1, sampling the relay's heap, RSS,
# threads and connection pool every 10 s. Prints p50/p99 per kind and whether a figure trends upward;
# exits non-zero when requests failed or a figure grew. Results: docs/benchmarks.md.
# Usage: bench/soak.sh [seconds=1800] [subscribers=50] [heap=512m]
# Reuses service/target/buzz-relay.jar and the benchmark classpath when a build left them (BENCH_PACKAGE
# defaults to no here: CI builds them with `mvn verify`); otherwise packages them first.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
seconds=${1:-1800}
subscribers=${2:-50}
heap=${3:-512m}
bench_begin soak
BENCH_PACKAGE=${BENCH_PACKAGE:-no} bench_package relay
token="soak-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
bench_start_relay BUZZ_ARTIFACT_INCREMENTAL_ENABLED=true BUZZ_ARTIFACT_SYNC_ENABLED=true \
  BUZZ_ADMIN_TOKEN="$token" \
  JAVA_TOOL_OPTIONS="-Xmx$heap -XX:NativeMemoryTracking=summary $(bench_admit_subscribers "$subscribers")"
echo "relay pid $RELAY_PID on 127.0.0.1:$RELAY_PORT (admin $RELAY_ADMIN_PORT), -Xmx$heap, ${seconds} s, $subscribers subscribers"

# Native memory by category at the start and the end: what grows outside the Java heap shows here.
jcmd "$RELAY_PID" VM.native_memory summary > "$RELAY_DIR/nmt-start.txt" 2>&1 || true
status=0
bench_java chat.buzz.bench.Soak --url "http://127.0.0.1:$RELAY_PORT" --admin-url "http://127.0.0.1:$RELAY_ADMIN_PORT" \
  --admin-token "$token" --relay-pid "$RELAY_PID" --seconds "$seconds" --subscribers "$subscribers" || status=$?
jcmd "$RELAY_PID" VM.native_memory summary > "$RELAY_DIR/nmt-end.txt" 2>&1 || true
echo "native memory tracking, start and end (categories that changed):"
for file in nmt-start nmt-end; do
  printf '%s: ' "$file"; grep -m1 -oP 'Total: reserved=\d+KB, committed=\d+KB' "$RELAY_DIR/$file.txt" || echo "(not available)"
done
diff <(grep -P '^-\s' "$RELAY_DIR/nmt-start.txt") <(grep -P '^-\s' "$RELAY_DIR/nmt-end.txt") || true
echo "largest heap classes at the end:"
jcmd "$RELAY_PID" GC.class_histogram 2>/dev/null | sed -n '1,15p' || true
exit $status
