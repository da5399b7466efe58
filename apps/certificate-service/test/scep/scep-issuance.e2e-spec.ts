import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { startScepServer, ScepStandIn, type RunningScepServer } from '@platform/pki/testing';
import { ScepModule } from '../../src/modules/scep/scep.module';
import { enrollDevice, sql, startEnrollApp } from '../fixtures/enroll';
import { approveRows } from '../fixtures/issue';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { later, pendingRecord, poller, requestState, scepIssuer, useScep } from './scep-support';

describe('SCEP issuer - issuance through the real scepserver and the PENDING stand-in', () => {
  let t: TestApp;
  let admin: TestUser;
  let server: RunningScepServer;
  let ca: ScepStandIn;
  beforeAll(async () => {
    t = await startEnrollApp({ extraImports: [ScepModule] });
    admin = await loginAdmin(t);
    server = await startScepServer();
    ca = await new ScepStandIn().start();
  });
  afterAll(async () => {
    useScep(t, undefined);
    await ca.close();
    await server.stop();
    await t.close();
  });

  it('enroll, approve, issued by the real scepserver; openssl verify accepts the chain', async () => {
    useScep(t, scepIssuer(server.url));
    // scepserver 2.1 signs only RSA CSRs (it copies the CSR's signature algorithm; its CA is RSA).
    const device = await enrollDevice(t, { kind: 'rsa' });
    const [row] = await approveRows(t, admin.accessToken, [device.requestId]);
    expect(row).toMatchObject({ status: 'issued' });
    const [cert] = await sql<{ der: Buffer; chain_pem: string; issuer_kind: string }>(
      t,
      `SELECT der, chain_pem, issuer_kind FROM certificates WHERE request_id = $1`,
      [device.requestId],
    );
    expect(cert.issuer_kind).toBe('scep');
    expect(new X509Certificate(cert.chain_pem).subject).toContain('scep-ca');
    const dir = mkdtempSync(join(tmpdir(), 'scep-e2e-'));
    writeFileSync(join(dir, 'chain.pem'), cert.chain_pem);
    writeFileSync(join(dir, 'leaf.pem'), new X509Certificate(cert.der).toString());
    let out: string;
    try {
      out = execFileSync(
        'openssl',
        ['verify', '-CAfile', join(dir, 'chain.pem'), join(dir, 'leaf.pem')],
        {
          encoding: 'utf8',
        },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(out).toContain('leaf.pem: OK');
    expect(await requestState(t, device.requestId)).toMatchObject({
      status: 'issued',
      certificates: 1,
    });
    expect(await pendingRecord(t, device.requestId)).toBeUndefined();
  });

  it('a CA refusal at approval fails the request with a clear reason', async () => {
    const refusing = await startScepServer({ challenge: 'not-sent-by-the-device' });
    try {
      useScep(t, scepIssuer(refusing.url));
      const device = await enrollDevice(t);
      const [row] = await approveRows(t, admin.accessToken, [device.requestId]);
      expect(row).toMatchObject({ status: 'error', error: 'scep_refused' });
      expect(await requestState(t, device.requestId)).toMatchObject({
        status: 'failed',
        status_reason: 'scep_refused',
        certificates: 0,
      });
    } finally {
      await refusing.stop();
    }
  });

  it('PENDING puts the request in ca_pending with its record; CertPolls with the same transactionID issue it', async () => {
    ca.mode = 'normal';
    ca.pendingPolls = 2;
    useScep(t, scepIssuer(ca.url));
    const device = await enrollDevice(t);
    const [row] = await approveRows(t, admin.accessToken, [device.requestId]);
    expect(row).toMatchObject({ status: 'ca_pending' });
    expect(await requestState(t, device.requestId)).toMatchObject({
      status: 'ca_pending',
      certificates: 0,
    });
    const record = await pendingRecord(t, device.requestId);
    expect(record).toMatchObject({ attempts: 0, last_error: null });
    const transactionId = record?.transaction_id ?? '';

    expect(await poller(t).pollOnce()).toMatchObject({ polled: 1, pending: 1 });
    expect(await pendingRecord(t, device.requestId)).toMatchObject({ attempts: 1 });
    // Not due again before the poll interval.
    expect(await poller(t).pollOnce()).toMatchObject({ polled: 0 });
    expect(await poller(t).pollOnce({ now: later(1) })).toMatchObject({ polled: 1, issued: 1 });

    expect(ca.count('19', transactionId)).toBe(1);
    expect(ca.count('20', transactionId)).toBe(2);
    expect(await requestState(t, device.requestId)).toMatchObject({
      status: 'issued',
      certificates: 1,
    });
    expect(await pendingRecord(t, device.requestId)).toBeUndefined();
    const [cert] = await sql<{ issuer_kind: string; chain_pem: string }>(
      t,
      `SELECT issuer_kind, chain_pem FROM certificates WHERE request_id = $1`,
      [device.requestId],
    );
    expect(cert.issuer_kind).toBe('scep');
    expect(new X509Certificate(cert.chain_pem).raw).toEqual(ca.caCertificateDer);
  });

  it('a FAILURE answer to CertPoll fails the request with the CA reason kept', async () => {
    ca.mode = 'normal';
    ca.pendingPolls = 1;
    useScep(t, scepIssuer(ca.url));
    const device = await enrollDevice(t);
    await approveRows(t, admin.accessToken, [device.requestId]);
    ca.mode = 'failure';
    await poller(t).pollOnce({ now: later(1) });
    expect(await requestState(t, device.requestId)).toMatchObject({
      status: 'failed',
      status_reason: 'scep_refused',
      certificates: 0,
    });
    const record = await pendingRecord(t, device.requestId);
    expect(record).toMatchObject({ attempts: 1, next_poll_at: null });
    expect(record?.last_error).toMatch(/badRequest/);
    ca.mode = 'normal';
  });

  it('revoking a SCEP-issued certificate marks it revoked here, says it stays valid at the CA', async () => {
    ca.mode = 'normal';
    ca.pendingPolls = 0;
    useScep(t, scepIssuer(ca.url));
    const device = await enrollDevice(t);
    const [row] = await approveRows(t, admin.accessToken, [device.requestId]);
    expect(row).toMatchObject({ status: 'issued' });
    const res = await t.http
      .post(`/api/v1/certificates/${row.serial}/revoke`)
      .set(...bearer(admin.accessToken))
      .send({ reason: 'keyCompromise' })
      .expect(200);
    expect(res.body).toMatchObject({
      serial: row.serial,
      status: 'revoked',
      ca_revoke_unsupported: true,
      warning: expect.stringContaining('stays valid at the external CA') as unknown,
    });
    // Marked revoked in the store (the built-in CA's CRL lists only built-in certificates).
    const [crl] = await sql<{ n: number }>(
      t,
      `SELECT count(*)::int AS n FROM certificates WHERE serial = $1 AND status = 'revoked' AND issuer_kind = 'scep'`,
      [row.serial],
    );
    expect(crl.n).toBe(1);
    // A device revoke completes (block, slot) with the same flag on the row.
    const other = await enrollDevice(t);
    const [issued] = await approveRows(t, admin.accessToken, [other.requestId]);
    const full = await t.http
      .post(`/api/v1/devices/${other.serial}/revoke`)
      .set(...bearer(admin.accessToken))
      .send({})
      .expect(200);
    expect(full.body).toMatchObject({
      status: 'revoked',
      blocked: true,
      certificates: [{ serial: issued.serial, status: 'revoked', ca_revoke_unsupported: true }],
    });
  });
});
