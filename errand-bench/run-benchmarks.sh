#!/usr/bin/env bash
# Runs the whole comparison (Errand, db-scheduler, JobRunr and the raw SQL ceiling on the local
# PostgreSQL) and writes a report, its chart and the raw results to errand-bench/target/report
# (or --out DIR); docs/BENCHMARKS.md, the page of current figures, is written by hand from reports.
#
#   errand-bench/run-benchmarks.sh                      # the full run (about an hour on 2 cores)
#   errand-bench/run-benchmarks.sh --only burn-down     # one scenario group
#   errand-bench/run-benchmarks.sh --report-only        # rebuild the report from the last run's files
#
# Options are BenchMain's (see its Javadoc). The database is the local test database, in a schema of
# the run's own (dropped at the end unless --keep-schema); -Dbench.db.schema=NAME or -Dbench.db.url
# (its currentSchema) choose another; pass them in BENCH_JVM.
# Builds with -am and never installs, so the shared local repository is left alone.
set -euo pipefail
cd "$(dirname "$0")/.."
args="${*:---profile full}"
exec mvn -B -ntp -pl errand-bench -am package exec:exec -DskipTests -Dexec.executable=java \
  -Dbench.args="$args" \
  -Dbench.jvm="-Xmx1g ${BENCH_JVM:-} -Dbench.command='errand-bench/run-benchmarks.sh $args'"
