#!/usr/bin/env bash
# Instances one PostgreSQL carries (docs/scaling.md): starts the packaged relay N times on 127.0.0.1 in
# local mode, the first with its embedded PostgreSQL and the others against that same database, all
# sharing one relay key; seeds the reference shape once and runs the same closed-loop mix over 1, 2, 3 ...
# Usage: bench/instances.sh [counts=1,2,3] [seconds=30] [artifacts=1000]
# Environment: SCALE_RESULTS (default bench/results), SCALE_PACKAGE (as in bench/scale.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
counts=${1:-1,2,3}
seconds=${2:-30}
artifacts=${3:-1000}
results=${SCALE_RESULTS:-bench/results}
most=$(tr ',' '\n' <<< "$counts" | sort -n | tail -n 1)

if [ "${SCALE_PACKAGE:-yes}" = yes ] || [ ! -f service/target/buzz-relay.jar ]; then
  mvn -q -B -DskipTests package dependency:build-classpath -Dmdep.outputFile=target/scale-classpath.txt
else
  mvn -q -B -pl benchmark -am compile dependency:build-classpath -Dmdep.outputFile=target/scale-classpath.txt
fi
classpath="benchmark/target/classes:$(cat benchmark/target/scale-classpath.txt)"

. scripts/local-relay.sh
pids=()
dirs=()
urls=()
cleanup() {
  for i in "${!pids[@]}"; do
    RELAY_PID=${pids[$i]} RELAY_DIR=${dirs[$i]} stop_local_relay
  done
}
trap cleanup EXIT
key=$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')
jdbc=""
for i in $(seq 1 "$most"); do
  if [ -z "$jdbc" ]; then
    start_local_relay BUZZ_ARTIFACT_INCREMENTAL_ENABLED=true BUZZ_ARTIFACT_SYNC_ENABLED=true BUZZ_RELAY_SECRET_KEY="$key"
    pg_port=$(grep -oP 'Embedded PostgreSQL listening on 127\.0\.0\.1:\K[0-9]+' "$RELAY_DIR/relay.log" | head -n 1)
    jdbc="jdbc:postgresql://127.0.0.1:$pg_port/postgres"
  else
    start_local_relay BUZZ_ARTIFACT_INCREMENTAL_ENABLED=true BUZZ_ARTIFACT_SYNC_ENABLED=true \
      BUZZ_RELAY_SECRET_KEY="$key" JAVA_TOOL_OPTIONS="-Ddw.embeddedDatabase.enabled=false -Ddw.database.url=$jdbc"
  fi
  pids+=("$RELAY_PID")
  dirs+=("$RELAY_DIR")
  urls+=("http://127.0.0.1:$RELAY_PORT")
  echo "relay $i: pid $RELAY_PID on 127.0.0.1:$RELAY_PORT, database $jdbc"
done
RELAY_PID=""
RELAY_DIR=""
java -cp "$classpath" chat.buzz.bench.scale.InstanceCurve "$jdbc?user=postgres" "$artifacts" "$seconds" \
  "$results" "$counts" "${urls[@]}"
