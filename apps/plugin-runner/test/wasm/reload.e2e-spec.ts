import { waitFor } from '@platform/testing';
import {
  artifactOf,
  BUILD_TIMEOUT_MS,
  enrichCall,
  startTestHost,
  shownSecret,
  tagsOf,
  testComponent,
  type TestComponent,
  type TestHost,
} from './support/wasm-lab';

const TOKEN = 'tok-reload-3b1f77c2';

// A load transpiles and compiles a 12 MB component (seconds; 5-15 s on the
// shared 2-core one under parallel test files); a test with a load and a few calls needs more
// than the preset's 30 s there.
jest.setTimeout(120_000);

/**
 * Reload of tier 1: a new artifact takes new calls at once, calls already accepted finish on
 * the old one's threads, then those stop. Unload lets calls in flight finish too.
 */
describe('WebAssembly sandbox: reload without dropping calls', () => {
  let v1: TestComponent;
  let v2: TestComponent;
  let lab: TestHost;

  beforeAll(async () => {
    v1 = await testComponent('probe');
    // Another artifact as the next version of the installation (its own digest and code).
    v2 = await testComponent('zone-enricher');
  }, 2 * BUILD_TIMEOUT_MS);

  afterEach(async () => {
    await lab?.host.close();
  });

  it('swaps the artifact while a call is in flight; that call finishes on the old one', async () => {
    // The held host call must outlast the reload's transpile (seconds on a loaded machine).
    lab = startTestHost({
      limits: { perPluginLimit: 2, hostCallTimeoutMs: 120_000, callTimeoutMs: 120_000 },
    });
    lab.broker.setSecret('plugin-a', 'api_token', TOKEN);
    const old = artifactOf(v1, 'plugin-a');
    await lab.host.load(old);

    // A call of v1 waits inside its host call (the service has not answered yet).
    const release = lab.broker.hold();
    const inFlight = lab.host.invoke(enrichCall(old, 'secret', 'api_token'));
    await waitFor(() => expect(lab.broker.asked).toHaveLength(1));

    const next = artifactOf(v2, 'plugin-a');
    await lab.host.load(next);
    expect(lab.host.loadedVersion('plugin-a')).toBe(v2.digest);

    // New calls go to v2 at once; a call for v1's digest is refused.
    const zone = await lab.host.invoke({
      ...enrichCall(next, 'any'),
      settings: { zones: [{ cidr: '10.1.0.0/16', zone: 'office' }] },
      payload: {
        finding: { ...(enrichCall(next, 'x').payload['finding'] as object), ip: '10.1.2.3' },
      },
    });
    expect(tagsOf(zone)).toEqual({ enricher: 'zone-enricher/2.0.0', zone: 'office' });
    expect(await lab.host.invoke(enrichCall(old, 'tags'))).toMatchObject({
      ok: false,
      error: { code: 'version_mismatch' },
    });

    // The accepted call of v1 completes on v1.
    release();
    expect(tagsOf(await inFlight)).toEqual({ value: shownSecret(TOKEN) });
    expect(lab.log.lines.some((l) => l['msg'] === 'wasm plugin reloaded')).toBe(true);
  });

  it('unload lets a call in flight finish, then refuses new calls', async () => {
    lab = startTestHost({ limits: { hostCallTimeoutMs: 120_000, callTimeoutMs: 120_000 } });
    lab.broker.setSecret('plugin-a', 'api_token', TOKEN);
    const artifact = artifactOf(v1, 'plugin-a');
    await lab.host.load(artifact);
    const release = lab.broker.hold();
    const inFlight = lab.host.invoke(enrichCall(artifact, 'secret', 'api_token'));
    await waitFor(() => expect(lab.broker.asked).toHaveLength(1));

    const unloaded = lab.host.unload('plugin-a');
    expect(await lab.host.invoke(enrichCall(artifact, 'tags'))).toMatchObject({
      ok: false,
      error: { code: 'not_loaded' },
    });
    release();
    expect(tagsOf(await inFlight)).toEqual({ value: shownSecret(TOKEN) });
    await unloaded;
    expect(lab.host.poolSize('plugin-a')).toBeUndefined();
  });

  it('runs loads of one plugin in order, so the last one wins', async () => {
    lab = startTestHost();
    await Promise.all([
      lab.host.load(artifactOf(v1, 'plugin-a')),
      lab.host.load(artifactOf(v2, 'plugin-a')),
    ]);
    expect(lab.host.loadedVersion('plugin-a')).toBe(v2.digest);
  });
});
