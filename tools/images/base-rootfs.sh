#!/usr/bin/env bash
# The Debian root of every image (tools/images/build.sh caches it by this file's content and
# images.json's "base"): nodejs and ca-certificates with their dependency closure, extracted
# (mmdebstrap --variant=extract: no essential set, so no shell, coreutils, perl, dpkg or apt;
# no maintainer scripts run), then finished by images.json's `base.finish` commands, run in the
# root: the merged-/usr links, ld.so.cache, the CA bundle Node reads (ca-certificates' postinst
# would write it), /etc/passwd and /etc/group with root and the unprivileged user app
# (10001:10001), nsswitch.conf; left out: manuals, translations, documentation (copyright
# files kept), corepack, Node's TypeScript declarations, glibc's iconv modules, debconf/perl,
# the openssl command, package-manager state.
# deploy/images/*.Containerfile do the same in a debian:trixie-slim build stage (apt-get
# download of the same closure, dpkg-deb -x, the same commands) copied onto scratch.
#
#   bash tools/images/base-rootfs.sh <new-directory>
set -euo pipefail
cd "$(dirname "$0")/../.."
target="${1:?usage: base-rootfs.sh <new-directory>}"
base() { node -p 'const b = require("./tools/images/images.json").base; '"$1"; }

finish="$(base 'b.finish.join(" && ")')"
mmdebstrap \
  --variant=extract \
  --include="$(base 'b.packages.join(",")')" \
  "$(base b.suite)" "$target" "$(base b.mirror)"
# (after mmdebstrap: the extract variant runs no customize hooks)
(cd "$target" && bash -euo pipefail -c "$finish")
