#!/usr/bin/env bash
# The Debian root of every image (tools/images/build.sh caches it by this file's content and
# images.json's "base"): Debian's essential packages plus nodejs and ca-certificates, no apt,
# no npm, no compiler; manuals, translations and documentation left out (copyright files
# kept), and what a running service never uses: corepack (a package-manager shim), Node's
# TypeScript declarations and glibc's iconv modules; the unprivileged user app (10001:10001)
# the images run as.
# deploy/images/*.Containerfile do the same on debian:trixie-slim.
#
#   bash tools/images/base-rootfs.sh <new-directory>
set -euo pipefail
cd "$(dirname "$0")/../.."
target="${1:?usage: base-rootfs.sh <new-directory>}"
base() { node -p 'const b = require("./tools/images/images.json").base; '"$1"; }

IFS=: read -r uid gid <<<"$(base b.user)"
user="$(base b.userName)"
mmdebstrap \
  --variant=essential \
  --include="$(base 'b.packages.join(",")')" \
  --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  --dpkgopt='path-exclude=/usr/share/info/*' \
  --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --dpkgopt='path-exclude=/usr/share/nodejs/corepack/*' \
  --dpkgopt='path-exclude=/usr/bin/corepack' \
  --dpkgopt='path-exclude=/usr/share/nodejs/@types/*' \
  --dpkgopt='path-exclude=/usr/lib/*/gconv/*' \
  --customize-hook="echo '$user:x:$uid:$gid:$user:/nonexistent:/usr/sbin/nologin' >> \"\$1/etc/passwd\"" \
  --customize-hook="echo '$user:x:$gid:' >> \"\$1/etc/group\"" \
  --customize-hook='rm -rf "$1"/var/log/* "$1"/var/cache/debconf/*-old "$1"/var/lib/dpkg/*-old' \
  "$(base b.suite)" "$target" "$(base b.mirror)"
