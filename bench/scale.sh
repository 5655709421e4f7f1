#!/usr/bin/env bash
# The reference-shape benchmark (docs/benchmarks.md): for each size, a fresh packaged relay in local mode (embedded
# PostgreSQL, incremental and sync gates on) on 127.0.0.1, seeded by COPY with signed events, measured
# through its signed HTTP API and WebSocket; plus JMH of BIP-340 verification. Writes a table to stdout
# and scale.json, scale.svg and one scale-<size>.json per size into the results directory.
# Usage: bench/scale.sh [sizes=1000,10050,100000] [warmupSeconds=60]
# Environment: SCALE_RESULTS (default bench/results), SCALE_FANOUT (subscribers, default 300, 0 = skip),
# SCALE_CLIENTS (default 50), SCALE_WRITE_SECONDS (default 10), SCALE_JMH (full | short | off),
# SCALE_PACKAGE (yes | no: no reuses the jars and classes a previous build left in target/),
# SCALE_RELAY_HEAP (the relay's -Xmx, e.g. 512m; default: the JVM's own choice).
# Never installs anything into ~/.m2.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=${1:-1000,10050,100000}
warmup=${2:-60}
results=${SCALE_RESULTS:-bench/results}
mkdir -p "$results"
rm -f "$results"/scale-*.json

# The benchmark's classpath comes from the same reactor build: the project's own modules are never
# installed, so a separate dependency:build-classpath could not resolve them.
if [ "${SCALE_PACKAGE:-yes}" = yes ] || [ ! -f service/target/buzz-relay.jar ]; then
  mvn -q -B -DskipTests package dependency:build-classpath -Dmdep.outputFile=target/scale-classpath.txt
else
  mvn -q -B -pl benchmark -am compile dependency:build-classpath -Dmdep.outputFile=target/scale-classpath.txt
fi
classpath="benchmark/target/classes:$(cat benchmark/target/scale-classpath.txt)"

case "${SCALE_JMH:-full}" in
  full) jmh_args=(-f 1 -wi 3 -w 2s -i 5 -r 2s) ;;
  short) jmh_args=(-f 1 -wi 1 -w 1s -i 2 -r 1s) ;;
  *) jmh_args=() ;;
esac
rm -f "$results/jmh-bip340.json"
if [ ${#jmh_args[@]} -gt 0 ]; then
  echo "JMH: BIP-340 verification"
  java -cp "$classpath" org.openjdk.jmh.Main Bip340Verification "${jmh_args[@]}" \
    -rf json -rff "$results/jmh-bip340.json" | grep -E '^(Benchmark|Bip340Verification)' || true
fi

. scripts/local-relay.sh
trap stop_local_relay EXIT
for size in ${sizes//,/ }; do
  token="scale-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
  heap=()
  if [ -n "${SCALE_RELAY_HEAP:-}" ]; then
    heap=(JAVA_TOOL_OPTIONS="-Xmx$SCALE_RELAY_HEAP")
  fi
  start_local_relay BUZZ_ARTIFACT_INCREMENTAL_ENABLED=true BUZZ_ARTIFACT_SYNC_ENABLED=true BUZZ_ADMIN_TOKEN="$token" \
    "${heap[@]}"
  admin_port=$(grep -oP 'Relay instance \S+ serving on port [0-9]+ \(admin \K[0-9]+' "$RELAY_DIR/relay.log" | head -n 1)
  pg_port=$(grep -oP 'Embedded PostgreSQL listening on 127\.0\.0\.1:\K[0-9]+' "$RELAY_DIR/relay.log" | head -n 1)
  echo "size $size: relay pid $RELAY_PID on 127.0.0.1:$RELAY_PORT (admin $admin_port, PostgreSQL $pg_port)"
  java -cp "$classpath" chat.buzz.bench.scale.ScaleBenchmark "http://127.0.0.1:$RELAY_PORT" \
    "http://127.0.0.1:$admin_port" "$token" "$RELAY_PID" \
    "jdbc:postgresql://127.0.0.1:$pg_port/postgres?user=postgres" "$size" "$warmup" "$results" \
    "${SCALE_FANOUT:-300}" "${SCALE_CLIENTS:-50}" "${SCALE_WRITE_SECONDS:-10}"
  stop_local_relay
  RELAY_PID=""
  RELAY_DIR=""
done
java -cp "$classpath" chat.buzz.bench.scale.ScaleReport "$results"
