import { CertsvcError } from '../../app/errors/certsvc-error';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

export type AgentAuthErrorCode = 'agent_unauthorized' | 'rate_limited';

/** Refusals of the agent secret check (the same codes and messages as the agent routes'). */
export class AgentAuthError extends CertsvcError<AgentAuthErrorCode> {
  constructor(code: AgentAuthErrorCode, details?: Record<string, unknown>) {
    super(code, certsvcErrorMessage(code, 'agent'), details);
  }
}
