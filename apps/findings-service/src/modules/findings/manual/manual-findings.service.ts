import { Injectable, Logger } from '@nestjs/common';
import { InputValidationError } from '@platform/errors';
import { actorOf } from '../../action-log/finding-action';
import type { AccessContext } from '../../../app/access/access-context';
import {
  FindingLocation,
  findingIdentity,
  identityKind,
  isWebAddress,
  normalizeFindingPath,
} from '@platform/report-parsing';
import { EnrichmentScheduler } from '../../enrichment/enrichment-scheduler.service';
import { ProductsError } from '../../products/products.errors';
import { ProductsService } from '../../products/products.service';
import { ProjectsService } from '../../projects/projects.service';
import { FindingEntity } from '../finding.entity';
import type { CreateManualFindingDto } from './dto/manual-finding.dto';
import { ManualFindingsRepository } from './manual-findings.repository';

const MANUAL_SCANNER = 'manual';

/** Location of a manual finding: url (web), else path (code), else host (network). */
export function manualLocation(input: CreateManualFindingDto): FindingLocation {
  if (input.url) return { kind: 'web', url: input.url };
  if (input.host && isWebAddress(input.host)) return { kind: 'web', url: input.host };
  if (input.path) {
    return {
      kind: 'file',
      path: normalizeFindingPath(input.path),
      ...(input.start_line === undefined ? {} : { start_line: input.start_line }),
      ...(input.end_line === undefined ? {} : { end_line: input.end_line }),
    };
  }
  if (input.host) {
    return {
      kind: 'network',
      host: input.host,
      ...(input.port === undefined ? {} : { port: input.port }),
      ...(input.protocol ? { protocol: input.protocol.toLowerCase() } : {}),
    };
  }
  throw new InputValidationError([
    { field: 'host', problems: ['one of host, path or url is required'] },
  ]);
}

/**
 * Findings entered by hand share the identity of report findings: re-entering the same one
 * returns the existing finding (no duplicate, no error).
 */
@Injectable()
export class ManualFindingsService {
  private readonly logger = new Logger('ManualFindings');

  constructor(
    private readonly findings: ManualFindingsRepository,
    private readonly products: ProductsService,
    private readonly projects: ProjectsService,
    private readonly enrichment: EnrichmentScheduler,
  ) {}

  async create(
    access: AccessContext,
    productId: string,
    input: CreateManualFindingDto,
  ): Promise<{ finding: FindingEntity; created: boolean }> {
    const product = await this.products.authorized(access, productId, 'upload_report');
    const project = await this.projects.existing(product.projectId);
    const location = manualLocation(input);
    const ruleId = input.rule_id?.trim() || 'manual';
    const cve = input.cve?.toUpperCase();
    const identityInput = { rule_id: ruleId, location, ...(cve ? { cve } : {}) };
    const scanner = input.scanner?.trim() || MANUAL_SCANNER;
    const now = new Date();
    const description = input.description ?? input.title;
    const sla = {
      CRITICAL: project.slaCriticalDays,
      HIGH: project.slaHighDays,
      MEDIUM: project.slaMediumDays,
      LOW: project.slaLowDays,
      INFO: project.slaInfoDays,
    }[input.severity];
    const outcome = await this.findings.insertOrGet(
      {
        productId: product.id,
        projectId: product.projectId,
        identityHash: findingIdentity(identityInput),
        identityKind: identityKind(identityInput),
        ruleId,
        ruleName: null,
        title: input.title,
        description,
        severity: input.severity,
        baselineState: null,
        kind: 'fail',
        suppressed: false,
        host: location.kind === 'network' ? location.host : null,
        ip: null,
        port: location.kind === 'network' ? (location.port ?? null) : null,
        protocol: location.kind === 'network' ? (location.protocol ?? null) : null,
        service: null,
        url: location.kind === 'web' ? location.url : null,
        filePath: location.kind === 'file' ? location.path : null,
        startLine: location.kind === 'file' ? (location.start_line ?? null) : null,
        endLine: location.kind === 'file' ? (location.end_line ?? null) : null,
        snippet: null,
        logicalLocation: null,
        cve: cve ?? null,
        cwe: [],
        component: null,
        componentVersion: null,
        score: null,
        scanner,
        scannerVersion: null,
        revision: null,
        reportTags: [],
        slaDays: sla,
        fingerprints: {},
        properties: { manual: true, entered_by: `${access.principal.kind}:${access.principal.id}` },
        sources: {
          [scanner]: {
            scanner,
            scanned_at: now.toISOString(),
            rule_id: ruleId,
            cve: cve ?? null,
            description,
          },
        },
        firstSeenAt: now,
        lastSeenAt: now,
        firstReportId: null,
        lastReportId: null,
      },
      actorOf(access),
    );
    // The product was deleted between the check above and the insert.
    if (!outcome) throw new ProductsError('product_not_found');
    if (outcome.created) {
      // A finding appears: every enabled enricher gets it (a background job; never fails the call).
      await this.enrichment
        .findingsCreated(product.projectId, [outcome.finding.id], `manual-${outcome.finding.id}`)
        .catch((error: unknown) =>
          this.logger.warn(
            `finding ${outcome.finding.id}: enrichment not queued (${(error as Error).message})`,
          ),
        );
    }
    return outcome;
  }
}
