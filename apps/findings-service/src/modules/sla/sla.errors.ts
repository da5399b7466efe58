import { FindingsError } from '../../app/errors/findings-error';

export type SlaErrorCode =
  'sla_violation_not_found' | 'sla_violation_resolved' | 'sla_cursor_invalid';

/** Errors of the deadline (SLA) module. */
export class SlaError extends FindingsError<SlaErrorCode> {
  constructor(code: SlaErrorCode, details?: Record<string, unknown>) {
    super(code, details);
  }
}
