import { simpleParser, type ParsedMail } from 'mailparser';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

/** A test CA and leaf certificates made with openssl for this run. */
export interface TestPki {
  dir: string;
  caFile: string;
  /** Leaf for IP 127.0.0.1 (and DNS localhost), signed by the CA. */
  leaf: { key: string; cert: string };
  /** Leaf for DNS wrong.example only, signed by the same CA: refused for 127.0.0.1. */
  wrongName: { key: string; cert: string };
  remove(): void;
}

function openssl(args: string[]): void {
  execFileSync('openssl', args, { stdio: 'pipe' });
}

function leafCertificate(dir: string, name: string, san: string): { key: string; cert: string } {
  const key = join(dir, `${name}-key.pem`);
  const csr = join(dir, `${name}.csr`);
  const cert = join(dir, `${name}-cert.pem`);
  const ext = join(dir, `${name}.ext`);
  writeFileSync(ext, `subjectAltName=${san}\nextendedKeyUsage=serverAuth\n`);
  openssl([
    'req',
    '-new',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    key,
    '-out',
    csr,
    '-subj',
    `/CN=${name}`,
  ]);
  openssl([
    'x509',
    '-req',
    '-in',
    csr,
    '-CA',
    join(dir, 'ca-cert.pem'),
    '-CAkey',
    join(dir, 'ca-key.pem'),
    '-CAcreateserial',
    '-days',
    '2',
    '-out',
    cert,
    '-extfile',
    ext,
  ]);
  return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
}

/** A CA (trusted by the service through SMTP_CA_FILE) and two leaves, made per run. */
export function makeTestPki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'smtp-pki-'));
  openssl([
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    join(dir, 'ca-key.pem'),
    '-out',
    join(dir, 'ca-cert.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=findsvc test mail CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  return {
    dir,
    caFile: join(dir, 'ca-cert.pem'),
    leaf: leafCertificate(dir, 'mail', 'IP:127.0.0.1,DNS:localhost'),
    wrongName: leafCertificate(dir, 'wrong', 'DNS:wrong.example'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** One message the stand-in accepted. */
export interface ReceivedMail {
  envelopeFrom: string;
  envelopeTo: string[];
  user?: string;
  /** Whether the session was encrypted when the message was sent. */
  secure: boolean;
  raw: string;
  parsed: ParsedMail;
}

export interface SmtpStandInOptions {
  /** `tls`: TLS from the first byte; `starttls`: plain with STARTTLS offered; `plain`: no TLS at all. */
  mode: 'tls' | 'starttls' | 'plain';
  pki: TestPki;
  /** Present the wrong-name certificate. */
  wrongName?: boolean;
  /** Accepted account (AUTH PLAIN/LOGIN); without it, no authentication is offered. */
  account?: { user: string; pass: string };
  /** More smtp-server options (e.g. `hidePIPELINING`, `socketTimeout`, `onRcptTo`). */
  serverOptions?: Partial<SMTPServerOptions>;
}

/**
 * A real SMTP server on loopback (smtp-server) for tests: implicit TLS, STARTTLS or plain; AUTH
 * PLAIN/LOGIN against one account; every message parsed back with mailparser. Messages with a
 * Message-ID already received are counted but kept once (`duplicates`), as real receivers do.
 */
export class SmtpStandIn {
  readonly received: ReceivedMail[] = [];
  duplicates = 0;
  /** Authentication attempts refused. */
  authFailures = 0;
  private server?: SMTPServer;
  port = 0;

  constructor(private readonly options: SmtpStandInOptions) {}

  async start(): Promise<this> {
    const { mode, pki, wrongName, account, serverOptions } = this.options;
    const tls = wrongName ? pki.wrongName : pki.leaf;
    const config: SMTPServerOptions = {
      secure: mode === 'tls',
      key: tls.key,
      cert: tls.cert,
      disabledCommands: [...(mode === 'plain' ? ['STARTTLS'] : []), ...(account ? [] : ['AUTH'])],
      authMethods: ['PLAIN', 'LOGIN'],
      allowInsecureAuth: mode === 'plain',
      logger: false,
      size: 1024 * 1024,
      onAuth: (auth, _session, callback) => {
        if (account && auth.username === account.user && auth.password === account.pass) {
          return callback(null, { user: auth.username });
        }
        this.authFailures += 1;
        return callback(new Error('Invalid username or password'));
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          simpleParser(raw).then(
            (parsed) => {
              if (
                parsed.messageId &&
                this.received.some((m) => m.parsed.messageId === parsed.messageId)
              ) {
                this.duplicates += 1;
              } else {
                this.received.push({
                  envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                  envelopeTo: session.envelope.rcptTo.map((r) => r.address),
                  user: typeof session.user === 'string' ? session.user : undefined,
                  secure: session.secure,
                  raw,
                  parsed,
                });
              }
              callback();
            },
            (error: Error) => callback(error),
          );
        });
      },
    };
    const server = new SMTPServer({ ...config, ...serverOptions });
    server.on('error', () => undefined);
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    this.port = (server as unknown as { server: { address(): AddressInfo } }).server.address().port;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
