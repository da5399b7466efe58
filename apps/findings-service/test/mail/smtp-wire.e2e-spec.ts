/**
 * The service's own SMTP sender (modules/mail smtp-connection, smtp-pool, smtp-message) against
 * real loopback SMTP servers (smtp-server, messages parsed back with mailparser): implicit TLS
 * and STARTTLS, with and without PIPELINING; what goes on the wire (RFC 2047 subjects,
 * quoted-printable bodies, dot-stuffing); the pool's session reuse and its reconnect after the
 * server closed an idle session; refusals mapped to permanent (5xx) or temporary (4xx).
 */
import { readFileSync } from 'node:fs';
import type { FindingsConfig } from '../../src/app/config/findings-config';
import type { SmtpServer } from '../../src/modules/mail/mail-settings';
import { SmtpSendFailed, SmtpTransports } from '../../src/modules/mail/smtp-transports';
import { makeTestPki, SmtpStandIn, type TestPki } from '../support/smtp-stand-in';

const ACCOUNT = { user: 'wire-mailer', pass: 'wire-smtp-pass-9a8b7c' };
const FROM = 'findings@findings.example';

let pki: TestPki;
const servers: SmtpStandIn[] = [];
const senders: SmtpTransports[] = [];

beforeAll(() => {
  pki = makeTestPki();
});

afterAll(async () => {
  for (const sender of senders) sender.onModuleDestroy();
  await Promise.all(servers.map((s) => s.stop()));
  pki?.remove();
});

async function standIn(
  mode: 'tls' | 'starttls',
  serverOptions: ConstructorParameters<typeof SmtpStandIn>[0]['serverOptions'] = {},
): Promise<SmtpStandIn> {
  const server = await new SmtpStandIn({ mode, pki, account: ACCOUNT, serverOptions }).start();
  servers.push(server);
  return server;
}

function sender(poolConnections = 2): SmtpTransports {
  const config = {
    mail: {
      caPem: readFileSync(pki.caFile, 'utf8'),
      timeoutMs: 5_000,
      poolConnections,
      poolIdleSeconds: 60,
    },
  } as unknown as FindingsConfig;
  const transports = new SmtpTransports(config);
  senders.push(transports);
  return transports;
}

const account = (s: SmtpStandIn, tlsMode: 'tls' | 'starttls'): SmtpServer => ({
  host: '127.0.0.1',
  port: s.port,
  tlsMode,
  username: ACCOUNT.user,
  password: ACCOUNT.pass,
  from: FROM,
});

const message = (n: number, subject = `New findings: ${n}`, text = `finding ${n}\n`) => ({
  from: FROM,
  to: ['sec-team@example.org', 'ops@example.org'],
  subject,
  text,
  messageId: `<wire-${n}-${Date.now()}@findings.example>`,
  headers: { 'X-Findsvc-Idempotency-Key': `mail:wire-${n}` },
});

const SUBJECT = '[Находки] Új sebezhetőség — 3 findings in «payments-api» ✓ with a long tail';
const BODY = [
  '.a line that starts with a dot',
  '.',
  '..two dots',
  `${'x'.repeat(1200)}`,
  'trailing space ',
  'Grüße, 東京 = équipe',
  '',
].join('\n');

describe.each([
  ['tls', {}],
  ['starttls', {}],
  ['tls', { hidePIPELINING: true }],
  ['starttls', { hidePIPELINING: true }],
] as const)('the own SMTP sender, %s %j', (mode, options) => {
  it('sends what is parsed back exactly: RFC 2047 subject, quoted-printable body, dot lines, headers, envelope', async () => {
    const server = await standIn(mode, options);
    const transports = sender();
    const first = message(1, SUBJECT, BODY);
    const second = message(2);
    await Promise.all([
      transports.send(account(server, mode), { address: '127.0.0.1', port: server.port }, first),
      transports.send(account(server, mode), { address: '127.0.0.1', port: server.port }, second),
    ]);
    expect(server.received).toHaveLength(2);
    const got = server.received.find((m) => m.parsed.messageId === first.messageId);
    expect(got).toBeDefined();
    expect(got?.secure).toBe(true);
    expect(got?.user).toBe(ACCOUNT.user);
    expect(got?.envelopeFrom).toBe(FROM);
    expect(got?.envelopeTo.sort()).toEqual(['ops@example.org', 'sec-team@example.org']);
    expect(got?.parsed.subject).toBe(SUBJECT);
    expect(got?.parsed.text).toBe(BODY);
    expect(got?.parsed.from?.text).toBe(FROM);
    expect(got?.parsed.headers.get('x-findsvc-idempotency-key')).toBe('mail:wire-1');
    expect(got?.parsed.date).toBeInstanceOf(Date);
    // Nothing on the wire is longer than SMTP allows, and no secret travels in the message.
    expect(got?.raw.split('\r\n').every((l) => l.length <= 998)).toBe(true);
    expect(got?.raw).not.toContain(ACCOUNT.pass);
    const plain = server.received.find((m) => m.parsed.messageId === second.messageId);
    expect(plain?.parsed.subject).toBe('New findings: 2');
    expect(plain?.parsed.text).toBe('finding 2\n');
  });
});

describe('the own SMTP pool', () => {
  it('sends 30 messages over at most its 2 sessions, each message once', async () => {
    let sessions = 0;
    const server = await standIn('starttls', {
      onConnect: (_session, callback) => {
        sessions += 1;
        callback();
      },
    });
    const transports = sender(2);
    const target = { address: '127.0.0.1', port: server.port };
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        transports.send(account(server, 'starttls'), target, message(100 + i)),
      ),
    );
    expect(server.received).toHaveLength(30);
    expect(server.duplicates).toBe(0);
    expect(sessions).toBe(2);
  });

  it('opens a new session when the server closed the idle one (421 timeout), and sends once', async () => {
    let sessions = 0;
    let closed = 0;
    const server = await standIn('tls', {
      socketTimeout: 300,
      onConnect: (_session, callback) => {
        sessions += 1;
        callback();
      },
      onClose: () => {
        closed += 1;
      },
    });
    const transports = sender(1);
    const target = { address: '127.0.0.1', port: server.port };
    await transports.send(account(server, 'tls'), target, message(200));
    // Until the server has timed the idle session out (421) and closed it.
    for (let waited = 0; closed === 0 && waited < 10_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(closed).toBe(1);
    await transports.send(account(server, 'tls'), target, message(201));
    expect(server.received.map((m) => m.parsed.text)).toEqual(['finding 200\n', 'finding 201\n']);
    expect(server.duplicates).toBe(0);
    expect(sessions).toBe(2);
  });

  it('maps a refused recipient to a permanent failure (5xx) and a busy one to a temporary failure (4xx)', async () => {
    const server = await standIn('starttls', {
      onRcptTo: (address, _session, callback) => {
        const error = Object.assign(new Error(`no mailbox ${address.address}`), {
          responseCode: address.address.startsWith('gone') ? 550 : 451,
        });
        if (address.address.startsWith('ops')) return callback();
        return callback(error);
      },
    });
    const transports = sender(1);
    const target = { address: '127.0.0.1', port: server.port };
    const refusal = (to: string[]) =>
      transports.send(account(server, 'starttls'), target, { ...message(300), to }).then(
        () => undefined,
        (error: unknown) => error,
      );
    const permanent = await refusal(['gone@example.org']);
    expect(permanent).toBeInstanceOf(SmtpSendFailed);
    expect((permanent as SmtpSendFailed).permanent).toBe(true);
    expect((permanent as Error).message).toMatch(/550/);
    const temporary = await refusal(['busy@example.org']);
    expect((temporary as SmtpSendFailed).permanent).toBe(false);
    expect((temporary as Error).message).not.toContain(ACCOUNT.pass);
    // One recipient refused, one accepted: the message goes to the accepted one.
    expect(await refusal(['gone@example.org', 'ops@example.org'])).toBeUndefined();
    expect(server.received).toHaveLength(1);
    expect(server.received[0]?.envelopeTo).toEqual(['ops@example.org']);
  });
});
