#!/usr/bin/env bash
# Digest read against bootstrap pages (docs/benchmarks.md, "Digest read over 10,050 artifacts"): starts the
# packaged relay in local mode (embedded PostgreSQL, incremental gate on) in a throwaway directory, seeds
# one channel and times the two reads with chat.buzz.bench.DigestBenchmark.
# Usage: bench/digest.sh [artifacts=10050] [warmups=10] [pairs=40]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
bench_begin digest
bench_package relay
bench_start_relay BUZZ_ARTIFACT_INCREMENTAL_ENABLED=true
echo "relay on 127.0.0.1:$RELAY_PORT"
bench_java chat.buzz.bench.DigestBenchmark --url "http://127.0.0.1:$RELAY_PORT" --artifacts "${1:-10050}" \
  --warmups "${2:-10}" --pairs "${3:-40}"
