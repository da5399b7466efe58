import { sha256Hex } from '../secret-token';
import { RefreshTokenRotation } from './refresh-token-rotation';
import type { NewRefreshToken, RefreshTokenStore, StoredRefreshToken } from './refresh-token-store';

/** The port's contract over a Map, as a service's repository implements it over a table. */
class MemoryStore implements RefreshTokenStore {
  readonly rows = new Map<string, StoredRefreshToken & { tokenHash: string }>();
  private next = 0;

  async insert(token: NewRefreshToken): Promise<void> {
    const id = String(++this.next);
    this.rows.set(id, { ...token, id, active: true });
  }
  async findByHash(tokenHash: string): Promise<StoredRefreshToken | null> {
    return [...this.rows.values()].find((r) => r.tokenHash === tokenHash) ?? null;
  }
  async replace(id: string, successor: NewRefreshToken): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row?.active) return false;
    row.active = false;
    await this.insert(successor);
    return true;
  }
  async revokeFamily(familyId: string): Promise<void> {
    for (const r of this.rows.values()) if (r.familyId === familyId) r.active = false;
  }
  async revokeAllOf(subject: string): Promise<void> {
    for (const r of this.rows.values()) if (r.subject === subject) r.active = false;
  }
}

describe('RefreshTokenRotation', () => {
  let store: MemoryStore;
  let rotation: RefreshTokenRotation;
  beforeEach(() => {
    store = new MemoryStore();
    rotation = new RefreshTokenRotation(store, { ttlSeconds: 3600, prefix: 'rt_' });
  });

  it('issues prefixed tokens stored only as their SHA-256', async () => {
    const issued = await rotation.issue('u1');
    expect(issued.token).toMatch(/^rt_[A-Za-z0-9_-]{43}$/);
    expect(issued.maxAgeSeconds).toBe(3600);
    const [row] = store.rows.values();
    expect(row.tokenHash).toBe(sha256Hex(issued.token));
    expect(JSON.stringify([...store.rows.values()])).not.toContain(issued.token);
  });

  it('rotates within the family and refuses the retired token as a reuse', async () => {
    const first = await rotation.issue('u1');
    const second = await rotation.rotate(first.token);
    expect(second).toMatchObject({ kind: 'rotated', subject: 'u1' });
    if (second.kind !== 'rotated') throw new Error('not rotated');
    expect(await rotation.rotate(first.token)).toMatchObject({ kind: 'reused', subject: 'u1' });
    // the reuse revoked the family: the legitimate successor is dead too
    expect(await rotation.rotate(second.issued.token)).toMatchObject({ kind: 'reused' });
  });

  it('lets exactly one of two concurrent rotations of one token win', async () => {
    const first = await rotation.issue('u1');
    const outcomes = await Promise.all([
      rotation.rotate(first.token),
      rotation.rotate(first.token),
    ]);
    expect(outcomes.map((o) => o.kind).sort()).toEqual(['reused', 'rotated']);
  });

  it('refuses unknown, missing and expired tokens, and subjects that may not continue', async () => {
    expect(await rotation.rotate(undefined)).toEqual({ kind: 'invalid' });
    expect(await rotation.rotate('rt_unknown')).toEqual({ kind: 'invalid' });
    const expiring = new RefreshTokenRotation(store, { ttlSeconds: -1 });
    expect(await rotation.rotate((await expiring.issue('u2')).token)).toEqual({ kind: 'invalid' });
    const held = await rotation.issue('u3');
    expect(await rotation.rotate(held.token, async () => false)).toEqual({ kind: 'invalid' });
  });

  it('ends one session or all sessions of a subject', async () => {
    const a = await rotation.issue('u1');
    const b = await rotation.issue('u1');
    expect(await rotation.subjectOf(a.token)).toBe('u1');
    await rotation.endSession(a.token);
    expect(await rotation.rotate(a.token)).toMatchObject({ kind: 'reused' });
    const b2 = await rotation.rotate(b.token);
    if (b2.kind !== 'rotated') throw new Error('not rotated');
    await rotation.endAllSessions('u1');
    expect(await rotation.rotate(b2.issued.token)).toMatchObject({ kind: 'reused' });
  });
});
