#!/usr/bin/env bash
# The full SIGKILL test of recurring tasks: ScheduleCrashTest with four kills of the firing node (CI: two) on
# PostgreSQL, MariaDB and H2 (an H2 TCP server the test starts on a free port; CI leaves H2 out). One database
# at a time: append -Derrand.test.databases=MARIADB (a later -D wins). KILLS=6 for more kills. LOOKAHEAD=0 makes
# the nodes write each slot when it comes, so the kills land in firings of due slots rather than in firings
# that write the next slot ahead (LOOKAHEAD is in milliseconds; unset, the default of 1 min).
set -euo pipefail
cd "$(dirname "$0")/.."
# surefire:test@default-test only: the h2-next execution runs contract tests, not this one.
exec mvn -B -ntp -pl errand-core -am test-compile surefire:test@default-test \
    -Dtest='ScheduleCrashTest' -Dsurefire.failIfNoSpecifiedTests=false -Dspotless.check.skip=true \
    -Derrand.test.databases=POSTGRES,MARIADB,H2 -Derrand.crash.scheduleH2=true \
    -Derrand.crash.scheduleKills="${KILLS:-4}" -Derrand.crash.scheduleLookahead="${LOOKAHEAD:-}" "$@"
