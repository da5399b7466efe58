#!/usr/bin/env bash
# Builds the deployable bundles and stamps one build identity into all of them.
#
#   bash tools/build.sh              # findings-service, certificate-service, plugin-runner
#   bash tools/build.sh plugin-runner
#
# Output: dist/apps/<app>/main.js (+ worker.js for the two services) and
# dist/apps/<app>/build-info.json, the same `X.Y.BUILD+COMMIT` in every component.
set -euo pipefail
cd "$(dirname "$0")/.."

APPS=("$@")
if [ "${#APPS[@]}" -eq 0 ]; then
  APPS=(findings-service certificate-service plugin-runner)
fi

export CI=true NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false

projects="$(IFS=,; echo "${APPS[*]}")"
npx nx run-many -t build -p "$projects" --outputStyle=static

dirs=()
for app in "${APPS[@]}"; do
  dirs+=("dist/apps/$app")
done
node tools/build/stamp-build-info.js "${dirs[@]}"
