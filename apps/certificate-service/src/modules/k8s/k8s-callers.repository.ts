import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

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

export interface IssuedK8sCredentialRow {
  serial: string;
  clusterId: string;
  deviceId: string;
  userIdentity: string;
  callerSerial: string;
  notAfter: Date;
}

/** The broker's statements: the caller's certificate, the person's roles, issued credentials. */
@Injectable()
export class K8sCallersRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The presented certificate with its revocation state and device: one primary-key look-up. */
  async certificate(serial: string): Promise<CallerCertificateRow | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT c.serial, c.purpose, c.status, c.not_after AS "notAfter", c.der,
              c.user_identity AS "userIdentity", c.device_id AS "deviceId", d.identity_key AS "identityKey"
         FROM certificates c JOIN devices d ON d.id = c.device_id WHERE c.serial = $1`,
      [serial],
    )) as CallerCertificateRow[];
    return rows[0];
  }

  /** Roles of an enabled person (by email, case-insensitive); none for unknown or disabled. */
  async rolesOf(email: string): Promise<string[]> {
    const rows = (await this.dataSource.query(
      `SELECT r.role FROM user_roles r JOIN users u ON u.email = r.email
        WHERE lower(r.email) = lower($1) AND u.enabled ORDER BY r.role`,
      [email],
    )) as { role: string }[];
    return rows.map((r) => r.role);
  }

  /** Records one issued credential (one INSERT; inside `em`'s transaction when given). */
  async recordIssued(row: IssuedK8sCredentialRow, em?: EntityManager): Promise<void> {
    await (em ?? this.dataSource.manager).query(
      `INSERT INTO k8s_credentials (serial, cluster_id, device_id, user_identity, caller_serial, not_after)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [row.serial, row.clusterId, row.deviceId, row.userIdentity, row.callerSerial, row.notAfter],
    );
  }
}
