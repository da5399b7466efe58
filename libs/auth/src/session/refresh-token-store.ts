/**
 * A stored refresh token as the rotation sees it (the value itself is never stored). A token
 * is active while it is neither used nor revoked.
 */
export interface StoredRefreshToken {
  id: string;
  familyId: string;
  /**
   * Whose session it is: the `sub` of the access tokens the session yields, the user's primary
   * key in the service (findings: the user id; certificate: the e-mail, its users' key).
   */
  subject: string;
  expiresAt: Date;
  /** When a rotation retired it in favour of a successor (the token was used), else null. */
  usedAt: Date | null;
  /** When its session ended (sign-out, reuse, password change, disabling), else null. */
  revokedAt: Date | null;
}

/** Neither used by a rotation nor revoked. */
export function isActiveRefreshToken(token: StoredRefreshToken): boolean {
  return token.usedAt === null && token.revokedAt === null;
}

export interface NewRefreshToken {
  subject: string;
  familyId: string;
  /** SHA-256 hex of the token value. */
  tokenHash: string;
  expiresAt: Date;
}

/**
 * The storage port of refresh-token rotation. Each service implements it over its own table
 * with the same two marks, `used_at` (a rotation retired the token) and `revoked_at` (its
 * session ended); the rotation rules live in `RefreshTokenRotation` only.
 */
export interface RefreshTokenStore {
  insert(token: NewRefreshToken): Promise<void>;
  findByHash(tokenHash: string): Promise<StoredRefreshToken | null>;
  /**
   * Marks the active token `id` used and stores `successor` in one step. False (and nothing
   * stored) when `id` was no longer active: someone else rotated or revoked it first.
   */
  replace(id: string, successor: NewRefreshToken): Promise<boolean>;
  /**
   * The grace path of a used token: stores `successor` beside the family's active token,
   * atomically, only when token `id` was used at or after `usedSince`, is not revoked, and its
   * family still has an active token (a family ended by sign-out or by a reuse has none).
   * False (and nothing stored) otherwise.
   */
  branch(id: string, usedSince: Date, successor: NewRefreshToken): Promise<boolean>;
  /** Marks every token of the family that is not yet revoked as revoked. */
  revokeFamily(familyId: string): Promise<void>;
  /** Marks every token of the subject that is not yet revoked as revoked. */
  revokeAllOf(subject: string): Promise<void>;
}
