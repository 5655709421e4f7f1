#!/usr/bin/env bash
# Load benchmark: starts the packaged relay in local mode (embedded PostgreSQL, incremental gate on)
# in a throwaway directory, drives it with the benchmark module, and prints ratios to the NIP-11 baseline.
# Usage: bench/run.sh [warmupSeconds=60] [windowSeconds=20] [threads=4]
set -euo pipefail
cd "$(dirname "$0")/.."
warmup=${1:-60}
window=${2:-20}
threads=${3:-4}

mvn -q -B -DskipTests install
. scripts/local-relay.sh
trap stop_local_relay EXIT
start_local_relay BUZZ_ARTIFACT_INCREMENTAL_ENABLED=true
echo "relay on 127.0.0.1:$RELAY_PORT; warm-up ${warmup}s, windows of ${window}s, ${threads} threads"
mvn -q -B -pl benchmark exec:java -Dexec.args="http://127.0.0.1:$RELAY_PORT $warmup $window $threads true"
