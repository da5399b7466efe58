import { FindingsError } from '../../app/errors/findings-error';

export type TicketsErrorCode =
  | 'access_denied'
  | 'finding_not_found'
  | 'installed_plugin_not_found'
  | 'not_found'
  | 'project_not_found'
  | 'service_unavailable'
  | 'ticket_backfill_running'
  | 'ticket_exists'
  | 'ticket_provider_error'
  | 'ticket_provider_not_configured'
  | 'validation_failed';

/** Errors of tickets in an external tracker (docs/findings-service/tickets.md). */
export class TicketsError extends FindingsError<TicketsErrorCode> {
  constructor(code: TicketsErrorCode, details?: Record<string, unknown>) {
    super(code, details);
  }
}
