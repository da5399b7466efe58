import { Injectable, Logger } from '@nestjs/common';
import { POLL_UPSERT_PARAMS, type PollRules } from '../findings/polled-findings.sql';
import { suppressingUpsertSql } from '../findings/suppression/finding-suppression.sql';
import { stagedRuleCase, validateRuleQuery } from './suppression-query';
import { SuppressionRulesRepository } from './suppression-rules.repository';

/** Parameters of the plain ingestion upsert; the rules' placeholders follow them. */
const UPSERT_PARAMS = 10;

/**
 * What the writers of new findings ask before they write: ingestion once per report, a finding
 * source once per poll. The project's enabled rules as the statement (or expression) that
 * applies them to inserted findings, or undefined without rules (the plain statement runs).
 */
@Injectable()
export class SuppressionMatcher {
  private readonly logger = new Logger('SuppressionMatcher');

  constructor(private readonly rules: SuppressionRulesRepository) {}

  async forIngestion(
    projectId: string,
  ): Promise<{ upsert: string; params: unknown[] } | undefined> {
    const ruleCase = stagedRuleCase(await this.valid(projectId), UPSERT_PARAMS);
    return ruleCase && { upsert: suppressingUpsertSql(ruleCase.sql), params: ruleCase.params };
  }

  /** The rules for a finding source's poll (polled-findings.sql.ts, inserted findings only). */
  async forPoll(projectId: string): Promise<PollRules | undefined> {
    const ruleCase = stagedRuleCase(await this.valid(projectId), POLL_UPSERT_PARAMS);
    return ruleCase && { ruleCase: ruleCase.sql, params: ruleCase.params };
  }

  private async valid(projectId: string): Promise<{ id: string; query: string }[]> {
    return (await this.rules.enabled(projectId)).filter((rule) => {
      try {
        validateRuleQuery(rule.query);
        return true;
      } catch {
        // Every stored text passed the check; one that no longer does never stops ingestion.
        this.logger.warn(`suppression rule ${rule.id} no longer valid; skipped`);
        return false;
      }
    });
  }
}
