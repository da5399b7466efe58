import { CertsvcError } from '../../app/errors/certsvc-error';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

export type AgentErrorCode =
  'agent_unauthorized' | 'certificate_not_issued' | 'certificate_not_found' | 'rate_limited';

export class AgentError extends CertsvcError<AgentErrorCode> {
  constructor(code: AgentErrorCode, details?: Record<string, unknown>) {
    super(code, certsvcErrorMessage(code, 'agent'), details);
  }
}
