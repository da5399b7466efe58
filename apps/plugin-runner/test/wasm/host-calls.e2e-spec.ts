import { EgressLab } from '../egress/support/egress-lab';
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

const TOKEN_A = 'tok-A-5f2c9e1d-installation';
const TOKEN_B = 'tok-B-8a7b6c5d-installation';
const REGION_A = 'region-A-of-project-a-91c3';
const REGION_B = 'region-A-of-project-b-27d4';

// A load transpiles and compiles a 12 MB component (seconds; 5-15 s on the
// shared 2-core one under parallel test files); a test with a load and a few calls needs more
// than the preset's 30 s there.
jest.setTimeout(120_000);

/**
 * The host calls of tier 1, enforced by the runner whatever the guest asks: secrets of the
 * calling plugin only (project secrets of the event's project), every secret value scrubbed
 * from logs and error texts, log lines capped in size and rate, e-mail and CVE questions
 * bound to the event, and http-request through the egress guard only.
 */
describe('WebAssembly sandbox: host calls', () => {
  let probe: TestComponent;
  let lab: TestHost;

  beforeAll(async () => {
    probe = await testComponent('probe');
  }, BUILD_TIMEOUT_MS);

  afterEach(async () => {
    await lab?.host.close();
  });

  describe('secrets', () => {
    beforeEach(async () => {
      lab = startTestHost({ limits: { perPluginLimit: 1 } });
      lab.broker.setSecret('plugin-a', 'api_token', TOKEN_A);
      lab.broker.setSecret('plugin-b', 'api_token', TOKEN_B);
      lab.broker.setProjectSecret('plugin-a', 'project-a', 'region_token', REGION_A);
      lab.broker.setProjectSecret('plugin-a', 'project-b', 'region_token', REGION_B);
      await lab.host.load(artifactOf(probe, 'plugin-a'));
      await lab.host.load(artifactOf(probe, 'plugin-b'));
    });

    const read = async (pluginId: string, rule: string, name: string, projectId = 'project-a') =>
      tagsOf(
        await lab.host.invoke(enrichCall(artifactOf(probe, pluginId), rule, name, { projectId })),
      );

    it('answers a plugin its own installation secret only', async () => {
      expect(await read('plugin-a', 'secret', 'api_token')).toEqual({
        value: shownSecret(TOKEN_A),
      });
      expect(await read('plugin-b', 'secret', 'api_token')).toEqual({
        value: shownSecret(TOKEN_B),
      });
      // The plugin names only a setting; the plugin id comes from the invocation.
      expect(
        lab.broker.asked.filter((a) => a.call === 'get-secret').map((a) => a.context.pluginId),
      ).toEqual(['plugin-a', 'plugin-b']);
    });

    it('answers a project secret of the event’s project only', async () => {
      expect(await read('plugin-a', 'project-secret', 'region_token', 'project-a')).toEqual({
        value: shownSecret(REGION_A),
      });
      expect(await read('plugin-a', 'project-secret', 'region_token', 'project-b')).toEqual({
        value: shownSecret(REGION_B),
      });
      expect(await read('plugin-a', 'project-secret', 'region_token', 'project-c')).toEqual({
        value: '<none>',
      });
      expect(await read('plugin-b', 'project-secret', 'region_token', 'project-a')).toEqual({
        value: '<none>',
      });
    });

    it('refuses names that are not secret-marked settings of the plugin, without asking', async () => {
      const before = lab.broker.asked.length;
      for (const name of ['label', 'url', 'API_TOKEN', 'other_plugin/api_token', '']) {
        expect(await read('plugin-a', 'secret', name)).toEqual({
          error: expect.stringMatching(/^denied: .* is not a secret setting of this plugin$/),
        });
      }
      expect(await read('plugin-a', 'project-secret', 'label')).toEqual({
        error: expect.stringMatching(/^denied:/),
      });
      expect(lab.broker.asked.length).toBe(before);
      expect(lab.observer.denials).toHaveLength(6);
      expect(lab.observer.denials[0]).toEqual({
        pluginId: 'plugin-a',
        call: 'get-secret',
        reason: 'not_a_secret_setting',
      });
    });

    it('answers a host call past PLUGIN_RUNNER_HOST_CALL_TIMEOUT_MS unavailable and drops the late reply', async () => {
      await lab.host.close();
      lab = startTestHost({ limits: { perPluginLimit: 1, hostCallTimeoutMs: 300 } });
      lab.broker.setSecret('plugin-a', 'api_token', TOKEN_A);
      lab.broker.setProjectSecret('plugin-a', 'project-a', 'region_token', REGION_A);
      await lab.host.load(artifactOf(probe, 'plugin-a'));
      const release = lab.broker.hold();
      expect(await read('plugin-a', 'secret', 'api_token')).toEqual({
        error: 'unavailable: get-secret timed out',
      });
      // The service answers now, too late: the same thread's next host call must get its own
      // answer (matched by sequence number), not the stale one.
      release();
      expect(await read('plugin-a', 'project-secret', 'region_token')).toEqual({
        value: shownSecret(REGION_A),
      });
      expect(await read('plugin-a', 'project-secret', 'region_token')).toEqual({
        value: shownSecret(REGION_A),
      });
    });

    it('never passes a secret value on in an answer: a copy in a tag is [redacted]', async () => {
      expect(await read('plugin-a', 'leak-in-tag', 'api_token')).toEqual({
        value: 'token [redacted] copied',
      });
    });

    it('never writes a secret value into the logs or an error message', async () => {
      await read('plugin-a', 'secret', 'api_token');
      await read('plugin-a', 'project-secret', 'region_token', 'project-b');
      const failed = await lab.host.invoke(
        enrichCall(artifactOf(probe, 'plugin-a'), 'leak-in-error', 'api_token'),
      );
      expect(failed).toMatchObject({
        ok: false,
        error: {
          code: 'plugin_error',
          message: 'could not use [redacted]',
          detail: 'could not use [redacted]',
        },
      });
      const lines = lab.log.pluginLines('plugin-a');
      expect(lines.map((l) => l['msg'])).toEqual([
        'read api_token: [redacted]',
        'again, quoted: "[redacted]"',
        'read region_token: [redacted]',
        'again, quoted: "[redacted]"',
      ]);
      // The runner, not the plugin, names who wrote the line.
      expect(lines[2]).toMatchObject({
        plugin_id: 'plugin-a',
        plugin_version: '1.0.0',
        project_id: 'project-b',
        source: 'plugin',
      });
      for (const secret of [TOKEN_A, REGION_B]) expect(lab.log.raw).not.toContain(secret);
      expect(lab.log.raw).toContain('[redacted]');
    });
  });

  describe('log', () => {
    it('cuts a long line at PLUGIN_RUNNER_LOG_LINE_MAX_BYTES', async () => {
      lab = startTestHost({ limits: { logLineMaxBytes: 256 } });
      const artifact = artifactOf(probe, 'plugin-a');
      await lab.host.load(artifact);
      tagsOf(await lab.host.invoke(enrichCall(artifact, 'log-long', '10000')));
      const [line] = lab.log.pluginLines();
      expect(Buffer.byteLength(line['msg'] as string)).toBeLessThanOrEqual(256);
      expect(line['msg']).toMatch(/^x+ \[cut\]$/);
    });

    it('keeps PLUGIN_RUNNER_LOG_LINES_PER_MINUTE lines and counts the dropped ones', async () => {
      lab = startTestHost({ limits: { logLinesPerMinute: 10 } });
      const artifact = artifactOf(probe, 'plugin-a');
      await lab.host.load(artifact);
      tagsOf(await lab.host.invoke(enrichCall(artifact, 'log-flood', '500')));
      expect(lab.log.pluginLines().map((l) => l['msg'])).toEqual(
        Array.from({ length: 10 }, (_, i) => `line ${i}`),
      );
      const dropped = lab.log.lines.filter((l) => l['dropped_lines'] !== undefined);
      expect(dropped).toHaveLength(1);
      expect(dropped[0]).toMatchObject({ plugin_id: 'plugin-a', dropped_lines: 490 });
    });
  });

  describe('log among the host calls', () => {
    it('counts every log() call, dropped lines too, toward the 1 000 calls of an invocation', async () => {
      lab = startTestHost({ limits: { logLinesPerMinute: 10 } });
      lab.broker.setSecret('plugin-a', 'api_token', TOKEN_A);
      const artifact = artifactOf(probe, 'plugin-a');
      await lab.host.load(artifact);
      expect(tagsOf(await lab.host.invoke(enrichCall(artifact, 'log-then-secret', '999')))).toEqual(
        { secret: 'read' },
      );
      expect(
        tagsOf(await lab.host.invoke(enrichCall(artifact, 'log-then-secret', '1000'))),
      ).toEqual({ secret: 'denied: too many host calls' });
    });
  });

  describe('send-email and is-cve-known', () => {
    beforeEach(async () => {
      lab = startTestHost();
      await lab.host.load(artifactOf(probe, 'plugin-a'));
    });

    it('sends through the service for the event’s project; the plugin names no recipient', async () => {
      const artifact = artifactOf(probe, 'plugin-a');
      expect(
        tagsOf(
          await lab.host.invoke(
            enrichCall(artifact, 'email', 'the body', { projectId: 'project-b', eventId: 'e-7' }),
          ),
        ),
      ).toEqual({ email: 'sent' });
      expect(lab.broker.emails).toEqual([
        {
          context: {
            pluginId: 'plugin-a',
            versionDigest: probe.digest,
            projectId: 'project-b',
            eventId: 'e-7',
          },
          message: { subject: 'about f-1', body: 'the body' },
        },
      ]);
    });

    it('answers identifiers only, and only those asked about', async () => {
      lab.broker.knownCves = new Set(['CVE-2024-0001', 'CVE-2020-1111']);
      const artifact = artifactOf(probe, 'plugin-a');
      expect(
        tagsOf(await lab.host.invoke(enrichCall(artifact, 'cve', 'cve-2024-0001,CVE-2023-9999'))),
      ).toEqual({ known: 'CVE-2024-0001' });
      expect(
        tagsOf(await lab.host.invoke(enrichCall(artifact, 'cve', 'CVE-2024-0001,not-a-cve'))),
      ).toEqual({ known: 'invalid: "not-a-cve" is not a CVE identifier' });
      expect(lab.broker.asked.filter((a) => a.call === 'is-cve-known')).toHaveLength(1);
    });
  });

  describe('http-request through the egress guard', () => {
    let egress: EgressLab;

    beforeAll(async () => {
      egress = await EgressLab.start();
      egress.dns.set('good.test', ['127.0.0.2']);
      egress.dns.set('evil.test', ['127.0.0.2']);
    });

    afterAll(async () => {
      await egress.close();
    });

    it('reaches a permitted https host (loopback dial allowed in this test only)', async () => {
      // PLUGIN_EGRESS_ALLOW_LOCAL_DIAL: the TLS stand-in listens on loopback.
      lab = startTestHost({ egress: egress.guard({ allowLocalDial: true }) });
      const artifact = artifactOf(probe, 'plugin-a', [`good.test:${egress.port}`]);
      await lab.host.load(artifact);
      const result = await lab.host.invoke(
        enrichCall(artifact, 'http', '/ok', {
          settings: { url: `https://good.test:${egress.port}` },
        }),
      );
      expect(tagsOf(result)).toEqual({ status: '201', body: 'hello from the stand-in' });
      expect(egress.good.at(-1)).toMatchObject({ method: 'GET', url: '/ok' });
      expect(egress.escapes()).toBe(0);
    });

    it('refuses a host the plugin is not permitted, and loopback under the default policy', async () => {
      lab = startTestHost({ egress: egress.guard() });
      const artifact = artifactOf(probe, 'plugin-a', [`good.test:${egress.port}`]);
      await lab.host.load(artifact);
      const call = (url: string) =>
        lab.host.invoke(enrichCall(artifact, 'http', '/ok', { settings: { url } }));
      expect(tagsOf(await call(`https://evil.test:${egress.port}`))).toEqual({
        error: expect.stringMatching(/^denied: host_not_permitted/),
      });
      expect(tagsOf(await call(`https://good.test:${egress.port}`))).toEqual({
        error: expect.stringMatching(/^denied: address_not_allowed/),
      });
      expect(tagsOf(await call('not a url'))).toEqual({
        error: expect.stringMatching(/^invalid: invalid_url/),
      });
      expect(egress.escapes()).toBe(0);
    });
  });
});
