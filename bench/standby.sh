#!/usr/bin/env bash
# What a hot standby takes off the primary (issue 36; docs/scaling.md "Reads on hot standbys"): a fresh
# database on the machine's PostgreSQL (127.0.0.1:5432, role postgres), a streaming standby of that server
# (scripts/test-standby.sh, on a free port), and two packaged relays with config/production.yml on
# 127.0.0.1, both on that database: A without replicas (the primary serves every read), B with
# BUZZ_DATABASE_REPLICA_URLS naming the database on the standby. chat.buzz.bench.scale.StandbyOffload seeds
# the reference shape, then runs the same closed-loop delta followers and bootstrap readers on A and on B
# and prints the primary's CPU per read in each (goal: B at most 1/4 of A), the standby's, reads/s, where
# the relay says each read ran, and the standby's replay lag during a write burst.
# Usage: bench/standby.sh [artifacts=10050] [warmupSeconds=60] [seconds=30] [burstSeconds=20]
# Environment: STANDBY_ROUNDS (rounds of A then B, default 2), STANDBY_DELTA_READERS (1-4, default 2),
# STANDBY_BOOTSTRAP_READERS (1-2, default 2), STANDBY_BURST_WRITERS (default 4), STANDBY_IDLE_SECONDS
# (default 10), BUZZ_RELAY_JAR (another build), BENCH_PACKAGE=no (reuse target/).
# Everything it starts (relays, standby, database) is removed when it ends, however it ends.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
artifacts=${1:-10050}
warmup=${2:-60}
seconds=${3:-30}
burst=${4:-20}
bench_begin standby

database=""
standby_dir=""
# Relays first (they hold connections to both servers), then the standby, then the database.
standby_cleanup() {
  local status=$?
  set +e
  bench_stop_relays
  [ -z "$standby_dir" ] || "$BENCH_ROOT/scripts/test-standby.sh" stop "$standby_dir"
  [ -z "$database" ] || psql -q -h 127.0.0.1 -p 5432 -U postgres -d postgres \
    -c "DROP DATABASE IF EXISTS $database WITH (FORCE)" >/dev/null
  (exit "$status")
  bench_end
}
trap standby_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if ! pg_isready -q -h 127.0.0.1 -p 5432; then
  echo "[standby] needs the machine's PostgreSQL on 127.0.0.1:5432 (role postgres, trust from 127.0.0.1)" >&2
  exit 2
fi
bench_package relay
jar=$(realpath "${BUZZ_RELAY_JAR:-$BENCH_ROOT/service/target/buzz-relay.jar}")

database="buzz_bench_standby_$(date +%s)_$$"
psql -q -h 127.0.0.1 -p 5432 -U postgres -d postgres -c "CREATE DATABASE $database"
standby_port=5520
for _ in $(seq 1 100); do
  (exec 3<>"/dev/tcp/127.0.0.1/$standby_port") 2>/dev/null || break
  standby_port=$((standby_port + 1))
done
standby_dir=$(mktemp -u /tmp/buzz-bench-standby.XXXXXX)
"$BENCH_ROOT/scripts/test-standby.sh" start "$standby_dir" "$standby_port" >/dev/null
primary_jdbc="jdbc:postgresql://127.0.0.1:5432/$database"
standby_jdbc="jdbc:postgresql://127.0.0.1:$standby_port/$database"
echo "database $database on 127.0.0.1:5432, its standby on 127.0.0.1:$standby_port ($standby_dir)," \
  "PostgreSQL $(psql -h 127.0.0.1 -U postgres -d postgres -Atc 'SHOW server_version')"

# Both relays share one key and one operator token; A starts first and migrates the database.
key=$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')
token="standby-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
relay_env=(BUZZ_DATABASE_URL="$primary_jdbc" BUZZ_DATABASE_USER=postgres BUZZ_AUTO_MIGRATE=true
  BUZZ_RELAY_SECRET_KEY="$key" BUZZ_PUBLIC_SCHEME=http BUZZ_COMMUNITY_NAME=local BUZZ_COMMUNITY_HOSTS=127.0.0.1
  BUZZ_ADMIN_TOKEN="$token" BUZZ_ARTIFACT_INCREMENTAL_ENABLED=true BUZZ_DRAIN_PERIOD=0s JAVA_TOOL_OPTIONS=-Xmx512m)
RELAY_CONFIG="$BENCH_ROOT/config/production.yml" RELAY_JAR=$jar bench_start_relay "${relay_env[@]}"
a_pid=$RELAY_PID a_port=$RELAY_PORT a_admin=$RELAY_ADMIN_PORT
RELAY_CONFIG="$BENCH_ROOT/config/production.yml" RELAY_JAR=$jar bench_start_relay "${relay_env[@]}" \
  BUZZ_DATABASE_REPLICA_URLS="$standby_jdbc"
b_pid=$RELAY_PID b_port=$RELAY_PORT b_admin=$RELAY_ADMIN_PORT
echo "relay A (no replicas) pid $a_pid on 127.0.0.1:$a_port (admin $a_admin);" \
  "relay B (replica $standby_jdbc) pid $b_pid on 127.0.0.1:$b_port (admin $b_admin)"

bench_java chat.buzz.bench.scale.StandbyOffload --jdbc "$primary_jdbc?user=postgres" \
  --standby-jdbc "$standby_jdbc?user=postgres" --artifacts "$artifacts" \
  --primary-relay "http://127.0.0.1:$a_port" --primary-relay-pid "$a_pid" --primary-admin "http://127.0.0.1:$a_admin" \
  --standby-relay "http://127.0.0.1:$b_port" --standby-relay-pid "$b_pid" --standby-admin "http://127.0.0.1:$b_admin" \
  --admin-token "$token" --warmup "$warmup" --seconds "$seconds" --rounds "${STANDBY_ROUNDS:-2}" \
  --delta-readers "${STANDBY_DELTA_READERS:-2}" --bootstrap-readers "${STANDBY_BOOTSTRAP_READERS:-2}" \
  --idle-seconds "${STANDBY_IDLE_SECONDS:-10}" --burst-seconds "$burst" --burst-writers "${STANDBY_BURST_WRITERS:-4}"
