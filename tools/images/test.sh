#!/usr/bin/env bash
# Runs every built image against the test stack (tools/images/images.e2e-spec.ts): unpacked with
# umoci, started under unshare/chroot read-only as uid 10001. As root (mount namespaces, the
# image's file ownership). Builds the images first when dist/images has none.
#
#   npm run images:test              # IMAGES_BUILD=1 rebuilds them first
set -euo pipefail
cd "$(dirname "$0")/../.."
[ "$(id -u)" -eq 0 ] || { echo '[images] error: run as root (unshare --mount, chroot)' >&2; exit 1; }
if [ -n "${IMAGES_BUILD:-}" ] || [ ! -f "${IMAGES_OUT:-dist/images}/images.json" ]; then
  bash tools/images/build.sh
fi
bash tools/stack/stack.sh up >&2
eval "$(bash tools/stack/stack.sh env)"
exec npx jest -c tools/images/jest.config.js --runInBand --verbose "$@"
