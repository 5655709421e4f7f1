#!/usr/bin/env bash
# The write ceiling: starts the packaged relay in local mode (embedded PostgreSQL) and measures accepted
# revisions/s (signed POST /events, compare-and-set) with 1 and then 8 closed-loop writers, recording the
# 8-writer phase with JFR; then, in the same run, BIP-340 verification alone with JMH. Every revision and its
# NIP-98 header are signed before the writers start (WriteCeiling), so the load generator signs nothing while
# the relay is measured on the same cores. Prints the figures, the CPU per accepted write of the relay, its
# PostgreSQL and the load generator (so the cores 1,000 writes/s would take), the recording's hottest
# frames (top of stack, and the relay's own methods anywhere on the stack), and leaves the recording in
# benchmark/target/writes.jfr.
# First 8 writers signing as they send settle the relay for settleSeconds, so the JIT has compiled the
# write path under 8 writers before anything is measured. The report gives the compiler threads' share
# of the relay's CPU during the recorded phase, so an unsettled run shows.
# Usage: bench/writes.sh [seconds=20] [warmupSeconds=10] [settleSeconds=120]
# Environment: BUZZ_RELAY_JAR (another build to compare), BENCH_PACKAGE=no (reuse target/).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
seconds=${1:-20}
warmup=${2:-10}
settle=${3:-120}
bench_begin writes
bench_package relay
recording="$BENCH_ROOT/benchmark/target/writes.jfr"
RELAY_JAR=${BUZZ_RELAY_JAR:-} bench_start_relay JAVA_TOOL_OPTIONS="-Xmx512m -XX:+FlightRecorder"
echo "relay pid $RELAY_PID on 127.0.0.1:$RELAY_PORT"
url="http://127.0.0.1:$RELAY_PORT"
cpu=(--relay-pid "$RELAY_PID" --jdbc "jdbc:postgresql://127.0.0.1:$RELAY_PG_PORT/postgres?user=postgres")

# The recording starts before the settling writes: starting it instruments classes the write path uses,
# and the JIT's recompiling them then halved a figure taken right after. Only the 8-writer phase is kept.
jcmd "$RELAY_PID" JFR.start name=writes settings=profile >/dev/null
bench_java chat.buzz.bench.WriteCeiling --url "$url" --writers 8 --settle "$settle" --seconds 0
bench_java chat.buzz.bench.WriteCeiling --url "$url" --writers 1 --warmup "$warmup" --seconds "$seconds" "${cpu[@]}"
eight_began=$(date +%s)
bench_java chat.buzz.bench.WriteCeiling --url "$url" --writers 8 --warmup "$warmup" --seconds "$seconds" "${cpu[@]}"
jcmd "$RELAY_PID" JFR.dump name=writes begin="-$(($(date +%s) - eight_began + 1))s" filename="$recording" >/dev/null
jcmd "$RELAY_PID" JFR.stop name=writes >/dev/null
echo "load average after the writes: $(bench_load)"

samples=$(mktemp)
jfr print --stack-depth 64 --events jdk.ExecutionSample "$recording" > "$samples"
total=$(grep -c 'jdk.ExecutionSample' "$samples" || true)
echo "JFR: $total execution samples of the relay during the 8-writer phase; hottest top frames:"
awk '/stackTrace = \[/ {getline; sub(/^[ \t]+/, ""); sub(/line:.*/, ""); print}' "$samples" \
  | sort | uniq -c | sort -rn | head -n 15 || true # head closing the pipe early is not a failure
echo "relay methods by samples with them anywhere on the stack (inclusive):"
awk '/jdk.ExecutionSample/ {delete seen} /chat\.buzz\./ {sub(/^[ \t]+/, ""); sub(/line:.*/, ""); if (!($0 in seen)) {seen[$0]=1; print}}' \
  "$samples" | sort | uniq -c | sort -rn | head -n 25 || true
rm -f "$samples"
echo "relay CPU during the 8-writer phase by thread group (JFR jdk.ThreadCPULoad; user+system, summed per sample):"
jfr print --events jdk.ThreadCPULoad "$recording" | awk '
  /user = / {gsub(/%/, "", $3); load = $3}
  /system = / {gsub(/%/, "", $3); load += $3}
  /eventThread = / {name = substr($0, index($0, "\"") + 1); name = substr(name, 1, index(name, "\"") - 1); sub(/ - .*/, "", name); gsub(/[0-9]+$/, "N", name); gsub(/-[0-9]+/, "-N", name); by[name] += load; all += load}
  END {for (name in by) if (by[name] / all >= 0.01) printf "  %5.1f %%  %s\n", 100 * by[name] / all, name}' | sort -rn || true

echo "BIP-340 verification alone (JMH, one thread, same machine, same run; load average $(bench_load)):"
bench_java org.openjdk.jmh.Main Bip340Verification -f 1 -wi 3 -w 2s -i 5 -r 2s -t 1 2>&1 | tail -n 3
