import { Injectable, Logger } from '@nestjs/common';
import type { BatchSuppression } from '../findings/bulk-write/findings-bulk-write.repository';
import { POLL_UPSERT_PARAMS, type PollRules } from '../findings/polled-findings.sql';
import { suppressingUpsertSql } from '../findings/suppression/finding-suppression.sql';
import { ruleMayMatch } from './rule-pruning';
import { stagedRuleCase, validateRuleQuery } from './suppression-query';
import { SuppressionRulesRepository } from './suppression-rules.repository';

/** Parameters of the plain ingestion upsert; the rules' placeholders follow them. */
const UPSERT_PARAMS = 10;
/** Rule sets compiled per report (batches of one report mostly share one). */
const MAX_COMPILED_SETS = 32;

/**
 * What the writers of new findings ask before they write: ingestion once per report, a finding
 * source once per poll. The project's enabled rules as the statement (or expression) that
 * applies them to inserted findings, or undefined without rules (the plain statement runs).
 */
@Injectable()
export class SuppressionMatcher {
  private readonly logger = new Logger('SuppressionMatcher');

  constructor(private readonly rules: SuppressionRulesRepository) {}

  /**
   * Ingestion's rules, read once per report; per batch, only the rules its rows can meet go
   * into the statement (rule-pruning.ts: a scanner no row was found by, a value no row has),
   * each distinct set compiled once. Without facts (a re-sighting normalized after all) every
   * rule goes in.
   */
  async forIngestion(projectId: string): Promise<BatchSuppression | undefined> {
    const rules = (await this.valid(projectId)).map((rule) => ({
      ...rule,
      ast: validateRuleQuery(rule.query),
    }));
    if (rules.length === 0) return undefined;
    const compiled = new Map<string, { upsert: string; params: unknown[] } | undefined>();
    return {
      forBatch: (facts) => {
        const kept = facts ? rules.filter((rule) => ruleMayMatch(rule.ast, facts)) : rules;
        const key = kept.map((rule) => rule.id).join(',');
        if (!compiled.has(key)) {
          if (compiled.size >= MAX_COMPILED_SETS) compiled.clear();
          const ruleCase = stagedRuleCase(kept, UPSERT_PARAMS);
          compiled.set(
            key,
            ruleCase && { upsert: suppressingUpsertSql(ruleCase.sql), params: ruleCase.params },
          );
        }
        return compiled.get(key);
      },
    };
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
