import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** An active raw key served to a target server. */
export interface ServedKey {
  id: string;
  keyType: string;
  publicKey: Buffer;
  owner: string | null;
}

/** What the online principal check needs of an SSH certificate (`modules/ssh`'s table). */
export interface CertificateFacts {
  serial: string;
  keyId: string;
  principals: string[];
  owner: string | null;
  revoked: boolean;
  validBefore: Date;
}

/** Read-only queries of the key-holder API across the registry and aliases (set-based SQL). */
@Injectable()
export class KeyholderRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Active raw keys for a login: keys whose owner's personal login is `login` (the local part
   * of the email), keys of members of the enabled alias named `login`, and, when
   * `autoApproved` is true, every auto-approved key.
   */
  async activeKeysFor(login: string, autoApproved: boolean): Promise<ServedKey[]> {
    const rows = await this.dataSource.query<
      { id: string; key_type: string; public_key: Buffer; owner: string | null }[]
    >(
      `SELECT k.id, k.key_type, k.public_key, k.owner
       FROM ssh_keys k
       WHERE k.state = 'active' AND (
         (k.owner IS NOT NULL
           AND left(k.owner, length($1) + 1) = $1 || '@'
           AND strpos(substr(k.owner, length($1) + 2), '@') = 0)
         OR k.owner IN (
           SELECT m.member FROM principal_alias_members m
           JOIN principal_aliases a ON a.name = m.alias
           WHERE a.name = $1 AND a.enabled)
         OR (k.approval = 'auto' AND $2::boolean))
       ORDER BY k.created_at, k.id`,
      [login, autoApproved],
    );
    return rows.map((r) => ({
      id: r.id,
      keyType: r.key_type,
      publicKey: r.public_key,
      owner: r.owner,
    }));
  }

  /** The SSH certificate with this serial, or null. */
  async certificate(serial: string): Promise<CertificateFacts | null> {
    const rows = await this.dataSource.query<
      {
        serial: string;
        key_id: string;
        principals: string[];
        owner: string | null;
        status: string;
        valid_before: Date;
      }[]
    >(
      `SELECT serial::text AS serial, key_id, principals, owner, status, valid_before
       FROM ssh_certificates WHERE serial = $1::bigint`,
      [serial],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      serial: row.serial,
      keyId: row.key_id,
      principals: row.principals,
      owner: row.owner,
      revoked: row.status !== 'active',
      validBefore: row.valid_before,
    };
  }
}
