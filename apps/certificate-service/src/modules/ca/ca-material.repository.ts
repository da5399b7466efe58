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

  /**
   * Swaps both CA certificates (same keys, re-signed by the root) only when the stored ones
   * are still those of `previous`, then reads back: of two replicas racing, one pair wins.
   */
  async replaceCaCertificates(previous: CaMaterial, next: CaMaterial): Promise<CaMaterial> {
    await this.dataSource.query(
      `UPDATE ca_material SET root_certificate_der = $2, issuing_certificate_der = $3
       WHERE id = $1 AND root_certificate_der = $4 AND issuing_certificate_der = $5`,
      [
        ROW_ID,
        next.root.certificateDer,
        next.issuing.certificateDer,
        previous.root.certificateDer,
        previous.issuing.certificateDer,
      ],
    );
    const stored = await this.load();
    if (!stored) throw new Error('ca_material row missing');
    return stored;
  }
}
