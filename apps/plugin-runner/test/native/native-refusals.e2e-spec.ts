import { PluginLoadError } from '../../src/plugin-host/plugin-host';
import { closeHosts, deliverCall, fixtureArtifact, startHost, testLimits } from './native-harness';

afterEach(closeHosts);

async function loadError(load: Promise<void>): Promise<PluginLoadError> {
  const error = await load.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PluginLoadError);
  return error as PluginLoadError;
}

describe('native plugins that are refused', () => {
  it.each([
    ['from an unsigned source', { signed: false }, 'native_unsigned_source'],
    ['from a source without allows_native', { allowsNative: false }, 'native_not_permitted'],
    [
      'declaring a ticketing provider',
      { manifest: { capabilities: ['ticketing_provider'] } },
      'native_capability_refused',
    ],
    [
      'declaring a channel and a ticketing provider',
      { manifest: { capabilities: ['notification_channel', 'ticketing_provider'] } },
      'native_capability_refused',
    ],
    [
      'declaring an enricher',
      { manifest: { capabilities: ['finding_enricher'] } },
      'native_capability_refused',
    ],
    ['whose manifest says wasm', { manifest: { runtime: 'wasm' } }, 'manifest_invalid'],
    [
      'whose artifact differs from the signed digest',
      { artifact: Buffer.from('#!/usr/bin/env node\nprocess.exit(0)\n') },
      'digest_mismatch',
    ],
    [
      'whose manifest names another digest',
      { manifest: { artifactSha256: 'ab'.repeat(32) } },
      'digest_mismatch',
    ],
  ])('refuses one %s before starting anything', async (_name, options, code) => {
    const { host, events } = startHost(testLimits());
    const error = await loadError(host.load(fixtureArtifact(options)));
    expect(error.code).toBe(code);
    expect(events).toEqual([]);
    expect(host.channelOf('chat-1')).toBeUndefined();
  });

  it('refuses an artifact that is neither an ELF binary nor a #! script', async () => {
    const { host } = startHost(testLimits());
    const plain = Buffer.from('console.log("no shebang")\n');
    const artifact = fixtureArtifact({ artifact: plain });
    const digest = require('node:crypto').hash('sha256', plain, 'hex') as string;
    const error = await loadError(
      host.load({
        ...artifact,
        versionDigest: digest,
        manifest: { ...artifact.manifest, artifact_sha256: digest },
      }),
    );
    expect(error.code).toBe('artifact_invalid');
  });

  it.each([
    [
      'prints no handshake line in time',
      'no-handshake',
      /no handshake line on stdout within 1500 ms/,
    ],
    ['prints a malformed handshake line', 'bad-handshake', /bad handshake line/],
    [
      'names a socket outside its private directory',
      'outside-socket',
      /outside the plugin's private directory/,
    ],
    ['never answers SERVING', 'unhealthy', /health check not SERVING/],
  ] as const)(
    'refuses a plugin that %s, and leaves no process behind',
    async (_name, variant, message) => {
      // Short for the silent plugin; long enough elsewhere that a slow start on a loaded
      // machine still reaches the step under test.
      const handshakeTimeoutMs = variant === 'no-handshake' ? 1500 : 5000;
      const { host } = startHost(testLimits({ handshakeTimeoutMs }));
      const error = await loadError(host.load(fixtureArtifact({ variant })));
      expect(error.code).toBe('plugin_start_failed');
      expect(error.message).toMatch(message);
      expect(host.channelOf('chat-1')).toBeUndefined();
    },
  );

  it('refuses a ticketing call to a loaded native plugin at call time, and operations a channel lacks', async () => {
    const { host } = startHost(testLimits());
    const artifact = fixtureArtifact();
    await host.load(artifact);
    expect(
      await host.invoke(
        deliverCall(artifact, { capability: 'ticketing_provider', operation: 'create-task' }),
      ),
    ).toMatchObject({
      ok: false,
      error: { code: 'refused', detail: { reason: 'ticketing_provider_native' } },
    });
    expect(
      await host.invoke(
        deliverCall(artifact, { capability: 'finding_enricher', operation: 'enrich' }),
      ),
    ).toMatchObject({ ok: false, error: { code: 'unsupported_operation' } });
    expect(await host.invoke(deliverCall(artifact, { idempotencyKey: '' }))).toMatchObject({
      ok: false,
      error: { code: 'invalid_payload' },
    });
    expect(await host.invoke(deliverCall(artifact, { pluginId: 'other' }))).toMatchObject({
      ok: false,
      error: { code: 'not_loaded' },
    });
  });
});
