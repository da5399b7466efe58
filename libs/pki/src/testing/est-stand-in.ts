import { generateKeyPairSync, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { generateCaMaterial } from '../ca/ca-bootstrap';
import { loadIssuingCa, type LoadedIssuingCa } from '../ca/issuing-ca';
import { LeafCertificateBuilder } from '../certificate/leaf-builder';
import type { X509Purpose } from '../certificate/purposes';
import { parseCsr } from '../csr/csr-parser';
import { toPem } from '../der/pem';
import { buildCertsOnlyPkcs7, encodeBase64Body } from '../est/pkcs7-certs';
import { selfSignedTlsIdentity, type TlsIdentity } from './tls-test-identity';

/** How the stand-in misbehaves on enroll calls (`none`: a correct EST server). */
export type EstMisbehaviour =
  'none' | 'pending' | 'wrong_key' | 'foreign_ca' | 'garbage' | 'not_pkcs7' | 'server_error';

export interface EstStandInOptions {
  /** Accepted credentials; a call passes with either (a client certificate of `clientCa`). */
  readonly basic?: { readonly username: string; readonly password: string };
  /** Default `wifi`: the profile the stand-in's CA gives what it issues. */
  readonly purpose?: X509Purpose;
  /** The server's TLS identity; default a fresh self-signed one. */
  readonly tls?: TlsIdentity;
}

export interface EstCall {
  readonly operation: string;
  readonly label: string | undefined;
  readonly auth: 'basic' | 'client_certificate' | 'none';
}

const KEK = Buffer.alloc(32, 7);
const ROUTE =
  /^\/\.well-known\/est(?:\/([A-Za-z0-9._~-]+))?\/(cacerts|simpleenroll|simplereenroll)$/;

/**
 * A loopback EST server (RFC 7030) over real TLS, built on this library's CA: `cacerts`,
 * `simpleenroll`, `simplereenroll`, with an optional label segment. Enroll calls need HTTP
 * basic credentials or a client certificate issued by `clientCertificate()`. It can be told
 * to misbehave (`misbehave`), and records every call.
 */
export class EstStandIn {
  readonly tls: TlsIdentity;
  readonly calls: EstCall[] = [];
  private readonly ca: LoadedIssuingCa;
  private readonly foreignCa: LoadedIssuingCa;
  private readonly purpose: X509Purpose;
  private behaviour: EstMisbehaviour = 'none';
  private server: Server | undefined;

  private constructor(private readonly options: EstStandInOptions) {
    this.tls = options.tls ?? selfSignedTlsIdentity();
    this.ca = loadIssuingCa(generateCaMaterial(KEK, { issuingCommonName: 'EST Stand-in CA' }), KEK);
    this.foreignCa = loadIssuingCa(generateCaMaterial(KEK), KEK);
    this.purpose = options.purpose ?? 'wifi';
  }

  static async start(options: EstStandInOptions = {}): Promise<EstStandIn> {
    const standIn = new EstStandIn(options);
    await standIn.listen();
    return standIn;
  }

  /** `https://127.0.0.1:<port>` */
  get url(): string {
    const address = this.server?.address() as AddressInfo;
    return `https://127.0.0.1:${address.port}`;
  }

  get port(): number {
    return (this.server?.address() as AddressInfo).port;
  }

  /** The EST CA (issuing first, root last) as PEM: the `openssl verify -CAfile` input. */
  caChainPem(): string {
    return this.ca.chainDer.map((der) => toPem('CERTIFICATE', der)).join('');
  }

  misbehave(behaviour: EstMisbehaviour): void {
    this.behaviour = behaviour;
  }

  /** A client certificate and key (PEM) the stand-in accepts for TLS client authentication. */
  clientCertificate(commonName = 'certificate-service'): { certPem: string; keyPem: string } {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const leaf = new LeafCertificateBuilder(this.ca).issue({
      purpose: 'user_mtls',
      subjectCommonName: commonName,
      publicKeySpkiDer: publicKey.export({ format: 'der', type: 'spki' }),
      keyAlgorithm: 'ec',
    });
    return {
      certPem: toPem('CERTIFICATE', leaf.certificateDer),
      keyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    };
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private listen(): Promise<void> {
    this.server = createServer(
      {
        cert: this.tls.certPem,
        key: this.tls.keyPem,
        requestCert: true,
        rejectUnauthorized: false,
        ca: this.ca.chainDer.map((der) => toPem('CERTIFICATE', der)),
      },
      (req, res) => this.handle(req, res),
    );
    return new Promise((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        this.answer(req, res, Buffer.concat(chunks));
      } catch {
        send(res, 400, 'text/plain', 'bad request');
      }
    });
  }

  private answer(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    const match = ROUTE.exec(req.url ?? '');
    if (!match) return send(res, 404, 'text/plain', 'not found');
    const [, label, operation] = match;
    const auth = this.authOf(req);
    this.calls.push({ operation, label, auth });
    if (operation === 'cacerts') {
      if (req.method !== 'GET') return send(res, 405, 'text/plain', 'GET only');
      return sendPkcs7(res, buildCertsOnlyPkcs7(this.ca.chainDer));
    }
    if (req.method !== 'POST') return send(res, 405, 'text/plain', 'POST only');
    if (auth === 'none') {
      res.setHeader('www-authenticate', 'Basic realm="est"');
      return send(res, 401, 'text/plain', 'authentication required');
    }
    const csr = parseCsr(Buffer.from(body.toString('latin1').replace(/\s+/g, ''), 'base64'));
    this.enrollAnswer(res, csr.publicKeySpkiDer, csr.keyAlgorithm, csr.subjectCommonName);
  }

  private enrollAnswer(
    res: ServerResponse,
    spki: Buffer,
    keyAlgorithm: 'rsa' | 'ec',
    commonName: string | undefined,
  ): void {
    switch (this.behaviour) {
      case 'pending':
        res.setHeader('retry-after', '60');
        return send(res, 202, 'text/plain', 'pending');
      case 'garbage':
        return send(res, 200, 'application/pkcs7-mime; smime-type=certs-only', 'bm90IGNtcw==');
      case 'not_pkcs7':
        return send(res, 200, 'text/html', '<html>login</html>');
      case 'server_error':
        return send(res, 500, 'text/plain', 'internal error');
      case 'none':
      case 'wrong_key':
      case 'foreign_ca':
        break;
    }
    const key =
      this.behaviour === 'wrong_key'
        ? generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({
            format: 'der',
            type: 'spki',
          })
        : spki;
    const ca = this.behaviour === 'foreign_ca' ? this.foreignCa : this.ca;
    const leaf = new LeafCertificateBuilder(ca).issue({
      purpose: this.purpose,
      subjectCommonName: commonName ?? 'est-device',
      publicKeySpkiDer: key,
      keyAlgorithm: this.behaviour === 'wrong_key' ? 'ec' : keyAlgorithm,
    });
    sendPkcs7(res, buildCertsOnlyPkcs7([leaf.certificateDer]));
  }

  private authOf(req: IncomingMessage): EstCall['auth'] {
    if ((req.socket as TLSSocket).authorized) return 'client_certificate';
    const basic = this.options.basic;
    const header = req.headers.authorization ?? '';
    if (!basic || !header.startsWith('Basic ')) return 'none';
    const given = Buffer.from(header.slice(6), 'base64');
    const expected = Buffer.from(`${basic.username}:${basic.password}`, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected) ? 'basic' : 'none';
  }
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
}

function sendPkcs7(res: ServerResponse, der: Buffer): void {
  res.writeHead(200, {
    'content-type': 'application/pkcs7-mime; smime-type=certs-only',
    'content-transfer-encoding': 'base64',
  });
  res.end(encodeBase64Body(der));
}
