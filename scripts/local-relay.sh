# Sourced by .ci/run and bench/run.sh: starts the packaged relay in local mode (embedded PostgreSQL)
# in a throwaway directory on free ports and sets RELAY_PID, RELAY_PORT and RELAY_DIR.
# Usage: start_local_relay [VAR=value ...]   (extra environment for the relay)
#        RELAY_JAR=<jar> start_local_relay ...  (another build than service/target/buzz-relay.jar)
#        RELAY_IN_DIR=<dir> start_local_relay ...  (again in a directory an earlier start left: its data kept)
#        RELAY_CONFIG=<yml> start_local_relay ...  (another configuration than config/local.yml)
#        stop_local_relay

start_local_relay() {
  local root jar config
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  jar="${RELAY_JAR:-$root/service/target/buzz-relay.jar}"
  config="${RELAY_CONFIG:-$root/config/local.yml}"
  RELAY_DIR=${RELAY_IN_DIR:-$(mktemp -d)}
  (cd "$RELAY_DIR" && exec env BUZZ_HTTP_PORT=0 BUZZ_ADMIN_PORT=0 "$@" java -jar "$jar" server "$config" > relay.log 2>&1) &
  RELAY_PID=$!
  RELAY_PORT=""
  for _ in $(seq 1 180); do
    RELAY_PORT=$(grep -oP 'Relay instance \S+ serving on port \K[0-9]+' "$RELAY_DIR/relay.log" | head -n 1 || true)
    [ -n "$RELAY_PORT" ] && return 0
    kill -0 "$RELAY_PID" 2>/dev/null || break
    sleep 1
  done
  echo "the relay did not start; its log:" >&2
  cat "$RELAY_DIR/relay.log" >&2
  return 1
}

# The relay exits 143 on SIGTERM; that is the expected end here, not a failure of the caller.
stop_local_relay() {
  if [ -n "${RELAY_PID:-}" ]; then
    kill "$RELAY_PID" 2>/dev/null || true
    wait "$RELAY_PID" 2>/dev/null || true
  fi
  if [ -n "${RELAY_DIR:-}" ]; then
    rm -rf "$RELAY_DIR"
  fi
}
