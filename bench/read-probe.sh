#!/usr/bin/env bash
# The read path at the reference shape (chat.buzz.bench.scale.ReadPathProbe; docs/query-plans.md): the
# packaged relay in local mode (incremental gate on, overlap 120 s, 16 concurrent incremental reads),
# its embedded database seeded with the reference shape, then timings of each read kind; with
# "explain", each read's plan instead (auto_explain, ANALYZE and BUFFERS), left in
# benchmark/target/read-probe-plans.log.
# Usage: bench/read-probe.sh [artifacts=10050] [explain]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
artifacts=${1:-10050}
mode=${2:-timings}
bench_begin read-probe
bench_package relay
relay_env=(BUZZ_ARTIFACT_INCREMENTAL_ENABLED=true BUZZ_INCREMENTAL_OVERLAP_SECONDS=120
  BUZZ_INCREMENTAL_MAX_CONCURRENT_READS=16 JAVA_TOOL_OPTIONS="-Xmx1g")
bench_start_relay "${relay_env[@]}"
jdbc() { echo "jdbc:postgresql://127.0.0.1:$RELAY_PG_PORT/postgres?user=postgres"; }
reader=$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')
probe=(--artifacts "$artifacts" --reader-key "$reader")
if [ "$mode" = explain ]; then
  bench_java chat.buzz.bench.scale.ReadPathProbe --url "http://127.0.0.1:$RELAY_PORT" --jdbc "$(jdbc)" \
    "${probe[@]}" --explain-setup
  # New connections load auto_explain: the relay starts again on the same embedded database.
  bench_restart_relay "${relay_env[@]}"
  bench_java chat.buzz.bench.scale.ReadPathProbe --url "http://127.0.0.1:$RELAY_PORT" --jdbc "$(jdbc)" \
    "${probe[@]}" --explain
  plans="$BENCH_ROOT/benchmark/target/read-probe-plans.log"
  cp "$RELAY_DIR/data/postgres/log/read-probe.log" "$plans"
  echo "plans: $plans ($(grep -c 'Query Text' "$plans" || true) statements)"
else
  bench_java chat.buzz.bench.scale.ReadPathProbe --url "http://127.0.0.1:$RELAY_PORT" --jdbc "$(jdbc)" "${probe[@]}"
fi
