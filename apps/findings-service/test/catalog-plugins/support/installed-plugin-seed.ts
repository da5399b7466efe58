import type { FindingsConfig } from '../../../src/app/config/findings-config';
import { PluginSecretBox } from '../../../src/modules/plugins/installed-plugins/plugin-secret-box';
import { withDb } from '../../support/findings-db';
import type { TestApp } from '../../support/test-app';
import type { SignedCatalogPlugin } from './catalog-plugin-lab';

/**
 * An installed, signed catalog plugin as the install lifecycle leaves it (source row with the
 * publisher key, artifact bytes, installation with settings and sealed secrets), written
 * straight into the test database: tests of enrichment and finding sources do not depend on
 * the install routes (another module's, tested there).
 */
export async function seedInstalledPlugin(
  t: { config: FindingsConfig } & Pick<TestApp, 'config'>,
  plugin: SignedCatalogPlugin,
  options: {
    publicKeyPem: string;
    settings: Record<string, unknown>;
    secrets?: Record<string, string>;
    enabled?: boolean;
  },
): Promise<string> {
  const sealed = new PluginSecretBox(t.config).seal(options.secrets ?? {});
  return withDb(t as TestApp, async (db) => {
    const source = await db.query<{ id: string }>(
      `INSERT INTO plugin_sources (name, catalog_url, public_key, is_active)
       VALUES ($1, $2, $3, true) RETURNING id`,
      [
        `test source ${plugin.manifest.id} ${Date.now()}`,
        'https://catalog.test.example/catalog.json',
        options.publicKeyPem,
      ],
    );
    await db.query(
      `INSERT INTO plugin_artifacts (digest, content, size) VALUES ($1, $2, $3)
       ON CONFLICT (digest) DO NOTHING`,
      [plugin.sha256, plugin.component, plugin.component.length],
    );
    const installed = await db.query<{ id: string }>(
      `INSERT INTO installed_plugins (source_type, marketplace_id, catalog_plugin_id, runtime, enabled,
              version, artifact_sha256, manifest, signature, capabilities, settings, secret_settings)
       VALUES ('marketplace', $1, $2, 'wasm', $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [
        source.rows[0]?.id,
        plugin.manifest.id,
        options.enabled ?? true,
        plugin.manifest.version,
        plugin.sha256,
        plugin.manifestBytes,
        plugin.signature,
        plugin.manifest.capabilities,
        JSON.stringify(options.settings),
        sealed,
      ],
    );
    return installed.rows[0]?.id as string;
  });
}

/** Switches an installation on or off (what the enable/disable routes store). */
export async function setPluginEnabled(t: TestApp, id: string, enabled: boolean): Promise<void> {
  await withDb(t, (db) =>
    db.query(`UPDATE installed_plugins SET enabled = $2 WHERE id = $1`, [id, enabled]),
  );
}

/** A SARIF log of `count` network findings: result i on `ipOf(i)`, port 1000 + i % 60000. */
export function networkSarif(count: number, ipOf: (i: number) => string, tool = 'NetScan'): string {
  const results = Array.from({ length: count }, (_, i) => ({
    ruleId: 'open-port',
    level: 'warning',
    message: { text: `Open port ${1000 + (i % 60000)} on ${ipOf(i)}` },
    properties: { ip: ipOf(i), port: 1000 + (i % 60000), protocol: 'tcp' },
  }));
  return JSON.stringify({
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: tool,
            rules: [{ id: 'open-port', shortDescription: { text: 'Open port' } }],
          },
        },
        results,
      },
    ],
  });
}
