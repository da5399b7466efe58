import { EstStandIn } from '@platform/pki/testing';
import { enrollDevice, sql } from '../fixtures/enroll';
import { approveRows, reenroll } from '../fixtures/issue';
import { bundleOf, openssl } from '../issuance/issuance-support';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';
import { estBasicProfile, ISSUER_TEST_ENV, putProfile } from './issuer-support';

/** `openssl verify -CAfile <the EST CA> -untrusted <bundle chain> <certificate>`. */
function verifyAgainst(caPem: string, bundle: Awaited<ReturnType<typeof bundleOf>>) {
  return openssl(
    (d) => ['verify', '-CAfile', `${d}/ca.pem`, '-untrusted', `${d}/chain.pem`, `${d}/cert.pem`],
    { 'ca.pem': caPem, 'chain.pem': bundle['chain.pem'], 'cert.pem': bundle['certificate.pem'] },
  );
}

describe('EST issuer through the service (loopback EST stand-in over TLS)', () => {
  let t: TestApp;
  let admin: TestUser;
  let est: EstStandIn;
  beforeAll(async () => {
    est = await EstStandIn.start({ basic: { username: 'ra', password: 'ra-secret' } });
    t = await startTestApp({ env: ISSUER_TEST_ENV });
    admin = await loginAdmin(t);
  });
  afterAll(async () => {
    await t.close();
    await est.close();
  });
  beforeEach(() => est.misbehave('none'));

  it('enroll -> approve -> issued by the EST CA; the bundle chain verifies with openssl; renewal re-enrolls', async () => {
    await putProfile(t, admin.accessToken, 'wifi', estBasicProfile(est)).expect(200);
    const issuer = await t.http.get('/api/v1/issuer').expect(200);
    expect(issuer.body).toMatchObject({ kind: 'est', supports_revoke: false, supports_crl: false });

    const device = await enrollDevice(t);
    const [row] = await approveRows(t, admin.accessToken, [device.requestId]);
    expect(row).toMatchObject({ status: 'issued' });
    expect(est.calls.at(-1)).toEqual({
      operation: 'simpleenroll',
      label: undefined,
      auth: 'basic',
    });
    const bundle = await bundleOf(t, admin.accessToken, row.serial ?? '');
    const verified = verifyAgainst(est.caChainPem(), bundle);
    expect(verified.out).toContain('OK');
    expect(verified.ok).toBe(true);
    const [stored] = await sql<{ issuer_kind: string; has_chain: boolean }>(
      t,
      `SELECT issuer_kind, chain_pem IS NOT NULL AS has_chain FROM certificates WHERE serial = $1`,
      [row.serial],
    );
    expect(stored).toEqual({ issuer_kind: 'est', has_chain: true });

    // the agent gets the EST chain too
    const delivered = await t.http
      .get(`/api/v1/requests/${device.requestId}/certificate`)
      .set('x-agent-secret', device.agentSecret)
      .expect(200);
    expect((delivered.body as { ca_bundle_pem: string }).ca_bundle_pem).toBe(est.caChainPem());

    const renewal = await reenroll(t, device);
    const [renewed] = await approveRows(t, admin.accessToken, [renewal.requestId]);
    expect(renewed).toMatchObject({ status: 'issued' });
    expect(est.calls.at(-1)).toEqual({
      operation: 'simplereenroll',
      label: undefined,
      auth: 'basic',
    });
    const renewedBundle = await bundleOf(t, admin.accessToken, renewed.serial ?? '');
    expect(verifyAgainst(est.caChainPem(), renewedBundle).ok).toBe(true);
  });

  it('TLS client authentication with a label: issued, the stand-in saw the client certificate', async () => {
    const client = est.clientCertificate();
    await putProfile(t, admin.accessToken, 'wifi', {
      kind: 'est',
      url: est.url,
      label: 'devices',
      auth_mode: 'client_certificate',
      client_certificate_pem: client.certPem,
      client_key_pem: client.keyPem,
      trust_anchor_pem: est.tls.certPem,
    }).expect(200);
    const device = await enrollDevice(t);
    const [row] = await approveRows(t, admin.accessToken, [device.requestId]);
    expect(row).toMatchObject({ status: 'issued' });
    expect(est.calls.at(-1)).toEqual({
      operation: 'simpleenroll',
      label: 'devices',
      auth: 'client_certificate',
    });
    const bundle = await bundleOf(t, admin.accessToken, row.serial ?? '');
    expect(verifyAgainst(est.caChainPem(), bundle).ok).toBe(true);
  });

  it('wrong credentials: the approval row says est_unauthorized and the request fails; nothing issued', async () => {
    await putProfile(t, admin.accessToken, 'wifi', estBasicProfile(est, 'wrong')).expect(200);
    const device = await enrollDevice(t);
    const [row] = await approveRows(t, admin.accessToken, [device.requestId]);
    expect(row).toEqual({
      request_id: device.requestId,
      status: 'error',
      error: 'est_unauthorized',
    });
    const [request] = await sql<{ status: string }>(
      t,
      `SELECT status FROM certificate_requests WHERE id = $1`,
      [device.requestId],
    );
    expect(request.status).toBe('failed');
    const certificates = await sql(t, `SELECT 1 FROM certificates WHERE request_id = $1`, [
      device.requestId,
    ]);
    expect(certificates).toHaveLength(0);
  });

  it('hostile EST answers never become certificates', async () => {
    await putProfile(t, admin.accessToken, 'wifi', estBasicProfile(est)).expect(200);
    const cases = {
      wrong_key: 'est_key_mismatch',
      foreign_ca: 'est_answer_invalid',
      garbage: 'est_answer_invalid',
      pending: 'est_pending_unsupported',
    } as const;
    for (const [behaviour, code] of Object.entries(cases)) {
      est.misbehave(behaviour as keyof typeof cases);
      const device = await enrollDevice(t);
      const [row] = await approveRows(t, admin.accessToken, [device.requestId]);
      expect({ behaviour, row }).toEqual({
        behaviour,
        row: { request_id: device.requestId, status: 'error', error: code },
      });
    }
  });

  it('revoking an EST-issued certificate marks it revoked here only, with ca_revoke_unsupported (as for SCEP)', async () => {
    await putProfile(t, admin.accessToken, 'wifi', estBasicProfile(est)).expect(200);
    const device = await enrollDevice(t);
    const [row] = await approveRows(t, admin.accessToken, [device.requestId]);
    const calls = est.calls.length;
    const res = await t.http
      .post(`/api/v1/certificates/${row.serial}/revoke`)
      .set(...bearer(admin.accessToken))
      .send({ reason: 'keyCompromise' })
      .expect(200);
    expect(res.body).toMatchObject({ status: 'revoked', ca_revoke_unsupported: true });
    expect(String((res.body as { warning: string }).warning)).toContain('stays valid');
    // EST has no revoke operation: nothing was sent to the EST server
    expect(est.calls.length).toBe(calls);
  });
});
