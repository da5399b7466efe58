#!/usr/bin/env bash
# Repo-owned local stack for development and tests: a private PostgreSQL and Redis on
# loopback, state kept outside the repository.
#
#   bash tools/stack/stack.sh up|down|status|reset|env
#
# Environment:
#   STACK_PG_PORT     (default 55432)
#   STACK_REDIS_PORT  (default 56379)
#   STACK_STATE_DIR   (default /var/tmp/secplatform-stack; the postgres user must traverse it)
#   STACK_PG_MAX_WAL_SIZE (default 4GB; the test stack, tools/test/test-stack.sh, keeps 1GB)
#
# As root, PostgreSQL runs as the `postgres` user (root cannot run it) and missing Debian
# packages are installed. As another user, the binaries must already be installed and both
# servers run as that user. Settings trade durability for speed: dev and test only.
set -euo pipefail

PG_PORT="${STACK_PG_PORT:-55432}"
REDIS_PORT="${STACK_REDIS_PORT:-56379}"
PG_MAX_WAL_SIZE="${STACK_PG_MAX_WAL_SIZE:-4GB}"
STATE="${STACK_STATE_DIR:-/var/tmp/secplatform-stack}"
PG_DATA="$STATE/pg"
PG_SOCK="$STATE/sock"
PG_LOG="$STATE/pg.log"
REDIS_DIR="$STATE/redis"
REDIS_PID="$STATE/redis.pid"
REDIS_LOG="$STATE/redis.log"
DATABASES=(findings certificates)

log() { printf '[stack] %s\n' "$*" >&2; }
die() {
  printf '[stack] error: %s\n' "$*" >&2
  exit 1
}

is_root() { [ "$(id -u)" -eq 0 ]; }

find_pgbin() {
  local dir
  dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)"
  if [ -n "$dir" ] && [ -x "$dir/pg_ctl" ] && [ -x "$dir/initdb" ]; then
    printf '%s\n' "$dir"
  fi
}

ensure_binaries() {
  PGBIN="$(find_pgbin)"
  if [ -n "$PGBIN" ] && command -v redis-server >/dev/null 2>&1; then
    return
  fi
  is_root || die "PostgreSQL or redis-server is missing; install the Debian packages 'postgresql' and 'redis-server' (needs root)"
  log "installing postgresql and redis-server (apt)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >&2
  apt-get install -y -q --no-install-recommends postgresql redis-server >&2
  PGBIN="$(find_pgbin)"
  [ -n "$PGBIN" ] || die "PostgreSQL binaries not found under /usr/lib/postgresql after install"
  command -v redis-server >/dev/null 2>&1 || die "redis-server not found after install"
}

# Runs a command as the PostgreSQL server owner.
as_pg() {
  if is_root; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

psql_admin() {
  "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres "$@"
}

prepare_state() {
  mkdir -p "$STATE" "$REDIS_DIR"
  chmod 755 "$STATE"
  if is_root; then
    id postgres >/dev/null 2>&1 || die "the 'postgres' user does not exist (install the postgresql package)"
    runuser -u postgres -- test -x "$STATE" ||
      die "the postgres user cannot traverse $STATE; choose another STACK_STATE_DIR"
    mkdir -p "$PG_SOCK"
    touch "$PG_LOG"
    chown postgres: "$PG_SOCK" "$PG_LOG"
  else
    mkdir -p "$PG_SOCK"
  fi
}

# ---- PostgreSQL ------------------------------------------------------------------------

pg_running() {
  [ -f "$PG_DATA/PG_VERSION" ] && as_pg "$PGBIN/pg_ctl" -D "$PG_DATA" status >/dev/null 2>&1
}

pg_is_ours() {
  local dir
  dir="$(psql_admin -tA -c 'SHOW data_directory' 2>/dev/null || true)"
  [ "$dir" = "$PG_DATA" ]
}

pg_init() {
  [ -f "$PG_DATA/PG_VERSION" ] && return
  log "initdb $PG_DATA"
  if is_root; then
    install -d -o postgres -g postgres -m 700 "$PG_DATA"
  else
    install -d -m 700 "$PG_DATA"
  fi
  as_pg "$PGBIN/initdb" -D "$PG_DATA" -U postgres -A trust -E UTF8 --locale=C --no-sync >/dev/null
  echo "include_if_exists = 'stack.conf'" | as_pg tee -a "$PG_DATA/postgresql.conf" >/dev/null
}

pg_write_conf() {
  as_pg tee "$PG_DATA/stack.conf" >/dev/null <<EOF
# Written by tools/stack/stack.sh on every 'up'. Dev/test only: no durability.
port = $PG_PORT
listen_addresses = '127.0.0.1'
unix_socket_directories = '$PG_SOCK'
max_connections = 300
fsync = off
synchronous_commit = off
full_page_writes = off
# Sized like a small production server (defaults are 128MB / 1GB / 4MB): a 100k-finding
# report is ~300 MB of heap + indexes and ~200 MB of WAL.
shared_buffers = 1GB
max_wal_size = $PG_MAX_WAL_SIZE
wal_buffers = 64MB
EOF
}

pg_up() {
  if pg_running; then
    pg_is_ours || die "a PostgreSQL from $PG_DATA runs but does not answer on 127.0.0.1:$PG_PORT (port changed? run 'down' first)"
    log "postgres already running on 127.0.0.1:$PG_PORT"
  else
    port_in_use "$PG_PORT" &&
      die "port $PG_PORT is used by another process; set STACK_PG_PORT or stop it"
    pg_init
    pg_write_conf
    log "starting postgres on 127.0.0.1:$PG_PORT"
    as_pg "$PGBIN/pg_ctl" -D "$PG_DATA" -l "$PG_LOG" -w -t 60 start >/dev/null 9>&- ||
      die "postgres did not start; see $PG_LOG"
  fi
  local db
  for db in "${DATABASES[@]}"; do
    if [ -z "$(psql_admin -tA -c "SELECT 1 FROM pg_database WHERE datname = '$db'")" ]; then
      log "creating database $db"
      psql_admin -c "CREATE DATABASE \"$db\""
    fi
  done
}

pg_down() {
  if pg_running; then
    log "stopping postgres"
    as_pg "$PGBIN/pg_ctl" -D "$PG_DATA" -m fast -w -t 60 stop >/dev/null
  fi
}

# ---- Redis -----------------------------------------------------------------------------

redis_pid() {
  local pid
  [ -f "$REDIS_PID" ] || return 1
  pid="$(cat "$REDIS_PID")"
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && printf '%s\n' "$pid"
}

redis_is_ours() {
  local pid served
  pid="$(redis_pid)" || return 1
  served="$(redis-cli -h 127.0.0.1 -p "$REDIS_PORT" info server 2>/dev/null | tr -d '\r' |
    sed -n 's/^process_id://p')"
  [ "$served" = "$pid" ]
}

redis_up() {
  if redis_pid >/dev/null; then
    redis_is_ours || die "our redis runs but does not answer on 127.0.0.1:$REDIS_PORT (port changed? run 'down' first)"
    log "redis already running on 127.0.0.1:$REDIS_PORT"
    return
  fi
  port_in_use "$REDIS_PORT" &&
    die "port $REDIS_PORT is used by another process; set STACK_REDIS_PORT or stop it"
  log "starting redis on 127.0.0.1:$REDIS_PORT"
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --dir "$REDIS_DIR" \
    --save '' --appendonly no --maxmemory-policy noeviction \
    --daemonize yes --pidfile "$REDIS_PID" --logfile "$REDIS_LOG" >/dev/null 9>&-
  local i
  for i in $(seq 1 100); do
    if redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null | grep -q PONG; then
      return
    fi
    sleep 0.1
  done
  die "redis did not start; see $REDIS_LOG"
}

redis_down() {
  local pid i
  pid="$(redis_pid)" || return 0
  log "stopping redis"
  kill "$pid"
  for i in $(seq 1 100); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  rm -f "$REDIS_PID"
}

# ---- commands --------------------------------------------------------------------------

cmd_up() {
  ensure_binaries
  prepare_state
  # The daemons must not inherit fd 9 (see '9>&-' below), or they would hold the lock.
  exec 9>"$STATE/stack.lock"
  flock -w 120 9 || die "another 'stack.sh' holds $STATE/stack.lock"
  cd "$STATE"
  pg_up
  redis_up
  log "up: postgres 127.0.0.1:$PG_PORT, redis 127.0.0.1:$REDIS_PORT, state $STATE"
}

cmd_down() {
  [ -d "$STATE" ] || return 0
  cd "$STATE"
  PGBIN="$(find_pgbin)"
  if [ -n "$PGBIN" ]; then pg_down; fi
  redis_down
}

cmd_status() {
  local rc=0
  PGBIN="$(find_pgbin)"
  if [ -n "$PGBIN" ] && [ -d "$STATE" ] && (cd "$STATE" && pg_running); then
    if pg_is_ours; then
      echo "postgres: running on 127.0.0.1:$PG_PORT ($PG_DATA)"
    else
      echo "postgres: running from $PG_DATA but not answering on 127.0.0.1:$PG_PORT"
      rc=1
    fi
  else
    echo "postgres: stopped"
    rc=3
  fi
  if redis_pid >/dev/null; then
    if redis_is_ours; then
      echo "redis: running on 127.0.0.1:$REDIS_PORT (pid $(redis_pid))"
    else
      echo "redis: running (pid $(redis_pid)) but not answering on 127.0.0.1:$REDIS_PORT"
      rc=1
    fi
  else
    echo "redis: stopped"
    rc=3
  fi
  return "$rc"
}

cmd_reset() {
  cmd_down
  case "$STATE" in
    "" | "/" | "$HOME") die "refusing to delete state dir '$STATE'" ;;
  esac
  log "deleting $STATE"
  rm -rf "$STATE"
}

cmd_env() {
  local pg="postgres://postgres@127.0.0.1:$PG_PORT"
  local redis="redis://127.0.0.1:$REDIS_PORT"
  # STACK_PG_VIA_SOCKET=1: the URLs name PostgreSQL's Unix socket (`?host=<dir>`, read by
  # libpq and node-pg alike) instead of loopback TCP — less CPU per statement on both sides.
  local via=""
  [ "${STACK_PG_VIA_SOCKET:-0}" = 1 ] && via="?host=$PG_SOCK"
  cat <<EOF
export STACK_PG_URL=$pg/postgres$via
export DATABASE_URL=$pg/findings$via
export REDIS_URL=$redis
export CERTSVC_DATABASE_URL=$pg/certificates$via
export CERTSVC_REDIS_URL=$redis/1
EOF
}

case "${1:-}" in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  reset) cmd_reset ;;
  env) cmd_env ;;
  *)
    echo "usage: $0 up|down|status|reset|env" >&2
    exit 2
    ;;
esac
