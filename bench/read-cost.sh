#!/usr/bin/env bash
# CPU per read, relay and PostgreSQL apart (chat.buzz.bench.scale.ReadCost): a packaged relay in local
# mode on 127.0.0.1, seeded with the reference shape, then per read kind a warm-up of that read alone
# and a measured stretch, one closed-loop client. Compare builds by CPU per read: on these machines it
# is far steadier between runs than latency. Results: docs/benchmarks.md.
# Usage: bench/read-cost.sh [artifacts=10050] [warmupSeconds=60] [seconds=20] [kinds=trivial,known,delta,bootstrap]
# Kinds: nip11, trivial, known, delta (no change, after the overlap), burstdelta (no change, right after
# 100 heads changed; the last kind, if any), bootstrap (pages of 100), bootstrap1000 (pages of 1,000).
# Environment: BUZZ_RELAY_JAR (another build to compare), BENCH_PACKAGE=no (reuse target/),
# BENCH_REPLAY_GUARD=postgresql|redis|both (where the relay keeps the NIP-98 replay guard; both: one relay
# after the other in this run, then what the guard costs the primary per trivial read; default postgresql),
# BENCH_REDIS_URL (the Redis for the guard, redis://127.0.0.1:6379/0; its redis-server's CPU is reported),
# BENCH_DRY_RUN=yes (check the arguments and print what would run, then stop: nothing built or started).
set -euo pipefail
usage() { sed -n 's/^# \{0,1\}//; 6,13p' "$0"; }
case "${1:-}" in -h | --help) usage; exit 0 ;; esac
number() { [[ $2 =~ ^[0-9]+$ ]] || { echo "read-cost: $1 must be a whole number, got '$2'" >&2; usage >&2; exit 2; }; }
artifacts=${1:-10050}
warmup=${2:-60}
seconds=${3:-20}
kinds=${4:-trivial,known,delta,bootstrap}
number artifacts "$artifacts"
number warmupSeconds "$warmup"
number seconds "$seconds"
[ $# -le 4 ] || { echo "read-cost: at most 4 arguments, got $#" >&2; usage >&2; exit 2; }
guard_choice=${BENCH_REPLAY_GUARD:-postgresql}
case "$guard_choice" in
  postgresql | redis) guards=("$guard_choice") ;;
  both) guards=(postgresql redis) ;;
  *) echo "read-cost: BENCH_REPLAY_GUARD must be postgresql, redis or both, got '$guard_choice'" >&2; exit 2 ;;
esac
redis_url=${BENCH_REDIS_URL:-redis://127.0.0.1:6379/0}
# Keys of this run only, expiring by themselves, so a Redis shared with anything else is not disturbed.
redis_prefix="buzz-bench:$$:nip98:"
if [ "${BENCH_DRY_RUN:-no}" = yes ]; then
  echo "read-cost (dry run): artifacts=$artifacts warmup=${warmup}s seconds=${seconds}s kinds=$kinds"
  for guard in "${guards[@]}"; do
    if [ "$guard" = redis ]; then
      echo "  replay guard redis: $redis_url, keys ${redis_prefix}<auth event id>; Redis CPU per read reported"
    else
      echo "  replay guard postgresql: the relay's embedded PostgreSQL (its primary)"
    fi
  done
  exit 0
fi
. "$(dirname "$0")/lib.sh"
redis_pid=""
if [[ " ${guards[*]} " == *" redis "* ]]; then
  if ! redis-cli -u "$redis_url" ping >/dev/null 2>&1; then
    echo "read-cost: no Redis answers at $redis_url (BENCH_REDIS_URL); start one, e.g. redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save '' --appendonly no" >&2
    exit 2
  fi
  redis_pid=$(redis-cli -u "$redis_url" info server | tr -d '\r' | sed -n 's/^process_id://p')
fi
bench_begin read-cost
bench_package relay
jar=$(realpath "${BUZZ_RELAY_JAR:-$BENCH_ROOT/service/target/buzz-relay.jar}")
declare -A primary_per_trivial
for guard in "${guards[@]}"; do
  settings=(BUZZ_ARTIFACT_INCREMENTAL_ENABLED=true)
  tool_options="-Xmx512m"
  redis_args=()
  if [ "$guard" = redis ]; then
    settings+=(BUZZ_REPLAY_GUARD=redis "BUZZ_REPLAY_GUARD_REDIS_URL=$redis_url")
    tool_options="$tool_options -Ddw.replayGuard.redisKeyPrefix=$redis_prefix"
    redis_args=(--redis-pid "$redis_pid")
  fi
  RELAY_JAR=$jar bench_start_relay "${settings[@]}" "JAVA_TOOL_OPTIONS=$tool_options"
  echo "relay $(basename "$jar") pid $RELAY_PID on 127.0.0.1:$RELAY_PORT, replay guard: $guard" \
    "$([ "$guard" = redis ] && echo "($redis_url, redis-server pid $redis_pid)")"
  output=$(mktemp)
  bench_java chat.buzz.bench.scale.ReadCost --url "http://127.0.0.1:$RELAY_PORT" --relay-pid "$RELAY_PID" \
    --jdbc "jdbc:postgresql://127.0.0.1:$RELAY_PG_PORT/postgres?user=postgres" --artifacts "$artifacts" \
    --warmup "$warmup" --seconds "$seconds" --kinds "$kinds" "${redis_args[@]}" | tee "$output"
  primary_per_trivial[$guard]=$(awk '$1 == "trivial" { print $6 }' "$output")
  rm -f "$output"
  bench_stop_relays
done
if [ "${#guards[@]}" -eq 2 ] && [ -n "${primary_per_trivial[postgresql]}" ] && [ -n "${primary_per_trivial[redis]}" ]; then
  # The read itself runs on the primary in both (local mode has no standby); what differs is the guard.
  awk -v pg="${primary_per_trivial[postgresql]}" -v redis="${primary_per_trivial[redis]}" 'BEGIN {
    printf "primary (PostgreSQL) CPU per trivial signed read: %.3f ms with the guard in PostgreSQL, %.3f ms with it in Redis;\n", pg, redis
    printf "the replay guard'"'"'s share on the primary: %.3f ms per signed read (target <= 0.15 ms with the guard in Redis: 0)\n", pg - redis
  }'
fi
