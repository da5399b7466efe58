import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { recordCveSightings, NATIONAL_ID_TAG, type CveSighting } from './cve-catalog.sql';
import { EnrichedFindings } from './enriched-findings.port';

/** A finding as an enricher receives it (the WIT `finding` record, camelCase). */
export interface EnrichableFinding {
  id: string;
  projectId: string;
  severity: string;
  rule: string;
  description: string;
  scanner: string;
  status: string;
  cve?: string;
  cwe?: string;
  host?: string;
  ip?: string;
  port?: number;
  protocol?: string;
  url?: string;
  filePath?: string;
  component?: string;
  componentVersion?: string;
}

export interface EnrichmentTag {
  key: string;
  value: string;
}

/** The tags one enricher produced for one finding (they replace its previous ones). */
export interface EnrichmentResult {
  findingId: string;
  tags: EnrichmentTag[];
}

const optional = (value: unknown): string | undefined =>
  value === null || value === undefined || value === '' ? undefined : String(value);

/**
 * Reads findings for enrichers and writes their tags, set-based: one statement per step for a
 * whole batch of findings, never a loop of single-row writes.
 */
@Injectable()
export class EnrichmentRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly findings: EnrichedFindings,
  ) {}

  /** The findings of `ids` that belong to `projectId` (others are ignored), in id order. */
  async findingsForEnrichment(projectId: string, ids: string[]): Promise<EnrichableFinding[]> {
    if (ids.length === 0) return [];
    const rows = (await this.dataSource.query(
      `SELECT id, project_id, severity, rule_id, description, scanner, status, cve, cwe[1] AS cwe,
              host, ip, port, protocol, url, file_path, component, component_version
         FROM findings
        WHERE id = ANY($1::uuid[]) AND project_id = $2
        ORDER BY id`,
      [ids, projectId],
    )) as Record<string, unknown>[];
    return rows.map((r) => ({
      id: String(r['id']),
      projectId: String(r['project_id']),
      severity: String(r['severity']),
      rule: String(r['rule_id']),
      description: String(r['description'] ?? ''),
      scanner: String(r['scanner']),
      status: String(r['status']),
      cve: optional(r['cve']),
      cwe: optional(r['cwe']),
      host: optional(r['host']),
      ip: optional(r['ip']),
      port:
        typeof r['port'] === 'number' && r['port'] >= 0 && r['port'] <= 65535
          ? r['port']
          : undefined,
      protocol: optional(r['protocol']),
      url: optional(r['url']),
      filePath: optional(r['file_path']),
      component: optional(r['component']),
      componentVersion: optional(r['component_version']),
    }));
  }

  /** One finding's project (for the manual route), null when it does not exist. */
  async findingTarget(id: string): Promise<{ projectId: string; productId: string } | null> {
    const rows = (await this.dataSource.query(
      `SELECT project_id, product_id FROM findings WHERE id = $1`,
      [id],
    )) as { project_id: string; product_id: string }[];
    const row = rows[0];
    return row ? { projectId: row.project_id, productId: row.product_id } : null;
  }

  /** The findings a report brought in first (its new findings), in id order, and their project. */
  async newFindingsOfReport(
    reportId: string,
  ): Promise<{ projectId: string; findingIds: string[] } | null> {
    const reports = (await this.dataSource.query(
      `SELECT project_id, product_id FROM reports WHERE id = $1`,
      [reportId],
    )) as { project_id: string; product_id: string }[];
    const report = reports[0];
    if (!report) return null;
    const rows = (await this.dataSource.query(
      `SELECT id FROM findings WHERE product_id = $1 AND first_report_id = $2 ORDER BY id`,
      [report.product_id, reportId],
    )) as { id: string }[];
    return { projectId: report.project_id, findingIds: rows.map((r) => r.id) };
  }

  /**
   * Replaces the enrichment tags `pluginId` wrote on each finding of `results` (a finding with
   * an empty list loses that enricher's tags) and recomputes `findings.enrichment_tags` of
   * those findings as the union of every enricher's `key:value` (the findings module's
   * statement, EnrichedFindings) — three statements in one transaction whatever the batch size;
   * a fourth upserts `cve_catalog` when the tags carry the national enricher's `bdu-id`.
   */
  async replaceTags(pluginId: string, results: EnrichmentResult[], at: Date): Promise<void> {
    if (results.length === 0) return;
    const findingIds = results.map((r) => r.findingId);
    const tagFindings: string[] = [];
    const keys: string[] = [];
    const values: string[] = [];
    const sightings: CveSighting[] = [];
    for (const result of results) {
      for (const tag of result.tags) {
        tagFindings.push(result.findingId);
        keys.push(tag.key);
        values.push(tag.value);
        if (tag.key === NATIONAL_ID_TAG) {
          sightings.push({ findingId: result.findingId, nationalIds: tag.value });
        }
      }
    }
    await this.dataSource.transaction(async (manager) => {
      await manager.query(
        `DELETE FROM finding_enrichment_tags
          WHERE installed_plugin_id = $1 AND finding_id = ANY($2::uuid[])`,
        [pluginId, findingIds],
      );
      if (keys.length > 0) {
        await manager.query(
          `INSERT INTO finding_enrichment_tags (finding_id, installed_plugin_id, key, value, enriched_at)
           SELECT t.finding_id, $1, t.key, t.value, $5
             FROM unnest($2::uuid[], $3::varchar[], $4::text[]) AS t(finding_id, key, value)
             JOIN findings f ON f.id = t.finding_id
           ON CONFLICT (finding_id, installed_plugin_id, key) DO UPDATE SET value = EXCLUDED.value`,
          [pluginId, tagFindings, keys, values, at],
        );
      }
      await this.findings.refreshEnrichmentTags(manager, findingIds);
      // The national enricher's findings teach the service which CVEs are known (is-cve-known).
      if (sightings.length > 0) await recordCveSightings(manager, pluginId, sightings, at);
    });
  }

  /** The tags each enricher wrote on a finding (for the manual route's answer). */
  async tagsOf(findingId: string): Promise<{ pluginId: string; key: string; value: string }[]> {
    const rows = (await this.dataSource.query(
      `SELECT installed_plugin_id, key, value FROM finding_enrichment_tags
        WHERE finding_id = $1 ORDER BY installed_plugin_id, key`,
      [findingId],
    )) as { installed_plugin_id: string; key: string; value: string }[];
    return rows.map((r) => ({ pluginId: r.installed_plugin_id, key: r.key, value: r.value }));
  }
}
