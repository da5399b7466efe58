import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CrlStateEntity } from './crl-state.entity';
import { RootCrlStateEntity } from './root-crl-state.entity';

export interface StoredCrl {
  crlNumber: bigint;
  thisUpdate: Date;
  nextUpdate: Date;
  der: Buffer;
}

/** Which CA's CRL: the issuing CA (leaves) or the root (issuing CAs). */
export type CrlAuthority = 'issuing' | 'root';

const TABLES = {
  issuing: { entity: CrlStateEntity, table: 'crl_state', lock: 'certsvc:crl' },
  root: { entity: RootCrlStateEntity, table: 'root_crl_state', lock: 'certsvc:root-crl' },
} as const;

@Injectable()
export class CrlRepository {
  constructor(private readonly dataSource: DataSource) {}

  async latest(authority: CrlAuthority = 'issuing'): Promise<StoredCrl | null> {
    const { entity } = TABLES[authority];
    const row = await this.dataSource.getRepository<CrlStateEntity>(entity).findOneBy({ id: 1 });
    return row ? { ...row, crlNumber: BigInt(row.crlNumber) } : null;
  }

  /**
   * Publishes a new CRL under a row lock: `build` gets the next cRLNumber (previous + 1), so
   * concurrent publishers (replicas) never reuse a number. With `unlessValidAfter`, the stored
   * CRL is kept when it is valid beyond that instant (a due refresh someone else just did).
   */
  publish(
    build: (crlNumber: bigint) => Promise<Omit<StoredCrl, 'crlNumber'>>,
    authority: CrlAuthority = 'issuing',
    options: { unlessValidAfter?: Date } = {},
  ): Promise<StoredCrl> {
    const { table, lock } = TABLES[authority];
    return this.dataSource.transaction(async (em) => {
      await em.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [lock]);
      const rows = (await em.query(
        `SELECT crl_number, this_update, next_update, der FROM ${table} WHERE id = 1`,
      )) as { crl_number: string; this_update: Date; next_update: Date; der: Buffer }[];
      const current = rows[0];
      // A scheduled refresh that another replica (or request) already did while this one
      // waited for the lock: keep that CRL instead of signing one more.
      if (current && options.unlessValidAfter && current.next_update > options.unlessValidAfter) {
        return {
          crlNumber: BigInt(current.crl_number),
          thisUpdate: current.this_update,
          nextUpdate: current.next_update,
          der: current.der,
        };
      }
      const crlNumber = current ? BigInt(current.crl_number) + 1n : 1n;
      const crl = await build(crlNumber);
      await em.query(
        `INSERT INTO ${table} (id, crl_number, this_update, next_update, der, updated_at)
         VALUES (1, $1, $2, $3, $4, now())
         ON CONFLICT (id) DO UPDATE SET crl_number = EXCLUDED.crl_number,
           this_update = EXCLUDED.this_update, next_update = EXCLUDED.next_update,
           der = EXCLUDED.der, updated_at = now()`,
        [crlNumber.toString(), crl.thisUpdate, crl.nextUpdate, crl.der],
      );
      return { crlNumber, ...crl };
    });
  }
}
