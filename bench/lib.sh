# Sourced by every bench/*.sh: the load-average rule, the one build step, the one classpath file and
# relay start/stop. Nothing here installs into ~/.m2.
#
#   bench_begin <name>        prints the load average; exits 3 when the 1-minute load is over
#                             BENCH_MAX_LOAD (1.5) unless BENCH_ALLOW_LOAD=yes, in which case every
#                             figure of the run is marked "load too high"; prints the load again at exit
#   bench_package [relay]     packages benchmark/ (and with "relay" the relay's jar) and sets
#                             BENCH_CLASSPATH; BENCH_PACKAGE=no (or the older SCALE_PACKAGE=no) reuses
#                             what target/ holds when it is there; BENCH_OFFLINE=yes keeps Maven from
#                             downloading (a machine whose cache already holds every plugin)
#   bench_java [jvm options] <class> args
#                             runs a benchmark class on BENCH_CLASSPATH (e.g. bench_java -Xmx2g ...)
#   bench_start_relay VAR=v   starts the packaged relay in local mode (scripts/local-relay.sh); sets
#                             RELAY_PID, RELAY_PORT, RELAY_DIR, RELAY_ADMIN_PORT, RELAY_PG_PORT; every
#                             relay started is stopped at exit
#   bench_stop_relays         stops them now
#   bench_start_naive_relay [heap=512m]
#                             starts the fan-out baseline (fanout.NaiveRelay) in its own JVM on a free
#                             port; sets NAIVE_PID, NAIVE_PORT; stopped at exit like the relays
#   bench_admit_subscribers N [atOnce]
#                             prints the -Ddw.sync.* options that let one relay admit N WebSocket
#                             subscribers from 127.0.0.1 (for JAVA_TOOL_OPTIONS of that relay only); with
#                             atOnce, also that many waiting to authenticate at once and every snapshot
#                             worker for the one address, as that many clients from distinct addresses
#   bench_open_files N        raises this shell's open-file limit (so the relays and the load generator it
#                             starts) to at least N, up to the hard limit; exits 1 when the hard limit is lower

BENCH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BENCH_MAX_LOAD=1.5
BENCH_CLASSPATH_FILE="$BENCH_ROOT/benchmark/target/bench-classpath.txt"
. "$BENCH_ROOT/scripts/local-relay.sh"

bench_load() {
  cut -d' ' -f1-3 /proc/loadavg
}

# Every figure printed by the Java side carries the load beside it; BENCH_LOAD_TOO_HIGH tells it to mark them.
bench_begin() {
  local name=$1 load
  load=$(cut -d' ' -f1 /proc/loadavg)
  echo "[$name] start $(date -u +%FT%TZ), commit $(git -C "$BENCH_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)," \
    "$(nproc) cores, load average $(bench_load)"
  export BENCH_LOAD_TOO_HIGH=no
  if awk -v l="$load" -v max="$BENCH_MAX_LOAD" 'BEGIN { exit !(l > max) }'; then
    if [ "${BENCH_ALLOW_LOAD:-no}" != yes ]; then
      echo "[$name] refused: the 1-minute load average is $load, over $BENCH_MAX_LOAD; figures taken now say" \
        "nothing. Wait for a quiet machine, or set BENCH_ALLOW_LOAD=yes for a smoke run (figures marked" \
        "\"load too high\")." >&2
      exit 3
    fi
    echo "[$name] load too high ($load > $BENCH_MAX_LOAD): BENCH_ALLOW_LOAD=yes, every figure is marked \"load too high\""
    export BENCH_LOAD_TOO_HIGH=yes
  fi
  BENCH_NAME=$name
  trap bench_end EXIT
}

bench_end() {
  local status=$?
  bench_stop_relays
  bench_stop_naive_relay
  echo "[$BENCH_NAME] end $(date -u +%FT%TZ), load average $(bench_load)$([ "$BENCH_LOAD_TOO_HIGH" = yes ] && echo ', load too high')"
  exit $status
}

bench_package() {
  local modules=benchmark jar="$BENCH_ROOT/service/target/buzz-relay.jar"
  [ "${1:-}" = relay ] && modules=service,benchmark
  local reuse=${BENCH_PACKAGE:-${SCALE_PACKAGE:-yes}}
  if [ "$reuse" = no ] && [ -f "$BENCH_CLASSPATH_FILE" ] && { [ "$modules" = benchmark ] || [ -f "$jar" ]; }; then
    echo "reusing the jars and classes in target/ (BENCH_PACKAGE=no)"
  else
    # One reactor run: the project's own modules resolve to the jars it packages, never to ~/.m2; tests are
    # neither compiled nor run (maven.test.skip), a benchmark needs none of them.
    local offline=""
    [ "${BENCH_OFFLINE:-no}" = yes ] && offline=-o
    (cd "$BENCH_ROOT" && mvn $offline -q -B -pl "$modules" -am package -Dmaven.test.skip=true dependency:build-classpath \
      -Dmdep.outputFile=target/bench-classpath.txt)
  fi
  BENCH_CLASSPATH="$BENCH_ROOT/benchmark/target/classes:$(cat "$BENCH_CLASSPATH_FILE")"
}

# The relay's HTTP connector closes a connection idle for 30 s (Dropwizard's default); the JDK's client keeps
# one for 1,200 s, and a request sent on a connection the relay is closing at that moment fails with "header
# parser received no bytes" (seen once in a policy-change run). The load generator lets go after 20 s instead.
bench_java() {
  java -Djdk.httpclient.keepalive.timeout=20 -cp "$BENCH_CLASSPATH" "$@"
}

# A load generator connects every subscriber from 127.0.0.1, and the relay caps connections per address
# (sync.maxConnectionsPerAddress, 64 by default: a flood from one address must not fill an instance).
# A benchmark's relay gets room for its own subscribers plus a margin (never below the default 64), and
# its instance total at least that; the defaults in config/*.yml stay as they are.
# A crowd that arrives at once (bench/subscribers.sh, bench/herd.sh) from one address also meets the cap on
# connections waiting to authenticate per address (16) and the share of snapshot workers one address may use
# (sync.workersPerAddress, 4 of 8): with atOnce the relay lets that many wait per address, and lets the one
# address use every worker (256 is clamped to sync.workerThreads). The instance-wide caps on waiting
# connections are left as they are: they are what a real crowd from many addresses meets.
bench_admit_subscribers() {
  local wanted=$(( $1 + 16 > 64 ? $1 + 16 : 64 ))
  local total=$(( wanted > 4000 ? wanted : 4000 ))
  echo -n "-Ddw.sync.maxConnectionsPerAddress=$wanted -Ddw.sync.maxConnections=$total"
  if [ -n "${2:-}" ]; then
    echo -n " -Ddw.sync.maxUnauthenticatedPerAddress=$(( $2 + 16 )) -Ddw.sync.workersPerAddress=256"
  fi
  echo
}

# Every WebSocket subscriber is one socket in the relay and one in the load generator, each a file descriptor.
bench_open_files() {
  local wanted=$1 hard
  hard=$(ulimit -Hn)
  if [ "$hard" != unlimited ] && [ "$hard" -lt "$wanted" ]; then
    echo "[$BENCH_NAME] needs $wanted open files per process, the hard limit is $hard: raise it (limits.conf," \
      "LimitNOFILE=, or docker --ulimit nofile=$wanted:$wanted) and run again" >&2
    exit 1
  fi
  if [ "$(ulimit -Sn)" != unlimited ] && [ "$(ulimit -Sn)" -lt "$wanted" ]; then
    ulimit -Sn "$wanted"
  fi
  echo "[$BENCH_NAME] open files per process: $(ulimit -Sn) (hard limit $hard)"
}

BENCH_RELAY_PIDS=()
BENCH_RELAY_DIRS=()

bench_start_relay() {
  start_local_relay "$@"
  BENCH_RELAY_PIDS+=("$RELAY_PID")
  BENCH_RELAY_DIRS+=("$RELAY_DIR")
  RELAY_ADMIN_PORT=$(grep -oP 'Relay instance \S+ serving on port [0-9]+ \(admin \K[0-9]+' "$RELAY_DIR/relay.log" | head -n 1)
  RELAY_PG_PORT=$(grep -oP 'Embedded PostgreSQL listening on 127\.0\.0\.1:\K[0-9]+' "$RELAY_DIR/relay.log" | head -n 1 || true)
}

# Stops the relay last started and starts it again in the same directory (its embedded database kept).
bench_restart_relay() {
  kill "$RELAY_PID" 2>/dev/null || true
  wait "$RELAY_PID" 2>/dev/null || true
  mv "$RELAY_DIR/relay.log" "$RELAY_DIR/relay-before-restart.log"
  RELAY_IN_DIR=$RELAY_DIR start_local_relay "$@"
  BENCH_RELAY_PIDS[-1]=$RELAY_PID
  RELAY_PG_PORT=$(grep -oP 'Embedded PostgreSQL listening on 127\.0\.0\.1:\K[0-9]+' "$RELAY_DIR/relay.log" | head -n 1 || true)
}

bench_stop_relays() {
  local i
  for i in "${!BENCH_RELAY_PIDS[@]}"; do
    RELAY_PID=${BENCH_RELAY_PIDS[$i]} RELAY_DIR=${BENCH_RELAY_DIRS[$i]:-} stop_local_relay
  done
  BENCH_RELAY_PIDS=()
  BENCH_RELAY_DIRS=()
  RELAY_PID=""
  RELAY_DIR=""
}

BENCH_NAIVE_PID=""
BENCH_NAIVE_LOG=""

bench_start_naive_relay() {
  BENCH_NAIVE_LOG=$(mktemp)
  java -Xmx"${1:-512m}" -cp "$BENCH_CLASSPATH" chat.buzz.bench.fanout.NaiveRelay --port 0 > "$BENCH_NAIVE_LOG" 2>&1 &
  NAIVE_PID=$!
  BENCH_NAIVE_PID=$NAIVE_PID
  NAIVE_PORT=""
  local _
  for _ in $(seq 1 60); do
    NAIVE_PORT=$(grep -oP 'naive relay listening on 127\.0\.0\.1:\K[0-9]+' "$BENCH_NAIVE_LOG" || true)
    [ -n "$NAIVE_PORT" ] && return 0
    kill -0 "$NAIVE_PID" 2>/dev/null || { cat "$BENCH_NAIVE_LOG" >&2; exit 1; }
    sleep 1
  done
  echo "the naive relay did not listen within 60 s" >&2
  cat "$BENCH_NAIVE_LOG" >&2
  exit 1
}

bench_stop_naive_relay() {
  [ -n "$BENCH_NAIVE_PID" ] || return 0
  kill "$BENCH_NAIVE_PID" 2>/dev/null || true
  wait "$BENCH_NAIVE_PID" 2>/dev/null || true
  rm -f "$BENCH_NAIVE_LOG"
  BENCH_NAIVE_PID=""
}
