import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SshKrlStateEntity } from './ssh-krl-state.entity';

export interface StoredKrl {
  version: bigint;
  generatedAt: Date;
  krl: Buffer;
  sha256: string;
}

@Injectable()
export class SshKrlRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The version of the stored KRL (a primary-key lookup), or null before the first one. */
  async version(): Promise<bigint | null> {
    const rows = (await this.dataSource.query(
      `SELECT version FROM ssh_krl_state WHERE id = 1`,
    )) as {
      version: string;
    }[];
    return rows[0] ? BigInt(rows[0].version) : null;
  }

  async latest(): Promise<StoredKrl | null> {
    const row = await this.dataSource.getRepository(SshKrlStateEntity).findOneBy({ id: 1 });
    return row
      ? {
          version: BigInt(row.version),
          generatedAt: row.generatedAt,
          krl: row.krl,
          sha256: row.sha256,
        }
      : null;
  }

  /**
   * Publishes a new KRL under a transaction-scoped advisory lock: `build` gets the next
   * version (previous + 1), so concurrent publishers (replicas) never reuse or lower one.
   */
  publish(build: (version: bigint) => Promise<Omit<StoredKrl, 'version'>>): Promise<StoredKrl> {
    return this.dataSource.transaction(async (em) => {
      await em.query(`SELECT pg_advisory_xact_lock(hashtext('certsvc:ssh-krl'))`);
      const rows = (await em.query(`SELECT version FROM ssh_krl_state WHERE id = 1`)) as {
        version: string;
      }[];
      const version = rows[0] ? BigInt(rows[0].version) + 1n : 1n;
      const built = await build(version);
      await em.query(
        `INSERT INTO ssh_krl_state (id, version, generated_at, krl, sha256, updated_at)
         VALUES (1, $1, $2, $3, $4, now())
         ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version,
           generated_at = EXCLUDED.generated_at, krl = EXCLUDED.krl, sha256 = EXCLUDED.sha256,
           updated_at = now()`,
        [version.toString(), built.generatedAt, built.krl, built.sha256],
      );
      return { version, ...built };
    });
  }
}
