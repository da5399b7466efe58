import { createPublicKey, X509Certificate } from 'node:crypto';
import { normalizeSerialHex } from '../certificate/serial-number';
import { X509_PURPOSES } from '../certificate/purposes';
import type { RevocationReason } from '../crl/revocation-reason';
import { PkiError } from '../pki.errors';
import type {
  CertificateIssuer,
  IssueManyOutcome,
  IssueOutcome,
  IssueRequest,
  IssuerCapabilities,
  PollOutcome,
  PollRequest,
  RevokeOutcome,
} from '../issuer/certificate-issuer';
import { failedRow } from '../issuer/issue-many';
import { answerInvalid } from './scep-asn1';
import { selectCaCertificates, type ScepCaCertificates } from './scep-ca-certificates';
import { ScepOids } from './scep-constants';
import {
  buildCertPoll,
  buildPkcsReq,
  newSenderNonce,
  readCertRep,
  transactionIdOf,
  type CertRep,
  type ScepProtection,
} from './scep-messages';
import { loadScepRequester, type ScepRequester, type ScepRequesterConfig } from './scep-requester';
import { readDegenerateCertificates } from './scep-signed';
import { ScepTransport, type ScepEgress } from './scep-transport';
import { subjectOfCertificate, subjectOfCsr } from './scep-x509';

const DISCOVERY_TTL_MS = 60_000;

/** A SCEP issuer profile as stored (plain JSON; `requester.keyPem` and the password are secrets). */
export interface ScepIssuerConfig {
  /** The CA's SCEP URL, e.g. `https://ndes.corp.example/certsrv/mscep/mscep.dll`. */
  readonly url: string;
  readonly challengePassword?: string;
  /** SHA-256 of a CA certificate GetCACert must return (hex, colons allowed). */
  readonly caCertFingerprint?: string;
  readonly requester: ScepRequesterConfig;
  /** Whole-call timeout of each SCEP HTTP call (default 15 s, capped by the egress policy). */
  readonly timeoutMs?: number;
}

/**
 * RFC 8894 client as a CertificateIssuer: PKCSReq on approval (`issued`, or `pending` with the
 * transactionID as reference), CertPoll (GetCertInitial) with the same transactionID on
 * `poll`. The CA decides the subject and extensions from the CSR; the subject the approval
 * flow chose is not sent. SCEP has no revoke operation.
 */
export class ScepIssuer implements CertificateIssuer {
  readonly kind = 'scep';
  private readonly transport: ScepTransport;
  private readonly requester: ScepRequester;
  /** GetCACaps and GetCACert answers, reused for a minute (a bulk approval asks once). */
  private discovered: { at: number; caps: Set<string>; ca: ScepCaCertificates } | undefined;

  constructor(
    private readonly config: ScepIssuerConfig,
    egress?: ScepEgress,
  ) {
    let url: URL;
    try {
      url = new URL(config.url);
    } catch {
      throw new PkiError('scep_config_invalid', 'the SCEP URL is not a valid absolute URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new PkiError('scep_config_invalid', 'the SCEP URL must be http or https');
    }
    this.requester = loadScepRequester(config.requester);
    this.transport = new ScepTransport(config.url, egress, config.timeoutMs);
  }

  capabilities(): IssuerCapabilities {
    return {
      kind: this.kind,
      async: true,
      supportsRevoke: false,
      supportsCrl: false,
      purposes: X509_PURPOSES,
    };
  }

  /** GetCACaps: the capability keywords (upper case); an error answer means none (RFC 8894). */
  async caCaps(): Promise<Set<string>> {
    try {
      const answer = await this.transport.get('GetCACaps');
      const text = answer.body.toString('utf8');
      return new Set(
        text
          .split(/\r?\n/)
          .map((l) => l.trim().toUpperCase())
          .filter((l) => l.length > 0),
      );
    } catch (error) {
      if (error instanceof PkiError && /HTTP \d+/.test(error.message)) return new Set();
      throw error;
    }
  }

  /** GetCACert: the CA (and RA) certificates, sorted and checked against the pin. */
  async caCertificates(): Promise<ScepCaCertificates> {
    const answer = await this.transport.get('GetCACert');
    let certs: Buffer[];
    if (answer.contentType === 'application/x-x509-ca-ra-cert') {
      certs = readDegenerateCertificates(answer.body, 'the GetCACert answer');
    } else {
      try {
        certs = [new X509Certificate(answer.body).raw];
      } catch {
        certs = readDegenerateCertificates(answer.body, 'the GetCACert answer');
      }
    }
    return selectCaCertificates(certs, this.config.caCertFingerprint);
  }

  async issue(request: IssueRequest): Promise<IssueOutcome> {
    const { caps, ca } = await this.discover();
    const transactionId = transactionIdOf(request.csr.publicKeySpkiDer);
    const out = this.outgoing(transactionId, ca, caps);
    const message = buildPkcsReq(request.csr.der, out, this.config.challengePassword);
    const answer = await this.operation(message, caps);
    const rep = this.read(answer, ca, out);
    if (rep.status === 'FAILURE')
      throw new PkiError('scep_refused', `the CA refused the request: ${rep.reason}`);
    return this.outcome(rep, request.csr.publicKeySpkiDer, ca, transactionId);
  }

  async poll(request: PollRequest): Promise<PollOutcome> {
    const { caps, ca } = await this.discover();
    const out = this.outgoing(request.pendingReference, ca, caps);
    const message = buildCertPoll(
      subjectOfCertificate(ca.issuingCaDer),
      subjectOfCsr(request.csr.der),
      out,
    );
    const rep = this.read(await this.operation(message, caps), ca, out);
    if (rep.status === 'FAILURE') {
      return {
        status: 'failed',
        code: 'scep_refused',
        message: `the CA refused the request: ${rep.reason}`,
      };
    }
    return this.outcome(rep, request.csr.publicKeySpkiDer, ca, request.pendingReference);
  }

  async issueMany(requests: readonly IssueRequest[]): Promise<IssueManyOutcome[]> {
    const outcomes: IssueManyOutcome[] = [];
    for (const request of requests) {
      try {
        outcomes.push({ requestId: request.requestId, ...(await this.issue(request)) });
      } catch (error) {
        outcomes.push(failedRow(request.requestId, error));
      }
    }
    return outcomes;
  }

  revoke(serial: string, _reason: RevocationReason): Promise<RevokeOutcome> {
    return Promise.resolve({ status: 'unsupported', serial: normalizeSerialHex(serial) ?? serial });
  }

  private async discover(): Promise<{ caps: Set<string>; ca: ScepCaCertificates }> {
    const cached = this.discovered;
    if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached;
    const caps = await this.caCaps();
    const ca = await this.caCertificates();
    this.discovered = { at: Date.now(), caps, ca };
    return this.discovered;
  }

  private outgoing(transactionId: string, ca: ScepCaCertificates, caps: ReadonlySet<string>) {
    return {
      transactionId,
      senderNonce: newSenderNonce(),
      recipientDer: ca.encryptionDer,
      signer: this.requester,
      protection: protectionOf(caps),
    };
  }

  private operation(message: Buffer, caps: ReadonlySet<string>) {
    return caps.has('POSTPKIOPERATION') || caps.has('SCEPSTANDARD')
      ? this.transport.post('PKIOperation', message)
      : this.transport.get('PKIOperation', message.toString('base64'));
  }

  private read(
    answer: { body: Buffer },
    ca: ScepCaCertificates,
    out: ReturnType<ScepIssuer['outgoing']>,
  ): CertRep {
    return readCertRep(answer.body, {
      signerDer: ca.signingDer,
      transactionId: out.transactionId,
      senderNonce: out.senderNonce,
      requester: this.requester,
    });
  }

  private outcome(
    rep: CertRep,
    spkiDer: Buffer,
    ca: ScepCaCertificates,
    transactionId: string,
  ): IssueOutcome {
    if (rep.status === 'PENDING') {
      return { status: 'pending', pendingReference: transactionId, pollState: { transactionId } };
    }
    if (rep.status !== 'SUCCESS') throw answerInvalid('unexpected CertRep status');
    const wanted = createPublicKey({ key: spkiDer, format: 'der', type: 'spki' });
    const issued = rep.certificatesDer
      .map((der) => new X509Certificate(der))
      .find((cert) => !cert.ca && cert.publicKey.equals(wanted));
    if (!issued) throw answerInvalid('the CA returned a certificate for another key than the CSR');
    return {
      status: 'issued',
      certificateDer: issued.raw,
      chainDer: ca.chainDer,
      serial: normalizeSerialHex(issued.serialNumber) ?? issued.serialNumber.toLowerCase(),
      notBefore: new Date(issued.validFrom),
      notAfter: new Date(issued.validTo),
    };
  }
}

/** SHA-256 and AES-128-CBC when the CA says so (SCEPStandard implies both), else SHA-1/3DES. */
export function protectionOf(caps: ReadonlySet<string>): ScepProtection {
  const standard = caps.has('SCEPSTANDARD');
  return {
    hash: standard || caps.has('SHA-256') ? 'sha256' : 'sha1',
    cipherOid: standard || caps.has('AES') ? ScepOids.aes128Cbc : ScepOids.desEde3Cbc,
  };
}
