#!/usr/bin/env bash
# The dashboard's date-dependent browser suites again, with the tests' clock (the daemon's and
# Chromium's, packages/dashboard/test/support/test-time.ts) set to the days that used to break
# them: a month's last day late in the evening, the night Europe/Berlin falls back from
# summer time, and New Year's Eve. The ordinary run (`pnpm test`) uses a mid-month default.
# Extra arguments go to vitest (.ci/run passes its reporters; "{name}" in them becomes the
# run's name). Exits non-zero when any run fails, after running all of them.
set -uo pipefail
cd "$(dirname "$0")/.."
suites=(packages/dashboard/test/e2e-compose-calendar.test.ts packages/dashboard/test/e2e-review.test.ts)
dates=(
  "month-end=2026-09-30T21:30:00Z" # 23:30 on 30 September in Berlin: the day after is another month
  "dst-end=2026-10-25T00:30:00Z"   # 02:30 CEST on 25 October 2026, half an hour before clocks go back (a Sunday)
  "new-year=2025-12-31T22:30:00Z"  # 23:30 on New Year's Eve in Berlin
)
status=0
for entry in "${dates[@]}"; do
  name="${entry%%=*}"
  echo "== dashboard suites at ${entry#*=} ($name)"
  args=()
  for a in "$@"; do args+=("${a//\{name\}/$name}"); done
  SOCIALPUB_TEST_NOW="${entry#*=}" scripts/pnpm exec vitest run --project unit "${suites[@]}" "${args[@]}" || status=1
done
exit "$status"
