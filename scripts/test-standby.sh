#!/usr/bin/env bash
# A hot standby of the machine's PostgreSQL, streaming from it, for the tests of reads on standbys
# (docs/scaling.md). .ci/run starts one and names it in BUZZ_TEST_STANDBY_URL; a developer can do the same:
#
#   scripts/test-standby.sh start /tmp/buzz-standby 5499    # prints the standby's JDBC URL
#   export BUZZ_TEST_STANDBY_URL=jdbc:postgresql://127.0.0.1:5499/postgres
#   scripts/test-standby.sh stop /tmp/buzz-standby
#
# It lets 127.0.0.1 replicate from the primary (a line in its pg_hba.conf, then a reload), takes a base
# backup with pg_basebackup -R, and starts it with pg_ctl as the postgres user (PostgreSQL refuses root).
# The primary is the server on 127.0.0.1:${BUZZ_TEST_PRIMARY_PORT:-5432}, with the postgres role.
set -euo pipefail

bindir=$(pg_config --bindir)
primary_port=${BUZZ_TEST_PRIMARY_PORT:-5432}

as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

allow_replication() {
  local hba
  hba=$(psql -h 127.0.0.1 -p "$primary_port" -U postgres -Atc "SHOW hba_file")
  if ! grep -Eq '^host[[:space:]]+replication[[:space:]]+(postgres|all)[[:space:]]+127\.0\.0\.1/32' "$hba"; then
    printf 'host replication postgres 127.0.0.1/32 trust\n' >>"$hba"
    psql -q -h 127.0.0.1 -p "$primary_port" -U postgres -c "SELECT pg_reload_conf()" >/dev/null
  fi
}

start() {
  local dir=$1 port=$2
  allow_replication
  mkdir -p "$dir"
  [ "$(id -u)" != 0 ] || chown postgres:postgres "$dir"
  chmod 700 "$dir"
  as_postgres "$bindir/pg_basebackup" -h 127.0.0.1 -p "$primary_port" -U postgres -D "$dir" -R -X stream -c fast
  # Debian keeps a cluster's configuration outside its data directory: the standby gets its own.
  as_postgres tee "$dir/postgresql.conf" >/dev/null <<CONF
port = $port
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir'
hot_standby = on
hot_standby_feedback = on
max_connections = 200
CONF
  as_postgres tee "$dir/pg_hba.conf" >/dev/null <<HBA
local all all trust
host all all 127.0.0.1/32 trust
HBA
  as_postgres "$bindir/pg_ctl" -D "$dir" -l "$dir/standby.log" -w -t 120 start >/dev/null
  echo "jdbc:postgresql://127.0.0.1:$port/postgres"
}

stop() {
  local dir=$1
  if [ -f "$dir/postmaster.pid" ]; then
    as_postgres "$bindir/pg_ctl" -D "$dir" -m fast -w stop >/dev/null || true
  fi
  rm -rf "$dir"
}

case "${1:-}" in
  start) start "$2" "$3" ;;
  stop) stop "$2" ;;
  *) echo "usage: $0 start DIR PORT | stop DIR" >&2; exit 2 ;;
esac
