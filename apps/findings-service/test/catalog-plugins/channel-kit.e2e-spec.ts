import { classifyAddress, parseIpAddress } from '@platform/egress';
import { publisherKey } from '@platform/plugin-protocol/testing';
import { parseManifest } from '@platform/plugin-sdk';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildChannel, type ChannelName } from './support/channel-lab';

/**
 * Unit tests of tools/catalog/native/channel-kit.js, the shared part of the catalog's native
 * notification channels: the address rules (equal to @platform/egress), target checks,
 * Retry-After, status outcomes, the key memory and the text renderer. The channels
 * themselves run in a real runner in catalog-plugins.e2e-spec.ts.
 */
const kit = require(join(__dirname, '../../../../tools/catalog/native/channel-kit.js'));

const ADDRESSES = [
  '8.8.8.8',
  '1.1.1.1',
  '10.1.2.3',
  '127.0.0.1',
  '169.254.169.254',
  '169.254.170.2',
  '169.254.10.10',
  '100.100.100.200',
  '100.64.1.1',
  '172.16.5.4',
  '172.32.0.1',
  '192.168.1.1',
  '192.0.0.192',
  '192.0.2.7',
  '198.18.0.1',
  '203.0.113.9',
  '224.0.0.1',
  '255.255.255.255',
  '240.0.0.1',
  '0.0.0.0',
  '::',
  '::1',
  '::ffff:169.254.169.254',
  '::ffff:8.8.8.8',
  '::ffff:127.0.0.1',
  '64:ff9b::a9fe:a9fe',
  '64:ff9b::808:808',
  '2002:a9fe:a9fe::1',
  '2002:808:808::1',
  '2001:db8::1',
  '2001:4860:4860::8888',
  'fd00:ec2::254',
  'fc00::1',
  'fe80::1',
  'ff02::1',
  '2606:4700::1111',
  '4000::1',
];

describe('channel-kit address rules', () => {
  it.each(ADDRESSES)('classifies %s exactly as @platform/egress does', (address) => {
    const parsed = parseIpAddress(address);
    if (!parsed) throw new Error(`${address} did not parse`);
    const expected = classifyAddress(parsed);
    expect(kit.classifyAddress(address)).toEqual({
      verdict: expected.verdict,
      category: expected.category,
    });
  });

  it('refuses http unless allowed, credentials in the URL, and hosts not permitted', () => {
    const hosts = new Set(['chat.example.com']);
    const strict = { allowHttp: false, allowLocalDial: false };
    expect(() => kit.checkTarget('http://chat.example.com/x', hosts, strict)).toThrow(/only https/);
    expect(
      kit.checkTarget('http://chat.example.com/x', hosts, { ...strict, allowHttp: true }).host,
    ).toBe('chat.example.com');
    expect(() => kit.checkTarget('https://u:p@chat.example.com/', hosts, strict)).toThrow(
      /credentials/,
    );
    expect(() => kit.checkTarget('https://evil.example.net/', hosts, strict)).toThrow(
      /not permitted/,
    );
    expect(() => kit.checkTarget('not a url', hosts, strict)).toThrow(/not a valid URL/);
  });

  it('permits the manifest hosts and the hosts of the url settings given', () => {
    const hosts = kit.permittedHosts(
      { allowed_hosts: ['api.telegram.org'], url_settings: ['api_base_url', 'webhook_url'] },
      { api_base_url: 'https://bots.example.com:8443/x' },
      { webhook_url: 'https://[2001:db8::1]/hooks/1' },
    );
    expect([...hosts].sort()).toEqual(['2001:db8::1', 'api.telegram.org', 'bots.example.com']);
  });

  it('never dials a refused address: the request fails before any connection', async () => {
    const saved = { ...process.env };
    process.env['FINDSVC_PLUGIN_EGRESS_ALLOW_HTTP'] = 'true';
    process.env['FINDSVC_PLUGIN_EGRESS_ALLOW_LOCAL_DIAL'] = 'true';
    try {
      const started = Date.now();
      await expect(
        kit.request({
          url: 'http://169.254.169.254/latest/meta-data/',
          hosts: new Set(['169.254.169.254']),
          deadlineAt: Date.now() + 5000,
          json: {},
        }),
      ).rejects.toMatchObject({ outcome: 'REJECTED', message: expect.stringMatching(/metadata/) });
      expect(Date.now() - started).toBeLessThan(1000);
      delete process.env['FINDSVC_PLUGIN_EGRESS_ALLOW_LOCAL_DIAL'];
      await expect(
        kit.request({
          url: 'http://127.0.0.1:9/',
          hosts: new Set(['127.0.0.1']),
          deadlineAt: Date.now() + 5000,
          json: {},
        }),
      ).rejects.toMatchObject({ outcome: 'REJECTED', message: expect.stringMatching(/loopback/) });
    } finally {
      process.env = saved;
    }
  });
});

describe('channel-kit over https', () => {
  it('dials the pinned address with the name as SNI and verifies the certificate (a self-signed one fails)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kit-tls-'));
    const saved = { ...process.env };
    /** The SNI names the server was asked for. */
    const names: string[] = [];
    const server = (() => {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
          '-days',
          '1',
          '-subj',
          '/CN=localhost',
          '-addext',
          'subjectAltName=DNS:localhost',
        ],
        { stdio: 'ignore' },
      );
      return createServer(
        {
          key: readFileSync(join(dir, 'key.pem')),
          cert: readFileSync(join(dir, 'cert.pem')),
          SNICallback: (name, callback) => {
            names.push(name);
            callback(null, undefined);
          },
        },
        (_req, res) => res.end('ok'),
      );
    })();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      process.env['FINDSVC_PLUGIN_EGRESS_ALLOW_LOCAL_DIAL'] = 'true';
      const { port } = server.address() as AddressInfo;
      await expect(
        kit.request({
          url: `https://localhost:${port}/hooks/x`,
          hosts: new Set(['localhost']),
          deadlineAt: Date.now() + 5000,
          json: { text: 'hi' },
        }),
      ).rejects.toMatchObject({
        outcome: 'FAILED',
        message: expect.stringMatching(
          /localhost could not be reached \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)\)/,
        ),
      });
      expect(names).toEqual(['localhost']);
    } finally {
      process.env = saved;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('channel-kit answers', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-29T01:00:00Z');
    expect(kit.retryAfterSeconds('17', now)).toBe(17);
    expect(kit.retryAfterSeconds('Sun, 29 Nov 2026 01:00:30 GMT', now)).toBe(30);
    expect(kit.retryAfterSeconds('Sun, 29 Nov 2026 00:00:00 GMT', now)).toBe(0);
    expect(kit.retryAfterSeconds('soon', now)).toBeUndefined();
    expect(kit.retryAfterSeconds(undefined, now)).toBeUndefined();
  });

  it('maps statuses: 429/5xx FAILED with the wait, 4xx REJECTED, redirects by kind, 2xx none', () => {
    const of = (status: number, headers: Record<string, string> = {}) =>
      kit.outcomeOfStatus({ status, headers, text: '', truncated: false }, 'detail');
    expect(of(200)).toBeUndefined();
    expect(of(429, { 'retry-after': '12' })).toMatchObject({
      outcome: 'FAILED',
      result: { retry_after_seconds: 12 },
    });
    expect(of(503)).toMatchObject({ outcome: 'FAILED' });
    for (const status of [400, 401, 403, 404, 410]) {
      expect(of(status)).toMatchObject({
        outcome: 'REJECTED',
        message: expect.stringMatching(/detail/),
      });
    }
    expect(of(302)).toMatchObject({
      outcome: 'FAILED',
      message: expect.stringMatching(/not followed/),
    });
    expect(of(308)).toMatchObject({ outcome: 'REJECTED' });
  });

  it('takes a 2xx only when the API answered its own shape', () => {
    const accept = (_r: unknown, body: { ok?: boolean } | undefined) => (body?.ok ? {} : undefined);
    const answer = (text: string, truncated = false) =>
      kit.answerOf({ status: 200, headers: {}, text, truncated }, { accept });
    expect(answer('{"ok":true}')).toMatchObject({ outcome: 'DELIVERED' });
    expect(answer('<html>login</html>')).toMatchObject({
      outcome: 'FAILED',
      message: 'unexpected answer from the target',
    });
    expect(answer('{"ok":true', true)).toMatchObject({ outcome: 'FAILED', message: /64 KiB/ });
  });

  it('remembers the last N keys, oldest dropped first', () => {
    const memory = new kit.KeyMemory(3);
    for (const key of ['a', 'b', 'c', 'd']) memory.add(key, {});
    expect(['a', 'b', 'c', 'd'].map((k) => memory.has(k))).toEqual([false, true, true, true]);
  });
});

describe('channel-kit renderer', () => {
  const item = (n: number, severity = 'HIGH') => ({
    id: `f-${n}`,
    title: `Finding <${n}> & co`,
    severity,
    status: 'new',
    product: 'api',
    location: `src/a.ts:${n}`,
    url: `https://findings.example/findings/f-${n}`,
  });
  const event = {
    schema: 'findsvc.notification/1',
    kind: 'new_findings',
    project: { id: 'p', name: 'Payments', url: 'https://findings.example/projects/p' },
    total: 25,
    counts: { CRITICAL: 2, HIGH: 23 },
    digest: true,
    items: Array.from({ length: 20 }, (_, i) => item(i + 1, i < 2 ? 'CRITICAL' : 'HIGH')),
    more: 5,
    list_url: 'https://findings.example/findings?q=project%3APayments',
  };

  it('writes a header per kind, counts, item lines, "and N more" and the link', () => {
    const text: string = kit.renderText(event, { format: 'plain', maxLength: 10_000 });
    const lines = text.split('\n');
    expect(lines[0]).toBe('New findings in Payments: 25 findings');
    expect(lines[1]).toBe('CRITICAL 2 · HIGH 23');
    expect(lines[2]).toBe('[CRITICAL] Finding <1> & co — api src/a.ts:1');
    expect(lines).toContain('and 5 more');
    expect(lines.at(-1)).toBe('Open in the findings service');
    expect(kit.renderText({ ...event, kind: 'sla_breached' }).split('\n')[0]).toBe(
      'SLA deadline breached in Payments: 25 findings',
    );
  });

  it('keeps one item on one line: line breaks in titles and locations become spaces', () => {
    const text: string = kit.renderText(
      { ...event, items: [{ ...item(1), title: 'a\nb\r\nc', location: 'x\u2028y' }], more: 0 },
      { format: 'mail' },
    );
    expect(text.split('\n')[2]).toBe(
      '[HIGH] a b c <https://findings.example/findings/f-1> — api x y',
    );
  });

  it('escapes markup and cuts to the limit by dropping items into "and N more"', () => {
    const html: string = kit.renderText(event, { format: 'html', maxLength: 4096 });
    expect(html).toContain('Finding &lt;1&gt; &amp; co');
    expect(html).not.toContain('<1>');
    const short: string = kit.renderText(event, { format: 'plain', maxLength: 300 });
    expect(short.length).toBeLessThanOrEqual(300);
    const more = /and (\d+) more/.exec(short);
    const shown = short.split('\n').filter((l) => l.startsWith('[')).length;
    expect(Number(more?.[1]) + shown).toBe(25);
  });
});

describe('the channel manifests', () => {
  const key = publisherKey();
  const expected: Record<ChannelName, string[]> = {
    'telegram-channel': ['chat_id', 'bot_token', 'api_base_url'],
    'slack-channel': ['webhook_url'],
    'teams-channel': ['webhook_url'],
    'mattermost-channel': ['chatserver_base_url', 'webhook_url', 'channel'],
    'maxru-channel': ['chat_id', 'access_token', 'base_url'],
    'email-channel': [
      'smtp_host',
      'smtp_port',
      'smtp_username',
      'smtp_password',
      'smtp_from',
      'smtp_tls_mode',
      'allow_project_smtp',
      'smtp_allowed_hosts',
      'recipients',
      'subject_prefix',
      'project_smtp_host',
      'project_smtp_port',
      'project_smtp_username',
      'project_smtp_password',
      'project_smtp_from',
      'project_smtp_tls_mode',
    ],
  };

  it.each(Object.keys(expected) as ChannelName[])(
    '%s builds into a manifest the service accepts, with the spec setting names',
    (name) => {
      const built = buildChannel(name, key);
      const manifest = parseManifest(built.manifestBytes);
      expect(manifest).toMatchObject({
        id: name,
        runtime: 'native',
        capabilities: ['notification_channel'],
        artifact_sha256: built.sha256,
      });
      expect(manifest.settings.map((s) => s.name)).toEqual(expected[name]);
      // The addressing secrets are per project, as the spec's channel table says.
      for (const s of manifest.settings.filter((x) => x.secret)) {
        expect([s.name, s.per_project === true]).toEqual([
          s.name,
          !['smtp_password'].includes(s.name),
        ]);
      }
    },
  );
});
