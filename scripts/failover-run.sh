#!/usr/bin/env bash
# The longer PostgreSQL failover run (docs/DEPLOYMENT.md, "Failover"): FailoverTest with more tasks. A primary and a
# synchronous standby of the run's own (free ports, data under /tmp), a node on the multi-host URL running
# transactional and non-transactional tasks, workflows and a schedule; the primary's postmaster is killed with
# SIGKILL and the standby promoted; then every task must end, no effect applied twice, none lost.
#
#   scripts/failover-run.sh [tasks of each mode (20000)]
#
# Needs PostgreSQL's server binaries under /usr/lib/postgresql/*/bin and root (they run as the postgres user).
# The figures (kill to promotion, kill to the first task run on the new primary, attempts spent) are printed
# as the line starting with [failover].
set -euo pipefail
cd "$(dirname "$0")/.."
tasks="${1:-20000}"
mvn -B -ntp -q -pl errand-core -am test -Dtest=FailoverTest -Dsurefire.failIfNoSpecifiedTests=false \
  -Derrand.test.databases=POSTGRES -Derrand.failover.tasks="$tasks" -Dspotless.check.skip=true
grep -h '^\[failover\]' errand-core/target/surefire-reports/dev.errand.crash.FailoverTest-output.txt
