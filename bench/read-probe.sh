#!/usr/bin/env bash
# Times the read path at the reference shape against a relay started in-process on a fresh database of
# the local PostgreSQL (see service/src/test/.../incremental/ReadPathProbe.java).
# Usage: bench/read-probe.sh [artifacts=10050] [keep]   (keep: leave the database behind for EXPLAIN)
set -euo pipefail
cd "$(dirname "$0")/.."
export BUZZ_TEST_DATABASE_URL="${BUZZ_TEST_DATABASE_URL:-jdbc:postgresql://127.0.0.1:5432/postgres}"
mvn -B -o -q -pl service -am test-compile dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/probe.classpath
exec java -Xmx1g -cp "service/target/test-classes:service/target/classes:$(cat service/target/probe.classpath)" \
    chat.buzz.relay.incremental.ReadPathProbe "$@"
