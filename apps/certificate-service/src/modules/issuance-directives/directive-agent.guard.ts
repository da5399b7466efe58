import {
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  Inject,
  Injectable,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { sha256Hex } from '@platform/auth';
import { SharedRateLimits } from '@platform/http';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import type { IssuanceDirectiveEntity } from './issuance-directive.entity';
import { AgentAuthError } from '../agent-auth/agent-auth.errors';
import { admitAgentCall } from '../agent-auth/agent-call';
import { IssuanceDirectivesRepository } from './issuance-directives.repository';

const authenticated = new WeakMap<IncomingMessage, IssuanceDirectiveEntity>();

/**
 * `POST /enroll/issuance-directives/{id}/report`: `X-Agent-Secret` must be the secret of one
 * of the requests of the device the directive addresses (compared as SHA-256 in the
 * database). Unknown directive and wrong secret answer the same 401 `agent_unauthorized`, so
 * the route tells nobody else which directive ids exist. Limited per directive id with the
 * agent budget.
 */
@Injectable()
export class DirectiveAgentGuard implements CanActivate {
  constructor(
    private readonly directives: IssuanceDirectivesRepository,
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
    private readonly limits: SharedRateLimits,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp().getRequest<FastifyRequest<{ Params: { id?: string } }>>();
    const { id, secret } = await admitAgentCall(
      http,
      this.limits,
      this.config.rateLimits.agent,
      'agent-directive',
    );
    const directive = await this.directives.findById(id);
    if (
      !directive ||
      !(await this.directives.agentOfDevice(directive.deviceId, sha256Hex(secret)))
    ) {
      throw new AgentAuthError('agent_unauthorized');
    }
    authenticated.set(http.raw, directive);
    return true;
  }
}

/** The directive the agent authenticated for (routes guarded by DirectiveAgentGuard). */
export const AgentDirective = createParamDecorator(
  (_data: unknown, context: ExecutionContext): IssuanceDirectiveEntity => {
    const directive = authenticated.get(context.switchToHttp().getRequest<FastifyRequest>().raw);
    if (!directive) throw new Error('AgentDirective used on a route without DirectiveAgentGuard');
    return directive;
  },
);
