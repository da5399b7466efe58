import { Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { BatchSuppression } from '../findings/bulk-write/findings-bulk-write.repository';
import type { SuppressingStatements } from '../findings/bulk-write/batch-types';
import { POLL_UPSERT_PARAMS, type PollRules } from '../findings/polled-findings.sql';
import {
  suppressingInsertNewSql,
  suppressingUpsertSql,
} from '../findings/suppression/finding-suppression.sql';
import { ruleMayMatch } from './rule-pruning';
import { stagedRuleCase, validateRuleQuery } from './suppression-query';
import { SuppressionRulesRepository } from './suppression-rules.repository';

/** Parameters of the plain ingestion upsert; the rules' placeholders follow them. */
const UPSERT_PARAMS = 10;
/** Parameters of the plain insert of a first ingest (INSERT_NEW). */
const INSERT_NEW_PARAMS = 9;
/** Rule sets compiled per report (batches of one report mostly share one). */
const MAX_COMPILED_SETS = 32;
/**
 * Distinct statement texts of this process prepared on the connections (named): each is planned
 * once per connection instead of once per batch (2-8 ms of a ~100 ms batch on this machine,
 * docs/benchmarks.md#suppression). The text holds the rules' shape, not their values (those
 * are parameters), so projects with rules of the same shape share one. Bounded: every name
 * stays prepared on each connection that ran it; past the bound, a new text runs unnamed.
 */
const MAX_PREPARED_TEXTS = 64;
const preparedNames = new Map<string, string>();

/** The prepared-statement name of a text (a digest of it), undefined past the bound. */
export function suppressingStatementName(text: string): string | undefined {
  const known = preparedNames.get(text);
  if (known !== undefined || preparedNames.size >= MAX_PREPARED_TEXTS) return known;
  const name = `findings_ingest_sup_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
  preparedNames.set(text, name);
  return name;
}

/** The statements of a batch with these rules (SuppressingStatements); undefined without rules. */
function suppressingStatements(
  rules: readonly { id: string; query: string }[],
): SuppressingStatements | undefined {
  const forUpsert = stagedRuleCase(rules, UPSERT_PARAMS);
  const forInsert = stagedRuleCase(rules, INSERT_NEW_PARAMS);
  if (!forUpsert || !forInsert) return undefined;
  const upsert = suppressingUpsertSql(forUpsert.sql);
  const insertNew = suppressingInsertNewSql(forInsert.sql);
  return {
    upsert: { text: upsert, name: suppressingStatementName(upsert), params: forUpsert.params },
    insertNew: {
      text: insertNew,
      name: suppressingStatementName(insertNew),
      params: forInsert.params,
    },
  };
}

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
    const compiled = new Map<string, SuppressingStatements | undefined>();
    return {
      forBatch: (facts) => {
        const kept = facts ? rules.filter((rule) => ruleMayMatch(rule.ast, facts)) : rules;
        const key = kept.map((rule) => rule.id).join(',');
        if (!compiled.has(key)) {
          if (compiled.size >= MAX_COMPILED_SETS) compiled.clear();
          compiled.set(key, suppressingStatements(kept));
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
