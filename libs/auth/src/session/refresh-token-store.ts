/** A stored refresh token as the rotation sees it (the value itself is never stored). */
export interface StoredRefreshToken {
  id: string;
  familyId: string;
  /** Whose session it is: a user id, an email — whatever the service keys sessions by. */
  subject: string;
  expiresAt: Date;
  /** False once rotated (used) or revoked. */
  active: boolean;
}

export interface NewRefreshToken {
  subject: string;
  familyId: string;
  /** SHA-256 hex of the token value. */
  tokenHash: string;
  expiresAt: Date;
}

/**
 * The storage port of refresh-token rotation. Each service implements it over its own
 * table; the rotation rules live in `RefreshTokenRotation` only.
 */
export interface RefreshTokenStore {
  insert(token: NewRefreshToken): Promise<void>;
  findByHash(tokenHash: string): Promise<StoredRefreshToken | null>;
  /**
   * Retires the active token `id` and stores `successor` in one step. False (and nothing
   * stored) when `id` was no longer active: someone else rotated or revoked it first.
   */
  replace(id: string, successor: NewRefreshToken): Promise<boolean>;
  /**
   * The grace path of a token retired by rotation: stores `successor` beside the family's
   * active token, atomically, only when token `id` was retired by a rotation at or after
   * `rotatedSince` and its family still has an active token (a family ended by sign-out or by a
   * reuse has none). False (and nothing stored) otherwise.
   */
  branch(id: string, rotatedSince: Date, successor: NewRefreshToken): Promise<boolean>;
  revokeFamily(familyId: string): Promise<void>;
  revokeAllOf(subject: string): Promise<void>;
}
