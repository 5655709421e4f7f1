#!/usr/bin/env bash
# CPU per read, relay and PostgreSQL apart (chat.buzz.bench.scale.ReadCost): a packaged relay in local
# mode on 127.0.0.1, seeded with the reference shape, then per read kind a warm-up of that read alone
# and a measured stretch, one closed-loop client. Compare builds by CPU per read: on these machines it
# is far steadier between runs than latency. Results: docs/benchmarks.md.
# Usage: bench/read-cost.sh [artifacts=10050] [warmupSeconds=60] [seconds=20] [kinds=trivial,known,delta,bootstrap]
# Environment: BUZZ_RELAY_JAR (default service/target/buzz-relay.jar; another build to compare).
# Never installs anything into ~/.m2.
set -euo pipefail
cd "$(dirname "$0")/.."
artifacts=${1:-10050}
warmup=${2:-60}
seconds=${3:-20}
kinds=${4:-trivial,known,delta,bootstrap}
jar=${BUZZ_RELAY_JAR:-service/target/buzz-relay.jar}

if [ ! -f "$jar" ]; then
  mvn -q -B -DskipTests package
fi
# Packaged in the same reactor run, so the protocol module resolves to its jar without installing it.
mvn -q -B -pl benchmark -am -DskipTests package dependency:build-classpath \
  -Dmdep.outputFile=target/read-cost-classpath.txt >/dev/null
classpath="benchmark/target/classes:$(cat benchmark/target/read-cost-classpath.txt)"

. scripts/local-relay.sh
trap stop_local_relay EXIT
RELAY_JAR=$(realpath "$jar") start_local_relay BUZZ_ARTIFACT_INCREMENTAL_ENABLED=true JAVA_TOOL_OPTIONS="-Xmx512m"
pg_port=$(grep -oP 'Embedded PostgreSQL listening on 127\.0\.0\.1:\K[0-9]+' "$RELAY_DIR/relay.log" | head -n 1)
echo "relay $(basename "$jar") pid $RELAY_PID on 127.0.0.1:$RELAY_PORT; $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
java -cp "$classpath" chat.buzz.bench.scale.ReadCost "http://127.0.0.1:$RELAY_PORT" \
  "jdbc:postgresql://127.0.0.1:$pg_port/postgres?user=postgres" "$artifacts" "$RELAY_PID" "$warmup" "$seconds" "$kinds"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
