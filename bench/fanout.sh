#!/usr/bin/env bash
# WebSocket fan-out: starts <instances> packaged relays on one database (the first in
# local mode with its embedded PostgreSQL, the others in the production configuration), then runs chat.buzz.bench.FanoutBenchmark: <subscribers>
# WebSocket subscribers of one open channel, spread over the instances, and one writer creating
# artifacts at <writesPerSecond> for <seconds>. Prints write-to-frame p50/p99, frames delivered and
# each relay's CPU. Results: docs/benchmarks.md; the relays' logs are left in benchmark/target/relay-<n>.log.
# Usage: bench/fanout.sh [subscribers=300] [writesPerSecond=10] [seconds=20] [instances=1]
# Environment: BUZZ_RELAY_JAR (default service/target/buzz-relay.jar; another build to compare).
# Never installs anything into ~/.m2.
set -euo pipefail
cd "$(dirname "$0")/.."
subscribers=${1:-300}
rate=${2:-10}
seconds=${3:-20}
instances=${4:-1}
jar=${BUZZ_RELAY_JAR:-service/target/buzz-relay.jar}

if [ ! -f "$jar" ]; then
  mvn -q -B -DskipTests package
fi
# Packaged in the same reactor run, so the protocol module resolves to its jar without installing it.
mvn -q -B -pl benchmark -am -DskipTests package dependency:build-classpath \
  -Dmdep.outputFile=target/fanout-classpath.txt >/dev/null
classpath="benchmark/target/classes:$(cat benchmark/target/fanout-classpath.txt)"
jar=$(realpath "$jar")
root=$(pwd)

work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  cp "$work"/relay-*.log benchmark/target/ 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# Waits for relay $1's HTTP port and prints it.
await_port() {
  local port=""
  for _ in $(seq 1 180); do
    port=$(grep -oP 'Relay instance \S+ serving on port \K[0-9]+' "$work/relay-$1.log" | head -n 1 || true)
    [ -n "$port" ] && { echo "$port"; return 0; }
    kill -0 "${pids[-1]}" 2>/dev/null || break
    sleep 1
  done
  echo "relay $1 did not start; its log:" >&2
  cat "$work/relay-$1.log" >&2
  return 1
}

secret=$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')
common=(BUZZ_HTTP_PORT=0 BUZZ_ADMIN_PORT=0 BUZZ_ADMIN_TOKEN="fanout-$secret" BUZZ_RELAY_SECRET_KEY="$secret"
  BUZZ_ARTIFACT_SYNC_ENABLED=true)
# The first instance runs in local mode with its own embedded PostgreSQL (no other load on it); the
# others run the production configuration against that database, in the same community.
(cd "$work" && exec env "${common[@]}" java -Xmx512m -jar "$jar" server "$root/config/local.yml" > relay-1.log 2>&1) &
pids+=("$!")
urls=("http://127.0.0.1:$(await_port 1)")
database="jdbc:postgresql://127.0.0.1:$(grep -oP 'Embedded PostgreSQL listening on 127\.0\.0\.1:\K[0-9]+' "$work/relay-1.log")/postgres"
for i in $(seq 2 "$instances"); do
  (cd "$work" && exec env "${common[@]}" BUZZ_DATABASE_URL="$database" BUZZ_DATABASE_USER=postgres \
    BUZZ_PUBLIC_SCHEME=http BUZZ_COMMUNITY_NAME=local BUZZ_COMMUNITY_HOSTS=127.0.0.1 \
    java -Xmx512m -jar "$jar" server "$root/config/production.yml" > "relay-$i.log" 2>&1) &
  pids+=("$!")
  urls+=("http://127.0.0.1:$(await_port "$i")")
done
# The relay pids, not their subshells': exec replaced each subshell with java.
java -cp "$classpath" chat.buzz.bench.FanoutBenchmark "$(IFS=,; echo "${urls[*]}")" "$(IFS=,; echo "${pids[*]}")" \
  "$subscribers" "$rate" "$seconds"
