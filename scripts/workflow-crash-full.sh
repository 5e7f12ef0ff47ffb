#!/usr/bin/env bash
# The full SIGKILL test of workflows and batches: 10,000 batch tasks and 20 diamond workflows, worker JVMs
# killed at 20% and 50%, on PostgreSQL and MariaDB (CI runs 1,000 tasks on PostgreSQL only).
set -euo pipefail
cd "$(dirname "$0")/.."
# surefire:test@default-test only: the h2-next execution would run it a second time.
exec mvn -B -ntp -pl errand-core -am test-compile surefire:test@default-test -Dtest=WorkflowCrashTest -Dsurefire.failIfNoSpecifiedTests=false \
    -Dspotless.check.skip=true -Derrand.test.databases=POSTGRES,MARIADB -Derrand.crash.batchTasks="${TASKS:-10000}" "$@"
