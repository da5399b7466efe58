#!/usr/bin/env bash
# Stops the processes that `npm run up` started (pid files under <state>/run).
#
#   bash tools/down.sh          # stop every process of tools/up.sh (APIs, workers, runner, web UI,
#                               # catalog, kubectl stand-in API server)
#   bash tools/down.sh --all    # ... and the local PostgreSQL and Redis (tools/stack/stack.sh down)
#
# A pid file whose process is gone, or whose pid now belongs to another program, is
# removed without killing anything.
set -euo pipefail
cd "$(dirname "$0")/.."

STATE="${STACK_STATE_DIR:-/var/tmp/secplatform-stack}"
RUN_DIR="$STATE/run"
STOP_TIMEOUT="${STOP_TIMEOUT:-20}"

ALL=false
for arg in "$@"; do
  case "$arg" in
    --all) ALL=true ;;
    -h | --help)
      sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "usage: $0 [--all]" >&2
      exit 2
      ;;
  esac
done

log() { printf '[down] %s\n' "$*"; }

# Pid of a pid file when that process is alive and still runs the recorded script.
live_pid() {
  local file="$1" pid script
  pid="$(sed -n 1p "$file" 2>/dev/null || true)"
  script="$(sed -n 2p "$file" 2>/dev/null || true)"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  [ -r "/proc/$pid/cmdline" ] || return 1
  if [ -n "$script" ] && ! tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$script"; then
    return 1
  fi
  printf '%s\n' "$pid"
}

stop_processes() {
  [ -d "$RUN_DIR" ] || return 0
  local file name pid
  local -a names=() pids=()
  shopt -s nullglob
  for file in "$RUN_DIR"/*.pid; do
    name="$(basename "$file" .pid)"
    if pid="$(live_pid "$file")"; then
      log "stopping $name (pid $pid)"
      kill -TERM "$pid" 2>/dev/null || true
      names+=("$name")
      pids+=("$pid")
    else
      log "$name: not running (stale pid file removed)"
      rm -f "$file"
    fi
  done
  shopt -u nullglob
  local i deadline=$((SECONDS + STOP_TIMEOUT))
  for i in "${!pids[@]}"; do
    while kill -0 "${pids[$i]}" 2>/dev/null && [ "$SECONDS" -lt "$deadline" ]; do
      sleep 0.2
    done
    if kill -0 "${pids[$i]}" 2>/dev/null; then
      log "${names[$i]} did not stop within ${STOP_TIMEOUT}s; killing it"
      kill -KILL "${pids[$i]}" 2>/dev/null || true
    fi
    rm -f "$RUN_DIR/${names[$i]}.pid"
  done
}

stop_processes
if $ALL; then
  bash tools/stack/stack.sh down
  log "stack stopped (state kept in $STATE; 'bash tools/stack/stack.sh reset' deletes it)"
fi
