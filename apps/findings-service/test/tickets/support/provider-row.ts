import { randomUUID } from 'node:crypto';
import { withDb } from '../../support/findings-db';
import type { TestApp } from '../../support/test-app';

/** The settings of the test ticket providers (all per project, as the design's providers). */
export const PROVIDER_SETTINGS = [
  { name: 'base_url', type: 'url', per_project: true },
  { name: 'project_key', type: 'string', per_project: true },
  { name: 'api_token', type: 'string', secret: true, per_project: true },
];

/**
 * An installed ticketing provider written straight into installed_plugins (a sideload row that
 * is never loaded in a runner): enough for the routes that only read installations.
 */
export async function insertProviderRow(
  t: TestApp,
  options: {
    id?: string;
    capabilities?: string[];
    settings?: Record<string, unknown>;
    allowedHosts?: string[];
    enabled?: boolean;
  } = {},
): Promise<string> {
  const capabilities = options.capabilities ?? ['ticketing_provider'];
  const catalogId = options.id ?? `tracker-${randomUUID().slice(0, 8)}`;
  const digest = randomUUID().replace(/-/g, '').repeat(2);
  const manifest = Buffer.from(
    JSON.stringify({
      id: catalogId,
      version: '1.0.0',
      capabilities,
      runtime: 'wasm',
      wit_version: '0.1.0',
      min_service_version: '>=0.33',
      allowed_hosts: options.allowedHosts ?? ['jira.example.com'],
      settings: PROVIDER_SETTINGS,
      artifact_sha256: digest,
    }),
  );
  return withDb(t, async (db) => {
    const rows = await db.query<{ id: string }>(
      `INSERT INTO installed_plugins (source_type, catalog_plugin_id, runtime, enabled, version,
              artifact_sha256, manifest, capabilities, settings)
       VALUES ('sideload', $1, 'wasm', $2, '1.0.0', $3, $4, $5, $6) RETURNING id`,
      [
        catalogId,
        options.enabled ?? true,
        digest,
        manifest,
        capabilities,
        JSON.stringify(options.settings ?? {}),
      ],
    );
    return rows.rows[0]?.id as string;
  });
}
