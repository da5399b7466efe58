import { sha256Hex } from '../secret-token';
import { RefreshTokenRotation } from './refresh-token-rotation';
import {
  isActiveRefreshToken,
  type NewRefreshToken,
  type RefreshTokenStore,
  type StoredRefreshToken,
} from './refresh-token-store';

/** The port's contract over a Map, as a service's repository implements it over a table. */
class MemoryStore implements RefreshTokenStore {
  readonly rows = new Map<string, StoredRefreshToken & { tokenHash: string }>();
  private next = 0;

  async insert(token: NewRefreshToken): Promise<void> {
    const id = String(++this.next);
    this.rows.set(id, { ...token, id, usedAt: null, revokedAt: null });
  }
  async findByHash(tokenHash: string): Promise<StoredRefreshToken | null> {
    const row = [...this.rows.values()].find((r) => r.tokenHash === tokenHash);
    return row ? { ...row } : null;
  }
  async replace(id: string, successor: NewRefreshToken): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row || !isActiveRefreshToken(row)) return false;
    row.usedAt = new Date();
    await this.insert(successor);
    return true;
  }
  async branch(id: string, usedSince: Date, successor: NewRefreshToken): Promise<boolean> {
    const row = this.rows.get(id);
    const familyActive = [...this.rows.values()].some(
      (r) => r.familyId === row?.familyId && isActiveRefreshToken(r),
    );
    if (!row || row.usedAt === null || row.usedAt < usedSince || row.revokedAt) return false;
    if (!familyActive) return false;
    await this.insert(successor);
    return true;
  }
  async revokeFamily(familyId: string): Promise<void> {
    for (const r of this.rows.values()) if (r.familyId === familyId) r.revokedAt ??= new Date();
  }
  async revokeAllOf(subject: string): Promise<void> {
    for (const r of this.rows.values()) if (r.subject === subject) r.revokedAt ??= new Date();
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

  it('marks a rotated token used, not revoked; a reuse revokes the whole family', async () => {
    const first = await rotation.issue('u1');
    await rotation.rotate(first.token);
    const [used, successor] = store.rows.values();
    expect(used).toMatchObject({ usedAt: expect.any(Date), revokedAt: null });
    expect(successor).toMatchObject({ familyId: used.familyId, usedAt: null, revokedAt: null });
    await rotation.rotate(first.token); // a reuse: the family is revoked
    for (const row of store.rows.values()) expect(row.revokedAt).toEqual(expect.any(Date));
    expect(used.usedAt).toEqual(expect.any(Date));
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

  describe('with a rotation grace window', () => {
    let graced: RefreshTokenRotation;
    beforeEach(() => {
      graced = new RefreshTokenRotation(store, { ttlSeconds: 3600, rotationGraceSeconds: 10 });
    });

    it('answers a token rotated moments ago with a new successor of the same family', async () => {
      const first = await graced.issue('u1');
      const second = await graced.rotate(first.token);
      // the page that asked first never got its answer: the retired token comes back
      const again = await graced.rotate(first.token);
      expect(again).toMatchObject({ kind: 'rotated', subject: 'u1' });
      if (second.kind !== 'rotated' || again.kind !== 'rotated') throw new Error('not rotated');
      expect(again.issued.token).not.toBe(second.issued.token);
      const family = [...store.rows.values()].map((r) => r.familyId);
      expect(new Set(family).size).toBe(1);
      // both successors live on, and rotate normally
      expect(await graced.rotate(second.issued.token)).toMatchObject({ kind: 'rotated' });
      expect(await graced.rotate(again.issued.token)).toMatchObject({ kind: 'rotated' });
    });

    it('lets both of two concurrent rotations of one token win', async () => {
      const first = await graced.issue('u1');
      const outcomes = await Promise.all([graced.rotate(first.token), graced.rotate(first.token)]);
      expect(outcomes.map((o) => o.kind)).toEqual(['rotated', 'rotated']);
    });

    it('still takes a token rotated longer ago than the window for a theft', async () => {
      const first = await graced.issue('u1');
      const second = await graced.rotate(first.token);
      if (second.kind !== 'rotated') throw new Error('not rotated');
      for (const r of store.rows.values())
        if (r.usedAt) r.usedAt = new Date(r.usedAt.getTime() - 11_000);
      expect(await graced.rotate(first.token)).toMatchObject({ kind: 'reused' });
      expect(await graced.rotate(second.issued.token)).toMatchObject({ kind: 'reused' });
    });

    it('gives nothing for a token of an ended session, or of a subject that may not continue', async () => {
      const first = await graced.issue('u1');
      const second = await graced.rotate(first.token);
      if (second.kind !== 'rotated') throw new Error('not rotated');
      expect(await graced.rotate(first.token, async () => false)).toMatchObject({
        kind: 'reused',
      });
      const other = await graced.issue('u2');
      await graced.rotate(other.token);
      await graced.endSession(other.token);
      expect(await graced.rotate(other.token)).toMatchObject({ kind: 'reused' });
    });
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
