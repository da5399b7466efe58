import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { IssuerProfileEntity } from './issuer-profile.entity';

export interface IssuerProfileRow {
  purpose: string;
  kind: string;
  settings: Record<string, unknown>;
  sealedSecrets: string | null;
  updatedAt: Date;
  updatedBy: string;
}

/** The only writer of `issuer_profiles` (docs/architecture.md). */
@Injectable()
export class IssuerProfilesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get repo() {
    return this.dataSource.getRepository(IssuerProfileEntity);
  }

  all(): Promise<IssuerProfileRow[]> {
    return this.repo.find({ order: { purpose: 'ASC' } });
  }

  find(purpose: string): Promise<IssuerProfileRow | null> {
    return this.repo.findOneBy({ purpose });
  }

  /** Creates or replaces the profile of a purpose; answers the stored row. */
  async put(row: Omit<IssuerProfileRow, 'updatedAt'>): Promise<IssuerProfileRow> {
    await this.dataSource.query(
      `INSERT INTO issuer_profiles (purpose, kind, settings, sealed_secrets, updated_at, updated_by)
       VALUES ($1, $2, $3::jsonb, $4, clock_timestamp(), $5)
       ON CONFLICT (purpose) DO UPDATE SET kind = EXCLUDED.kind, settings = EXCLUDED.settings,
         sealed_secrets = EXCLUDED.sealed_secrets, updated_at = EXCLUDED.updated_at,
         updated_by = EXCLUDED.updated_by`,
      [row.purpose, row.kind, JSON.stringify(row.settings), row.sealedSecrets, row.updatedBy],
    );
    return this.repo.findOneByOrFail({ purpose: row.purpose });
  }

  /**
   * What a process compares to know whether its issuers are current: the number of profiles
   * and the newest change (a PUT always moves `updated_at` forward: clock_timestamp()).
   */
  async revision(): Promise<string> {
    const [row] = (await this.dataSource.query(
      `SELECT count(*)::int AS n, coalesce(max(updated_at), 'epoch')::text AS at FROM issuer_profiles`,
    )) as { n: number; at: string }[];
    return `${row.n}@${row.at}`;
  }
}
