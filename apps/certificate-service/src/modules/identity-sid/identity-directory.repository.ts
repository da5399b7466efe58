import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { IdentityDirectoryEntity } from './identity-directory.entity';

export type IdentityDirectoryRow = Omit<IdentityDirectoryEntity, 'id'>;

/** The only writer of `identity_directory_settings` (docs/architecture.md). */
@Injectable()
export class IdentityDirectoryRepository {
  constructor(private readonly dataSource: DataSource) {}

  find(): Promise<IdentityDirectoryRow | null> {
    return this.dataSource.getRepository(IdentityDirectoryEntity).findOneBy({ id: 1 });
  }

  /** Creates or replaces the one row; answers what is stored. */
  async put(row: Omit<IdentityDirectoryRow, 'updatedAt'>): Promise<IdentityDirectoryRow> {
    await this.dataSource.query(
      `INSERT INTO identity_directory_settings (id, enabled, url, bind_dn, sealed_bind_password,
         base_dn, upn_attribute, sid_attribute, timeout_ms, ca_pem, updated_at, updated_by)
       VALUES (1, $1, $2, $3, $4, $5, $6, $7, $8, $9, clock_timestamp(), $10)
       ON CONFLICT (id) DO UPDATE SET enabled = EXCLUDED.enabled, url = EXCLUDED.url,
         bind_dn = EXCLUDED.bind_dn, sealed_bind_password = EXCLUDED.sealed_bind_password,
         base_dn = EXCLUDED.base_dn, upn_attribute = EXCLUDED.upn_attribute,
         sid_attribute = EXCLUDED.sid_attribute, timeout_ms = EXCLUDED.timeout_ms,
         ca_pem = EXCLUDED.ca_pem, updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by`,
      [
        row.enabled,
        row.url,
        row.bindDn,
        row.sealedBindPassword,
        row.baseDn,
        row.upnAttribute,
        row.sidAttribute,
        row.timeoutMs,
        row.caPem,
        row.updatedBy,
      ],
    );
    return (await this.find()) as IdentityDirectoryRow;
  }
}
