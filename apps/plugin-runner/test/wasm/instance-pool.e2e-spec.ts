import { setTimeout as sleep } from 'node:timers/promises';
import { tinyComponent } from './support/tiny-component';
import {
  artifactOf,
  BUILD_TIMEOUT_MS,
  enrichCall,
  startTestHost,
  tagsOf,
  testComponent,
  type TestComponent,
  type TestHost,
} from './support/wasm-lab';

// Loads of the 12 MB probe take seconds on a shared machine; the tiny components load at once.
jest.setTimeout(120_000);

/**
 * The instance pool of a sandbox thread (PLUGIN_RUNNER_SPARE_INSTANCES): every event gets a
 * never-used instance, and the only thing a used instance hands on — its linear memory, set
 * back to zeros and reused by a new instance — carries nothing across. A fresh instance of the
 * tiny `counter` plugin answers `m1g1p1` (memory counter 1, global counter 1, 1 page); a
 * memory recycled without zeroing would show m2, a reused instance g2, a grown memory p2.
 */
describe('WebAssembly sandbox: instance pool isolation', () => {
  let lab: TestHost | undefined;
  let counter: TestComponent;
  let grow: TestComponent;

  beforeAll(async () => {
    [counter, grow] = await Promise.all([tinyComponent('counter'), tinyComponent('grow')]);
  }, BUILD_TIMEOUT_MS);

  afterEach(async () => {
    await lab?.host.close();
    lab = undefined;
  });

  const stateOf = async (
    host: TestHost,
    artifact: ReturnType<typeof artifactOf>,
    projectId: string,
    eventId: string,
  ) =>
    tagsOf(await host.host.invoke(enrichCall(artifact, 'any', '', { projectId, eventId })))['soak'];

  it('passes no memory, global or instance from one event or project to the next', async () => {
    const host = (lab = startTestHost({ limits: { perPluginLimit: 1, spareInstances: 2 } }));
    const artifact = artifactOf(counter, 'counter');
    await host.host.load(artifact);
    const seen: string[] = [];
    for (let i = 0; i < 12; i++) {
      const projectId = i % 2 === 0 ? 'project-a' : 'project-b';
      seen.push(await stateOf(host, artifact, projectId, `event-${i}`));
      // The same event's next call shares its instance (one event, one instance) ...
      if (i % 3 === 0) seen.push(await stateOf(host, artifact, projectId, `event-${i}`));
      // ... and a pause lets the thread zero the used memories and make new spares with them.
      if (i % 4 === 1) await sleep(30);
    }
    // The same event id in another project is another event.
    seen.push(await stateOf(host, artifact, 'project-a', 'shared-id'));
    seen.push(await stateOf(host, artifact, 'project-b', 'shared-id'));
    expect(seen).toEqual([
      'm1g1p1',
      'm2g2p1',
      'm1g1p1',
      'm1g1p1',
      'm1g1p1',
      'm2g2p1',
      'm1g1p1',
      'm1g1p1',
      'm1g1p1',
      'm2g2p1',
      'm1g1p1',
      'm1g1p1',
      'm1g1p1',
      'm2g2p1',
      'm1g1p1',
      'm1g1p1',
      'm1g1p1',
      'm1g1p1',
    ]);
    expect(host.host.poolSize('counter')).toMatchObject({ idle: 1, busy: 0 });
  });

  it('gives an event whose instance sat idle past its time a fresh one', async () => {
    const host = (lab = startTestHost({
      limits: { perPluginLimit: 1, spareInstances: 1 },
      eventInstanceIdleMs: 50,
    }));
    const artifact = artifactOf(counter, 'counter');
    await host.host.load(artifact);
    expect(await stateOf(host, artifact, 'project-a', 'event-1')).toBe('m1g1p1');
    await sleep(150);
    expect(await stateOf(host, artifact, 'project-a', 'event-1')).toBe('m1g1p1');
    expect(await stateOf(host, artifact, 'project-a', 'event-1')).toBe('m2g2p1');
  });

  it('never hands on a memory that grew (it cannot shrink back to a fresh one)', async () => {
    const host = (lab = startTestHost({ limits: { perPluginLimit: 1, spareInstances: 1 } }));
    const artifact = artifactOf(grow, 'grow');
    await host.host.load(artifact);
    const seen: string[] = [];
    for (let i = 0; i < 6; i++) {
      seen.push(await stateOf(host, artifact, 'project-a', `event-${i}`));
      if (i === 2) seen.push(await stateOf(host, artifact, 'project-a', `event-${i}`));
      await sleep(20);
    }
    expect(seen).toEqual(['m1g1p1', 'm1g1p1', 'm1g1p1', 'm2g2p2', 'm1g1p1', 'm1g1p1', 'm1g1p1']);
  });

  it('keeps concurrent events of two projects apart', async () => {
    const host = (lab = startTestHost({ limits: { perPluginLimit: 2, spareInstances: 2 } }));
    const artifact = artifactOf(counter, 'counter');
    await host.host.load(artifact);
    const states = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        stateOf(host, artifact, i % 2 ? 'project-a' : 'project-b', `event-${i}`),
      ),
    );
    expect(new Set(states)).toEqual(new Set(['m1g1p1']));
  });

  describe('a componentize-js plugin (module-level state in its JavaScript)', () => {
    it(
      'starts every event from the initial state, after errors and traps too',
      async () => {
        const probe = await testComponent('probe');
        const host = (lab = startTestHost({ limits: { perPluginLimit: 1, spareInstances: 3 } }));
        const artifact = artifactOf(probe, 'probe-pool');
        await host.host.load(artifact);
        const calls = async (projectId: string, eventId: string) =>
          tagsOf(await host.host.invoke(enrichCall(artifact, 'tags', '', { projectId, eventId })))[
            'calls-on-instance'
          ];
        const seen: string[] = [];
        for (let i = 0; i < 8; i++) {
          seen.push(await calls(i % 2 ? 'project-a' : 'project-b', `event-${i}`));
        }
        seen.push(await calls('project-a', 'event-7'));
        // A guest error leaves the thread; a trap replaces it. Neither hands anything on.
        const refused = await host.host.invoke(
          enrichCall(artifact, 'refuse', 'no', { eventId: 'e-x' }),
        );
        expect(refused).toMatchObject({ ok: false, error: { code: 'plugin_error' } });
        seen.push(await calls('project-a', 'event-8'));
        const trapped = await host.host.invoke(
          enrichCall(artifact, 'throw-object', '', { eventId: 'e-y' }),
        );
        expect(trapped).toMatchObject({ ok: false, error: { code: 'trap' } });
        seen.push(await calls('project-b', 'event-9'));
        expect(seen).toEqual(['1', '1', '1', '1', '1', '1', '1', '1', '2', '1', '1']);
      },
      BUILD_TIMEOUT_MS,
    );
  });
});
