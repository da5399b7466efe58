import { randomUUID } from 'node:crypto';
import { randomSecret, sha256Hex } from '../secret-token';
import {
  isActiveRefreshToken,
  type RefreshTokenStore,
  type StoredRefreshToken,
} from './refresh-token-store';

export interface RefreshTokenRules {
  ttlSeconds: number;
  /** Prefix of every token value (e.g. `rt_`), so a leaked token is recognisable. */
  prefix?: string;
  /**
   * Seconds during which a token retired by a rotation may be presented again without being
   * taken for a theft: it gets a fresh successor in the same family (a page reloaded before
   * the previous load's refresh answered, two tabs opened at once). 0 (default): none.
   */
  rotationGraceSeconds?: number;
}

/** A refresh token handed to the client: its value is known only here and to the client. */
export interface IssuedRefreshToken {
  token: string;
  expiresAt: Date;
  maxAgeSeconds: number;
}

export type RefreshOutcome =
  | { kind: 'rotated'; subject: string; issued: IssuedRefreshToken }
  /** Unknown, expired, or its subject may no longer sign in. */
  | { kind: 'invalid' }
  /** A retired token came back: its whole family has been revoked (a theft signal). */
  | { kind: 'reused'; subject: string; familyId: string };

/**
 * Refresh-token rotation with reuse detection, the one behaviour of both services. Each
 * sign-in starts a family, keyed by the subject of its access tokens; every refresh marks the
 * presented token **used** and issues its successor in the same family, atomically. A used
 * token presented again is a reuse and **revokes** the family (a stolen token dies with the
 * legitimate one) — except within the rotation grace window, when it gets another successor
 * while the family still lives. Ending sessions (sign-out, password change, disabling)
 * revokes; a revoked token never gets anything.
 */
export class RefreshTokenRotation {
  constructor(
    private readonly store: RefreshTokenStore,
    private readonly rules: RefreshTokenRules,
  ) {}

  /** Starts a new family for `subject` (a new sign-in). */
  async issue(subject: string): Promise<IssuedRefreshToken> {
    const issued = this.mint();
    await this.store.insert({
      subject,
      familyId: randomUUID(),
      tokenHash: sha256Hex(issued.token),
      expiresAt: issued.expiresAt,
    });
    return issued;
  }

  /**
   * Rotates `presented`. `mayContinue` is asked before a successor is stored: a subject that
   * may no longer sign in (disabled, deleted) ends the family instead.
   */
  async rotate(
    presented: string | undefined,
    mayContinue: (subject: string) => Promise<boolean> = async () => true,
  ): Promise<RefreshOutcome> {
    if (!presented) return { kind: 'invalid' };
    const stored = await this.store.findByHash(sha256Hex(presented));
    if (!stored) return { kind: 'invalid' };
    const reused = { kind: 'reused', subject: stored.subject, familyId: stored.familyId } as const;
    if (!isActiveRefreshToken(stored)) {
      const graced = await this.withinRotationGrace(stored, mayContinue);
      if (graced) return { kind: 'rotated', subject: stored.subject, issued: graced };
      await this.store.revokeFamily(stored.familyId);
      return reused;
    }
    if (stored.expiresAt.getTime() <= Date.now() || !(await mayContinue(stored.subject))) {
      await this.store.revokeFamily(stored.familyId);
      return { kind: 'invalid' };
    }
    const issued = this.mint();
    const replaced = await this.store.replace(stored.id, {
      subject: stored.subject,
      familyId: stored.familyId,
      tokenHash: sha256Hex(issued.token),
      expiresAt: issued.expiresAt,
    });
    if (!replaced) {
      // Rotated by a concurrent call this very moment (two tabs): the same grace applies.
      const graced = await this.withinRotationGrace(stored, mayContinue);
      if (graced) return { kind: 'rotated', subject: stored.subject, issued: graced };
      await this.store.revokeFamily(stored.familyId);
      return reused;
    }
    return { kind: 'rotated', subject: stored.subject, issued };
  }

  /** Whose session `presented` belongs to (active or not), or null for an unknown token. */
  async subjectOf(presented: string | undefined): Promise<string | null> {
    if (!presented) return null;
    return (await this.store.findByHash(sha256Hex(presented)))?.subject ?? null;
  }

  /** Ends the session (family) of `presented`; unknown tokens are ignored. */
  async endSession(presented: string | undefined): Promise<void> {
    if (!presented) return;
    const stored = await this.store.findByHash(sha256Hex(presented));
    if (stored) await this.store.revokeFamily(stored.familyId);
  }

  /** Ends every session of `subject` (logout everywhere, password change, disabling). */
  endAllSessions(subject: string): Promise<void> {
    return this.store.revokeAllOf(subject);
  }

  /** A successor for a token used moments ago, or null (then it is a reuse). */
  private async withinRotationGrace(
    stored: StoredRefreshToken,
    mayContinue: (subject: string) => Promise<boolean>,
  ): Promise<IssuedRefreshToken | null> {
    const graceSeconds = this.rules.rotationGraceSeconds ?? 0;
    if (graceSeconds <= 0 || stored.expiresAt.getTime() <= Date.now()) return null;
    // A revoked token (its session ended) never comes back; the store re-checks atomically.
    if (stored.revokedAt !== null) return null;
    if (!(await mayContinue(stored.subject))) return null;
    const issued = this.mint();
    const branched = await this.store.branch(
      stored.id,
      new Date(Date.now() - graceSeconds * 1000),
      {
        subject: stored.subject,
        familyId: stored.familyId,
        tokenHash: sha256Hex(issued.token),
        expiresAt: issued.expiresAt,
      },
    );
    return branched ? issued : null;
  }

  private mint(): IssuedRefreshToken {
    const maxAgeSeconds = this.rules.ttlSeconds;
    return {
      token: `${this.rules.prefix ?? ''}${randomSecret(32)}`,
      expiresAt: new Date(Date.now() + maxAgeSeconds * 1000),
      maxAgeSeconds,
    };
  }
}
