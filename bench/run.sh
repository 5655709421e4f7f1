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
workdir=$(mktemp -d)
jar="$PWD/service/target/buzz-relay.jar"
config="$PWD/config/local.yml"
(cd "$workdir" && exec env BUZZ_HTTP_PORT=0 BUZZ_ADMIN_PORT=0 BUZZ_ARTIFACT_INCREMENTAL_ENABLED=true \
   java -jar "$jar" server "$config" > relay.log 2>&1) &
relay_pid=$!
trap 'kill "$relay_pid" 2>/dev/null || true; wait "$relay_pid" 2>/dev/null || true; rm -rf "$workdir"' EXIT
port=""
for _ in $(seq 1 120); do
  port=$(grep -oP 'Started application@.*\{127\.0\.0\.1:\K[0-9]+' "$workdir/relay.log" | head -n 1 || true)
  [ -n "$port" ] && break
  kill -0 "$relay_pid" 2>/dev/null || { cat "$workdir/relay.log"; exit 1; }
  sleep 1
done
[ -n "$port" ] || { echo "relay did not start"; cat "$workdir/relay.log"; exit 1; }
echo "relay on 127.0.0.1:$port; warm-up ${warmup}s, windows of ${window}s, ${threads} threads"
mvn -q -B -pl benchmark exec:java -Dexec.args="http://127.0.0.1:$port $warmup $window $threads true"
