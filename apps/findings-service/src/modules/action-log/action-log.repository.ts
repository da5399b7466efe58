import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { MoreThan, Repository } from 'typeorm';
import { FindingActionEntity } from './finding-action.entity';
import type { FindingAction } from './finding-action';

/** Reads a finding's action log, oldest first. */
@Injectable()
export class ActionLogRepository {
  constructor(
    @InjectRepository(FindingActionEntity)
    private readonly actions: Repository<FindingActionEntity>,
  ) {}

  /** Entries after `afterId` (keyset on the entry id), at most `limit`. */
  async listForFinding(
    findingId: string,
    limit: number,
    afterId?: string,
  ): Promise<FindingAction[]> {
    const rows = await this.actions.find({
      where: afterId === undefined ? { findingId } : { findingId, id: MoreThan(afterId) },
      order: { id: 'ASC' },
      take: limit,
    });
    return rows.map((r) => ({
      id: r.id,
      findingId: r.findingId,
      actor: { type: r.actorType, id: r.actorId, label: r.actorLabel },
      action: r.action,
      from: r.fromValue,
      to: r.toValue,
      at: r.at,
    }));
  }
}
