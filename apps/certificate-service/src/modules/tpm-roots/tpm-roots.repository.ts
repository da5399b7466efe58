import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TPM_ROOT_FINGERPRINT_UNIQUE, TpmVendorRootEntity } from './tpm-vendor-root.entity';

export type NewTpmVendorRoot = Omit<TpmVendorRootEntity, 'id' | 'createdAt'>;

/** The insert hit the unique fingerprint: the certificate is registered already. */
export class TpmRootFingerprintConflict extends Error {}

function isFingerprintConflict(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string; driverError?: { constraint?: string } };
  return (
    e.code === '23505' &&
    (e.constraint ?? e.driverError?.constraint) === TPM_ROOT_FINGERPRINT_UNIQUE
  );
}

/** The `tpm_vendor_roots` table (the only code that touches it). */
@Injectable()
export class TpmRootsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get roots() {
    return this.dataSource.getRepository(TpmVendorRootEntity);
  }

  /** Every registered root, oldest first (a handful: one or two per TPM vendor). */
  list(): Promise<TpmVendorRootEntity[]> {
    return this.roots.find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  findById(id: string): Promise<TpmVendorRootEntity | null> {
    return this.roots.findOneBy({ id });
  }

  async create(root: NewTpmVendorRoot): Promise<TpmVendorRootEntity> {
    try {
      const inserted = await this.dataSource
        .createQueryBuilder()
        .insert()
        .into(TpmVendorRootEntity)
        .values(root)
        .returning('id')
        .execute();
      const id = (inserted.raw as { id: string }[])[0].id;
      return (await this.findById(id)) as TpmVendorRootEntity;
    } catch (error) {
      if (isFingerprintConflict(error)) throw new TpmRootFingerprintConflict();
      throw error;
    }
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.roots.delete({ id });
    return (result.affected ?? 0) > 0;
  }
}
