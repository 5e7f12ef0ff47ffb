#!/usr/bin/env bash
# The task table's bloat on PostgreSQL (docs/DEPLOYMENT.md, issue 32 §5): starts a PostgreSQL server of its own
# (port 55482, data under /tmp/errand-bloat-pg) with autovacuum at its defaults, runs BloatBench against it, and
# stops it. Needs PostgreSQL's server binaries under /usr/lib/postgresql/*/bin and root (the server runs as the
# postgres user).
#
#   scripts/bloat-run.sh [tasks (10000000)] [window (1000000)] [backlog (50000)] [default|tuned]
set -euo pipefail
cd "$(dirname "$0")/.."
tasks="${1:-10000000}"
window="${2:-1000000}"
backlog="${3:-50000}"
mode="${4:-default}"
port=55482
dir=/tmp/errand-bloat-pg
bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
as_postgres() { runuser -u postgres -- "$@"; }
stop() { as_postgres "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true; }
trap stop EXIT
stop
rm -rf "$dir" && mkdir -p "$dir" && chown postgres:postgres "$dir"
as_postgres "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 >/dev/null
# The server's defaults but for the connection settings: autovacuum on, synchronous commit, 128 MB of buffers.
as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o "-p $port -k $dir -c listen_addresses=127.0.0.1" start
mvn -B -q -ntp -pl errand-bench -am package exec:exec -DskipTests -Dspotless.check.skip=true -Dexec.executable=java \
  -Dbench.args="" -Dbench.jvm="-Xmx1g -cp %classpath dev.errand.bench.BloatBench \
  jdbc:postgresql://127.0.0.1:$port/postgres postgres - $tasks $window $backlog $mode"
