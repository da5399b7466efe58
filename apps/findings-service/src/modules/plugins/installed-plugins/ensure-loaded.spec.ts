import { Registry } from 'prom-client';
import { artifactDigest } from '@platform/plugin-sdk';
import type { FindingsMetrics } from '../../../app/metrics/findings-metrics';
import type { PluginRunnerClient } from '../../plugin-runner-client/plugin-runner.client';
import type { InstalledPluginEntity } from './installed-plugin.entity';
import type { InstalledPluginsRepository } from './installed-plugins.repository';
import type { PluginSecretBox } from './plugin-secret-box';
import { InstalledPluginsService } from './installed-plugins.service';

const ARTIFACT = new TextEncoder().encode('channel program');
const DIGEST = artifactDigest(ARTIFACT);

function row(): InstalledPluginEntity {
  return {
    id: 'p1',
    version: '1.0.0',
    enabled: true,
    runtime: 'native',
    marketplaceId: null,
    artifactSha256: DIGEST,
    signature: null,
    settings: {},
    manifest: JSON.stringify({
      id: 'chat-channel',
      version: '1.0.0',
      capabilities: ['notification_channel'],
      runtime: 'native',
      wit_version: '0.1.0',
      min_service_version: '>=0.33',
      allowed_hosts: [],
      settings: [],
      artifact_sha256: DIGEST,
    }),
  } as unknown as InstalledPluginEntity;
}

/** A runner whose Load takes a while, counting the loads it was asked for. */
function service(): { plugins: InstalledPluginsService; loads: () => number; reads: () => number } {
  let loads = 0;
  let reads = 0;
  const runner = {
    load: async () => {
      loads += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
    },
  } as unknown as PluginRunnerClient;
  const repository = {
    findById: async () => {
      reads += 1;
      return row();
    },
    artifact: async () => ARTIFACT,
    source: async () => null,
  } as unknown as InstalledPluginsRepository;
  const metrics = { registry: new Registry() } as unknown as FindingsMetrics;
  const plugins = new InstalledPluginsService(repository, {} as PluginSecretBox, runner, metrics);
  return { plugins, loads: () => loads, reads: () => reads };
}

describe('InstalledPluginsService.ensureLoaded', () => {
  it('shares one load among concurrent callers (a native Load starts a new process)', async () => {
    const { plugins, loads } = service();
    const answers = await Promise.all(Array.from({ length: 32 }, () => plugins.ensureLoaded('p1')));
    expect(loads()).toBe(1);
    expect(new Set(answers.map((a) => a.generation))).toEqual(new Set([1]));
    expect(answers[0]?.versionDigest).toBe(DIGEST);
    await plugins.ensureLoaded('p1');
    expect(loads()).toBe(1);
  });

  it('reloads once for many callers that saw one runner restart (not_loaded)', async () => {
    const { plugins, loads } = service();
    const { generation } = await plugins.ensureLoaded('p1');
    // 32 calls answered not_loaded; each asks for a reload with the generation it had seen.
    await Promise.all(
      Array.from({ length: 16 }, () =>
        plugins.ensureLoaded('p1', { force: true, seenGeneration: generation }),
      ),
    );
    // Callers arriving after that reload finished do not reload again.
    const late = await plugins.ensureLoaded('p1', { force: true, seenGeneration: generation });
    expect(loads()).toBe(2);
    expect(late.generation).toBe(2);
    // A caller that saw the newer generation fail reloads again.
    await plugins.ensureLoaded('p1', { force: true, seenGeneration: late.generation });
    expect(loads()).toBe(3);
  });

  it('knownDigest: a loaded version is not read again; another digest or a forced load reads', async () => {
    const { plugins, loads, reads } = service();
    await plugins.ensureLoaded('p1');
    expect(reads()).toBe(1);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => plugins.ensureLoaded('p1', { knownDigest: DIGEST })),
    );
    expect(reads()).toBe(1);
    expect(answers.every((a) => a.versionDigest === DIGEST && a.generation === 1)).toBe(true);
    // The caller read another version than the one loaded here: the row decides.
    await plugins.ensureLoaded('p1', { knownDigest: 'f'.repeat(64) });
    expect(reads()).toBe(2);
    await plugins.ensureLoaded('p1', { knownDigest: DIGEST, force: true, seenGeneration: 1 });
    expect(reads()).toBe(3);
    expect(loads()).toBe(2);
  });

  it('knownDigest before any load here: the row is read and loaded once', async () => {
    const { plugins, loads, reads } = service();
    await Promise.all(
      Array.from({ length: 4 }, () => plugins.ensureLoaded('p1', { knownDigest: DIGEST })),
    );
    expect(loads()).toBe(1);
    expect(reads()).toBeGreaterThanOrEqual(1);
  });
});
