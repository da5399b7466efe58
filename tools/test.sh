#!/usr/bin/env bash
# What `npm test` runs: the local stack, lint and typecheck of every project, then one Jest
# run over all projects (unit and e2e against the real PostgreSQL and Redis).
#
#   npm test                         everything
#   npm test -- apps/findings-service   only Jest, only matching test paths (no lint)
#   npm test -- apps/findings-web       the web UI's Jest unit tests and Playwright tests (no lint)
#   npm test -- apps/findings-web/e2e/triage.pw.ts   only that Playwright file (several may be named)
#   npm test -- apps/certificate-web    the same for the certificate web UI
#
# After Jest, the web UIs' Playwright tests (apps/findings-web/e2e against a real findings API +
# worker, then apps/certificate-web/e2e against a real certificate service; headless in Debian's
# chromium) run; their counts are added into the summary line.
#
# The last line printed is always `N passed, N failed[, N skipped]` (the CI harness reads it).
set -euo pipefail
cd "$(dirname "$0")/.."

export CI=true NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false

fail() {
  echo "test.sh: $*" >&2
  echo "0 passed, 1 failed"
  exit 1
}

if [ ! -d node_modules ]; then
  npm install --no-audit --no-fund || fail "npm install failed"
fi

# Real peers the tests verify against (openssl, ssh-keygen, sshd, curl, flawfinder): installed with apt
# when missing and running as root, like the stack's PostgreSQL and Redis.
missing_peers=()
command -v openssl >/dev/null 2>&1 || missing_peers+=(openssl)
command -v ssh-keygen >/dev/null 2>&1 || missing_peers+=(openssh-client)
[ -x /usr/sbin/sshd ] || missing_peers+=(openssh-server)
command -v curl >/dev/null 2>&1 || missing_peers+=(curl)
command -v flawfinder >/dev/null 2>&1 || missing_peers+=(flawfinder)
# kubectl: the kubectl-certsvc exec credential plugin test runs the real client
command -v kubectl >/dev/null 2>&1 || missing_peers+=(kubernetes-client)
# chromium: the web UI's Playwright tests drive Debian's browser (Playwright's download cannot work here)
[ -x /usr/bin/chromium ] || missing_peers+=(chromium)
if [ "${#missing_peers[@]}" -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
      --no-install-recommends "${missing_peers[@]}"; } >&2 || fail "apt-get install ${missing_peers[*]} failed"
  else
    echo "test.sh: missing ${missing_peers[*]} (install them; tests use them as real peers)" >&2
  fi
fi

# The tests' own stack (tools/test/test-stack.sh: ports 55433 / 56380, PostgreSQL's files in RAM
# when /dev/shm has room, docs/testing.md "The test stack"), never the development stack of
# `npm run up`. Any STACK_* setting given picks another stack instead.
if [ -z "${STACK_STATE_DIR:-}${STACK_PG_PORT:-}${STACK_REDIS_PORT:-}" ]; then
  # shellcheck source=tools/test/test-stack.sh
  source tools/test/test-stack.sh
fi
bash tools/stack/stack.sh up || fail "the local stack (tools/stack/stack.sh up) did not start"
eval "$(bash tools/stack/stack.sh env)"
# What code run from TypeScript sources compiles with (@swc-node/register): the findings
# service's parser threads inside the Jest workers, and child processes that inherit the
# environment. tools/test/swc-node-project.json has tsconfig.base.json's options and lists one
# file: with tsconfig.base.json @swc-node/register walks the tree and hashes its ~2 600 names
# into every module's cache key (a parser thread's start 0.53 -> 0.41 s of CPU).
export SWC_NODE_PROJECT="${SWC_NODE_PROJECT:-$PWD/tools/test/swc-node-project.json}"

# The machine's busy and idle CPU ticks so far (/proc/stat; nothing elsewhere): each phase's
# line says how busy the cores were, so a phase that waits shows apart from one that computes.
cpu_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $5 + $6; exit }' /proc/stat 2>/dev/null || true; }
busy_since() {
  local now
  now="$(cpu_ticks)"
  [ -n "$1" ] && [ -n "$now" ] || return 0
  awk -v a="$1" -v b="$now" 'BEGIN {
    split(a, x, " "); split(b, y, " "); busy = y[1] - x[1]; all = busy + y[2] - x[2]
    if (all > 0) printf " (cores %d %% busy)", 100 * busy / all }'
}
static_ticks="$(cpu_ticks)"
static_busy=""
web_typechecked=false
if [ "$#" -eq 0 ]; then
  # Lint and type-check of every project (the benchmarks are not in `npm test`, but they must
  # keep compiling against the apps: tools/typecheck/tsconfig.json includes them).
  # Meanwhile every WebAssembly plugin the tests build is componentized into the component cache
  # (tools/test/prebuild-components.mjs): the test files find them there instead of waiting on
  # each other's builds. It fills the cores the two lanes of the static checks leave idle.
  node tools/test/prebuild-components.mjs &
  prebuild=$!
  bash tools/test/static-checks.sh || { kill "$prebuild" 2>/dev/null; fail "lint/typecheck failed"; }
  web_typechecked=true
  wait "$prebuild" || true
  static_seconds=$SECONDS
  static_busy="$(busy_since "$static_ticks")"
fi

# Drops the databases this run's tests made (templates, and clones a test did not drop);
# libs/testing tags them with the run id. Best effort: never fails the run.
drop_run_databases() {
  local psql
  psql="$(ls /usr/lib/postgresql/*/bin/psql 2>/dev/null | sort -V | tail -1 || true)"
  [ -n "$psql" ] || return 0
  "$psql" -X -q -d "$STACK_PG_URL" >/dev/null 2>&1 <<SQL || true
SELECT format('DROP DATABASE IF EXISTS %I WITH (FORCE)', datname)
  FROM pg_database
 WHERE shobj_description(oid, 'pg_database') LIKE 'platform-test % run=${TEST_RUN_ID}'
\gexec
SQL
}

# One id for every Jest worker of this run: they share one migrated template database per
# service (see libs/testing).
TEST_RUN_ID="${TEST_RUN_ID:-r$(date +%s)_$$}"
TEST_RUN_ID="$(printf '%s' "$TEST_RUN_ID" | tr 'A-Z' 'a-z' | tr -c 'a-z0-9_' '_' | cut -c1-24)"
export TEST_RUN_ID
# The plugin runners this run starts (test harnesses pass PLUGIN_RUNNER_TRANSPILE_CACHE_DIR on)
# share one transpile cache (docs/plugins/limits.md "Load"): a component one test file's runner
# transpiled is read from it by the next file's, not transpiled again (~0.6-1.7 s of CPU for a
# 12 MB component). One directory per run, removed at its end; a directory set by the caller
# is kept.
transpile_cache_owned=false
if [ -z "${PLUGIN_RUNNER_TRANSPILE_CACHE_DIR:-}" ]; then
  PLUGIN_RUNNER_TRANSPILE_CACHE_DIR="${TMPDIR:-/tmp}/plugin-transpiles-$TEST_RUN_ID"
  transpile_cache_owned=true
fi
export PLUGIN_RUNNER_TRANSPILE_CACHE_DIR
remove_transpile_cache() { if $transpile_cache_owned; then rm -rf "$PLUGIN_RUNNER_TRANSPILE_CACHE_DIR"; fi; }
trap remove_transpile_cache EXIT
# Every argument goes to Jest as a test path pattern; one naming a web UI also selects its
# Playwright tests (all of them) after Jest — `npm test -- apps/findings-web` runs the UI's
# Jest unit tests and its browser tests. A pattern only the browser tests match (e2e/*.pw.ts)
# is no Jest failure.
# An argument naming Playwright files (`*.pw.ts`) runs only those browser tests (of its UI).
run_web=false
run_findings_web=false
run_certificate_web=false
jest_args=()
pw_args=()
certificate_pw_args=()
if [ "$#" -eq 0 ]; then
  run_web=true
  run_findings_web=true
  run_certificate_web=true
else
  for arg in "$@"; do
    case "$arg" in
      *certificate-web*.pw.ts) run_web=true; run_certificate_web=true; certificate_pw_args+=("$arg") ;;
      *.pw.ts) run_web=true; run_findings_web=true; pw_args+=("$arg") ;;
      *findings-web*) run_web=true; run_findings_web=true ;;
      *certificate-web*) run_web=true; run_certificate_web=true ;;
    esac
    jest_args+=("$arg")
  done
  if $run_web; then jest_args+=(--passWithNoTests); fi
fi

# run_web_tests <app> <variable prefix> [files...]: builds the UI, runs its Playwright tests,
# prints `N passed, N failed[, N skipped]`. The build, results, traces and screenshots go to
# this run's own directory (apps/<app>/test-output/run-<run id>/): runs in one work tree at the
# same time neither empty each other's served build nor overwrite each other's results. The
# app's Playwright set-up reads <prefix>_TEST_OUTPUT and <prefix>_DIST.
run_web_tests() {
  local app="$1" prefix="$2"
  shift 2
  local out="$PWD/apps/$app/test-output/run-$TEST_RUN_ID"
  local results="$out/results.json"
  rm -rf "$out"
  mkdir -p "$out"
  # (a full run type-checked the UI with the static checks already)
  if ! { { $web_typechecked || npx nx run "$app:typecheck" --outputStyle=static; } &&
    NODE_ENV=production npx vite build --config "apps/$app/vite.config.ts" \
      --outDir "$out/dist" --emptyOutDir --logLevel warn; } >&2; then
    echo "test.sh: the web UI $app does not build" >&2
    echo "0 passed, 1 failed"
    return
  fi
  echo "test.sh: web UI ($app) test output in $out" >&2
  env "${prefix}_TEST_OUTPUT=$out" "${prefix}_DIST=$out/dist" \
    npx playwright test -c "apps/$app/playwright.config.ts" "$@" >&2 || true
  rm -rf "$out/dist"
  node -e '
    const fs = require("node:fs");
    let s;
    try { s = JSON.parse(fs.readFileSync(process.argv[1], "utf8")).stats; } catch { s = undefined; }
    // No report (the set-up failed before any test ran) counts as one failure.
    if (!s) { console.log("0 passed, 1 failed"); process.exit(0); }
    const failed = s.unexpected + (s.expected + s.flaky + s.unexpected + s.skipped === 0 ? 1 : 0);
    console.log(`${s.expected + s.flaky} passed, ${failed} failed, ${s.skipped} skipped`);
  ' "$results"
}

summary="$(mktemp)"
jest_log="$(mktemp)"
leaks="$(mktemp)"
# TEST_FILE_TIMES=<file> keeps every Jest file's seconds and CPU (JSON lines) after the run.
keep_file_times=0
[ -n "${TEST_FILE_TIMES:-}" ] && keep_file_times=1
file_times="${TEST_FILE_TIMES:-$(mktemp)}"
file_cpu="$(mktemp)"
export TEST_SUMMARY_FILE="$summary" TEST_LEAK_REPORT="$leaks" TEST_FILE_TIMES="$file_times"
export TEST_FILE_CPU="$file_cpu"
# A full run runs the e2e files in bundles that load each service's modules once for several
# files (tools/test/bundles.js: ~half the CPU of the files bundled); a named file runs alone.
# The bundles are generated in <project>/test/__bundles__/ and removed after Jest.
remove_bundles() { rm -rf apps/*/test/__bundles__ libs/*/test/__bundles__; }
if [ "$#" -eq 0 ] && [ "${TEST_BUNDLES:-1}" = 1 ]; then
  part_times="$(mktemp)"
  export TEST_BUNDLES=1 TEST_PART_TIMES="$part_times"
  trap 'remove_bundles; remove_transpile_cache' EXIT
else
  export TEST_BUNDLES=0
fi

# Two Jest workers (JEST_WORKERS): on the 2-core machine a third made the same 38 files slower
# (186 -> 216 s) and costlier (304 -> 364 s of CPU); a machine with more cores sets it higher.
# Jest is never forced to exit: it must end by itself. A worker it has to kill left a handle open (server,
# connection, timer, thread, child process): that fails the run like a failing test.
jest_started=$SECONDS
jest_ticks="$(cpu_ticks)"
# The waiting lane (tools/test/lanes.js): in a full run the e2e files marked
# `// test-lane: waiting` (most of their time a timer, an outage or a rate limit plays out) run
# in a Jest process of their own, one worker, beside the main run's workers, which leave them
# out (TEST_LANE=main). TEST_WAIT_LANE=0 runs them in the main run. Its output follows the main
# run's; its counts are added into the summary line.
waiting=()
if [ "$TEST_BUNDLES" = 1 ] && [ "${TEST_WAIT_LANE:-1}" = 1 ]; then
  mapfile -t waiting < <(node tools/test/lanes.js --waiting)
fi
lane_pid=""
if [ "${#waiting[@]}" -gt 0 ]; then
  lane_log="$(mktemp)"
  lane_summary="$(mktemp)"
  lane_times="$(mktemp)"
  lane_cpu="$(mktemp)"
  TEST_BUNDLES=0 TEST_LANE=waiting TEST_SUMMARY_FILE="$lane_summary" TEST_FILE_TIMES="$lane_times" \
    TEST_FILE_CPU="$lane_cpu" npx jest -c jest.config.js --ci -w 1 --runTestsByPath \
    "${waiting[@]}" >"$lane_log" 2>&1 &
  lane_pid=$!
  export TEST_LANE=main
fi
set +e
npx jest -c jest.config.js --ci -w "${JEST_WORKERS:-2}" "${jest_args[@]}" 2>&1 | tee "$jest_log"
status=${PIPESTATUS[0]}
if [ -n "$lane_pid" ]; then
  wait "$lane_pid"
  lane_status=$?
  echo "test.sh: the waiting lane (${#waiting[@]} files, one worker beside the main run):" >&2
  cat "$lane_log" >&2
  cat "$lane_log" >>"$jest_log"
  [ "$lane_status" -eq 0 ] || [ "$status" -ne 0 ] || status=$lane_status
fi
set -e
jest_seconds=$((SECONDS - jest_started))
jest_busy="$(busy_since "$jest_ticks")"
rm -f "$file_cpu"
drop_run_databases
if [ "$TEST_BUNDLES" = 1 ]; then remove_bundles; rm -f "$part_times"; fi

line="$(tail -n 1 "$summary" 2>/dev/null || true)"
rm -f "$summary"
if [ -n "$lane_pid" ]; then
  lane_line="$(tail -n 1 "$lane_summary" 2>/dev/null || true)"
  # No summary from the lane (it could not start) counts as one failure.
  [ -n "$lane_line" ] || lane_line="0 passed, 1 failed"
  if [ -n "$line" ]; then
    line="$(printf '%s\n%s\n' "$line" "$lane_line" | awk '
      { p += $1; f += $3; k += ($5 == "" ? 0 : $5) }
      END { if (k > 0) printf "%d passed, %d failed, %d skipped\n", p, f, k; else printf "%d passed, %d failed\n", p, f }')"
  fi
  cat "$lane_times" >>"$file_times"
  rm -f "$lane_log" "$lane_summary" "$lane_times" "$lane_cpu"
fi
if [ -z "$line" ]; then
  rm -f "$jest_log"
  echo "test.sh: jest ended without a summary (exit $status)" >&2
  echo "0 passed, 1 failed"
  [ "$status" -ne 0 ] || status=1
  exit "$status"
fi
if [ -s "$leaks" ]; then
  echo "test.sh: test files left processes, servers or threads open (they were stopped):" >&2
  sed 's/^/  /' "$leaks" >&2
  line="$(printf '%s\n' "$line" | awk -v n="$(wc -l <"$leaks")" '{ $3 = $3 + n; print }')"
  [ "$status" -ne 0 ] || status=1
fi
rm -f "$leaks"
if grep -q 'failed to exit gracefully' "$jest_log"; then
  echo "test.sh: Jest had to kill a worker: a test left a handle open" \
    "(lines 'test may hold the worker open' above name the files that left a connection or" \
    "timer; or: npx jest -c <project>/jest.config.js --detectOpenHandles <file>)" >&2
  line="$(printf '%s\n' "$line" | awk '{ $3 = $3 + 1; print }')"
  [ "$status" -ne 0 ] || status=1
fi
rm -f "$jest_log"
# add_web_line <label> <line>: adds a UI's Playwright counts into the summary line.
add_web_line() {
  local web_line="$2" web_failed
  echo "test.sh: web UI $1 (Playwright): $web_line" >&2
  web_failed="$(printf '%s\n' "$web_line" | awk '{ print $3 }')"
  line="$(printf '%s\n%s\n' "$line" "$web_line" | awk '
    NR == 1 { p = $1; f = $3; k = ($5 == "" ? 0 : $5) }
    NR == 2 { p += $1; f += $3; k += ($5 == "" ? 0 : $5) }
    END { if (k > 0) printf "%d passed, %d failed, %d skipped\n", p, f, k; else printf "%d passed, %d failed\n", p, f }')"
  [ "$web_failed" -eq 0 ] || [ "$status" -ne 0 ] || status=1
}
web_started=$SECONDS
web_ticks="$(cpu_ticks)"
if $run_findings_web && $run_certificate_web && [ "${TEST_WEB_PARALLEL:-1}" = 1 ]; then
  # Both UIs' browser tests at once (TEST_WEB_PARALLEL=0: one after the other). One suite keeps
  # about half of one core busy (one browser and its services, mostly waiting for the page:
  # findings-web 167 s of CPU in 290 s), so the two fit the 2 cores side by side; each has its
  # own database, queues and rate-limit keys. The certificate UI's output follows the findings UI's.
  cw_log="$(mktemp)"
  cw_line="$(mktemp)"
  run_web_tests certificate-web CERTIFICATE_WEB "${certificate_pw_args[@]}" >"$cw_line" 2>"$cw_log" &
  cw_pid=$!
  fw_line="$(run_web_tests findings-web FINDINGS_WEB "${pw_args[@]}")"
  wait "$cw_pid" || true
  cat "$cw_log" >&2
  add_web_line findings-web "$fw_line"
  add_web_line certificate-web "$(cat "$cw_line")"
  rm -f "$cw_log" "$cw_line"
else
  if $run_findings_web; then
    add_web_line findings-web "$(run_web_tests findings-web FINDINGS_WEB "${pw_args[@]}")"
  fi
  if $run_certificate_web; then
    add_web_line certificate-web \
      "$(run_web_tests certificate-web CERTIFICATE_WEB "${certificate_pw_args[@]}")"
  fi
fi
if $run_web; then
  echo "test.sh: phase times: set-up and static checks ${static_seconds:-0} s${static_busy}," \
    "Jest ${jest_seconds} s${jest_busy}, web UIs $((SECONDS - web_started)) s$(busy_since "$web_ticks")" >&2
fi
# The ten slowest files (Jest and Playwright); docs/testing.md, "Time budget".
web_results=()
for app in findings-web certificate-web; do
  results="apps/$app/test-output/run-$TEST_RUN_ID/results.json"
  [ -f "$results" ] && web_results+=("$results" "$app")
done
node tools/test/slowest.js "$file_times" "${web_results[@]}" || true
[ "$keep_file_times" = 1 ] || rm -f "$file_times"
echo "$line"
exit "$status"
