#!/usr/bin/env bash
# Runs a command inside an unpacked image the way a hardened pod does: the image's root file
# system read-only, a private /tmp (the charts' emptyDir), a private /proc and a /dev of four
# devices, the image's user and working directory; the host's network (the test stack on
# loopback). Must be started inside new mount and PID namespaces (the test runs
# `unshare --mount --pid --fork --kill-child bash run-in-rootfs.sh ...`), as root.
#
#   run-in-rootfs.sh <rootfs> <uid> <gid> <cwd> <command> [args...]
set -euo pipefail
root="$1" uid="$2" gid="$3" cwd="$4"
shift 4

mount --make-rprivate /
mount --bind "$root" "$root"
mount -o remount,bind,ro "$root"
mount -t proc proc "$root/proc"
mount -t tmpfs -o mode=1777,size=256m tmpfs "$root/tmp"
mount -t tmpfs -o mode=755,size=1m tmpfs "$root/dev"
for device in null zero random urandom; do
  touch "$root/dev/$device"
  mount --bind "/dev/$device" "$root/dev/$device"
done
exec unshare --root="$root" --wd="$cwd" --setgid "$gid" --setuid "$uid" -- "$@"
