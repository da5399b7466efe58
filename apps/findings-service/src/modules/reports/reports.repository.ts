import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { ReportEntity } from './report.entity';
import type { ReportFailureCode } from './report-status';

export type NewReport = Pick<
  ReportEntity,
  | 'id'
  | 'productId'
  | 'projectId'
  | 'requestedFormat'
  | 'engine'
  | 'engineVersion'
  | 'commitId'
  | 'verifyFixes'
  | 'fileName'
  | 'storageKey'
  | 'sizeBytes'
  | 'uploadedByKind'
  | 'uploadedById'
>;

@Injectable()
export class ReportsRepository {
  constructor(@InjectRepository(ReportEntity) private readonly reports: Repository<ReportEntity>) {}

  async insert(report: NewReport): Promise<void> {
    await this.reports.insert(report);
  }

  /**
   * Reports of the given projects that are pending or finished since `finishedSince`, newest
   * first (created_at, id), after the `before` keyset position: the order in which project
   * administrators page through their ingestion jobs (job id = report id; older finished jobs
   * have left the queue).
   */
  async newestInProjects(
    projectIds: readonly string[],
    finishedSince: Date,
    before: { createdAt: Date; id: string } | undefined,
    limit: number,
  ): Promise<{ id: string; createdAt: Date }[]> {
    const query = this.reports
      .createQueryBuilder('r')
      .select(['r.id', 'r.createdAt'])
      .where('r.projectId IN (:...projectIds)', { projectIds })
      .andWhere(
        `(r.status = 'pending' OR r.finishedAt IS NULL OR r.finishedAt >= :finishedSince)`,
        {
          finishedSince,
        },
      )
      .orderBy('r.createdAt', 'DESC')
      .addOrderBy('r.id', 'DESC')
      .limit(limit);
    if (before) {
      query.andWhere('(r.createdAt, r.id) < (:createdAt, :id)', {
        createdAt: before.createdAt,
        id: before.id,
      });
    }
    const rows = await query.getMany();
    return rows.map((r) => ({ id: r.id, createdAt: r.createdAt }));
  }

  /** The reports with their project and product names, in one statement. */
  async findWithNames(
    ids: readonly string[],
  ): Promise<{ report: ReportEntity; projectName: string; productName: string }[]> {
    if (ids.length === 0) return [];
    const { entities, raw } = await this.reports
      .createQueryBuilder('r')
      .leftJoin('projects', 'p', 'p.id = r.project_id')
      .leftJoin('products', 'pr', 'pr.id = r.product_id')
      .addSelect(['p.name AS project_name', 'pr.name AS product_name'])
      .where('r.id IN (:...ids)', { ids })
      .getRawAndEntities();
    const names = new Map(
      (raw as Record<string, unknown>[]).map((row) => [
        String(row['r_id']),
        { project: String(row['project_name'] ?? ''), product: String(row['product_name'] ?? '') },
      ]),
    );
    return entities.map((report) => ({
      report,
      projectName: names.get(report.id)?.project ?? '',
      productName: names.get(report.id)?.product ?? '',
    }));
  }

  findById(id: string): Promise<ReportEntity | null> {
    return this.reports.findOneBy({ id });
  }

  async delete(id: string): Promise<void> {
    await this.reports.delete({ id });
  }

  /** Asks a running ingestion to stop before its next write. */
  async requestCancel(id: string, at: Date): Promise<void> {
    await this.reports.update({ id, cancelRequestedAt: IsNull() }, { cancelRequestedAt: at });
  }

  /** A job that never started (removed from the queue): the report fails as cancelled. */
  async failPending(id: string, code: ReportFailureCode): Promise<void> {
    await this.reports.update(
      { id, status: 'pending' },
      { status: 'failed', failureCode: code, failureDetails: null, finishedAt: new Date() },
    );
  }

  /** Before a retry: pending again; counters and the watermark stay (the job resumes). */
  async resetForRetry(id: string): Promise<void> {
    await this.reports.update(
      { id },
      {
        status: 'pending',
        failureCode: null,
        failureDetails: null,
        cancelRequestedAt: null,
        finishedAt: null,
      },
    );
  }
}
