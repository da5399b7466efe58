import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CrlStateEntity } from './crl-state.entity';

export interface StoredCrl {
  crlNumber: bigint;
  thisUpdate: Date;
  nextUpdate: Date;
  der: Buffer;
}

@Injectable()
export class CrlRepository {
  constructor(private readonly dataSource: DataSource) {}

  async latest(): Promise<StoredCrl | null> {
    const row = await this.dataSource.getRepository(CrlStateEntity).findOneBy({ id: 1 });
    return row ? { ...row, crlNumber: BigInt(row.crlNumber) } : null;
  }

  /**
   * Publishes a new CRL under a row lock: `build` gets the next cRLNumber (previous + 1), so
   * concurrent publishers (replicas) never reuse a number.
   */
  publish(build: (crlNumber: bigint) => Promise<Omit<StoredCrl, 'crlNumber'>>): Promise<StoredCrl> {
    return this.dataSource.transaction(async (em) => {
      await em.query(`SELECT pg_advisory_xact_lock(hashtext('certsvc:crl'))`);
      const rows = (await em.query(`SELECT crl_number FROM crl_state WHERE id = 1`)) as {
        crl_number: string;
      }[];
      const crlNumber = rows[0] ? BigInt(rows[0].crl_number) + 1n : 1n;
      const crl = await build(crlNumber);
      await em.query(
        `INSERT INTO crl_state (id, crl_number, this_update, next_update, der, updated_at)
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
