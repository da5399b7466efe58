import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** What the broker needs of the certificate a caller presents. */
export interface CallerCertificateRow {
  serial: string;
  purpose: string;
  status: string;
  notAfter: Date;
  der: Buffer;
  userIdentity: string | null;
}

/** Read-only look-ups of the broker: the caller's certificate and the person's roles. */
@Injectable()
export class K8sCallersRepository {
  constructor(private readonly dataSource: DataSource) {}

  async certificate(serial: string): Promise<CallerCertificateRow | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT serial, purpose, status, not_after AS "notAfter", der, user_identity AS "userIdentity"
         FROM certificates WHERE serial = $1`,
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
}
