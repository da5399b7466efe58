import { execFile } from 'node:child_process';
import { sign, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A CA made by the openssl CLI: its key file, PEM and DER. */
export interface OpensslCa {
  readonly keyFile: string;
  readonly pemFile: string;
  readonly pem: string;
  readonly der: Buffer;
}

let counter = 0;
const unique = (prefix: string): string => `${prefix}-${process.pid}-${++counter}`;

async function openssl(dir: string, args: string[]): Promise<void> {
  await run('openssl', args, { cwd: dir, timeout: 60_000 });
}

async function loaded(dir: string, keyFile: string, pemFile: string): Promise<OpensslCa> {
  const pem = await readFile(join(dir, pemFile), 'utf8');
  return { keyFile, pemFile, pem, der: new X509Certificate(pem).raw };
}

/**
 * A certificate made by `openssl x509 -new`: self-signed with a fresh key when `issuer` is
 * absent, else signed by it. `extensions` is an extfile body (none: an X.509 v1 certificate).
 */
export async function opensslCertificate(
  dir: string,
  options: {
    subject: string;
    extensions?: string;
    issuer?: OpensslCa;
    days?: number;
    keyAlg?: 'rsa' | 'ec';
  },
): Promise<OpensslCa> {
  const name = unique('cert');
  const keyFile = `${name}.key`;
  const pemFile = `${name}.pem`;
  const keyArgs =
    options.keyAlg === 'ec'
      ? ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256']
      : ['-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048'];
  await openssl(dir, ['genpkey', ...keyArgs, '-out', keyFile]);
  const args = ['x509', '-new', '-subj', options.subject, '-days', String(options.days ?? 30)];
  if (options.issuer) {
    await openssl(dir, ['pkey', '-in', keyFile, '-pubout', '-out', `${name}.pub`]);
    args.push(
      '-force_pubkey',
      `${name}.pub`,
      '-CA',
      options.issuer.pemFile,
      '-CAkey',
      options.issuer.keyFile,
    );
  } else {
    args.push('-key', keyFile);
  }
  if (options.extensions !== undefined) {
    await writeFile(join(dir, `${name}.ext`), options.extensions);
    args.push('-extfile', `${name}.ext`);
  }
  args.push('-out', pemFile);
  await openssl(dir, args);
  return loaded(dir, keyFile, pemFile);
}

export const CA_EXTENSIONS =
  'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\n';

/**
 * The extensions of a TCG EK certificate as vendors write them: critical subjectAltName with a
 * directoryName of TPM manufacturer, model and version, the EK EKU, keyEncipherment. openssl's
 * config strips everything up to the first dot of a field name, hence the `x.` prefix.
 */
export function ekExtensions(extra = '', options: { authorityKeyId?: boolean } = {}): string {
  return [
    'basicConstraints=critical,CA:FALSE',
    'keyUsage=critical,keyEncipherment',
    'extendedKeyUsage=2.23.133.8.1',
    'subjectAltName=critical,dirName:tpm_sect',
    options.authorityKeyId === false
      ? 'authorityKeyIdentifier=none'
      : 'authorityKeyIdentifier=keyid',
    extra,
    '[tpm_sect]',
    'x.2.23.133.2.1=id:414D4400',
    'x.2.23.133.2.2=id:00000000',
    'x.2.23.133.2.3=id:00030001',
    '',
  ].join('\n');
}

/**
 * `der` changed by `mutate` (a field openssl 3.0 cannot set: a key algorithm, a notBefore in
 * the future) and signed again, sha256WithRSA, by `signer` (its issuer, or itself).
 */
export async function resigned(
  dir: string,
  der: Buffer,
  signer: OpensslCa,
  mutate: (cert: pkijs.Certificate) => void,
): Promise<Buffer> {
  const cert = pkijs.Certificate.fromBER(der);
  mutate(cert);
  const tbs = Buffer.from(cert.encodeTBS().toBER());
  cert.tbsView = new Uint8Array(tbs);
  const key = await readFile(join(dir, signer.keyFile), 'utf8');
  cert.signatureValue = new asn1js.BitString({ valueHex: sign('sha256', tbs, key) });
  return Buffer.from(cert.toSchema(false).toBER());
}
