import {
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  Inject,
  Injectable,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { safeEqual, sha256Hex } from '@platform/auth';
import { SharedRateLimits } from '@platform/http';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import type { CertificateRequestEntity } from '../requests/certificate-request.entity';
import { RequestsRepository } from '../requests/requests.repository';
import { AgentAuthError } from './agent-auth.errors';
import { admitAgentCall } from './agent-call';

const authenticated = new WeakMap<IncomingMessage, CertificateRequestEntity>();

/**
 * Agent routes `/requests/:id/*`: `X-Agent-Secret` must match the secret issued with the
 * request (hash compared in constant time). Limited per request id, one budget for all replicas.
 */
@Injectable()
export class AgentSecretGuard implements CanActivate {
  constructor(
    private readonly requests: RequestsRepository,
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
    private readonly limits: SharedRateLimits,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp().getRequest<FastifyRequest<{ Params: { id?: string } }>>();
    const { id, secret } = await admitAgentCall(
      http,
      this.limits,
      this.config.rateLimits.agent,
      'agent',
    );
    const request = await this.requests.findById(id);
    if (!request || !safeEqual(sha256Hex(secret), request.agentSecretHash)) {
      throw new AgentAuthError('agent_unauthorized');
    }
    authenticated.set(http.raw, request);
    return true;
  }
}

/** The request the agent authenticated for (routes guarded by AgentSecretGuard). */
export const AgentRequest = createParamDecorator(
  (_data: unknown, context: ExecutionContext): CertificateRequestEntity => {
    const request = authenticated.get(context.switchToHttp().getRequest<FastifyRequest>().raw);
    if (!request) throw new Error('AgentRequest used on a route without AgentSecretGuard');
    return request;
  },
);
