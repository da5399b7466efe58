import { isUUID } from 'class-validator';
import type { FastifyRequest } from 'fastify';
import type { SharedRateLimits } from '@platform/http';
import { AgentAuthError } from './agent-auth.errors';

/**
 * The first steps of every agent route addressed by an id (`/requests/:id/*`,
 * `/enroll/issuance-directives/:id/*`): a UUID `:id` and a non-empty `X-Agent-Secret`, then
 * the per-id agent budget (`scope:<id>`, one budget for all replicas). Refusals: 401
 * `agent_unauthorized` (the same for every cause), 429 `rate_limited`. The caller then checks
 * the secret against what it addresses.
 */
export async function admitAgentCall(
  http: FastifyRequest<{ Params: { id?: string } }>,
  limits: SharedRateLimits,
  perMinute: number,
  scope: string,
): Promise<{ id: string; secret: string }> {
  const id = http.params.id ?? '';
  const secret = http.headers['x-agent-secret'];
  if (!isUUID(id, 'loose') || typeof secret !== 'string' || secret === '') {
    throw new AgentAuthError('agent_unauthorized');
  }
  const decision = await limits.hit(`${scope}:${id.toLowerCase()}`, perMinute);
  if (!decision.allowed) {
    throw new AgentAuthError('rate_limited', { retryAfterSeconds: decision.retryAfterSeconds });
  }
  return { id, secret };
}
