import { waitFor } from '@platform/testing';
import { existsSync, statSync } from 'node:fs';
import type { InvocationResult, JsonValue } from '../../src/plugin-host/plugin-host';
import {
  MemoryBroker,
  closeHosts,
  deliverCall,
  fixtureArtifact,
  processAlive,
  recordFile,
  startHost,
  testLimits,
  waitForGone,
} from './native-harness';

afterEach(closeHosts);

function value(result: InvocationResult): Record<string, JsonValue> {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`);
  return result.value as Record<string, JsonValue>;
}

function resultOf(result: InvocationResult): Record<string, JsonValue> {
  return value(result)['result'] as Record<string, JsonValue>;
}

const PROJECT = '11111111-1111-4111-8111-111111111111';

describe('native channel plugin lifecycle', () => {
  it('spawns the signed, permitted plugin with a minimal environment and the heap limit, health-checks it and delivers', async () => {
    const broker = new MemoryBroker(
      { 'chat-1/service_token': 'svc-secret-1' },
      { [`chat-1/${PROJECT}/bot_token`]: 'bot-secret-22' },
    );
    const { host, statuses } = startHost(testLimits({ memoryLimitMb: 96 }), broker);
    const artifact = fixtureArtifact();
    await host.load(artifact);
    const channel = host.channelOf('chat-1')!;
    expect(channel.status).toBe('ready');
    expect(statuses).toContainEqual({ pluginId: 'chat-1', serving: true });

    const result = await host.invoke(deliverCall(artifact));
    expect(value(result)).toMatchObject({ delivered: true, duplicate: false, message: 'sent' });
    const seen = resultOf(result);
    expect(seen['pid']).toBe(channel.pid);
    expect(seen['event']).toEqual({ kind: 'new_findings', count: 3 });
    expect(seen['settings']).toEqual({ chat_id: '42' });
    expect(seen['context']).toEqual({
      plugin_id: 'chat-1',
      version_digest: artifact.versionDigest,
      project_id: PROJECT,
      event_id: 'event-1',
    });
    // Secret-marked settings of the manifest, fetched through the broker for this project.
    expect(seen['secret_names']).toEqual(['bot_token', 'service_token']);
    expect(seen['secret_lengths']).toEqual({ bot_token: 13, service_token: 12 });
    expect(broker.calls).toEqual([
      `get-project-secret chat-1 ${PROJECT} bot_token`,
      'get-secret chat-1 service_token',
    ]);
    // Nothing of the runner's environment: the cookie, the protocol, the socket directory.
    expect(seen['env_keys']).toEqual([
      'FINDSVC_PLUGIN_EGRESS_ALLOW_HTTP',
      'FINDSVC_PLUGIN_EGRESS_ALLOW_LOCAL_DIAL',
      'FINDSVC_PLUGIN_HOST_SOCKET',
      'FINDSVC_PLUGIN_MAGIC_COOKIE',
      'FINDSVC_PLUGIN_PROTOCOL_VERSIONS',
      'FINDSVC_PLUGIN_SOCKET_DIR',
      'HOME',
      'LANG',
      'NODE_PATH',
      'PATH',
      'TMPDIR',
    ]);
    // V8's heap limit follows PLUGIN_NATIVE_MEMORY_LIMIT_MB (old space plus young space).
    expect(seen['heap_limit_mb']).toBeGreaterThanOrEqual(96);
    expect(seen['heap_limit_mb']).toBeLessThan(96 + 64);
  });

  it('keeps the socket in a private 0700 directory it removes when the plugin is unloaded; Shutdown ends the process', async () => {
    const { host, events } = startHost(testLimits());
    const artifact = fixtureArtifact();
    await host.load(artifact);
    const pid = host.channelOf('chat-1')!.pid!;
    const dir = `/proc/${pid}/cwd`;
    const privateDir = require('node:fs').realpathSync(dir) as string;
    expect(statSync(privateDir).mode & 0o777).toBe(0o700);
    expect(existsSync(`${privateDir}/plugin.sock`)).toBe(true);

    await host.unload('chat-1');
    expect(processAlive(pid)).toBe(false);
    expect(existsSync(privateDir)).toBe(false);
    expect(events.map((e) => e.event)).toContainEqual({
      kind: 'stopped-process',
      pid,
      step: 'shutdown',
    });
  });

  it('does not deliver a duplicate idempotency key twice, sequentially or concurrently; keys are per project', async () => {
    const { host } = startHost(testLimits());
    const artifact = fixtureArtifact();
    await host.load(artifact);
    const record = recordFile();
    const settings = { chat_id: '42', record_file: record.path };

    const first = await host.invoke(deliverCall(artifact, { settings, idempotencyKey: 'k-1' }));
    const again = await host.invoke(deliverCall(artifact, { settings, idempotencyKey: 'k-1' }));
    expect(value(first)['duplicate']).toBe(false);
    expect(value(again)).toMatchObject({ delivered: true, duplicate: true });
    expect(resultOf(again)['pid']).toBe(resultOf(first)['pid']);

    const concurrent = await Promise.all(
      [1, 2, 3].map(() =>
        host.invoke(
          deliverCall(artifact, {
            settings: { ...settings, mode: 'slow', delay_ms: '200' },
            idempotencyKey: 'k-2',
          }),
        ),
      ),
    );
    expect(concurrent.map((r) => value(r)['duplicate']).sort()).toEqual([false, true, true]);

    const otherProject = await host.invoke(
      deliverCall(artifact, {
        settings,
        idempotencyKey: 'k-1',
        projectId: '22222222-2222-4222-8222-222222222222',
      }),
    );
    expect(value(otherProject)['duplicate']).toBe(false);
    expect(record.keys()).toEqual(['k-1', 'k-2', 'k-1']);
  });

  it('lets a failed delivery be retried under its key, and scrubs secrets from what the plugin says', async () => {
    const broker = new MemoryBroker({}, { [`chat-1/${PROJECT}/bot_token`]: 'bot-secret-22' });
    const { host, logs } = startHost(testLimits(), broker);
    const artifact = fixtureArtifact();
    await host.load(artifact);
    const record = recordFile();

    const failed = await host.invoke(
      deliverCall(artifact, {
        settings: { mode: 'fail', record_file: record.path },
        idempotencyKey: 'k',
      }),
    );
    expect(failed).toMatchObject({
      ok: false,
      error: { code: 'plugin_error', message: 'target unreachable', detail: { retryable: true } },
    });
    // What the plugin answered with FAILED (e.g. a target's retry_after_seconds) reaches the caller.
    expect(!failed.ok && failed.error.detail).toMatchObject({
      result: { settings: { mode: 'fail' } },
    });
    const retried = await host.invoke(
      deliverCall(artifact, { settings: { record_file: record.path }, idempotencyKey: 'k' }),
    );
    expect(value(retried)['duplicate']).toBe(false);
    expect(record.keys()).toEqual(['k', 'k']);

    const rejected = await host.invoke(
      deliverCall(artifact, { settings: { mode: 'reject' }, idempotencyKey: 'k-r' }),
    );
    expect(rejected).toMatchObject({
      ok: false,
      error: {
        code: 'plugin_error',
        message: 'chat not found (token [redacted])',
        detail: { outcome: 'rejected', retryable: false },
      },
    });
    expect(JSON.stringify(rejected)).not.toContain('bot-secret-22');
    expect(logs()).not.toContain('bot-secret-22');
  });

  it('stops a call at its deadline', async () => {
    const { host } = startHost(testLimits());
    const artifact = fixtureArtifact();
    await host.load(artifact);
    const started = Date.now();
    const result = await host.invoke(
      deliverCall(artifact, { settings: { mode: 'slow', delay_ms: '5000' }, deadlineMs: 300 }),
    );
    expect(result).toMatchObject({ ok: false, error: { code: 'deadline_exceeded' } });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('refuses deliveries over the rate limit', async () => {
    const { host } = startHost(testLimits({ ratePerMinute: 2 }));
    const artifact = fixtureArtifact();
    await host.load(artifact);
    for (const key of ['a', 'b']) {
      expect((await host.invoke(deliverCall(artifact, { idempotencyKey: key }))).ok).toBe(true);
    }
    // A duplicate is answered from memory and costs nothing.
    expect((await host.invoke(deliverCall(artifact, { idempotencyKey: 'a' }))).ok).toBe(true);
    expect(await host.invoke(deliverCall(artifact, { idempotencyKey: 'c' }))).toMatchObject({
      ok: false,
      error: { code: 'overloaded', detail: { reason: 'rate_limited' } },
    });
  });

  it('restarts a killed process with growing back-off, then gives up after PLUGIN_NATIVE_MAX_RESTARTS', async () => {
    const { host, events, restarts } = startHost(
      testLimits({ maxRestarts: 2, restartBackoffInitialMs: 300 }),
    );
    const artifact = fixtureArtifact();
    await host.load(artifact);
    const channel = host.channelOf('chat-1')!;

    const readyAfter = async (oldPid: number) => {
      process.kill(oldPid, 'SIGKILL');
      const killedAt = Date.now();
      const pid = await waitFor(
        () => {
          const next = channel.pid;
          if (next === undefined || next === oldPid) throw new Error(`state ${channel.status}`);
          return next;
        },
        { timeoutMs: 15_000, what: 'a restarted process' },
      );
      return { pid, tookMs: Date.now() - killedAt };
    };

    const first = await readyAfter(channel.pid!);
    const second = await readyAfter(first.pid);
    const delays = events.flatMap((e) => (e.event.kind === 'restart' ? [e.event.delayMs] : []));
    expect(delays).toEqual([300, 600]);
    expect(first.tookMs).toBeGreaterThanOrEqual(300);
    expect(second.tookMs).toBeGreaterThanOrEqual(600);
    expect(restarts).toEqual([
      { pluginId: 'chat-1', reason: 'crash' },
      { pluginId: 'chat-1', reason: 'crash' },
    ]);
    expect((await host.invoke(deliverCall(artifact, { idempotencyKey: 'after' }))).ok).toBe(true);

    process.kill(second.pid, 'SIGKILL');
    await waitFor(
      () => {
        if (channel.status !== 'failed') throw new Error(channel.status);
      },
      { what: 'the plugin to be marked failed' },
    );
    expect(await host.invoke(deliverCall(artifact, { idempotencyKey: 'late' }))).toMatchObject({
      ok: false,
      error: { code: 'refused', detail: { reason: 'plugin_failed' } },
    });
  });

  it('answers a crash during a call as a trap and serves the next call from the restarted process', async () => {
    const { host } = startHost(testLimits());
    const artifact = fixtureArtifact();
    await host.load(artifact);
    const pid = host.channelOf('chat-1')!.pid!;
    const crashed = await host.invoke(
      deliverCall(artifact, { settings: { mode: 'crash' }, idempotencyKey: 'boom' }),
    );
    expect(crashed).toMatchObject({ ok: false, error: { code: 'trap' } });
    // The next call waits for the restart within its deadline.
    const next = await host.invoke(deliverCall(artifact, { idempotencyKey: 'boom' }));
    expect(value(next)['duplicate']).toBe(false);
    expect(resultOf(next)['pid']).not.toBe(pid);
  });

  it('restarts a process whose health check fails twice', async () => {
    const { host, restarts } = startHost(testLimits({ healthIntervalMs: 100 }));
    const artifact = fixtureArtifact();
    await host.load(artifact);
    const pid = host.channelOf('chat-1')!.pid!;
    await host.invoke(deliverCall(artifact, { settings: { mode: 'sicken' } }));
    await waitForGone(pid);
    await waitFor(
      () => {
        expect(restarts).toContainEqual({ pluginId: 'chat-1', reason: 'unhealthy' });
        expect(host.channelOf('chat-1')!.status).toBe('ready');
      },
      { what: 'a restart for health' },
    );
  });

  it('exits when its stdin closes', async () => {
    const { host, events } = startHost(testLimits());
    await host.load(fixtureArtifact());
    const pid = host.channelOf('chat-1')!.pid!;
    host.channelOf('chat-1')!.closeStdinOfCurrent();
    await waitForGone(pid, 'the plugin to exit after stdin closed');
    expect(events.map((e) => e.event)).not.toContainEqual(
      expect.objectContaining({ kind: 'stopped-process', pid }),
    );
  });

  it('escalates to SIGTERM and SIGKILL when the plugin ignores Shutdown', async () => {
    const { host, events } = startHost(testLimits({ stopTimeoutMs: 300 }));
    await host.load(fixtureArtifact({ variant: 'ignore-shutdown' }));
    const pid = host.channelOf('chat-1')!.pid!;
    const started = Date.now();
    await host.unload('chat-1');
    expect(processAlive(pid)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
    expect(events.map((e) => e.event)).toContainEqual({
      kind: 'stopped-process',
      pid,
      step: 'sigkill',
    });
  });

  it('reloads: starts the new version, checks it, switches, lets the old finish its call and stops it', async () => {
    const { host, events } = startHost(testLimits());
    const v1 = fixtureArtifact({ build: 'v1' });
    await host.load(v1);
    const oldPid = host.channelOf('chat-1')!.pid!;
    const inFlight = host.invoke(
      deliverCall(v1, { settings: { mode: 'slow', delay_ms: '800' }, idempotencyKey: 'slow' }),
    );
    await waitFor(() => expect(host.channelOf('chat-1')!.busy).toBe(true), {
      what: 'the slow call to reach the plugin',
    });

    const v2 = fixtureArtifact({ build: 'v2', manifest: { version: '1.1.0' } });
    expect(v2.versionDigest).not.toBe(v1.versionDigest);
    await host.load(v2);
    const newPid = host.channelOf('chat-1')!.pid!;
    expect(newPid).not.toBe(oldPid);

    expect(value(await inFlight)).toMatchObject({ delivered: true, message: 'sent late' });
    expect(resultOf(await inFlight)['pid']).toBe(oldPid);
    await waitForGone(oldPid);
    // The event follows the host seeing the exit, which can come a moment after the pid is gone.
    await waitFor(
      () =>
        expect(events.map((e) => e.event)).toContainEqual({
          kind: 'stopped-process',
          pid: oldPid,
          step: 'shutdown',
        }),
      { what: 'the old process recorded as stopped by Shutdown' },
    );
    // The old version's digest is refused now; the new one is served.
    expect(await host.invoke(deliverCall(v1, { idempotencyKey: 'x' }))).toMatchObject({
      ok: false,
      error: { code: 'version_mismatch' },
    });
    expect(resultOf(await host.invoke(deliverCall(v2, { idempotencyKey: 'x' })))['pid']).toBe(
      newPid,
    );
  });

  it('replaces a process at the end of its lease without refusing calls', async () => {
    const { host, events } = startHost(testLimits({ leaseSeconds: 1 }));
    const artifact = fixtureArtifact();
    await host.load(artifact);
    const firstPid = host.channelOf('chat-1')!.pid!;
    await waitFor(() => expect(events.map((e) => e.event.kind)).toContain('recycled'), {
      timeoutMs: 15_000,
      what: 'the lease to run out',
    });
    await waitForGone(firstPid);
    const result = await host.invoke(deliverCall(artifact, { idempotencyKey: 'after-lease' }));
    expect(resultOf(result)['pid']).not.toBe(firstPid);
  });
});
