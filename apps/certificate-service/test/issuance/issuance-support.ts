import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestApp } from '../support/test-app';
import { bearer } from '../support/sessions';

function inTempDir<T>(work: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'certsvc-issuance-'));
  try {
    return work(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface Bundle {
  'certificate.pem': string;
  'chain.pem': string;
  'fullchain.pem': string;
  'ca.pem': string;
}

/** Downloads the ZIP bundle and unpacks it with `unzip`. */
export async function bundleOf(t: TestApp, token: string, serial: string): Promise<Bundle> {
  const res = await t.http
    .get(`/api/v1/certificates/${serial}/bundle`)
    .set(...bearer(token))
    .buffer(true)
    .parse((response, done) => {
      const chunks: Buffer[] = [];
      response.on('data', (c: Buffer) => chunks.push(c));
      response.on('end', () => done(null, Buffer.concat(chunks)));
    })
    .expect(200);
  expect(res.headers['content-type']).toBe('application/zip');
  const zip = res.body as Buffer;
  return inTempDir((dir) => {
    const file = join(dir, 'bundle.zip');
    writeFileSync(file, zip);
    const read = (name: string) => execFileSync('unzip', ['-p', file, name]).toString();
    return {
      'certificate.pem': read('certificate.pem'),
      'chain.pem': read('chain.pem'),
      'fullchain.pem': read('fullchain.pem'),
      'ca.pem': read('ca.pem'),
    };
  });
}

/** `openssl <args>` over files written from `files`; returns status and combined output. */
export function openssl(
  args: (dir: string) => string[],
  files: Record<string, string>,
): { ok: boolean; out: string } {
  return inTempDir((dir) => {
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
    try {
      const out = execFileSync('openssl', args(dir), { stdio: 'pipe' }).toString();
      return { ok: true, out };
    } catch (error) {
      const e = error as { stdout?: Buffer; stderr?: Buffer };
      return { ok: false, out: `${e.stdout?.toString() ?? ''}${e.stderr?.toString() ?? ''}` };
    }
  });
}

/** `openssl verify` of the bundle's certificate against its own root and chain (and a CRL). */
export function verifyBundle(bundle: Bundle, crlPem?: string): { ok: boolean; out: string } {
  const files: Record<string, string> = {
    'ca.pem': bundle['ca.pem'],
    'chain.pem': bundle['chain.pem'],
    'cert.pem': bundle['certificate.pem'],
  };
  if (crlPem) files['crl.pem'] = crlPem;
  return openssl(
    (d) => [
      'verify',
      '-CAfile',
      join(d, 'ca.pem'),
      '-untrusted',
      join(d, 'chain.pem'),
      ...(crlPem ? ['-crl_check', '-CRLfile', join(d, 'crl.pem')] : []),
      join(d, 'cert.pem'),
    ],
    files,
  );
}

export function x509Text(certPem: string): string {
  return openssl((d) => ['x509', '-noout', '-text', '-in', join(d, 'c.pem')], { 'c.pem': certPem })
    .out;
}

/** The CRL as served to agents (`POST /api/v1/enroll/crl`). */
export async function servedCrlPem(t: TestApp): Promise<string> {
  const res = await t.http.post('/api/v1/enroll/crl').send({}).expect(200);
  return (res.body as { crls: { pem: string }[] }).crls[0].pem;
}

export function crlText(crlPem: string): string {
  const result = openssl((d) => ['crl', '-noout', '-text', '-in', join(d, 'crl.pem')], {
    'crl.pem': crlPem,
  });
  if (!result.ok) throw new Error(`openssl crl failed: ${result.out}`);
  return result.out;
}

/** notBefore and notAfter as openssl reads them; `issuedAt` undoes the 5-minute backdate. */
export function certificateValidity(certPem: string): {
  notBefore: Date;
  notAfter: Date;
  issuedAt: Date;
} {
  const dates = openssl(
    (d) => ['x509', '-noout', '-startdate', '-enddate', '-in', join(d, 'c.pem')],
    { 'c.pem': certPem },
  ).out;
  const notBefore = new Date(/notBefore=(.*)/.exec(dates)?.[1] ?? '');
  const notAfter = new Date(/notAfter=(.*)/.exec(dates)?.[1] ?? '');
  return { notBefore, notAfter, issuedAt: new Date(notBefore.getTime() + 300_000) };
}

/** The same UTC time `years` calendar years later; Feb 29 becomes Feb 28 in a common year. */
export function calendarYearsAfter(date: Date, years: number): Date {
  const later = new Date(date.getTime());
  later.setUTCFullYear(later.getUTCFullYear() + years);
  if (later.getUTCDate() !== date.getUTCDate()) later.setUTCDate(0);
  return later;
}
