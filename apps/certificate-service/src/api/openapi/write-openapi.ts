import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { renderOpenApiDocument } from './render-openapi';

/**
 * Writes docs/openapi/certificate-service.json. No database is needed: the Nest app is
 * created in preview mode (modules scanned, providers never instantiated).
 *
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register \
 *     apps/certificate-service/src/api/openapi/write-openapi.ts [output]
 */
export const OPENAPI_OUTPUT = 'docs/openapi/certificate-service.json';

async function main(): Promise<void> {
  const output = resolve(process.argv[2] ?? OPENAPI_OUTPUT);
  writeFileSync(output, await renderOpenApiDocument());
  process.stdout.write(`wrote ${output}\n`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `write-openapi failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
}
