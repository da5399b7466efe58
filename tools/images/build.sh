#!/usr/bin/env bash
# Builds the five container images (OCI layouts) on this machine, without Docker and without a
# registry: a minimal Debian root made by mmdebstrap (Debian trixie's nodejs, Node 20.19), then
# one layer per image holding /app, assembled with umoci. Recipe: tools/images/images.json.
#
#   npm run images                       # build the bundles, then every image
#   npm run images -- findings-web       # some images only
#   IMAGES_SKIP_BUILD=1 npm run images   # reuse dist/apps/* as they are (stamped anew)
#   npm run images:test                  # run each image against the test stack
#
# Output: dist/images/<name>/ (an OCI image layout, tags `X.Y.BUILD_COMMIT` and `X.Y`; OCI tags
# cannot hold `+`), dist/images/stage/<name>/app (the /app of the image, also the build context
# of deploy/images/<name>.Containerfile) and dist/images/images.json (versions and sizes).
# The Debian root is cached in dist/images/cache (IMAGES_CACHE) keyed by its recipe; delete it
# to take Debian's security updates. As root, missing mmdebstrap/umoci are installed with apt.
set -euo pipefail
cd "$(dirname "$0")/../.."

OUT="${IMAGES_OUT:-dist/images}"
CACHE="${IMAGES_CACHE:-$OUT/cache}"
RECIPE=tools/images/images.json

log() { printf '[images] %s\n' "$*" >&2; }
die() {
  printf '[images] error: %s\n' "$*" >&2
  exit 1
}

# --- tools -----------------------------------------------------------------------------------
missing=()
command -v mmdebstrap >/dev/null 2>&1 || missing+=(mmdebstrap)
command -v umoci >/dev/null 2>&1 || missing+=(umoci)
if [ "${#missing[@]}" -gt 0 ]; then
  [ "$(id -u)" -eq 0 ] || die "missing ${missing[*]}: install them (apt-get install ${missing[*]})"
  log "installing ${missing[*]}"
  { DEBIAN_FRONTEND=noninteractive apt-get update -q &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"; } >&2 ||
    die "apt-get install ${missing[*]} failed"
fi
[ "$(id -u)" -eq 0 ] || die "run as root: mmdebstrap and umoci keep the root file ownership of the image"

mapfile -t ALL < <(node -e 'for (const i of require("./'"$RECIPE"'").images) console.log(i.name)')
IMAGES=("$@")
[ "${#IMAGES[@]}" -gt 0 ] || IMAGES=("${ALL[@]}")
for name in "${IMAGES[@]}"; do
  printf '%s\n' "${ALL[@]}" | grep -qx -- "$name" || die "unknown image $name (known: ${ALL[*]})"
done
field() { node -e 'const i = require("./'"$RECIPE"'").images.find((x) => x.name === process.argv[1]); const v = i[process.argv[2]]; console.log(Array.isArray(v) ? v.join("\n") : (v ?? ""))' "$1" "$2"; }

# --- the Containerfiles must say what this recipe says ----------------------------------------
node tools/images/containerfiles.mjs --check || die "deploy/images/*.Containerfile are stale: node tools/images/containerfiles.mjs"

# --- bundles ---------------------------------------------------------------------------------
if [ -z "${IMAGES_SKIP_BUILD:-}" ]; then
  services=() webs=()
  for name in "${IMAGES[@]}"; do
    if [ "$(field "$name" kind)" = web ]; then webs+=("$(field "$name" build)"); else services+=("$(field "$name" build)"); fi
  done
  [ "${#services[@]}" -eq 0 ] || bash tools/build.sh "${services[@]}"
  if [ "${#webs[@]}" -gt 0 ]; then
    CI=true NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false \
      npx nx run-many -t build -p "$(IFS=,; echo "${webs[*]}")" --outputStyle=static
  fi
fi

# --- /app of each image ----------------------------------------------------------------------
stage_dirs=()
for name in "${IMAGES[@]}"; do
  dist="$(field "$name" dist)"
  [ -d "$dist" ] || die "$dist is missing (build it, or drop IMAGES_SKIP_BUILD)"
  stage="$OUT/stage/$name"
  rm -rf "$stage"
  mkdir -p "$stage/app"
  if [ "$(field "$name" kind)" = web ]; then
    cp -r "$dist" "$stage/app/public"
    cp "$(field "$name" server)" "$stage/app/serve.mjs"
  else
    # The bundles and their assets, without source maps (they would name every source file).
    cp -r "$dist/." "$stage/app/"
    find "$stage/app" -name '*.map' -type f -delete
    for entry in $(field "$name" entrypoints); do
      [ -f "$stage/app/$entry" ] || die "$name: $dist/$entry is missing"
    done
    node tools/images/runtime-deps.mjs "$name" "$stage/app" >&2
  fi
  stage_dirs+=("$stage/app")
done
# One build identity for every image of this run.
node tools/build/stamp-build-info.js "${stage_dirs[@]}" >&2
VERSION="$(node -p 'require("./'"${stage_dirs[0]}"'/build-info.json").version')"
TAG="${VERSION//+/_}"
MAJOR_MINOR="$(node -p 'require("./'"${stage_dirs[0]}"'/build-info.json").majorMinor')"
COMMIT="$(node -p 'require("./'"${stage_dirs[0]}"'/build-info.json").commit')"
for dir in "${stage_dirs[@]}"; do
  chmod -R u=rwX,go=rX "$dir"
done

# --- the Debian root, cached by recipe ---------------------------------------------------------
base_args() {
  node -e 'const b = require("./'"$RECIPE"'").base; console.log(JSON.stringify(b))'
  cat tools/images/base-rootfs.sh
}
KEY="$(base_args | sha256sum | cut -c1-16)"
ROOTFS="$CACHE/base-$KEY"
# Roots of older recipes are of no further use.
find "$CACHE" -maxdepth 1 -name 'base-*' ! -name "base-$KEY" ! -name "base-$KEY.*" -exec rm -rf {} + 2>/dev/null || true
if [ ! -d "$ROOTFS" ]; then
  log "making the Debian root (mmdebstrap, ~2 min)"
  rm -rf "$ROOTFS.tmp"
  mkdir -p "$CACHE"
  bash tools/images/base-rootfs.sh "$ROOTFS.tmp" >&2
  mv "$ROOTFS.tmp" "$ROOTFS"
fi
BASE_LAYOUT="$CACHE/base-$KEY.oci"
if [ ! -d "$BASE_LAYOUT" ]; then
  log "the Debian root as the base layer"
  rm -rf "$BASE_LAYOUT.tmp"
  umoci init --layout "$BASE_LAYOUT.tmp"
  umoci new --image "$BASE_LAYOUT.tmp:base"
  umoci insert --image "$BASE_LAYOUT.tmp:base" --history.comment "Debian $(node -p 'require("./'"$RECIPE"'").base.suite') root (mmdebstrap)" "$ROOTFS" /
  mv "$BASE_LAYOUT.tmp" "$BASE_LAYOUT"
fi

# --- images ----------------------------------------------------------------------------------
for name in "${IMAGES[@]}"; do
  layout="$OUT/$name"
  log "$name $TAG"
  rm -rf "$layout"
  cp -a "$BASE_LAYOUT" "$layout"
  umoci insert --image "$layout:base" --tag "$TAG" --history.comment "/app of $name $VERSION" "$OUT/stage/$name/app" /app
  config=(--config.user "$(node -p 'require("./'"$RECIPE"'").base.user')" --config.workingdir /app
    --config.env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
    --config.env NODE_ENV=production
    --config.label "org.opencontainers.image.title=$name"
    --config.label "org.opencontainers.image.version=$VERSION"
    --config.label "org.opencontainers.image.revision=$COMMIT")
  while IFS= read -r part; do config+=(--config.cmd "$part"); done < <(field "$name" cmd)
  while IFS= read -r env; do [ -z "$env" ] || config+=(--config.env "$env"); done < <(field "$name" env)
  while IFS= read -r port; do config+=(--config.exposedports "$port/tcp"); done < <(field "$name" ports)
  umoci config --image "$layout:$TAG" --history.comment "config of $name" "${config[@]}"
  umoci rm --image "$layout:base"
  umoci tag --image "$layout:$TAG" "$MAJOR_MINOR"
  umoci gc --layout "$layout"
done

node tools/images/sizes.mjs "$OUT" "$VERSION" "${IMAGES[@]}"
