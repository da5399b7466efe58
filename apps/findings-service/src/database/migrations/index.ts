import { Identity1763800000000 } from './1763800000000-identity';
import { ProjectsReportsFindings1763900000000 } from './1763900000000-projects-reports-findings';
import { FindingsTriageActionLog1764200000000 } from './1764200000000-findings-triage-action-log';
import { FindingsIngestionHotUpdates1764300000000 } from './1764300000000-findings-ingestion-hot-updates';
import { FindingsProductKeyShare1764400000000 } from './1764400000000-findings-product-key-share';
import { FindingsContentDigest1764500000000 } from './1764500000000-findings-content-digest';
import { ReportsFailureDetailsWarnings1764600000000 } from './1764600000000-reports-failure-details-warnings';
import { FindingsLifecycleSla1764720000000 } from './1764720000000-findings-lifecycle-sla';
import { PluginMarketplacesInstallations1795601843580 } from './1795601843580-plugin-marketplaces-installations';
import { FindingEnrichmentTags1795602380744 } from './1795602380744-finding-enrichment-tags';
import { FindingSources1795603002150 } from './1795603002150-finding-sources';
import { PluginChannelConfigs1795603810947 } from './1795603810947-plugin-channel-configs';
import { ReportCoverage1795604000000 } from './1795604000000-report-coverage';
import { ScanPerimeter1795604100000 } from './1795604100000-scan-perimeter';
import { AutoClosure1795604200000 } from './1795604200000-auto-closure';
import { RefreshTokenUsedAt1795604300000 } from './1795604300000-refresh-token-used-at';
import { AnalystFirstDay1795604400000 } from './1795604400000-analyst-first-day';
import { FindingFlows1795605100000 } from './1795605100000-finding-flows';
import { MailSends1795605200000 } from './1795605200000-mail-sends';
import { NotificationCore1795605400000 } from './1795605400000-notification-core';
import { CveCatalog1795605500000 } from './1795605500000-cve-catalog';
import { Tickets1795605600000 } from './1795605600000-tickets';
import { ProjectCountsIndex1795605700000 } from './1795605700000-project-counts-index';
import { TicketSync1795605800000 } from './1795605800000-ticket-sync';
import { FindingMerges1795606300000 } from './1795606300000-finding-merges';
import { SuppressionRules1795606400000 } from './1795606400000-suppression-rules';
import { RollupAxisIndexes1795606500000 } from './1795606500000-rollup-axis-indexes';
import { SuppressionRunRecovery1795606600000 } from './1795606600000-suppression-run-recovery';
import { FindingSearch1795606750000 } from './1795606750000-finding-search';
import { FindingSearchWords1795607100000 } from './1795607100000-finding-search-words';
import { RollupCounts1795607500000 } from './1795607500000-rollup-counts';
import { FindingSearchPostings1795608040000 } from './1795608040000-finding-search-postings';

/** Ordered list of the findings-service migrations (forward-only). */
export const FINDINGS_MIGRATIONS = [
  Identity1763800000000,
  ProjectsReportsFindings1763900000000,
  FindingsTriageActionLog1764200000000,
  FindingsIngestionHotUpdates1764300000000,
  FindingsProductKeyShare1764400000000,
  FindingsContentDigest1764500000000,
  ReportsFailureDetailsWarnings1764600000000,
  FindingsLifecycleSla1764720000000,
  PluginMarketplacesInstallations1795601843580,
  FindingEnrichmentTags1795602380744,
  FindingSources1795603002150,
  PluginChannelConfigs1795603810947,
  ReportCoverage1795604000000,
  ScanPerimeter1795604100000,
  AutoClosure1795604200000,
  RefreshTokenUsedAt1795604300000,
  AnalystFirstDay1795604400000,
  FindingFlows1795605100000,
  MailSends1795605200000,
  NotificationCore1795605400000,
  CveCatalog1795605500000,
  Tickets1795605600000,
  ProjectCountsIndex1795605700000,
  TicketSync1795605800000,
  FindingMerges1795606300000,
  SuppressionRules1795606400000,
  RollupAxisIndexes1795606500000,
  SuppressionRunRecovery1795606600000,
  FindingSearch1795606750000,
  FindingSearchWords1795607100000,
  RollupCounts1795607500000,
  FindingSearchPostings1795608040000,
];
