import { Injectable, Logger } from '@nestjs/common';
import { suppressingUpsertSql } from '../findings/suppression/finding-suppression.sql';
import { stagedRuleCase, validateRuleQuery } from './suppression-query';
import { SuppressionRulesRepository } from './suppression-rules.repository';

/** Parameters of the plain ingestion upsert; the rules' placeholders follow them. */
const UPSERT_PARAMS = 10;

/**
 * What ingestion asks once per report: the project's enabled rules as the upsert that applies
 * them to inserted findings, or undefined without rules (the plain statement runs).
 */
@Injectable()
export class SuppressionMatcher {
  private readonly logger = new Logger('SuppressionMatcher');

  constructor(private readonly rules: SuppressionRulesRepository) {}

  async forIngestion(
    projectId: string,
  ): Promise<{ upsert: string; params: unknown[] } | undefined> {
    const rules = (await this.rules.enabled(projectId)).filter((rule) => {
      try {
        validateRuleQuery(rule.query);
        return true;
      } catch {
        // Every stored text passed the check; one that no longer does never stops ingestion.
        this.logger.warn(`suppression rule ${rule.id} no longer valid; skipped`);
        return false;
      }
    });
    const ruleCase = stagedRuleCase(rules, UPSERT_PARAMS);
    return ruleCase && { upsert: suppressingUpsertSql(ruleCase.sql), params: ruleCase.params };
  }
}
