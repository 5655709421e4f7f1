#!/usr/bin/env bash
# CPU per read, relay and PostgreSQL apart (chat.buzz.bench.scale.ReadCost): a packaged relay in local
# mode on 127.0.0.1, seeded with the reference shape, then per read kind a warm-up of that read alone
# and a measured stretch, one closed-loop client. Compare builds by CPU per read: on these machines it
# is far steadier between runs than latency. Results: docs/benchmarks.md.
# Usage: bench/read-cost.sh [artifacts=10050] [warmupSeconds=60] [seconds=20] [kinds=trivial,known,delta,bootstrap]
# Kinds: nip11, trivial, known, delta (no change, after the overlap), burstdelta (no change, right after
# 100 heads changed; the last kind, if any), bootstrap (pages of 100), bootstrap1000 (pages of 1,000).
# Environment: BUZZ_RELAY_JAR (another build to compare), BENCH_PACKAGE=no (reuse target/).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
artifacts=${1:-10050}
warmup=${2:-60}
seconds=${3:-20}
kinds=${4:-trivial,known,delta,bootstrap}
bench_begin read-cost
bench_package relay
jar=$(realpath "${BUZZ_RELAY_JAR:-$BENCH_ROOT/service/target/buzz-relay.jar}")
RELAY_JAR=$jar bench_start_relay BUZZ_ARTIFACT_INCREMENTAL_ENABLED=true JAVA_TOOL_OPTIONS="-Xmx512m"
echo "relay $(basename "$jar") pid $RELAY_PID on 127.0.0.1:$RELAY_PORT"
bench_java chat.buzz.bench.scale.ReadCost --url "http://127.0.0.1:$RELAY_PORT" --relay-pid "$RELAY_PID" \
  --jdbc "jdbc:postgresql://127.0.0.1:$RELAY_PG_PORT/postgres?user=postgres" --artifacts "$artifacts" \
  --warmup "$warmup" --seconds "$seconds" --kinds "$kinds"
