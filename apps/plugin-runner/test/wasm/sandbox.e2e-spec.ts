import { artifactDigest } from '@platform/plugin-sdk';
import { FROM_SOURCES_NODE_OPTIONS, runScriptFromSources, waitFor } from '@platform/testing';
import { PluginLoadError } from '../../src/plugin-host/plugin-host';
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

// A load transpiles and compiles a 12 MB component (seconds; 5-15 s on the
// shared 2-core one under parallel test files); a test with a load and a few calls needs more
// than the preset's 30 s there.
jest.setTimeout(120_000);

/**
 * Tier 1 with real components built by the SDK build command: load with the import check,
 * a fresh instance per event, the hard deadline, the memory cap, traps, and the pool bounds.
 */
describe('WebAssembly sandbox (tier 1)', () => {
  let probe: TestComponent;
  let lab: TestHost;

  beforeAll(async () => {
    probe = await testComponent('probe');
  }, BUILD_TIMEOUT_MS);

  afterEach(async () => {
    await lab?.host.close();
  });

  it('runs an exported operation with the event context and the settings', async () => {
    lab = startTestHost();
    const artifact = artifactOf(probe, 'probe-1');
    await lab.host.load(artifact);
    expect(lab.host.loadedVersion('probe-1')).toBe(probe.digest);
    const result = await lab.host.invoke(
      enrichCall(artifact, 'tags', '', { eventId: 'event-42', settings: { label: 'blue' } }),
    );
    expect(tagsOf(result)).toEqual({
      severity: 'HIGH',
      'calls-on-instance': '1',
      label: 'blue',
      event: 'event-42',
    });
    expect(lab.observer.invocations).toEqual([
      expect.objectContaining({
        pluginId: 'probe-1',
        runtime: 'wasm',
        capability: 'finding_enricher',
        operation: 'enrich',
        outcome: 'ok',
      }),
    ]);
  });

  it('gives every event a fresh instance, even on one warm thread', async () => {
    lab = startTestHost({ limits: { perPluginLimit: 1 } });
    const artifact = artifactOf(probe, 'probe-1');
    await lab.host.load(artifact);
    const call = (projectId: string, eventId: string) =>
      lab.host
        .invoke(enrichCall(artifact, 'tags', '', { projectId, eventId }))
        .then((r) => tagsOf(r)['calls-on-instance']);
    expect(await call('project-a', 'event-1')).toBe('1');
    // The same event's next call may share its instance (one event, one instance) ...
    expect(await call('project-a', 'event-1')).toBe('2');
    // ... another event, or the same event id of another project, never does.
    expect(await call('project-a', 'event-2')).toBe('1');
    expect(await call('project-b', 'event-2')).toBe('1');
    expect(await call('project-a', 'event-1')).toBe('1');
    expect(lab.host.poolSize('probe-1')).toMatchObject({ idle: 1, busy: 0 });
  });

  it('stops a call that runs past its deadline and keeps serving', async () => {
    lab = startTestHost({ limits: { perPluginLimit: 1 } });
    const artifact = artifactOf(probe, 'probe-1');
    await lab.host.load(artifact);
    const started = Date.now();
    const result = await lab.host.invoke(enrichCall(artifact, 'loop', '', { deadlineMs: 300 }));
    const took = Date.now() - started;
    expect(result).toMatchObject({ ok: false, error: { code: 'deadline_exceeded' } });
    expect(took).toBeGreaterThanOrEqual(300);
    expect(took).toBeLessThan(5_000);
    // The looping thread was terminated; the next call gets a new one.
    expect(tagsOf(await lab.host.invoke(enrichCall(artifact, 'tags')))).toMatchObject({
      'calls-on-instance': '1',
    });
  });

  it('never lets a caller ask for more time than PLUGIN_RUNNER_CALL_TIMEOUT_MS', async () => {
    lab = startTestHost({ limits: { callTimeoutMs: 300 } });
    const artifact = artifactOf(probe, 'probe-1');
    await lab.host.load(artifact);
    const started = Date.now();
    const result = await lab.host.invoke(enrichCall(artifact, 'loop', '', { deadlineMs: 60_000 }));
    expect(result).toMatchObject({ ok: false, error: { code: 'deadline_exceeded' } });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('traps a plugin that allocates past the memory cap and keeps serving', async () => {
    lab = startTestHost({ limits: { memoryLimitMb: 32, perPluginLimit: 1 } });
    const artifact = artifactOf(probe, 'probe-1');
    await lab.host.load(artifact);
    const result = await lab.host.invoke(enrichCall(artifact, 'alloc', '', { deadlineMs: 8_000 }));
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'trap', message: expect.stringMatching(/out of memory/) },
    });
    // Stopped by the cap, not by the deadline.
    expect(result.durationMs).toBeLessThan(8_000);
    expect(tagsOf(await lab.host.invoke(enrichCall(artifact, 'tags')))).toMatchObject({
      severity: 'HIGH',
    });
  });

  it('answers a guest error result as plugin_error and a throw of a non-string as a trap', async () => {
    lab = startTestHost({ limits: { perPluginLimit: 1 } });
    const artifact = artifactOf(probe, 'probe-1');
    await lab.host.load(artifact);
    expect(await lab.host.invoke(enrichCall(artifact, 'refuse', 'no CMDB'))).toMatchObject({
      ok: false,
      error: { code: 'plugin_error', detail: 'refused: no CMDB' },
    });
    // A plugin error leaves the instance usable; the trap discards it.
    expect(await lab.host.invoke(enrichCall(artifact, 'throw-object'))).toMatchObject({
      ok: false,
      error: { code: 'trap' },
    });
    expect(tagsOf(await lab.host.invoke(enrichCall(artifact, 'tags')))).toMatchObject({
      'calls-on-instance': '1',
    });
  });

  it('refuses calls it cannot route, before any instance runs', async () => {
    lab = startTestHost();
    const artifact = artifactOf(probe, 'probe-1');
    await lab.host.load(artifact);
    const codeOf = async (overrides: Parameters<typeof enrichCall>[3]) => {
      const result = await lab.host.invoke(enrichCall(artifact, 'tags', '', overrides));
      return result.ok ? 'ok' : result.error.code;
    };
    expect(await codeOf({ pluginId: 'other' })).toBe('not_loaded');
    expect(await codeOf({ versionDigest: 'b'.repeat(64) })).toBe('version_mismatch');
    expect(await codeOf({ capability: 'ticketing_provider', operation: 'create-task' })).toBe(
      'unsupported_operation',
    );
    expect(await codeOf({ operation: 'poll' })).toBe('unsupported_operation');
    expect(await codeOf({ payload: { finding: { id: 1 } } })).toBe('invalid_payload');
    expect(await codeOf({ payload: { finding: null, extra: 1 } })).toBe('invalid_payload');
    expect(lab.observer.invocations.map((i) => i.outcome)).toEqual([
      'not_loaded',
      'version_mismatch',
      'unsupported_operation',
      'unsupported_operation',
      'invalid_payload',
      'invalid_payload',
    ]);
  });

  describe('load', () => {
    it(
      'refuses a component that imports more than the host interface (a WASI build)',
      async () => {
        const wasi = await testComponent('probe', { enableWasi: ['stdio'] });
        lab = startTestHost();
        const refusal = await lab.host.load(artifactOf(wasi, 'wasi-probe')).catch((e) => e);
        expect(refusal).toBeInstanceOf(PluginLoadError);
        expect(refusal).toMatchObject({ code: 'unsupported_imports' });
        expect((refusal as Error).message).toMatch(/imports .*wasi:/);
        expect((refusal as Error).message).toMatch(/may import only findsvc:plugin\/host@0\.1\.0/);
        expect(lab.host.loadedVersion('wasi-probe')).toBeUndefined();
      },
      BUILD_TIMEOUT_MS,
    );

    it('refuses an artifact whose bytes are not the digest it is loaded as', async () => {
      lab = startTestHost();
      const artifact = artifactOf(probe, 'probe-1');
      const tampered = Buffer.from(artifact.artifact);
      tampered[tampered.length - 1] ^= 1;
      await expect(lab.host.load({ ...artifact, artifact: tampered })).rejects.toMatchObject({
        code: 'digest_mismatch',
      });
    });

    it('refuses bytes that are not a component, and a native manifest', async () => {
      lab = startTestHost();
      const garbage = Buffer.from('not a component at all');
      const digest = artifactDigest(garbage);
      await expect(
        lab.host.load({
          ...artifactOf(probe, 'garbage'),
          artifact: garbage,
          versionDigest: digest,
          manifest: { ...probe.manifest, artifact_sha256: digest },
        }),
      ).rejects.toMatchObject({ code: 'artifact_invalid' });
      await expect(
        lab.host.load({
          ...artifactOf(probe, 'native'),
          manifest: { ...probe.manifest, runtime: 'native' },
        }),
      ).rejects.toMatchObject({ code: 'artifact_invalid' });
    });
  });

  describe('pool bounds', () => {
    it('runs at most PLUGIN_RUNNER_PER_PLUGIN_LIMIT calls of a plugin at once', async () => {
      lab = startTestHost({ limits: { perPluginLimit: 2, queueTimeoutMs: 200 } });
      const artifact = artifactOf(probe, 'probe-1');
      await lab.host.load(artifact);
      const results = await Promise.all(
        [1, 2, 3].map(() =>
          lab.host.invoke(enrichCall(artifact, 'loop', '', { deadlineMs: 1500 })),
        ),
      );
      expect(results.map((r) => (r.ok ? 'ok' : r.error.code)).sort()).toEqual([
        'deadline_exceeded',
        'deadline_exceeded',
        'overloaded',
      ]);
    });

    it('queues a call until a thread is free within PLUGIN_RUNNER_QUEUE_TIMEOUT_MS', async () => {
      lab = startTestHost({ limits: { perPluginLimit: 1, queueTimeoutMs: 20_000 } });
      const artifact = artifactOf(probe, 'probe-1');
      await lab.host.load(artifact);
      const [slow, queued] = await Promise.all([
        lab.host.invoke(enrichCall(artifact, 'loop', '', { deadlineMs: 500 })),
        lab.host.invoke(enrichCall(artifact, 'tags')),
      ]);
      expect(slow).toMatchObject({ ok: false, error: { code: 'deadline_exceeded' } });
      expect(tagsOf(queued)).toMatchObject({ severity: 'HIGH' });
    });

    it('shares PLUGIN_RUNNER_GLOBAL_LIMIT between plugins, evicting idle threads', async () => {
      lab = startTestHost({ limits: { globalLimit: 2, perPluginLimit: 2, queueTimeoutMs: 200 } });
      const a = artifactOf(probe, 'plugin-a');
      const b = artifactOf(probe, 'plugin-b');
      await lab.host.load(a);
      await lab.host.load(b);
      // Both slots busy with plugin A: plugin B waits and is answered overloaded.
      const busy = [1, 2].map(() =>
        lab.host.invoke(enrichCall(a, 'loop', '', { deadlineMs: 1500 })),
      );
      await waitFor(() => expect(lab.host.poolSize('plugin-a')?.busy).toBe(2));
      expect(await lab.host.invoke(enrichCall(b, 'tags'))).toMatchObject({
        ok: false,
        error: { code: 'overloaded' },
      });
      await Promise.all(busy);
      // A's threads died at the deadline; B gets threads now, and A's idle thread (after its
      // next call) is evicted when B needs the room.
      expect(tagsOf(await lab.host.invoke(enrichCall(a, 'tags')))).toBeDefined();
      await Promise.all(
        [1, 2].map(async () => tagsOf(await lab.host.invoke(enrichCall(b, 'tags')))),
      );
      const a1 = lab.host.poolSize('plugin-a');
      const b1 = lab.host.poolSize('plugin-b');
      expect((a1?.idle ?? 0) + (b1?.idle ?? 0)).toBeLessThanOrEqual(2);
    });

    it('stops a thread idle for PLUGIN_RUNNER_KEEP_WARM_SECONDS', async () => {
      lab = startTestHost({ limits: { keepWarmSeconds: 1 } });
      const artifact = artifactOf(probe, 'probe-1');
      await lab.host.load(artifact);
      tagsOf(await lab.host.invoke(enrichCall(artifact, 'tags')));
      expect(lab.host.poolSize('probe-1')?.idle).toBe(1);
      await waitFor(() => expect(lab.host.poolSize('probe-1')?.idle).toBe(0), {
        timeoutMs: 5_000,
      });
    });
  });

  it('starts a sandbox thread with none of the node options the runner was started with', async () => {
    // A runner started as `node -r @swc-node/register --no-deprecation` (as in development and
    // the benchmarks): its sandbox threads must not load the TypeScript compiler too (a 21 MB
    // instead of a 4 MB heap per thread, which every GC of the thread has to mark). The bare
    // glue answers the thread's own process.execArgv.
    const script = `
      const { SandboxThread } = require('./apps/plugin-runner/src/wasm/sandbox/sandbox-thread');
      const glue = 'export function instantiate() { return { probe: { options() { return process.execArgv.join(" "); } } }; }';
      const thread = new SandboxThread(
        { glue, modules: [], memories: [], exports: [], compileMs: 0 },
        { logLinesPerCall: 10, heapLimitMb: 64, eventInstanceIdleMs: 1000, spareInstances: 1 },
      );
      thread.ready
        .then(() => thread.invoke(
          { eventKey: 'e', exportName: 'probe', operation: 'options', args: [], deadlineMs: 10000, hostCallTimeoutMs: 1000 },
          { call: async () => ({ tag: 'ok' }), log: () => undefined },
        ))
        .then(async (outcome) => { console.log(JSON.stringify([process.execArgv, outcome])); await thread.terminate(); });`;
    const stdout = await runScriptFromSources(script);
    const [runnerOptions, outcome] = JSON.parse(stdout.trim().split('\n').pop() ?? '') as [
      string[],
      unknown,
    ];
    expect(runnerOptions.slice(0, 3)).toEqual(FROM_SOURCES_NODE_OPTIONS);
    expect(outcome).toEqual({ kind: 'ok', value: '', droppedLogs: 0 });
  });
});
