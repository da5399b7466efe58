#!/usr/bin/env bash
# The test stack's settings (tools/test.sh sources this file when no STACK_* setting is given):
# its own ports and state directory, PostgreSQL's data in RAM when /dev/shm is a tmpfs with
# room, and the built plugin components kept in the development stack's cache, which outlives
# a reboot.
#
#   source tools/test/test-stack.sh              # export the settings
#   bash tools/test/test-stack.sh up|down|status|env   # tools/stack/stack.sh on the test stack
#
# TEST_STACK_IN_RAM=0 keeps the state of a new test stack on disk (/var/tmp/secplatform-test-stack);
# one that already runs is used as it is (`down` it first to move it).

# ram_dir_has_room <dir> <GiB>: <dir> is on a writable tmpfs with at least <GiB> free.
ram_dir_has_room() {
  [ -d "$1" ] && [ -w "$1" ] || return 1
  [ "$(stat -f -c %T "$1" 2>/dev/null)" = tmpfs ] || return 1
  local free_kib
  free_kib="$(df -Pk "$1" 2>/dev/null | awk 'NR == 2 { print $4 }')"
  [ -n "$free_kib" ] && [ "$free_kib" -ge $(($2 * 1024 * 1024)) ]
}

export PLUGIN_COMPONENT_CACHE="${PLUGIN_COMPONENT_CACHE:-/var/tmp/secplatform-stack/plugin-components}"
export STACK_PG_PORT=55433 STACK_REDIS_PORT=56380
# The suite reaches PostgreSQL through its Unix socket (tools/stack/stack.sh env): the same
# statements cost less CPU than over loopback TCP (docs/benchmarks.md#enroll-signed-nonces).
export STACK_PG_VIA_SOCKET="${STACK_PG_VIA_SOCKET:-1}"
# The suite's databases are small (a migrated template per service and one clone per running
# file); a smaller WAL keeps the RAM it takes bounded (checkpoints are cheap without fsync).
export STACK_PG_MAX_WAL_SIZE="${STACK_PG_MAX_WAL_SIZE:-1GB}"
# test_stack_running <state>: the PostgreSQL of that state directory runs (its pid file names a live
# process). A test stack that runs already is the one used — a second would take the same ports —
# whatever /dev/shm has free by now or TEST_STACK_IN_RAM says; those choose for a new one.
test_stack_running() {
  local pid
  pid="$(head -1 "$1/pg/postmaster.pid" 2>/dev/null)" || return 1
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
}
ram_state=/dev/shm/secplatform-test-stack
disk_state=/var/tmp/secplatform-test-stack
if test_stack_running "$ram_state"; then
  export STACK_STATE_DIR="$ram_state"
elif test_stack_running "$disk_state"; then
  export STACK_STATE_DIR="$disk_state"
elif [ "${TEST_STACK_IN_RAM:-1}" != 0 ] && ram_dir_has_room /dev/shm 4; then
  export STACK_STATE_DIR="$ram_state"
else
  export STACK_STATE_DIR="$disk_state"
fi

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  exec bash "$(dirname "$0")/../stack/stack.sh" "$@"
fi
