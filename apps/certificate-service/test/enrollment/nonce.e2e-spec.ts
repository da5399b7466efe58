import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { EnrollNoncesRepository } from '../../src/modules/enrollment/enroll-nonces.repository';
import { EnrollNoncesService } from '../../src/modules/enrollment/enroll-nonces.service';
import { startEnrollApp } from '../fixtures/enroll';
import type { TestApp } from '../support/test-app';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('Issue nonce - /api/v1/enroll/nonce and /api/v1/enroll/source-nonce (POST)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startEnrollApp({ env: { CERTSVC_ENROLL_RATE_LIMIT_PER_MINUTE: '5' } });
  });
  afterAll(() => t.close());

  const rows = async () =>
    (await t.app
      .get(DataSource)
      .query('SELECT nonce_hash, kind, expires_at, used_at FROM enroll_nonces ORDER BY kind')) as {
      nonce_hash: string;
      kind: string;
      expires_at: Date;
      used_at: Date | null;
    }[];

  it('issues distinct short-lived nonces without a session and stores nothing until one is spent, then only its hash', async () => {
    const a = await t.http.post('/api/v1/enroll/nonce').expect(201);
    const b = await t.http.post('/api/v1/enroll/source-nonce').expect(201);
    expect(a.body.nonce).not.toBe(b.body.nonce);
    const ttl = Date.parse(a.body.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(200_000);
    expect(ttl).toBeLessThanOrEqual(300_000);
    expect(await rows()).toEqual([]);

    const nonces = t.app.get(EnrollNoncesService);
    expect(await nonces.consume('enroll', a.body.nonce)).toBe(true);
    expect(await nonces.consume('source', b.body.nonce)).toBe(true);
    const spent = await rows();
    expect(spent.map((r) => [r.kind, r.nonce_hash])).toEqual([
      ['enroll', sha256(a.body.nonce)],
      ['source', sha256(b.body.nonce)],
    ]);
    expect(spent[0].expires_at.toISOString()).toBe(new Date(a.body.expires_at).toISOString());
    expect(spent.every((r) => r.used_at !== null)).toBe(true);
    // Once each, and never as the other kind.
    expect(await nonces.consume('enroll', a.body.nonce)).toBe(false);
    expect(await nonces.consume('enroll', b.body.nonce)).toBe(false);
    expect(await nonces.peek('enroll', a.body.nonce)).toBeUndefined();
  });

  it('a spent nonce is refused on a second use, and the expiry is the database clock too', async () => {
    const nonces = t.app.get(EnrollNoncesService);
    const repository = t.app.get(EnrollNoncesRepository);
    const live = (await t.http.post('/api/v1/enroll/nonce').expect(201)).body.nonce as string;
    expect(await nonces.peek('enroll', live)).toEqual({ challenge: null });
    expect(await nonces.peek('source', live)).toBeUndefined();
    const before = (await rows()).length;
    // A claim whose expiry the service's clock let through but the database's has passed.
    const stale = nonces.claim('enroll', live);
    expect(stale.signedExpiresAt).not.toBeNull();
    expect(
      await repository.consume({ ...stale, signedExpiresAt: new Date(Date.now() - 1000) }),
    ).toBe(false);
    expect((await rows()).length).toBe(before);
    // Ten spends at once (the pool's connections, as replicas would): exactly one wins.
    const spends = await Promise.all(
      Array.from({ length: 10 }, () => nonces.consume('enroll', live)),
    );
    expect(spends.filter(Boolean)).toHaveLength(1);
    expect((await rows()).length).toBe(before + 1);
  });

  it('a nonce stored before signed nonces (a rolling upgrade) is still spent once', async () => {
    const nonces = t.app.get(EnrollNoncesService);
    const repository = t.app.get(EnrollNoncesRepository);
    const legacy = 'Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eHF1dXg';
    await repository.insert(sha256(legacy), 'enroll', new Date(Date.now() + 60_000));
    expect(nonces.claim('enroll', legacy).signedExpiresAt).toBeNull();
    expect(await nonces.peek('enroll', legacy)).toEqual({ challenge: null });
    expect(await nonces.consume('source', legacy)).toBe(false);
    expect(await nonces.consume('enroll', legacy)).toBe(true);
    expect(await nonces.consume('enroll', legacy)).toBe(false);
    expect(await nonces.peek('enroll', legacy)).toBeUndefined();
  });

  it('answers 429 rate_limited with Retry-After past the per-address limit', async () => {
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 5; i++) {
      last = await t.http.post('/api/v1/enroll/nonce');
      statuses.push(last.status);
    }
    expect(statuses).toContain(429);
    expect(last?.status).toBe(429);
    expect(last?.body.code).toBe('rate_limited');
    expect(Number(last?.headers['retry-after'])).toBeGreaterThan(0);
  });
});
