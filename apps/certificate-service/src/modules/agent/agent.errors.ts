import { CertsvcError } from '../../app/errors/certsvc-error';

export type AgentErrorCode =
  'agent_unauthorized' | 'certificate_not_issued' | 'certificate_not_found' | 'rate_limited';

const MESSAGES: Record<AgentErrorCode, string> = {
  agent_unauthorized: 'unknown request or wrong X-Agent-Secret',
  certificate_not_issued: 'the request has not been issued yet; keep polling',
  certificate_not_found: 'there is no certificate for this request',
  rate_limited: 'too many requests for this request id; try again later',
};

export class AgentError extends CertsvcError<AgentErrorCode> {
  constructor(code: AgentErrorCode, details?: Record<string, unknown>) {
    super(code, MESSAGES[code], details);
  }
}
