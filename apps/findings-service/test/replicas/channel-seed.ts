import {
  buildNativeChannelFixture,
  publisherKey,
  signedFixture,
} from '@platform/plugin-protocol/testing';
import type { Client } from 'pg';

/**
 * An enabled native channel plugin (the recording fixture of libs/plugin-protocol/testing:
 * every idempotency key it is asked to deliver is appended to `recordFile`) installed from a
 * trusted source and switched on for `projectId` — the rows the install and config routes
 * write. Returns the installation id.
 */
export async function seedRecordingChannel(
  db: Client,
  projectId: string,
  recordFile: string,
): Promise<string> {
  const publisher = publisherKey();
  const fixture = signedFixture(buildNativeChannelFixture('normal', 'replicas-e2e'), publisher, {
    id: 'replica-recorder',
    settings: [
      { name: 'mode', type: 'string', per_project: true },
      { name: 'record_file', type: 'string', per_project: true },
    ],
  });
  await db.query(
    `INSERT INTO plugin_artifacts (digest, content, size) VALUES ($1, $2, $3)
     ON CONFLICT (digest) DO NOTHING`,
    [fixture.digest, fixture.artifact, fixture.artifact.length],
  );
  const { rows: sources } = await db.query<{ id: string }>(
    `INSERT INTO plugin_sources (name, catalog_url, public_key, is_active, allows_native)
     VALUES ('replicas test source', 'https://catalog.test.example/replicas.json', $1, true, true)
     RETURNING id`,
    [publisher.publicKeyPem],
  );
  const { rows: installed } = await db.query<{ id: string }>(
    `INSERT INTO installed_plugins (source_type, marketplace_id, catalog_plugin_id, runtime,
            enabled, version, artifact_sha256, manifest, signature, capabilities)
     VALUES ('marketplace', $1, 'replica-recorder', 'native', true, '1.0.0', $2, $3, $4,
             '{notification_channel}') RETURNING id`,
    [sources[0].id, fixture.digest, fixture.manifestBytes, fixture.signature.toString('base64')],
  );
  const pluginId = installed[0].id;
  await db.query(
    `INSERT INTO project_channel_configs (project_id, installed_plugin_id, settings, origin, updated_at)
     VALUES ($1, $2, $3, 'api', now())`,
    [projectId, pluginId, JSON.stringify({ enabled: true, record_file: recordFile })],
  );
  return pluginId;
}
