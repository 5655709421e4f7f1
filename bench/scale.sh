#!/usr/bin/env bash
# The reference-shape benchmark: for each size, a fresh packaged relay in local mode (embedded
# PostgreSQL, incremental and sync gates on) on 127.0.0.1, seeded by COPY with signed events, measured
# through its signed HTTP API and WebSocket; plus JMH of BIP-340 verification. Writes a table to stdout
# and scale.json, scale.svg and one scale-<size>.json per size into the results directory.
# Usage: bench/scale.sh [sizes=1000,10050,100000] [warmupSeconds=60]
# Environment: SCALE_RESULTS (default bench/results), SCALE_FANOUT (subscribers, default 300, 0 = skip),
# SCALE_CLIENTS (default 50), SCALE_WRITE_SECONDS (default 10), SCALE_JMH (full | short | off),
# BENCH_PACKAGE (or SCALE_PACKAGE) = no: reuse the jars and classes a previous build left in target/,
# SCALE_RELAY_HEAP (the relay's -Xmx, e.g. 512m; default: the JVM's own choice), SCALE_ROUNDS (rounds of
# the SQL floor, both bootstraps and both current reloads, each reported as its median; default 5).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
sizes=${1:-1000,10050,100000}
warmup=${2:-60}
results=${SCALE_RESULTS:-bench/results}
bench_begin scale
bench_package relay
mkdir -p "$results"
rm -f "$results"/scale-*.json

case "${SCALE_JMH:-full}" in
  full) jmh_args=(-f 1 -wi 3 -w 2s -i 5 -r 2s) ;;
  short) jmh_args=(-f 1 -wi 1 -w 1s -i 2 -r 1s) ;;
  *) jmh_args=() ;;
esac
rm -f "$results/jmh-bip340.json"
if [ ${#jmh_args[@]} -gt 0 ]; then
  echo "JMH: BIP-340 verification (load average $(bench_load))"
  bench_java org.openjdk.jmh.Main Bip340Verification "${jmh_args[@]}" \
    -rf json -rff "$results/jmh-bip340.json" | grep -E '^(Benchmark|Bip340Verification)' || true
fi

for size in ${sizes//,/ }; do
  token="scale-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
  # The fan-out subscribers all connect from 127.0.0.1: this relay admits that many from one address.
  options="$(bench_admit_subscribers "${SCALE_FANOUT:-300}")"
  if [ -n "${SCALE_RELAY_HEAP:-}" ]; then
    options="-Xmx$SCALE_RELAY_HEAP $options"
  fi
  bench_start_relay BUZZ_ARTIFACT_INCREMENTAL_ENABLED=true BUZZ_ARTIFACT_SYNC_ENABLED=true BUZZ_ADMIN_TOKEN="$token" \
    JAVA_TOOL_OPTIONS="$options"
  echo "size $size: relay pid $RELAY_PID on 127.0.0.1:$RELAY_PORT (admin $RELAY_ADMIN_PORT, PostgreSQL $RELAY_PG_PORT)"
  bench_java chat.buzz.bench.scale.ScaleBenchmark --url "http://127.0.0.1:$RELAY_PORT" \
    --admin-url "http://127.0.0.1:$RELAY_ADMIN_PORT" --admin-token "$token" --relay-pid "$RELAY_PID" \
    --jdbc "jdbc:postgresql://127.0.0.1:$RELAY_PG_PORT/postgres?user=postgres" --artifacts "$size" \
    --warmup "$warmup" --results "$results" --fanout "${SCALE_FANOUT:-300}" --clients "${SCALE_CLIENTS:-50}" \
    --write-seconds "${SCALE_WRITE_SECONDS:-10}" --bootstrap-rounds "${SCALE_ROUNDS:-5}"
  bench_stop_relays
done
bench_java chat.buzz.bench.scale.ScaleReport --results "$results"
