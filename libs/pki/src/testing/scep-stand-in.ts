// Test support: a loopback SCEP CA (RFC 8894) built on the PKI lib's own SCEP code. It answers
// PENDING to PKCSReq and to the first `pendingPolls - 1` CertPolls, then SUCCESS; it records
// every pkiMessage it received, and can answer in hostile ways. Real scepserver never says
// PENDING, hence this stand-in (docs/certificate-service/scep.md, "Limits of the stand-in").
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { ScepMessageType, ScepOids, ScepPkiStatus } from '../scep/scep-constants';
import { envelope, openEnvelope } from '../scep/scep-envelope';
import { degenerateCertificates, openSignedMessage, signMessage } from '../scep/scep-signed';
import { buildCertificate, KeyUsageBits } from '../scep/scep-x509';
import { toDer } from '../scep/scep-asn1';

export type ScepStandInMode =
  | 'normal'
  | 'wrong_signature'
  | 'wrong_transaction'
  | 'wrong_nonce'
  | 'garbage'
  | 'other_key'
  | 'failure'
  | 'http_error'
  | 'oversize';

export interface ScepStandInOptions {
  /** PENDING answers before SUCCESS (the PKCSReq's answer counts as the first). */
  readonly pendingPolls?: number;
  /** Delay before each PKIOperation answer (ms), to let racing pollers overlap. */
  readonly delayMs?: number;
  /** GetCACaps answer (default POSTPKIOperation, SHA-256, AES, SCEPStandard). */
  readonly caps?: readonly string[];
}

/** One pkiMessage the stand-in received. */
export interface ReceivedScepMessage {
  readonly messageType: string;
  readonly transactionId: string;
  /** IssuerAndSubject subject of a CertPoll, CSR subject of a PKCSReq (DER hex). */
  readonly subjectHex: string;
  readonly challengePassword?: string;
  /** HTTP method of the PKIOperation (POST, or GET with the message in the query). */
  readonly method: string;
}

export class ScepStandIn {
  readonly received: ReceivedScepMessage[] = [];
  mode: ScepStandInMode = 'normal';
  pendingPolls: number;
  private readonly remaining = new Map<string, number>();
  private readonly caKey: KeyObject;
  readonly caCertificateDer: Buffer;
  private server: Server | undefined;
  url = '';

  constructor(private readonly options: ScepStandInOptions = {}) {
    this.pendingPolls = options.pendingPolls ?? 0;
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.caKey = privateKey;
    this.caCertificateDer = buildCertificate({
      subject: 'SCEP stand-in CA',
      publicKey,
      signingKey: privateKey,
      ca: true,
      keyUsage:
        KeyUsageBits.keyCertSign |
        KeyUsageBits.cRLSign |
        KeyUsageBits.digitalSignature |
        KeyUsageBits.keyEncipherment,
      days: 30,
    });
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}/scep`;
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Messages of one type received for one transaction. */
  count(messageType: string, transactionId?: string): number {
    return this.received.filter(
      (m) =>
        m.messageType === messageType &&
        (transactionId === undefined || m.transactionId === transactionId),
    ).length;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const operation = url.searchParams.get('operation');
    try {
      if (operation === 'GetCACaps')
        return send(
          res,
          'text/plain',
          Buffer.from(
            `${(this.options.caps ?? ['POSTPKIOperation', 'SHA-256', 'AES', 'SCEPStandard']).join('\n')}\n`,
          ),
        );
      if (operation === 'GetCACert')
        return send(res, 'application/x-x509-ca-cert', this.caCertificateDer);
      if (operation !== 'PKIOperation')
        return send(res, 'text/plain', Buffer.from('unknown operation'), 400);
      const body =
        req.method === 'POST'
          ? Buffer.concat(chunks)
          : Buffer.from(url.searchParams.get('message') ?? '', 'base64');
      if (this.options.delayMs) await new Promise((r) => setTimeout(r, this.options.delayMs));
      return this.pkiOperation(body, res, req.method ?? 'GET');
    } catch (error) {
      return send(res, 'text/plain', Buffer.from(String(error)), 500);
    }
  }

  private pkiOperation(body: Buffer, res: ServerResponse, method: string): void {
    const message = openSignedMessage(body, undefined, 'request');
    const requesterDer = message.certificates[0];
    const attr = (oid: string) => message.attributes.get(oid);
    const messageType = String(attr(ScepOids.messageType));
    const transactionId = String(attr(ScepOids.transactionId));
    const senderNonce = attr(ScepOids.senderNonce) as Buffer;
    const inner = openEnvelope(
      message.content ?? Buffer.alloc(0),
      { certificateDer: this.caCertificateDer, privateKey: this.caKey },
      'request',
    );
    let subjectDer: Buffer;
    let spkiDer: Buffer | undefined;
    if (messageType === ScepMessageType.PKCSReq) {
      const csr = pkijs.CertificationRequest.fromBER(inner);
      subjectDer = toDer(csr.subject.toSchema());
      spkiDer = toDer(csr.subjectPublicKeyInfo.toSchema());
      this.remaining.set(transactionId, this.pendingPolls);
      this.spki.set(transactionId, { spkiDer, subjectDer });
    } else {
      const seq = asn1js.fromBER(inner).result as asn1js.Sequence;
      subjectDer = Buffer.from(seq.valueBlock.value[1].toBER(false));
      spkiDer = this.spki.get(transactionId)?.spkiDer;
    }
    const challenge = attr(ScepOids.challengePassword);
    this.received.push({
      method,
      messageType,
      transactionId,
      subjectHex: subjectDer.toString('hex'),
      ...(typeof challenge === 'string' ? { challengePassword: challenge } : {}),
    });
    if (this.mode === 'http_error')
      return send(res, 'text/plain', Buffer.from('internal error'), 500);
    if (this.mode === 'garbage') return send(res, 'application/x-pki-message', randomBytes(300));
    if (this.mode === 'oversize')
      return send(res, 'application/x-pki-message', Buffer.alloc(2 * 1024 * 1024, 0x30));
    // A transaction it never saw (another CA took the PKCSReq) is PENDING for `pendingPolls`.
    const left = this.remaining.get(transactionId) ?? this.pendingPolls;
    let status: string = ScepPkiStatus.SUCCESS;
    if (this.mode === 'failure') status = ScepPkiStatus.FAILURE;
    else if (left > 0) {
      this.remaining.set(transactionId, left - 1);
      status = ScepPkiStatus.PENDING;
    } else if (!spkiDer) status = ScepPkiStatus.FAILURE;
    send(
      res,
      'application/x-pki-message',
      this.certRep(status, transactionId, senderNonce, requesterDer, spkiDer, subjectDer),
    );
  }

  private readonly spki = new Map<string, { spkiDer: Buffer; subjectDer: Buffer }>();

  private certRep(
    status: string,
    transactionId: string,
    senderNonce: Buffer,
    requesterDer: Buffer,
    spkiDer: Buffer | undefined,
    subjectDer: Buffer,
  ): Buffer {
    let content: Buffer | undefined;
    if (status === ScepPkiStatus.SUCCESS && spkiDer) {
      const publicKey =
        this.mode === 'other_key'
          ? generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey
          : createPublicKey({ key: spkiDer, format: 'der', type: 'spki' });
      const leaf = buildCertificate({
        subject: subjectDer,
        publicKey,
        issuer: { certificateDer: this.caCertificateDer, privateKey: this.caKey },
        ca: false,
        days: 30,
      });
      content = envelope(degenerateCertificates([leaf]), requesterDer, ScepOids.aes128Cbc);
    }
    const attributes: Array<readonly [string, string | Buffer]> = [
      [ScepOids.messageType, ScepMessageType.CertRep],
      [ScepOids.pkiStatus, status],
      [
        ScepOids.transactionId,
        this.mode === 'wrong_transaction' ? `X${transactionId}` : transactionId,
      ],
      [ScepOids.senderNonce, randomBytes(16)],
      [ScepOids.recipientNonce, this.mode === 'wrong_nonce' ? randomBytes(16) : senderNonce],
    ];
    if (status === ScepPkiStatus.FAILURE) {
      attributes.push([ScepOids.failInfo, '2']);
    }
    const signingKey =
      this.mode === 'wrong_signature'
        ? generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey
        : this.caKey;
    return signMessage(
      content,
      attributes,
      { certificateDer: this.caCertificateDer, privateKey: signingKey },
      'sha256',
    );
  }
}

function send(res: ServerResponse, contentType: string, body: Buffer, status = 200): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': body.length });
  res.end(body);
}
