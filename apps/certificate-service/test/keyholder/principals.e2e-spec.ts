import { randomInt, randomUUID } from 'node:crypto';
import { sql, startEnrollApp } from '../fixtures/enroll';
import { bearer, loginAdmin } from '../support/sessions';
import type { TestApp } from '../support/test-app';

/**
 * The online principal check (`GET /api/v1/keyholder/principals`). The SSH certificates are
 * rows of `ssh_certificates` written here as the issuance of `modules/ssh` writes them: this
 * file tests the check, not the issuance (test/ssh/ covers that).
 */
describe('Key-holder API - /api/v1/keyholder/principals (online check)', () => {
  let t: TestApp;
  let admin: string;

  const asAdmin = () => ({
    post: (path: string) => t.http.post(path).set(...bearer(admin)),
    put: (path: string) => t.http.put(path).set(...bearer(admin)),
    delete: (path: string) => t.http.delete(path).set(...bearer(admin)),
  });

  /** An SSH certificate row; returns its serial and key id. */
  async function certificate(options: {
    owner: string;
    principals: string[];
    status?: 'active' | 'revoked';
    validBefore?: Date;
  }): Promise<{ serial: string; keyId: string }> {
    const serial = String(randomInt(1, 2 ** 47));
    const keyId = `certsvc:${randomUUID()}:PRINCIPALS`;
    await sql(
      t,
      `INSERT INTO ssh_certificates (serial, request_id, device_id, key_id, principals, owner,
         key_type, public_key_fingerprint, valid_after, valid_before, certificate, status)
       VALUES ($1::bigint, $2, $3, $4, $5, $6, 'ssh-ed25519', 'SHA256:test', now() - interval '1 minute',
         $7, '\\x00'::bytea, $8)`,
      [
        serial,
        randomUUID(),
        randomUUID(),
        keyId,
        options.principals,
        options.owner,
        options.validBefore ?? new Date(Date.now() + 3_600_000),
        options.status ?? 'active',
      ],
    );
    return { serial, keyId };
  }

  const principals = async (query: string, token?: string, status = 200) => {
    let req = t.http.get(`/api/v1/keyholder/principals?${query}`);
    if (token) req = req.set('x-keyholder-token', token);
    const res = await req.expect(status);
    return status === 200 ? res.text.split('\n').filter(Boolean) : res.body;
  };

  beforeAll(async () => {
    t = await startEnrollApp();
    admin = (await loginAdmin(t)).accessToken;
    await asAdmin()
      .post('/api/v1/admin/principal-aliases')
      .send({ name: 'deploy', members: ['alice@example.com'] })
      .expect(201);
  });
  afterAll(() => t.close());

  it('answers the principals the owner still holds, as text lines', async () => {
    const cert = await certificate({
      owner: 'alice@example.com',
      principals: ['alice', 'deploy', 'backup'],
    });
    const res = await t.http.get(`/api/v1/keyholder/principals?serial=${cert.serial}`).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    // `backup` was never an alias alice stands behind: not answered.
    expect(res.text).toBe('alice\ndeploy\n');
    expect(await principals(`serial=${cert.serial}&key_id=${cert.keyId}`)).toEqual([
      'alice',
      'deploy',
    ]);
    expect(await principals(`serial=${cert.serial}&login=deploy`)).toEqual(['deploy']);
    expect(await principals(`serial=${cert.serial}&login=backup`)).toEqual([]);
  });

  it('drops an alias at once when the owner leaves it or it is disabled', async () => {
    await asAdmin()
      .post('/api/v1/admin/principal-aliases')
      .send({ name: 'ops', members: ['bob@example.com'] })
      .expect(201);
    const cert = await certificate({ owner: 'bob@example.com', principals: ['bob', 'ops'] });
    expect(await principals(`serial=${cert.serial}`)).toEqual(['bob', 'ops']);

    await asAdmin()
      .put('/api/v1/admin/principal-aliases/ops/enabled')
      .send({ enabled: false })
      .expect(200);
    expect(await principals(`serial=${cert.serial}`)).toEqual(['bob']);
    await asAdmin()
      .put('/api/v1/admin/principal-aliases/ops/enabled')
      .send({ enabled: true })
      .expect(200);
    expect(await principals(`serial=${cert.serial}&login=ops`)).toEqual(['ops']);

    await asAdmin()
      .delete('/api/v1/admin/principal-aliases/ops/members/bob@example.com')
      .expect(204);
    expect(await principals(`serial=${cert.serial}&login=ops`)).toEqual([]);
    expect(await principals(`serial=${cert.serial}`)).toEqual(['bob']);
  });

  it('answers nothing for a revoked or expired certificate', async () => {
    const revoked = await certificate({
      owner: 'alice@example.com',
      principals: ['alice'],
      status: 'revoked',
    });
    expect(await principals(`serial=${revoked.serial}`)).toEqual([]);
    const expired = await certificate({
      owner: 'alice@example.com',
      principals: ['alice'],
      validBefore: new Date(Date.now() - 1000),
    });
    expect(await principals(`serial=${expired.serial}`)).toEqual([]);
  });

  it('answers 404 for an unknown serial or a key id that does not match, 400 for a bad serial', async () => {
    const cert = await certificate({ owner: 'alice@example.com', principals: ['alice'] });
    const unknown = await principals('serial=9223372036854775807', undefined, 404);
    expect(unknown.code).toBe('keyholder_certificate_not_found');
    const mismatch = await principals(`serial=${cert.serial}&key_id=certsvc:other`, undefined, 404);
    expect(mismatch.code).toBe('keyholder_certificate_not_found');
    for (const bad of ['-1', 'abc', '9223372036854775808', '']) {
      expect((await principals(`serial=${bad}`, undefined, 400)).code).toBe('invalid_request');
    }
    expect((await principals(`serial=${cert.serial}&login=Alice`, undefined, 400)).code).toBe(
      'invalid_request',
    );
  });

  it('a restricted token only learns its own principals', async () => {
    const cert = await certificate({ owner: 'alice@example.com', principals: ['alice', 'deploy'] });
    const created = await asAdmin()
      .post('/api/v1/admin/keyholder-tokens')
      .send({ name: 'web-02', principals: ['deploy'] })
      .expect(201);
    const token = created.body.token as string;
    expect(await principals(`serial=${cert.serial}`, token)).toEqual(['deploy']);
    expect(await principals(`serial=${cert.serial}&login=deploy`, token)).toEqual(['deploy']);
    const denied = await principals(`serial=${cert.serial}&login=alice`, token, 403);
    expect(denied.code).toBe('keyholder_principal_denied');
  });
});
