import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { SshRevocationEntity } from './ssh-revocation.entity';

export type NewSshRevocation = Omit<SshRevocationEntity, 'id' | 'revokedAt'> & {
  revokedAt?: Date;
};

/**
 * Writers of the feed take this transaction-scoped advisory lock before appending, so ids are
 * handed out in commit order and a reader's `after=` cursor never jumps over a row that
 * commits later. (Key 0x5353485245564f4b = "SSHREVOK".)
 */
const FEED_LOCK_SQL = `SELECT pg_advisory_xact_lock(6004234345469464395)`;

@Injectable()
export class SshRevocationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Appends rows inside the caller's transaction (one multi-row insert). */
  async append(em: EntityManager, rows: readonly NewSshRevocation[]): Promise<void> {
    if (rows.length === 0) return;
    await em.query(FEED_LOCK_SQL);
    await em
      .createQueryBuilder()
      .insert()
      .into(SshRevocationEntity)
      .values(rows.map((r) => ({ ...r, revokedAt: r.revokedAt ?? new Date() })))
      .execute();
  }

  /** Rows with an id greater than `after`, oldest first. */
  after(after: string, limit: number): Promise<SshRevocationEntity[]> {
    return this.dataSource
      .getRepository(SshRevocationEntity)
      .createQueryBuilder('r')
      .where('r.id > :after', { after })
      .orderBy('r.id', 'ASC')
      .limit(limit)
      .getMany();
  }

  /** The highest id so far ('0' on an empty feed). */
  async lastId(): Promise<string> {
    const rows = await this.dataSource.query<{ id: string | null }[]>(
      `SELECT max(id)::text AS id FROM ssh_revocations`,
    );
    return rows[0]?.id ?? '0';
  }
}
