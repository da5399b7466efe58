import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { K8sGroupMapping } from './k8s-cluster.entity';

/** What the broker needs of the certificate a caller presents. */
export interface CallerCertificateRow {
  serial: string;
  purpose: string;
  status: string;
  notAfter: Date;
  der: Buffer;
  userIdentity: string | null;
  /** Device of the certificate and its license identity key (`ek:`, `sn:`, `pk:`). */
  deviceId: string;
  identityKey: string;
}

/** `context`: the caller's certificate, its person's roles and the named cluster (if any). */
export interface CallerContextRow extends CallerCertificateRow {
  roles: string[];
  clusterId: string | null;
  clusterName: string | null;
  serverUrl: string | null;
  caBundle: string | null;
  groupMappings: K8sGroupMapping[] | null;
  enabled: boolean | null;
  clientCaIssuingDer: Buffer | null;
  /** The stored prompt-on-issuance policy (system settings), null until one is set. */
  promptPolicy: Record<string, unknown> | null;
}

export interface IssuedK8sCredentialRow {
  serial: string;
  clusterId: string;
  deviceId: string;
  userIdentity: string;
  callerSerial: string;
  notAfter: Date;
}

/** The broker's statements: the caller's certificate, roles and cluster; issued credentials. */
@Injectable()
export class K8sCallersRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Everything a broker call reads before signing, in one statement: the presented
   * certificate (primary key) with its revocation state and device, the roles of its person
   * (enabled users only), the named cluster (without its sealed CA keys) and the stored
   * prompt-on-issuance policy.
   */
  async context(serial: string, clusterName: string): Promise<CallerContextRow | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT c.serial, c.purpose, c.status, c.not_after AS "notAfter", c.der,
              c.user_identity AS "userIdentity", c.device_id AS "deviceId", d.identity_key AS "identityKey",
              (SELECT coalesce(array_agg(r.role::text ORDER BY r.role), '{}') FROM user_roles r
                 JOIN users u ON u.email = r.email
                WHERE lower(r.email) = lower(c.user_identity) AND u.enabled) AS roles,
              k.id AS "clusterId", k.name AS "clusterName", k.server_url AS "serverUrl",
              k.ca_bundle AS "caBundle", k.group_mappings AS "groupMappings", k.enabled,
              k.client_ca_issuing_der AS "clientCaIssuingDer",
              (SELECT value FROM policy_settings WHERE key = 'k8s') AS "promptPolicy"
         FROM certificates c JOIN devices d ON d.id = c.device_id
         LEFT JOIN k8s_clusters k ON k.name = $2
        WHERE c.serial = $1`,
      [serial, clusterName],
    )) as CallerContextRow[];
    return rows[0];
  }

  /** Records issued credentials with one INSERT (inside `em`'s transaction when given). */
  async recordIssued(rows: readonly IssuedK8sCredentialRow[], em?: EntityManager): Promise<void> {
    if (rows.length === 0) return;
    await (em ?? this.dataSource.manager).query(
      `INSERT INTO k8s_credentials (serial, cluster_id, device_id, user_identity, caller_serial, not_after)
       SELECT * FROM unnest($1::varchar[], $2::uuid[], $3::uuid[], $4::varchar[], $5::varchar[], $6::timestamptz[])`,
      [
        rows.map((r) => r.serial),
        rows.map((r) => r.clusterId),
        rows.map((r) => r.deviceId),
        rows.map((r) => r.userIdentity),
        rows.map((r) => r.callerSerial),
        rows.map((r) => r.notAfter),
      ],
    );
  }

  /** Deletes credential rows that expired before `cutoff` (one statement); how many. */
  async purgeExpiredBefore(cutoff: Date): Promise<number> {
    const [, count] = (await this.dataSource.query(
      `DELETE FROM k8s_credentials WHERE not_after < $1`,
      [cutoff],
    )) as [unknown[], number];
    return count;
  }
}
