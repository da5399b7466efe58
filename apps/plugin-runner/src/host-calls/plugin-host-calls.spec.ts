import { DEFAULT_EGRESS_POLICY, PinnedEgressGuard } from '@platform/egress';
import { validateManifest } from '@platform/plugin-sdk';
import pino from 'pino';
import { Registry } from 'prom-client';
import { EGRESS_DENIALS_METRIC, registerEgressDenials } from '../egress/egress-metrics';
import { RUNNER_EGRESS_LABELS } from '../egress/egress.provider';
import { HostCallRefused } from '../grpc/stream-host-call-broker';
import type { HostCallBroker } from '../plugin-host/plugin-host';
import { SecretScrubber } from '../plugin-host/secret-scrubber';
import { DEFAULT_HOST_CALL_LIMITS, PluginHostCalls } from './plugin-host-calls';
import { PluginLogSink } from './plugin-log';

const CONTEXT = {
  pluginId: 'plugin-a',
  versionDigest: 'a'.repeat(64),
  projectId: 'project-a',
  eventId: 'e-1',
};

const MANIFEST = validateManifest({
  id: 'plugin-a',
  version: '1.0.0',
  capabilities: ['finding_enricher'],
  runtime: 'wasm',
  wit_version: '0.1.0',
  min_service_version: '>=0.33',
  allowed_hosts: ['api.example.com'],
  settings: [
    { name: 'api_token', type: 'string', secret: true },
    { name: 'region_token', type: 'string', secret: true, per_project: true },
  ],
  artifact_sha256: 'a'.repeat(64),
});

/** The findings service as the stream broker reports it: its refusals are HostCallRefused. */
const BROKER: HostCallBroker = {
  getSecret: () => Promise.resolve('installation-value'),
  getProjectSecret: () =>
    Promise.reject(new HostCallRefused('denied', 'the project set no value for region_token')),
  sendEmail: () => Promise.reject(new HostCallRefused('not_configured', 'project mail')),
  isCveKnown: () => Promise.reject(new Error('socket closed')),
};

function hostCalls(callsPerInvocation = DEFAULT_HOST_CALL_LIMITS.callsPerInvocation) {
  const registry = new Registry();
  const lines: string[] = [];
  const denied: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(line) });
  const scrubber = new SecretScrubber();
  const calls = new PluginHostCalls({
    manifest: MANIFEST,
    permittedHosts: MANIFEST.allowed_hosts,
    broker: BROKER,
    egress: new PinnedEgressGuard({
      policy: DEFAULT_EGRESS_POLICY,
      denials: registerEgressDenials(registry),
      labels: RUNNER_EGRESS_LABELS,
    }),
    scrubber,
    log: new PluginLogSink(logger, scrubber, { lineMaxBytes: 2048, linesPerMinute: 10_000 }),
    observer: {
      invocationFinished: () => undefined,
      poolChanged: () => undefined,
      hostCallDenied: (event) => denied.push(`${event.call}:${event.reason}`),
    },
    limits: { ...DEFAULT_HOST_CALL_LIMITS, callsPerInvocation },
  });
  const denials = async (reason: string) => {
    const metric = (await registry.getSingleMetric(EGRESS_DENIALS_METRIC)?.get())?.values ?? [];
    return metric.find((v) => v.labels['reason'] === reason)?.value;
  };
  return { handler: calls.forInvocation(CONTEXT), lines, denied, denials };
}

describe('the host calls of one plugin', () => {
  it('answers a get-project-secret the service refused `denied`, as documented', async () => {
    const { handler } = hostCalls();
    expect(await handler.call('get-project-secret', ['region_token'])).toEqual({
      tag: 'err',
      val: { tag: 'denied', val: 'denied: the project set no value for region_token' },
    });
    // A service that did not answer, or has nothing behind the call, stays `unavailable`.
    expect(await handler.call('send-email', [{ subject: 's', body: 'b' }])).toMatchObject({
      val: { tag: 'unavailable' },
    });
    expect(await handler.call('is-cve-known', [['CVE-2024-0001']])).toMatchObject({
      val: { tag: 'unavailable' },
    });
  });

  it('counts log() among the host calls: past the limit lines are dropped and calls denied', async () => {
    const { handler, lines, denied } = hostCalls(5);
    for (let i = 0; i < 4; i += 1) handler.log('info', `line ${i}`);
    expect(await handler.call('get-secret', ['api_token'])).toEqual({
      tag: 'ok',
      val: 'installation-value',
    });
    handler.log('info', 'the sixth call');
    expect(await handler.call('get-secret', ['api_token'])).toEqual({
      tag: 'err',
      val: { tag: 'denied', val: 'too many host calls' },
    });
    const messages = lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(messages).toEqual([
      'line 0',
      'line 1',
      'line 2',
      'line 3',
      'plugin log lines dropped (rate or size cap)',
    ]);
    expect(denied).toEqual(['log:calls_per_invocation', 'get-secret:calls_per_invocation']);
  });

  it('counts the log() calls the sandbox dropped before they arrived', async () => {
    const { handler } = hostCalls(1000);
    // The sandbox thread reports 999 log calls made so far (most dropped at its per-call cap).
    expect(await handler.call('get-secret', ['api_token'], 999)).toMatchObject({ tag: 'ok' });
    expect(await handler.call('get-secret', ['api_token'], 999)).toEqual({
      tag: 'err',
      val: { tag: 'denied', val: 'too many host calls' },
    });
  });

  it('counts a CONNECT and an over-long URL in plugin_runner_egress_denials_total', async () => {
    const { handler, denials } = hostCalls();
    const request = (method: string, url: string) =>
      handler.call('http-request', [{ method, url, headers: [] }]);
    expect(await request('CONNECT', 'https://api.example.com/')).toMatchObject({
      tag: 'err',
      val: { tag: 'invalid', val: expect.stringMatching(/^method_not_allowed/) },
    });
    // OPTIONS is a method the guard knows, but not one a plugin may use.
    expect(await request('OPTIONS', 'https://api.example.com/')).toMatchObject({
      val: { tag: 'invalid', val: expect.stringMatching(/^method_not_allowed/) },
    });
    expect(await request('GET', `https://api.example.com/${'a'.repeat(9000)}`)).toMatchObject({
      val: { tag: 'invalid', val: expect.stringMatching(/^invalid_url: the URL is longer/) },
    });
    expect(await denials('method_not_allowed')).toBe(2);
    expect(await denials('invalid_url')).toBe(1);
  });
});
