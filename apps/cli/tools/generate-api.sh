#!/usr/bin/env bash
# Regenerates the CLI's typed clients from the shipped contracts (docs/openapi/*.json). The
# generated files are committed; test/api-schema.e2e-spec.ts fails when they are stale.
#   OUT_DIR=<dir> bash apps/cli/tools/generate-api.sh   writes them elsewhere (the staleness test)
set -euo pipefail
cd "$(dirname "$0")/../../.."
out="${OUT_DIR:-apps/cli/src/api}"
for service in findings certificate; do
  file="$service"
  [ "$service" = certificate ] && file=certificates
  npx openapi-typescript "docs/openapi/$service-service.json" -o "$out/$file.gen.ts" --enum-values --silent
done
