import { randomBytes, sign, type KeyObject } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { algorithm, pkijsCertificate, toDer } from './scep-asn1';
import { ScepOids } from './scep-constants';

/** Key usage bits (first byte of the KeyUsage BIT STRING). */
export const KeyUsageBits = {
  digitalSignature: 0x80,
  keyEncipherment: 0x20,
  keyCertSign: 0x04,
  cRLSign: 0x02,
} as const;

export interface CertificateSpec {
  /** Subject as a Name DER, or a common name. */
  readonly subject: Buffer | string;
  readonly publicKey: KeyObject;
  /** Issuer certificate and key; absent: self-signed with `signingKey`. */
  readonly issuer?: { readonly certificateDer: Buffer; readonly privateKey: KeyObject };
  /** Key of a self-signed certificate. */
  readonly signingKey?: KeyObject;
  readonly ca?: boolean;
  /** First byte of KeyUsage (KeyUsageBits or-ed); absent: no KeyUsage extension. */
  readonly keyUsage?: number;
  readonly days: number;
}

function subjectName(subject: Buffer | string): pkijs.RelativeDistinguishedNames {
  if (Buffer.isBuffer(subject)) return pkijs.RelativeDistinguishedNames.fromBER(subject);
  return new pkijs.RelativeDistinguishedNames({
    typesAndValues: [
      new pkijs.AttributeTypeAndValue({
        type: '2.5.4.3',
        value: new asn1js.Utf8String({ value: subject }),
      }),
    ],
  });
}

/**
 * An X.509 v3 certificate (sha256WithRSA or ecdsa-with-SHA256), built with pkijs and signed
 * with node:crypto: the SCEP requester's self-signed certificate, and the loopback SCEP
 * stand-in's CA and leaves in tests.
 */
export function buildCertificate(spec: CertificateSpec): Buffer {
  const key = spec.issuer?.privateKey ?? spec.signingKey;
  if (!key) throw new Error('a certificate needs an issuer or a signing key');
  const cert = new pkijs.Certificate();
  cert.version = 2;
  const serial = randomBytes(16);
  serial[0] = (serial[0] & 0x3f) | 0x40;
  cert.serialNumber = new asn1js.Integer({ valueHex: serial });
  cert.subject = subjectName(spec.subject);
  cert.issuer = spec.issuer ? pkijsCertificate(spec.issuer.certificateDer).subject : cert.subject;
  const now = Date.now();
  cert.notBefore = new pkijs.Time({ type: 0, value: new Date(now - 60_000) });
  cert.notAfter = new pkijs.Time({ type: 0, value: new Date(now + spec.days * 86_400_000) });
  cert.subjectPublicKeyInfo = pkijs.PublicKeyInfo.fromBER(
    spec.publicKey.export({ type: 'spki', format: 'der' }),
  );
  const extensions: pkijs.Extension[] = [];
  if (spec.ca !== undefined) {
    const constraints = new pkijs.BasicConstraints({ cA: spec.ca });
    extensions.push(
      new pkijs.Extension({
        extnID: '2.5.29.19',
        critical: true,
        extnValue: constraints.toSchema().toBER(false),
      }),
    );
  }
  if (spec.keyUsage !== undefined) {
    const bits = new asn1js.BitString({
      valueHex: Uint8Array.of(spec.keyUsage).buffer,
      unusedBits: 1,
    });
    extensions.push(
      new pkijs.Extension({ extnID: '2.5.29.15', critical: true, extnValue: bits.toBER(false) }),
    );
  }
  if (extensions.length > 0) cert.extensions = extensions;
  const rsa = key.asymmetricKeyType === 'rsa';
  const signatureAlgorithm = rsa
    ? algorithm(ScepOids.sha256WithRsa, new asn1js.Null())
    : algorithm('1.2.840.10045.4.3.2');
  cert.signature = signatureAlgorithm;
  cert.signatureAlgorithm = signatureAlgorithm;
  const tbs = Buffer.from(cert.encodeTBS().toBER(false));
  cert.signatureValue = new asn1js.BitString({ valueHex: sign('sha256', tbs, key) });
  return toDer(cert.toSchema(true));
}

/** The first KeyUsage byte of a certificate, or undefined without the extension. */
export function keyUsageOf(certificateDer: Buffer): number | undefined {
  const ext = pkijsCertificate(certificateDer).extensions?.find((e) => e.extnID === '2.5.29.15');
  if (!ext) return undefined;
  const parsed = asn1js.fromBER(ext.extnValue.valueBlock.valueHexView);
  const bits = parsed.result;
  if (!(bits instanceof asn1js.BitString)) return undefined;
  return bits.valueBlock.valueHexView[0] ?? 0;
}

/** Subject Name DER of a certificate or of a PKCS#10 request. */
export function subjectOfCertificate(certificateDer: Buffer): Buffer {
  return toDer(pkijsCertificate(certificateDer).subject.toSchema());
}

export function subjectOfCsr(csrDer: Buffer): Buffer {
  return toDer(pkijs.CertificationRequest.fromBER(csrDer).subject.toSchema());
}
