#!/usr/bin/env bash
# Instances one PostgreSQL carries (docs/scaling.md): starts the packaged relay N times on 127.0.0.1 in
# local mode, the first with its embedded PostgreSQL and the others against that same database, all
# sharing one relay key; seeds the reference shape once and runs the same closed-loop mix over 1, 2, 3 ...
# Usage: bench/instances.sh [counts=1,2,3] [seconds=30] [artifacts=1000]
# Environment: SCALE_RESULTS (default bench/results), BENCH_PACKAGE (or SCALE_PACKAGE) = no: reuse target/.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
counts=${1:-1,2,3}
seconds=${2:-30}
artifacts=${3:-1000}
results=${SCALE_RESULTS:-bench/results}
most=$(tr ',' '\n' <<< "$counts" | sort -n | tail -n 1)
bench_begin instances
bench_package relay
key=$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')
gates=(BUZZ_ARTIFACT_INCREMENTAL_ENABLED=true BUZZ_ARTIFACT_SYNC_ENABLED=true BUZZ_RELAY_SECRET_KEY="$key")
jdbc=""
urls=()
for i in $(seq 1 "$most"); do
  if [ -z "$jdbc" ]; then
    bench_start_relay "${gates[@]}"
    jdbc="jdbc:postgresql://127.0.0.1:$RELAY_PG_PORT/postgres"
  else
    bench_start_relay "${gates[@]}" JAVA_TOOL_OPTIONS="-Ddw.embeddedDatabase.enabled=false -Ddw.database.url=$jdbc"
  fi
  urls+=("http://127.0.0.1:$RELAY_PORT")
  echo "relay $i: pid $RELAY_PID on 127.0.0.1:$RELAY_PORT, database $jdbc"
done
bench_java chat.buzz.bench.scale.InstanceCurve --jdbc "$jdbc?user=postgres" --artifacts "$artifacts" \
  --seconds "$seconds" --results "$results" --counts "$counts" --url "$(IFS=,; echo "${urls[*]}")"
