#!/usr/bin/env bash
# The write ceiling: starts the packaged relay in local mode (embedded PostgreSQL) and
# measures accepted revisions/s (signed POST /events, compare-and-set) with 1 and then 8 closed-loop
# writers, recording the 8-writer phase with JFR; then, in the same run, BIP-340 verification alone
# with JMH. Prints the figures, the recording's hottest frames (top of stack, and the relay's own
# methods anywhere on the stack), and leaves the recording in benchmark/target/writes.jfr.
# Usage: bench/writes.sh [seconds=20] [warmupSeconds=10]
# Never installs anything into ~/.m2.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
warmup=${2:-10}

if [ ! -f service/target/buzz-relay.jar ]; then
  mvn -q -B -DskipTests package
fi
# Packaged in the same reactor run, so the protocol module resolves to its jar without installing it.
mvn -q -B -pl benchmark -am -DskipTests package dependency:build-classpath \
  -Dmdep.outputFile=target/writes-classpath.txt >/dev/null
classpath="benchmark/target/classes:$(cat benchmark/target/writes-classpath.txt)"
recording="$(pwd)/benchmark/target/writes.jfr"

. scripts/local-relay.sh
trap stop_local_relay EXIT
start_local_relay JAVA_TOOL_OPTIONS="-Xmx512m -XX:+FlightRecorder"
echo "relay pid $RELAY_PID on 127.0.0.1:$RELAY_PORT; $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"

java -cp "$classpath" chat.buzz.bench.WriteCeiling "http://127.0.0.1:$RELAY_PORT" 1 "$warmup" "$seconds"
jcmd "$RELAY_PID" JFR.start name=writes settings=profile filename="$recording" >/dev/null
java -cp "$classpath" chat.buzz.bench.WriteCeiling "http://127.0.0.1:$RELAY_PORT" 8 "$warmup" "$seconds"
jcmd "$RELAY_PID" JFR.stop name=writes >/dev/null
echo "load average after the writes: $(cut -d' ' -f1-3 /proc/loadavg)"

samples=$(mktemp)
jfr print --stack-depth 64 --events jdk.ExecutionSample "$recording" > "$samples"
total=$(grep -c 'jdk.ExecutionSample' "$samples" || true)
echo "JFR: $total execution samples of the relay during the 8-writer phase; hottest top frames:"
awk '/stackTrace = \[/ {getline; sub(/^[ \t]+/, ""); sub(/line:.*/, ""); print}' "$samples" \
  | sort | uniq -c | sort -rn | head -n 15
echo "relay methods by samples with them anywhere on the stack (inclusive):"
awk '/jdk.ExecutionSample/ {delete seen} /chat\.buzz\./ {sub(/^[ \t]+/, ""); sub(/line:.*/, ""); if (!($0 in seen)) {seen[$0]=1; print}}' \
  "$samples" | sort | uniq -c | sort -rn | head -n 25
rm -f "$samples"

echo "BIP-340 verification alone (JMH, one thread, same machine, same run):"
java -cp "$classpath" org.openjdk.jmh.Main Bip340Verification -f 1 -wi 3 -w 2s -i 5 -r 2s -t 1 2>&1 | tail -n 3
