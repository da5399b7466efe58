#!/usr/bin/env bash
# `npm run openapi`: writes the portable OpenAPI 3 documents of both services to
# docs/openapi/<service>.json, exactly as each service's generator emits them (no
# reformatting: docs/openapi is in .prettierignore, and the staleness test compares bytes).
#
# Each service owns its generator, apps/<service>/src/api/openapi/write-openapi.ts, run from
# TypeScript sources with @swc-node/register. The local stack is started first, because
# a generator may boot modules that open the database.
set -euo pipefail
cd "$(dirname "$0")/../.."

SERVICES=(findings-service certificate-service)

log() { printf '[openapi] %s\n' "$*" >&2; }
die() {
  printf '[openapi] error: %s\n' "$*" >&2
  exit 1
}

bash tools/stack/stack.sh up
eval "$(bash tools/stack/stack.sh env)"
export SWC_NODE_PROJECT=tsconfig.base.json

mkdir -p docs/openapi
for service in "${SERVICES[@]}"; do
  generator="apps/$service/src/api/openapi/write-openapi.ts"
  output="docs/openapi/$service.json"
  [ -f "$generator" ] || die "$generator does not exist (owned by the $service engineers)"
  log "generating $output"
  node -r @swc-node/register "$generator"
  [ -s "$output" ] || die "$generator did not write $output"
  node -e '
    const file = process.argv[1];
    const doc = JSON.parse(require("node:fs").readFileSync(file, "utf8"));
    if (!/^3\./.test(String(doc.openapi))) {
      console.error(`${file}: not an OpenAPI 3 document (openapi: ${doc.openapi})`);
      process.exit(1);
    }
    const paths = Object.keys(doc.paths ?? {}).length;
    console.error(`[openapi] ${file}: OpenAPI ${doc.openapi}, ${paths} paths`);
  ' "$output"
done

# The CLI's typed clients (apps/cli/src/api/*.gen.ts, committed) follow the documents; its
# staleness test (apps/cli/test/api-schema.e2e-spec.ts) fails when they were not regenerated.
log "regenerating the CLI's typed clients (apps/cli/src/api)"
bash apps/cli/tools/generate-api.sh
