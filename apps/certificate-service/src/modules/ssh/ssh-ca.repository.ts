import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { SshCaMaterial, SshCaMaterialStore } from '@platform/pki';
import { SshCaMaterialEntity } from './ssh-ca-material.entity';

const ROW_ID = 1;

/** `SshCaMaterialStore` over the one-row `ssh_ca_material` table. */
@Injectable()
export class SshCaRepository implements SshCaMaterialStore {
  constructor(private readonly dataSource: DataSource) {}

  async load(): Promise<SshCaMaterial | undefined> {
    const row = await this.dataSource.getRepository(SshCaMaterialEntity).findOneBy({ id: ROW_ID });
    return row
      ? {
          formatVersion: 1,
          publicKeyBlob: row.publicKeyBlob,
          encryptedPrivateKey: row.encryptedPrivateKey,
          createdAt: row.createdAt,
        }
      : undefined;
  }

  /** INSERT ... ON CONFLICT DO NOTHING, then read back: replicas starting together agree. */
  async saveIfAbsent(material: SshCaMaterial): Promise<SshCaMaterial> {
    await this.dataSource.query(
      `INSERT INTO ssh_ca_material (id, format_version, public_key_blob, encrypted_private_key, created_at)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING`,
      [
        ROW_ID,
        material.formatVersion,
        material.publicKeyBlob,
        material.encryptedPrivateKey,
        material.createdAt,
      ],
    );
    const stored = await this.load();
    if (!stored) throw new Error('ssh_ca_material row missing after insert');
    return stored;
  }
}
