import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { toPem, type CaMaterial, type CaMaterialStore } from '@platform/pki';
import { CaMaterialEntity } from './ca-material.entity';

const ROW_ID = 1;

function toMaterial(row: CaMaterialEntity): CaMaterial {
  return {
    formatVersion: 1,
    root: {
      certificateDer: row.rootCertificateDer,
      certificatePem: toPem('CERTIFICATE', row.rootCertificateDer),
      encryptedPrivateKey: row.rootEncryptedKey,
    },
    issuing: {
      certificateDer: row.issuingCertificateDer,
      certificatePem: toPem('CERTIFICATE', row.issuingCertificateDer),
      encryptedPrivateKey: row.issuingEncryptedKey,
    },
    createdAt: row.createdAt,
  };
}

/** `CaMaterialStore` over the one-row `ca_material` table. */
@Injectable()
export class CaMaterialRepository implements CaMaterialStore {
  constructor(private readonly dataSource: DataSource) {}

  async load(): Promise<CaMaterial | undefined> {
    const row = await this.dataSource.getRepository(CaMaterialEntity).findOneBy({ id: ROW_ID });
    return row ? toMaterial(row) : undefined;
  }

  /** INSERT ... ON CONFLICT DO NOTHING, then read back: replicas starting together agree. */
  async saveIfAbsent(material: CaMaterial): Promise<CaMaterial> {
    await this.dataSource.query(
      `INSERT INTO ca_material (id, format_version, root_certificate_der, root_encrypted_key,
         issuing_certificate_der, issuing_encrypted_key, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
      [
        ROW_ID,
        material.formatVersion,
        material.root.certificateDer,
        material.root.encryptedPrivateKey,
        material.issuing.certificateDer,
        material.issuing.encryptedPrivateKey,
        material.createdAt,
      ],
    );
    const stored = await this.load();
    if (!stored) throw new Error('ca_material row missing after insert');
    return stored;
  }
}
