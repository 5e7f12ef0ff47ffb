#!/usr/bin/env bash
# The full SIGKILL test of recurring tasks: ScheduleCrashTest with four kills of the firing node (CI: two) on
# PostgreSQL, MariaDB and H2 (an H2 TCP server the test starts on a free port; CI leaves H2 out). One database
# at a time: append -Derrand.test.databases=MARIADB (a later -D wins). KILLS=6 for more kills.
set -euo pipefail
cd "$(dirname "$0")/.."
# surefire:test@default-test only: the h2-next execution runs contract tests, not this one.
exec mvn -B -ntp -pl errand-core -am test-compile surefire:test@default-test \
    -Dtest='ScheduleCrashTest' -Dsurefire.failIfNoSpecifiedTests=false -Dspotless.check.skip=true \
    -Derrand.test.databases=POSTGRES,MARIADB,H2 -Derrand.crash.scheduleH2=true \
    -Derrand.crash.scheduleKills="${KILLS:-4}" "$@"
