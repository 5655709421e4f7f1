#!/usr/bin/env bash
# WebSocket fan-out, the relay against a naive in-memory relay in one run (chat.buzz.bench.fanout):
# starts <instances> packaged relays on one database (the first in local mode with its embedded
# PostgreSQL, the others against that database with the same relay key) and the naive relay
# (chat.buzz.bench.fanout.NaiveRelay, its own JVM with the same heap), then drives each with the same
# load generator: <subscribers> WebSocket subscribers of one open channel, spread over the instances, and
# one writer creating artifacts at <writesPerSecond> for <seconds>. Prints write-to-frame p50/p99/max over
# every frame, frames delivered, each process's CPU, and the relay's p50/p99 as ratios to the naive
# relay's. Results: docs/benchmarks.md; the relays' logs are left in benchmark/target/.
# Every subscriber connects from 127.0.0.1, so each relay started here admits its share of them from
# one address (bench_admit_subscribers); a subscriber refused or closed all the same fails the run
# (exit 1, with what the relay said) instead of printing figures over fewer frames.
# Usage: bench/fanout.sh [subscribers=300] [writesPerSecond=10] [seconds=20] [instances=1]
# Environment: BUZZ_RELAY_JAR (another build to compare), BENCH_PACKAGE=no (reuse target/),
# FANOUT_NAIVE=no (the relay alone).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
subscribers=${1:-300}
rate=${2:-10}
seconds=${3:-20}
instances=${4:-1}
bench_begin fanout
bench_package relay
export RELAY_JAR=$(realpath "${BUZZ_RELAY_JAR:-$BENCH_ROOT/service/target/buzz-relay.jar}")

key=$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')
relay_env=(BUZZ_ARTIFACT_SYNC_ENABLED=true BUZZ_RELAY_SECRET_KEY="$key")
per_instance=$(( (subscribers + instances - 1) / instances ))
admit=$(bench_admit_subscribers "$per_instance")
urls=()
pids=()
jdbc=""
keep_logs() { for dir in "${BENCH_RELAY_DIRS[@]}"; do cp "$dir/relay.log" "$BENCH_ROOT/benchmark/target/relay-$(basename "$dir").log" 2>/dev/null || true; done; }
for i in $(seq 1 "$instances"); do
  if [ -z "$jdbc" ]; then
    bench_start_relay "${relay_env[@]}" JAVA_TOOL_OPTIONS="-Xmx512m $admit"
    jdbc="jdbc:postgresql://127.0.0.1:$RELAY_PG_PORT/postgres"
  else
    bench_start_relay "${relay_env[@]}" \
      JAVA_TOOL_OPTIONS="-Xmx512m $admit -Ddw.embeddedDatabase.enabled=false -Ddw.database.url=$jdbc"
  fi
  urls+=("http://127.0.0.1:$RELAY_PORT")
  pids+=("$RELAY_PID")
  echo "relay $i: pid $RELAY_PID on 127.0.0.1:$RELAY_PORT"
done

naive=()
if [ "${FANOUT_NAIVE:-yes}" = yes ]; then
  bench_start_naive_relay 512m
  echo "naive relay: pid $NAIVE_PID on 127.0.0.1:$NAIVE_PORT"
  naive=(--naive-url "http://127.0.0.1:$NAIVE_PORT" --naive-pid "$NAIVE_PID")
fi
status=0
bench_java chat.buzz.bench.fanout.FanoutBenchmark --url "$(IFS=,; echo "${urls[*]}")" \
  --relay-pid "$(IFS=,; echo "${pids[*]}")" "${naive[@]}" --subscribers "$subscribers" --rate "$rate" \
  --seconds "$seconds" || status=$?
keep_logs
exit $status
