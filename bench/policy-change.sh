#!/usr/bin/env bash
# The cost of one channel policy change, gate off against gate on, in one run
# (chat.buzz.bench.scale.PolicyChange; docs/benchmarks.md): per size and per setting of
# BUZZ_ARTIFACT_SCOPED_POLICY_ENABLED, a fresh packaged relay in local mode (embedded PostgreSQL,
# incremental and sync gates on) seeded with the reference shape; <clients> incremental clients and
# <subscribers> WebSocket sync subscribers synced; then one open 5-artifact channel made private, timed
# until every client and subscriber holds D again (each against the relay's digest read), with the bytes
# the relay sent them and the relay's and PostgreSQL's CPU. Ends with a table per size, off against on.
# One warm-up change of another channel comes first, converged by everyone and not measured.
# Usage: bench/policy-change.sh [sizes=10050,100000] [clients=50] [subscribers=300] [scopeChannels=20]
#   scopeChannels: channels in each subscriber's scope, the changed one among them; 0 = unscoped (every
#   subscriber then holds all of its D, thousands of frames each).
# Environment: SCALE_RESULTS (default bench/results), BENCH_PACKAGE=no (reuse target/),
# POLICY_RELAY_HEAP (the relay's -Xmx, default 512m), POLICY_GATES (default "off on"; "on" alone to profile
# the entries path), POLICY_PG_STATEMENTS=yes (the embedded PostgreSQL restarted with pg_stat_statements, its
# busiest statements of the measured part in the JSON: a profiling run, whose CPU figures include the
# extension's own cost).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
sizes=${1:-10050,100000}
clients=${2:-50}
subscribers=${3:-300}
scope=${4:-20}
results=${SCALE_RESULTS:-bench/results}
bench_begin policy-change
bench_package relay
mkdir -p "$results"
rm -f "$results"/policy-*.json
for size in ${sizes//,/ }; do
  for gate in ${POLICY_GATES:-off on}; do
    enabled=$([ "$gate" = on ] && echo true || echo false)
    relay_env=(BUZZ_ARTIFACT_INCREMENTAL_ENABLED=true BUZZ_ARTIFACT_SYNC_ENABLED=true
      BUZZ_ARTIFACT_SCOPED_POLICY_ENABLED="$enabled"
      JAVA_TOOL_OPTIONS="-Xmx${POLICY_RELAY_HEAP:-512m} $(bench_admit_subscribers "$subscribers")")
    bench_start_relay "${relay_env[@]}"
    if [ "${POLICY_PG_STATEMENTS:-no}" = yes ]; then
      psql -q -h 127.0.0.1 -p "$RELAY_PG_PORT" -U postgres -d postgres \
        -c "ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'"
      bench_restart_relay "${relay_env[@]}"
    fi
    echo "size $size, gate $gate: relay pid $RELAY_PID on 127.0.0.1:$RELAY_PORT (PostgreSQL $RELAY_PG_PORT)"
    bench_java -Xmx2g chat.buzz.bench.scale.PolicyChange --url "http://127.0.0.1:$RELAY_PORT" \
      --relay-pid "$RELAY_PID" --jdbc "jdbc:postgresql://127.0.0.1:$RELAY_PG_PORT/postgres?user=postgres" \
      --artifacts "$size" --clients "$clients" --subscribers "$subscribers" --subscriber-scope "$scope" \
      --gate "$gate" --results "$results"
    bench_stop_relays
  done
done
# The table sets the two gates side by side; a run of one gate leaves its JSON only.
if [ "${POLICY_GATES:-off on}" = "off on" ]; then
  bench_java chat.buzz.bench.scale.PolicyReport --results "$results" --sizes "$sizes"
fi
