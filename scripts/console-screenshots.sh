#!/usr/bin/env bash
# Screenshots of the console's main pages for docs/CONSOLE.md: runs the SMS demo (H2 in a temporary file, the
# console on, a long run with succeeded tasks kept), and once some messages have failed for good while others are
# still queued and receipts wait for delivery reports, has headless Chromium (Debian's chromium) draw each page.
#
#   scripts/console-screenshots.sh [output directory (docs/console)] [port (18080)]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs/console}"
port="${2:-18080}"
work="$(mktemp -d)"
base="http://127.0.0.1:$port/errand"
mkdir -p "$out"

mvn -B -ntp -q -pl errand-examples -am spring-boot:run -Dspotless.check.skip=true \
  -Dspring-boot.run.arguments="--sms.exit-when-done=false --server.port=$port --sms.h2-file=$work/sms \
--sms.messages=400 --sms.send-time=400ms --sms.receipt-timeout=5m --sms.delivery-report-rate=0.5 \
--errand.succeeded-retention=1h" \
  >"$work/demo.log" 2>&1 &
demo=$!
trap 'kill $demo 2>/dev/null; wait $demo 2>/dev/null; rm -rf "$work"' EXIT

for _ in $(seq 1 180); do
  curl -sf "$base/api/session" >/dev/null 2>&1 && break
  sleep 1
done
# Mid-run: a few messages failed for good, and receipt tasks wait for their delivery reports.
for _ in $(seq 1 120); do
  failed=$(curl -sf "$base/api/overview" | python3 -c 'import json,sys; print(json.load(sys.stdin)["states"].get("failed",0))')
  [ "$failed" -ge 4 ] && break
  sleep 1
done
failed=$(curl -sf "$base/api/tasks?state=failed&kind=send-sms&limit=1" | python3 -c 'import json,sys; i=json.load(sys.stdin)["items"]; print(i[0]["id"] if i else "")')

shoot() {  # shoot <name> <route>
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --hide-scrollbars --user-data-dir="$work/profile" \
    --window-size=1400,900 --virtual-time-budget=4000 --screenshot="$out/$1.png" "$base/$2" >/dev/null 2>&1
  echo "$out/$1.png"
}
shoot overview '#/'
shoot tasks '#/tasks?state=failed'
[ -n "$failed" ] && shoot task "#/tasks/$failed"
shoot events '#/events'
shoot cluster '#/cluster'
shoot schedules '#/schedules'
shoot history '#/history'
