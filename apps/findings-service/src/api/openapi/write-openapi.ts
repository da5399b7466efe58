/**
 * Writes docs/openapi/findings-service.json (no database or Redis needed):
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register \
 *     apps/findings-service/src/api/openapi/write-openapi.ts
 */
import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { exportOpenApiDocument, OPENAPI_FILE, serializeOpenApi } from './openapi-export';

async function main(): Promise<void> {
  const document = await exportOpenApiDocument();
  mkdirSync(dirname(OPENAPI_FILE), { recursive: true });
  writeFileSync(OPENAPI_FILE, serializeOpenApi(document));
  process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
