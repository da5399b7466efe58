import { execFileSync } from 'node:child_process';
import { DerTag, Oids, toPem } from '@platform/pki';
import { ecKeyPair, makeCsr, type CsrOptions, type SubjectAttribute } from '@platform/pki/testing';
import {
  enrollDevice,
  nonce,
  sql,
  startEnrollApp,
  uniqueSerial,
  type EnrolledDevice,
} from '../fixtures/enroll';
import { opensslCsr } from '../fixtures/openssl';
import type { TestApp } from '../support/test-app';

/** A CSR signed by a fresh key, with a subject and SANs no `openssl req -subj` would write. */
function hostileCsr(options: Omit<CsrOptions, 'keyPair'>): string {
  return toPem('CERTIFICATE REQUEST', makeCsr({ keyPair: ecKeyPair(), ...options }));
}

const cn = (value: string | Buffer, tag?: number): SubjectAttribute[] => [
  { oid: Oids.commonName, value, tag },
];

const SUBJECTS: [string, SubjectAttribute[], string][] = [
  ['CN of 10 000 characters', cn('c'.repeat(10_000)), 'CN'],
  ['CN with NUL', cn('SN-1\u0000admin'), 'CN'],
  ['CN of 65 characters', cn('c'.repeat(65)), 'CN'],
  ['CN with an escape sequence', cn('dev\u001b[31mice'), 'CN'],
  ['CN as a BMPString with NUL', cn(Buffer.from([0, 0x41, 0, 0]), DerTag.BMP_STRING), 'CN'],
  ['O of 65 characters', [{ oid: Oids.organizationName, value: 'o'.repeat(65) }], 'O'],
  ['OU with NUL', [{ oid: '2.5.4.11', value: 'IT\u0000' }], 'OU'],
  ['serialNumber of 65', [{ oid: '2.5.4.5', value: '9'.repeat(65) }], 'serialNumber'],
  [
    'emailAddress of 256',
    [{ oid: '1.2.840.113549.1.9.1', value: `${'e'.repeat(244)}@example.com` }],
    'emailAddress',
  ],
];

const SANS: [string, Omit<CsrOptions, 'keyPair'>][] = [
  ['DNS name with NUL', { dnsNames: ['dev\u0000.example.com'] }],
  ['DNS name of 10 000', { dnsNames: ['d'.repeat(10_000)] }],
  ['email of 256', { emails: [`${'e'.repeat(244)}@example.com`] }],
  ['UPN with NUL', { upn: 'alice\u0000@corp' }],
];

/** 80 characters, matching the agent version pattern; the column holds 64. */
const LONG_AGENT_VERSION = `123456789.123456789.123456789.123456789-${'a'.repeat(40)}`;

const ENROLL_FIELDS: [string, Record<string, unknown>, string][] = [
  ['serial null', { serial: null }, 'serial'],
  ['serial a number', { serial: 42 }, 'serial'],
  ['serial of 129', { serial: 'S'.repeat(129) }, 'serial'],
  ['nonce null', { nonce: null }, 'nonce'],
  ['nonce an object', { nonce: { $ne: '' } }, 'nonce'],
  ['nonce of 129', { nonce: 'n'.repeat(129) }, 'nonce'],
  ['csr an array', { csr: ['-----BEGIN CERTIFICATE REQUEST-----'] }, 'csr'],
  ['enrollment_token a number', { enrollment_token: 12345 }, 'enrollment_token'],
  ['enrollment_token an array', { enrollment_token: ['t'] }, 'enrollment_token'],
  ['enrollment_token of 201', { enrollment_token: 't'.repeat(201) }, 'enrollment_token'],
  ['agent_version null', { agent_version: null }, 'agent_version'],
  ['agent_version of 80', { agent_version: LONG_AGENT_VERSION }, 'agent_version'],
  ['platform null', { platform: null }, 'platform'],
  ['platform with a control character', { platform: 'win\u0007' }, 'platform'],
  ['platform of 33', { platform: 'p'.repeat(33) }, 'platform'],
  ['hostname null', { hostname: null }, 'hostname'],
  ['hostname empty', { hostname: '' }, 'hostname'],
  ['hostname with a line break', { hostname: 'host\nforged: entry' }, 'hostname'],
  ['hostname of 256', { hostname: 'h'.repeat(256) }, 'hostname'],
  ['source_nonce null', { source_nonce: null }, 'source_nonce'],
  ['source_nonce of 129', { source_nonce: 's'.repeat(129) }, 'source_nonce'],
];

interface Refusal {
  status: number;
  body: { code: string; message: string; details?: { field: string }[] };
}

describe('Hostile enrollment - /api/v1/enroll, /enroll/user, /enroll/purposes, /enroll/purpose-request (POST)', () => {
  let t: TestApp;
  let known: EnrolledDevice;
  beforeAll(async () => {
    t = await startEnrollApp();
    known = await enrollDevice(t);
  });
  afterAll(() => t.close());

  /** Every row of the enrollment tables, so a refusal provably changed nothing. */
  const stored = async () =>
    (
      await sql<{ digest: string }>(
        t,
        `SELECT md5(concat(
           (SELECT string_agg(d::text, '|' ORDER BY d.id) FROM devices d),
           (SELECT string_agg(r::text, '|' ORDER BY r.id) FROM certificate_requests r),
           (SELECT string_agg(p::text, '|' ORDER BY p.id) FROM device_purpose_requests p))) AS digest`,
      )
    )[0].digest;

  async function refused(path: string, body: Record<string, unknown>): Promise<Refusal> {
    const before = await stored();
    const res = await t.http.post(path).send(body);
    expect(await stored()).toBe(before);
    expect(res.status).toBeLessThan(500);
    return { status: res.status, body: res.body as Refusal['body'] };
  }

  const expectFieldRefused = (refusal: Refusal, field: string) => {
    expect(refusal.status).toBe(400);
    expect(refusal.body).toMatchObject({ code: 'invalid_request', message: expect.any(String) });
    expect(refusal.body.details?.map((d) => d.field)).toContain(field);
  };

  const enrollBody = async (serial: string, csr: string, extra: Record<string, unknown> = {}) => ({
    csr,
    serial,
    nonce: await nonce(t),
    agent_version: '2.4.1',
    platform: 'windows',
    hostname: `host-${serial}`,
    ...extra,
  });

  const userBody = (csr: string, extra: Record<string, unknown> = {}) => ({
    serial: known.serial,
    enrollment_token: known.enrollmentToken,
    csr,
    purpose: 'user_mtls',
    user: 'alice@example.com',
    ...extra,
  });

  it('openssl reads the hostile CSRs as well-formed, correctly signed requests', () => {
    for (const [, subject] of SUBJECTS.slice(0, 2)) {
      const out = execFileSync('openssl', ['req', '-verify', '-noout'], {
        input: hostileCsr({ subject }),
        stdio: 'pipe',
      });
      expect(out.toString()).toBe('');
    }
  });

  describe.each(SUBJECTS)('a CSR subject with a %s', (_case, subject, field) => {
    it('POST /enroll: 400 subject_invalid naming the attribute, for a new and a known serial', async () => {
      for (const [serial, token] of [
        [uniqueSerial(), undefined],
        [known.serial, known.enrollmentToken],
      ]) {
        const body = await enrollBody(serial as string, hostileCsr({ subject }), {
          ...(token ? { enrollment_token: token } : {}),
        });
        const refusal = await refused('/api/v1/enroll', body);
        expect(refusal.status).toBe(400);
        expect(refusal.body.code).toBe('subject_invalid');
        expect(refusal.body.message).toMatch(new RegExp(`^subject ${field} `));
      }
    });

    it('POST /enroll/user: 400 subject_invalid', async () => {
      const refusal = await refused('/api/v1/enroll/user', userBody(hostileCsr({ subject })));
      expect(refusal.status).toBe(400);
      expect(refusal.body.code).toBe('subject_invalid');
    });
  });

  it.each(SANS)('POST /enroll with a requested %s: 400 san_invalid', async (_case, options) => {
    const serial = uniqueSerial();
    const refusal = await refused(
      '/api/v1/enroll',
      await enrollBody(serial, hostileCsr({ commonName: serial, ...options })),
    );
    expect(refusal.status).toBe(400);
    expect(refusal.body.code).toBe('san_invalid');
  });

  it('POST /enroll with enrollment_token null for a known serial: 400 naming the field', async () => {
    const body = await enrollBody(known.serial, opensslCsr('ec', known.serial).csrPem, {
      enrollment_token: null,
    });
    expectFieldRefused(await refused('/api/v1/enroll', body), 'enrollment_token');
  });

  it.each(ENROLL_FIELDS)(
    'POST /enroll with %s: 400 naming the field',
    async (_case, patch, field) => {
      const serial = uniqueSerial();
      const body = await enrollBody(serial, opensslCsr('ec', serial).csrPem, patch);
      expectFieldRefused(await refused('/api/v1/enroll', body), field);
    },
  );

  it.each([
    ['enrollment_token null', { enrollment_token: null }, 'enrollment_token'],
    ['enrollment_token an object', { enrollment_token: { hash: 'x' } }, 'enrollment_token'],
    ['user with a control character', { user: 'alice\u0001@example.com' }, 'user'],
    ['user of 321', { user: 'u'.repeat(321) }, 'user'],
    ['upn with a control character', { upn: 'alice\u0002@corp' }, 'upn'],
    ['upn null', { upn: null }, 'upn'],
    ['sid null', { sid: null }, 'sid'],
    ['agent_version of 80', { agent_version: LONG_AGENT_VERSION }, 'agent_version'],
  ])('POST /enroll/user with %s: 400 naming the field', async (_case, patch, field) => {
    const body = userBody(opensslCsr('ec', 'alice').csrPem, patch);
    expectFieldRefused(await refused('/api/v1/enroll/user', body), field);
  });

  it.each([
    ['/purposes', 'enrollment_token null', { enrollment_token: null }, 'enrollment_token'],
    ['/purposes', 'serial an object', { serial: { $gt: '' } }, 'serial'],
    ['/purpose-request', 'purpose null', { purpose: null }, 'purpose'],
    ['/purpose-request', 'note null', { purpose: 'vpn', note: null }, 'note'],
    ['/purpose-request', 'note of 501', { purpose: 'vpn', note: 'n'.repeat(501) }, 'note'],
    ['/purpose-request', 'note with NUL', { purpose: 'vpn', note: 'a\u0000b' }, 'note'],
    ['/purpose-request', 'note with an escape', { purpose: 'vpn', note: 'a\u001b[2Jb' }, 'note'],
  ])('POST /enroll%s with %s: 400 naming the field', async (route, _case, patch, field) => {
    const body = { serial: known.serial, enrollment_token: known.enrollmentToken, ...patch };
    expectFieldRefused(await refused(`/api/v1/enroll${route}`, body), field);
  });

  it('agent check-in with an agent_version of 80: 400 naming the field, nothing stored', async () => {
    const device = await enrollDevice(t);
    const before = await stored();
    const res = await t.http
      .post(`/api/v1/requests/${device.requestId}/checkin`)
      .set('x-agent-secret', device.agentSecret)
      .send({ agent_version: LONG_AGENT_VERSION });
    expectFieldRefused({ status: res.status, body: res.body as Refusal['body'] }, 'agent_version');
    expect(await stored()).toBe(before);
  });

  it('still enrolls with a CSR at the subject bounds and a multi-line note', async () => {
    const serial = uniqueSerial();
    const csr = hostileCsr({
      subject: [
        { oid: Oids.organizationName, value: 'o'.repeat(64) },
        { oid: Oids.commonName, value: `${serial}-${'c'.repeat(64 - serial.length - 1)}` },
      ],
      dnsNames: [`${serial.toLowerCase()}.example.com`],
    });
    await t.http
      .post('/api/v1/enroll')
      .send(await enrollBody(serial, csr, { agent_version: '123456789.123456789.1-rc.1' }))
      .expect(201);
    await t.http
      .post('/api/v1/enroll/purpose-request')
      .send({
        serial: known.serial,
        enrollment_token: known.enrollmentToken,
        purpose: 'vpn',
        note: 'line one\nline two\ttabbed',
      })
      .expect(200);
  });
});
