import { Inject, Injectable, Logger } from '@nestjs/common';
import { addJob } from '@platform/queue';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import type { AccessContext } from '../../app/access/access-context';
import { INGEST_REPORT, ingestJobOptions } from '../report-queue/ingest-report.job';
import { ReportQueue } from '../report-queue/report-queue.provider';
import { ProductsService } from '../products/products.service';
import { ProjectAccessService } from '../projects/project-access.service';
import {
  REPORT_STORAGE,
  ReportStorage,
  StoredObjectTooLargeError,
} from '../storage/report-storage';
import { rejectArchives } from './archive-guard';
import { ReportEntity } from './report.entity';
import { ReportsError } from './reports.errors';
import { ReportsRepository } from './reports.repository';
import {
  collectField,
  FallbackCommitId,
  FILE_FIELD,
  hasAcceptedExtension,
  parseUploadFields,
  UploadPart,
  uploadFileName,
} from './upload-form';

export interface UploadRequest {
  productId: string;
  parts: AsyncIterable<UploadPart>;
  /** Header `X-Commit-Id`, else query parameter `commit_id`. */
  fallbackCommitId?: FallbackCommitId;
}

@Injectable()
export class ReportsService {
  private readonly logger = new Logger('Reports');

  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    @Inject(REPORT_STORAGE) private readonly storage: ReportStorage,
    private readonly reports: ReportsRepository,
    private readonly products: ProductsService,
    private readonly projectAccess: ProjectAccessService,
    private readonly reportQueue: ReportQueue,
  ) {}

  /**
   * Streams the one file part into storage (413 past REPORT_MAX_BYTES, 400 for archives, a
   * bad file name, a second file or broken multipart), records the report and queues one
   * ingestion job (job id = report id). Any failure, including the queue being unavailable
   * (503), removes the stored file and the report row.
   */
  async upload(access: AccessContext, request: UploadRequest): Promise<ReportEntity> {
    const product = await this.products.authorized(access, request.productId, 'upload_report');
    const id = randomUUID();
    let stored: { key: string; fileName: string; sizeBytes: number } | undefined;
    let recorded = false;
    try {
      const fields = new Map<string, string>();
      for await (const part of request.parts) {
        if (part.type === 'field' || part.field !== FILE_FIELD) {
          collectField(fields, part);
          continue;
        }
        if (stored) throw new ReportsError('upload_too_many_files');
        stored = await this.store(id, part.filename, part.stream);
      }
      if (!stored) throw new ReportsError('report_file_missing');
      const form = parseUploadFields(fields, request.fallbackCommitId);
      await this.reports.insert({
        id,
        productId: product.id,
        projectId: product.projectId,
        requestedFormat: form.format,
        engine: form.engine,
        engineVersion: form.engineVersion,
        commitId: form.commitId,
        verifyFixes: form.verifyFixes,
        fileName: stored.fileName,
        storageKey: stored.key,
        sizeBytes: stored.sizeBytes,
        uploadedByKind: access.principal.kind,
        uploadedById: access.principal.id,
      });
      recorded = true;
      await addJob(
        this.reportQueue.queue,
        INGEST_REPORT,
        { reportId: id, productId: product.id, projectId: product.projectId },
        ingestJobOptions(id, this.config.reports.ingestAttempts),
      );
    } catch (error) {
      if (recorded) await this.reports.delete(id);
      if (stored) await this.storage.delete(stored.key);
      throw error;
    }
    const report = await this.reports.findById(id);
    if (!report) throw new ReportsError('report_not_found');
    return report;
  }

  /** `read_reports` on the report's product (404 when the caller cannot see it). */
  async get(access: AccessContext, id: string): Promise<ReportEntity> {
    const report = await this.reports.findById(id);
    if (!report) throw new ReportsError('report_not_found');
    this.projectAccess.require(
      access,
      'read_reports',
      { projectId: report.projectId, productId: report.productId },
      () => new ReportsError('report_not_found'),
    );
    return report;
  }

  private async store(
    id: string,
    filename: string,
    stream: Readable,
  ): Promise<{ key: string; fileName: string; sizeBytes: number }> {
    const fileName = uploadFileName(filename);
    if (!hasAcceptedExtension(fileName)) throw new ReportsError('report_extension_refused');
    const key = `${id}${fileName.toLowerCase().endsWith('.sarif') ? '.sarif' : '.json'}`;
    try {
      const { sizeBytes } = await this.storage.write(
        key,
        Readable.from(rejectArchives(stream)),
        this.config.reports.maxBytes,
      );
      return { key, fileName, sizeBytes };
    } catch (error) {
      if (error instanceof StoredObjectTooLargeError) {
        this.logger.warn(`upload refused: larger than REPORT_MAX_BYTES=${error.maxBytes}`);
        throw new ReportsError('report_too_large', { maxBytes: error.maxBytes });
      }
      throw error;
    }
  }
}
