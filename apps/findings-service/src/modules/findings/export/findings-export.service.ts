import { Injectable } from '@nestjs/common';
import type { AccessContext } from '../../../app/access/access-context';
import { API_PREFIX } from '../../../app/http/data-envelope.interceptor';
import { DOWNLOAD_TOKEN_PARAM, DownloadLinks } from '../../auth/download-links/download-links';
import { VisibilityService } from '../../projects/visibility.service';
import { FindingListRow, FindingsRepository } from '../findings.repository';
import type { FindingSelectionInput } from '../findings-overview.service';
import { FINDINGS_QUERY_CATALOG } from '../list/finding-query-catalog';
import type { FindingListSpec } from '../list/finding-list.sql';
import { parseQuery } from '../query';
import { csvHeader, csvRow } from './findings-csv';

/** Rows read per statement while exporting. */
export const EXPORT_BATCH = 1000;

/** A single-use link to export.csv with one selection. */
export interface FindingExportLink {
  url: string;
  expiresAt: Date;
}

/**
 * The list's selection as CSV (docs/findings-service/findings-api.md#get-apiv1findingsexportcsv):
 * keyset batches by `created_at desc, id desc` (a finding's creation time never changes, so each
 * appears once), each batch its own statement (no transaction held for the export), memory
 * constant. The query is checked and the first batch read before anything is sent, so a refusal
 * is the service's JSON error.
 */
@Injectable()
export class FindingsExportService {
  constructor(
    private readonly findings: FindingsRepository,
    private readonly visibility: VisibilityService,
    private readonly downloadLinks: DownloadLinks,
  ) {}

  /**
   * A single-use link to the export of `selection` (the request's query parameters, as the
   * list takes them) for a browser's native download: the query is checked first, so a refusal
   * is this request's JSON error and never a file the browser saves.
   */
  async link(
    access: AccessContext,
    input: FindingSelectionInput,
    selection: URLSearchParams,
  ): Promise<FindingExportLink> {
    if (input.q !== undefined) parseQuery(input.q, FINDINGS_QUERY_CATALOG);
    const issued = await this.downloadLinks.issue(access.principal.id, 'findings-export');
    const query = new URLSearchParams(selection);
    query.delete(DOWNLOAD_TOKEN_PARAM);
    query.set(DOWNLOAD_TOKEN_PARAM, issued.token);
    return { url: `/${API_PREFIX}/findings/export.csv?${query}`, expiresAt: issued.expiresAt };
  }

  async open(access: AccessContext, input: FindingSelectionInput): Promise<AsyncIterable<string>> {
    const spec: FindingListSpec = {
      scope: this.visibility.scope(access, 'read_findings'),
      filters: input.filters,
      query: input.q === undefined ? undefined : parseQuery(input.q, FINDINGS_QUERY_CATALOG),
      sort: 'created_at',
      order: 'desc',
      fetch: EXPORT_BATCH,
    };
    const first = await this.findings.list(spec);
    return this.lines(spec, first);
  }

  private async *lines(spec: FindingListSpec, first: FindingListRow[]): AsyncIterable<string> {
    yield csvHeader();
    let batch = first;
    for (;;) {
      let chunk = '';
      for (const row of batch) chunk += csvRow(row.finding);
      if (chunk) yield chunk;
      const last = batch[batch.length - 1];
      if (batch.length < EXPORT_BATCH || !last) return;
      batch = await this.findings.list({
        ...spec,
        cursor: { sort: 'created_at', order: 'desc', value: last.sortValue, id: last.finding.id },
      });
    }
  }
}
