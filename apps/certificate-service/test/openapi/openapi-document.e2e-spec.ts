import SwaggerParser from '@apidevtools/swagger-parser';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { renderOpenApiDocument } from '../../src/api/openapi/render-openapi';
import { OPENAPI_OUTPUT } from '../../src/api/openapi/write-openapi';

const COMMITTED = resolve(__dirname, '../../../..', OPENAPI_OUTPUT);
const REGENERATE =
  'SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register apps/certificate-service/src/api/openapi/write-openapi.ts';

describe('OpenAPI document - docs/openapi/certificate-service.json', () => {
  let rendered: string;
  beforeAll(async () => {
    rendered = await renderOpenApiDocument();
  });

  it('is a valid OpenAPI 3 document with version X.Y', async () => {
    const committed = JSON.parse(readFileSync(COMMITTED, 'utf8')) as {
      openapi: string;
      info: { version: string };
    };
    expect(committed.openapi).toMatch(/^3\./);
    expect(committed.info.version).toMatch(/^\d+\.\d+$/);
    await expect(
      SwaggerParser.validate(structuredClone(committed) as never),
    ).resolves.toBeDefined();
  });

  it(`matches the code (regenerate with: ${REGENERATE})`, () => {
    // Compared as data in key order, so reformatting the file (prettier) does not matter.
    const canonical = (text: string) => JSON.stringify(JSON.parse(text));
    expect(canonical(readFileSync(COMMITTED, 'utf8'))).toBe(canonical(rendered));
  });

  it('renders the same text twice (deterministic)', async () => {
    expect(await renderOpenApiDocument()).toBe(rendered);
  });
});
