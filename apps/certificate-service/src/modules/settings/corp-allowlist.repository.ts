import { Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { CorpAllowlistEntryEntity } from './corp-allowlist-entry.entity';

@Injectable()
export class CorpAllowlistRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get repo() {
    return this.dataSource.getRepository(CorpAllowlistEntryEntity);
  }

  list(): Promise<CorpAllowlistEntryEntity[]> {
    return this.repo.find({ order: { serial: 'ASC' } });
  }

  /** Which of these serials are on the list (one query for a whole approval batch). */
  async listed(serials: readonly string[]): Promise<Set<string>> {
    if (serials.length === 0) return new Set();
    const rows = await this.repo.find({
      select: { serial: true },
      where: { serial: In([...serials]) },
    });
    return new Set(rows.map((r) => r.serial));
  }

  /** Adds the serial unless present; returns the entry and whether it is new. */
  async add(
    entry: Pick<CorpAllowlistEntryEntity, 'serial' | 'note' | 'addedBy'>,
  ): Promise<{ entry: CorpAllowlistEntryEntity; created: boolean }> {
    const result = await this.repo
      .createQueryBuilder()
      .insert()
      .values(entry)
      .orIgnore()
      .returning(['serial'])
      .execute();
    const created = (result.raw as unknown[]).length > 0;
    return { entry: await this.repo.findOneByOrFail({ serial: entry.serial }), created };
  }

  async remove(serial: string): Promise<boolean> {
    const result = await this.repo.delete({ serial });
    return (result.affected ?? 0) > 0;
  }
}
