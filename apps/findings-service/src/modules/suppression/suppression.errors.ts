import { FindingsError } from '../../app/errors/findings-error';

export type SuppressionErrorCode =
  | 'suppression_rule_invalid'
  | 'suppression_rule_not_found'
  | 'suppression_rule_running'
  | 'suppression_rule_disabled'
  | 'suppression_rules_limit';

/** Errors of suppression rules (docs/findings-service/suppression.md#errors). */
export class SuppressionError extends FindingsError<SuppressionErrorCode> {
  constructor(code: SuppressionErrorCode, details?: Record<string, unknown>) {
    super(code, details);
  }
}
