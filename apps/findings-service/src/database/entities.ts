import { FindingActionEntity } from '../modules/action-log/finding-action.entity';
import { RefreshTokenEntity } from '../modules/users/refresh-token.entity';
import { FindingEntity } from '../modules/findings/finding.entity';
import { FindingCommentEntity } from '../modules/findings/comments/finding-comment.entity';
import { ProductEntity } from '../modules/products/product.entity';
import { ProjectMemberEntity } from '../modules/projects/project-member.entity';
import { ProjectEntity } from '../modules/projects/project.entity';
import { ReportEntity } from '../modules/reports/report.entity';
import { ServiceAccountPermissionEntity } from '../modules/service-accounts/service-account-permission.entity';
import { ServiceAccountEntity } from '../modules/service-accounts/service-account.entity';
import { SlaViolationEntity } from '../modules/sla/sla-violation.entity';
import { UserEntity } from '../modules/users/user.entity';
import { PluginAuditEventEntity } from '../modules/plugins/audit/plugin-audit-event.entity';
import { InstalledPluginEntity } from '../modules/plugins/installed-plugins/installed-plugin.entity';
import { PluginArtifactEntity } from '../modules/plugins/installed-plugins/plugin-artifact.entity';
import { PluginSourceEntity } from '../modules/plugins/marketplaces/plugin-source.entity';
import { FindingEnrichmentTagEntity } from '../modules/enrichment/finding-enrichment-tag.entity';
import {
  FindingSourceLinkEntity,
  FindingSourceNodeEntity,
  FindingSourceSyncEntity,
} from '../modules/finding-sources/finding-source.entities';
import {
  LegacyChannelSettingsEntity,
  ProjectChannelConfigEntity,
} from '../modules/plugin-channels/plugin-channels.entities';
import {
  AutoClosureCandidateEntity,
  AutoClosureCheckEntity,
  AutoClosureEntity,
  FindingAbsenceEntity,
  FindingVerificationEntity,
  VerificationEndpointEntity,
} from '../modules/auto-closure/auto-closure.entities';
import { ScannerCallbackKeyEntity } from '../modules/scanner-callbacks/scanner-callback-key.entity';
import {
  ScopeAssetEntity,
  ScopeEntryEntity,
  ScopeProposalEntity,
} from '../modules/scope/scope.entities';
import { ActionFeedCursorEntity } from '../modules/action-log/action-feed-cursor.entity';
import {
  NotificationDeliveryEntity,
  NotificationEntity,
} from '../modules/notifications/notification.entities';
import {
  FindingTicketEntity,
  ProjectTicketSettingsEntity,
  TicketBackfillEntity,
  TicketEntity,
} from '../modules/tickets/tickets.entities';
import { MailSendEntity } from '../modules/mail/mail-send.entity';
import { CveCatalogEntity } from '../modules/enrichment/cve-catalog.entity';
import { FindingMergeEntity } from '../modules/findings/merge/finding-merge.entity';
import {
  FindingSearchEntity,
  FindingSearchPostingEntity,
  FindingSearchStateEntity,
  FindingSearchWordEntity,
} from '../modules/findings/search/finding-search.entities';
import {
  RollupCountEntity,
  RollupDeltaEntity,
} from '../modules/inventory-rollup/rollup-count.entity';
import {
  SuppressionRuleActionEntity,
  SuppressionRuleEntity,
} from '../modules/suppression/suppression-rule.entity';

/** Every entity of the findings service (the drift check compares them with the migrations). */
export const FINDINGS_ENTITIES = [
  UserEntity,
  RefreshTokenEntity,
  ServiceAccountEntity,
  ServiceAccountPermissionEntity,
  ProjectEntity,
  ProjectMemberEntity,
  ProductEntity,
  ReportEntity,
  FindingEntity,
  FindingActionEntity,
  FindingCommentEntity,
  SlaViolationEntity,
  PluginSourceEntity,
  InstalledPluginEntity,
  PluginArtifactEntity,
  PluginAuditEventEntity,
  FindingEnrichmentTagEntity,
  FindingSourceNodeEntity,
  FindingSourceLinkEntity,
  FindingSourceSyncEntity,
  ProjectChannelConfigEntity,
  LegacyChannelSettingsEntity,
  AutoClosureCheckEntity,
  AutoClosureCandidateEntity,
  FindingAbsenceEntity,
  AutoClosureEntity,
  FindingVerificationEntity,
  VerificationEndpointEntity,
  ScannerCallbackKeyEntity,
  ScopeEntryEntity,
  ScopeProposalEntity,
  ScopeAssetEntity,
  ActionFeedCursorEntity,
  NotificationEntity,
  NotificationDeliveryEntity,
  TicketEntity,
  FindingTicketEntity,
  ProjectTicketSettingsEntity,
  TicketBackfillEntity,
  MailSendEntity,
  CveCatalogEntity,
  FindingMergeEntity,
  SuppressionRuleEntity,
  SuppressionRuleActionEntity,
  FindingSearchEntity,
  FindingSearchStateEntity,
  FindingSearchWordEntity,
  FindingSearchPostingEntity,
  RollupCountEntity,
  RollupDeltaEntity,
];
