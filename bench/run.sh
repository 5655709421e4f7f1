#!/usr/bin/env bash
# Load benchmark: starts the packaged relay in local mode (embedded PostgreSQL, incremental gate on)
# in a throwaway directory, drives it with chat.buzz.bench.RelayBenchmark, and prints ratios to the
# NIP-11 baseline. docs/benchmarks.md; bench/lib.sh has the load-average rule.
# Usage: bench/run.sh [warmupSeconds=60] [windowSeconds=20] [threads=4]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
warmup=${1:-60}
window=${2:-20}
threads=${3:-4}
bench_begin run
bench_package relay
bench_start_relay BUZZ_ARTIFACT_INCREMENTAL_ENABLED=true
echo "relay on 127.0.0.1:$RELAY_PORT; warm-up ${warmup}s, windows of ${window}s, ${threads} threads"
bench_java chat.buzz.bench.RelayBenchmark --url "http://127.0.0.1:$RELAY_PORT" --warmup "$warmup" \
  --window "$window" --threads "$threads"
