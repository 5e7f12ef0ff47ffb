#!/usr/bin/env bash
# The full chaos run (docs/RELIABILITY.md): worker JVMs against a PostgreSQL or MariaDB server of the run's
# own (ports 55442 and 53316, data under /tmp), through a Java TCP proxy, with SIGKILLs, database restarts,
# connection cuts, partitions and SIGSTOPs until every task is terminal; then the checks.
#
#   scripts/chaos-run.sh [postgres|mariadb] [tasks (20000)] [workers (3)] [seed] [kills (0)]
#
# A number of kills above 0 runs the scale mode: tasks enqueued as the run goes, one fault a second, nearly
# all SIGKILLs, and batches, workflows and a schedule beside the plain tasks, for example
#   scripts/chaos-run.sh postgres 200000 4 7 1000
#
# Needs PostgreSQL's server binaries under /usr/lib/postgresql/*/bin (run as root: they run as the postgres
# user) or mariadbd and mariadb-install-db. Exits 0 if nothing was lost or applied twice.
set -euo pipefail
cd "$(dirname "$0")/.."
database="${1:-postgres}"
tasks="${2:-20000}"
workers="${3:-3}"
seed="${4:-$RANDOM}"
kills="${5:-0}"
cp_file="$(mktemp)"
trap 'rm -f "$cp_file"' EXIT
# One reactor build: the class path of errand-core's tests names errand-testkit, which only the reactor resolves
# (nothing is installed). Each module writes the file in turn; errand-core, built last, leaves its own.
mvn -B -ntp -q -pl errand-core -am test-compile dependency:build-classpath -Dspotless.check.skip=true \
  -Dmdep.includeScope=test -Dmdep.outputFile="$cp_file"
classpath="errand-core/target/test-classes:errand-core/target/classes:errand-testkit/target/classes:$(cat "$cp_file")"
exec java -Xmx512m -cp "$classpath" dev.errand.crash.ChaosRun "$database" "$tasks" "$workers" "$seed" "$kills"
