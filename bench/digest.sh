#!/usr/bin/env bash
# Digest read against bootstrap pages (docs/benchmarks.md, "Digest read over 10,050 artifacts"): starts the
# packaged relay in local mode (embedded PostgreSQL, incremental gate on) in a throwaway directory, seeds
# one channel and times the two reads with benchmark/.../DigestBenchmark.java.
# Usage: bench/digest.sh [artifacts=10050] [warmups=10] [pairs=40]
set -euo pipefail
cd "$(dirname "$0")/.."

mvn -q -B -o -pl service,benchmark -am package dependency:build-classpath -DskipTests \
  -Dmdep.outputFile=target/classpath.txt
. scripts/local-relay.sh
trap stop_local_relay EXIT
start_local_relay BUZZ_ARTIFACT_INCREMENTAL_ENABLED=true
echo "relay on 127.0.0.1:$RELAY_PORT"
java -cp "benchmark/target/classes:$(cat benchmark/target/classpath.txt)" chat.buzz.bench.DigestBenchmark \
  "http://127.0.0.1:$RELAY_PORT" "${1:-10050}" "${2:-10}" "${3:-40}"
