import { Module } from '@nestjs/common';
import { SuppressionMatcher } from './suppression-matcher';
import { SuppressionRulesRepository } from './suppression-rules.repository';
import { SuppressionRunsRepository } from './suppression-runs.repository';

/**
 * Suppression rules as other modules need them (ingestion: SuppressionMatcher). The module
 * owns `suppression_rules` and `suppression_rule_actions` (only its repository writes them).
 */
@Module({
  providers: [SuppressionRulesRepository, SuppressionRunsRepository, SuppressionMatcher],
  exports: [SuppressionRulesRepository, SuppressionRunsRepository, SuppressionMatcher],
})
export class SuppressionCoreModule {}
