#!/usr/bin/env bash
# The distributed-process benchmark (docs/BENCHMARKS-JOURNAL.md#processes): a process over ROWS rows of a PostgreSQL table,
# created by this JVM from a paged query, run by NODES worker JVMs. Prints the creation time, the wall time, rows per
# second and the creating JVM's heap after a full GC at CHECKPOINT rows read and at the end of the query.
# Usage: scripts/process-bench.sh [rows=1000000] [nodes=3] [checkpoint=100000] [batchSize=100] [pageSize=10000]
# Database: BENCH_URL (default jdbc:postgresql://127.0.0.1:5432/test), BENCH_USER (postgres), BENCH_PASSWORD (empty).
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${1:-1000000}
NODES=${2:-3}
CHECKPOINT=${3:-100000}
BATCH=${4:-100}
PAGE=${5:-10000}
CP_FILE=$(mktemp)
# One reactor build (nothing is installed): each module writes the file in turn; errand-bench, built last, leaves
# its own.
mvn -B -ntp -q -pl errand-bench -am compile dependency:build-classpath -Dmdep.outputFile="$CP_FILE" \
    -Dmdep.includeScope=runtime
# This checkout's classes come first, so that the benchmark runs the code it was built from.
CP="errand-core/target/classes:errand-bench/target/classes:$(cat "$CP_FILE")"
rm -f "$CP_FILE"
exec java -Xmx512m -cp "$CP" dev.errand.bench.ProcessBench \
    "${BENCH_URL:-jdbc:postgresql://127.0.0.1:5432/test}" "${BENCH_USER:-postgres}" "${BENCH_PASSWORD:--}" \
    "$ROWS" "$NODES" "$CHECKPOINT" "$BATCH" "$PAGE"
