import {
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  Inject,
  Injectable,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { isIP } from 'node:net';
import { SharedRateLimits } from '@platform/http';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { CertsvcMetrics } from '../../app/metrics/certsvc-metrics';
import { networkList } from '../settings/keyholder.policy';
import { PolicySettingsService } from '../settings/policy-settings.service';
import { KeyholderError } from './keyholder.errors';
import { KeyholderTokensService } from './keyholder-tokens.service';

/** Header a target server sends its token in. */
export const KEYHOLDER_TOKEN_HEADER = 'x-keyholder-token';

/** Who is calling the key-holder API, as the guard found out. */
export interface KeyholderCaller {
  /** Client address (after trusted proxies). */
  address: string;
  /** The valid token presented, or null (no token, or not valid and the gate let it pass). */
  token: { id: string; principals: readonly string[] | null } | null;
}

const CALLERS = new WeakMap<FastifyRequest, KeyholderCaller>();

/**
 * Protection of `/api/v1/keyholder/*`, in this order: allowed networks (403), rate limit per
 * client address, one budget for all replicas (429), server token by the gate step (`off`: not needed;
 * `observe`: counted and let through; `required`: counted and refused with 401).
 */
@Injectable()
export class KeyholderAccessGuard implements CanActivate {
  constructor(
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
    private readonly policies: PolicySettingsService,
    private readonly tokens: KeyholderTokensService,
    private readonly metrics: CertsvcMetrics,
    private readonly limits: SharedRateLimits,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const address = this.limits.clientAddress(
      request.socket.remoteAddress ?? '',
      request.headers['x-forwarded-for'],
    );
    const policy = (await this.policies.keyholderPolicy()).value;
    const family = isIP(address);
    const allowed =
      family !== 0 &&
      networkList(policy.allowedNetworks).check(address, family === 6 ? 'ipv6' : 'ipv4');
    if (!allowed) throw new KeyholderError('keyholder_network_denied');

    const decision = await this.limits.hit(
      `keyholder:${address}`,
      this.config.rateLimits.keyholder,
    );
    if (!decision.allowed) {
      throw new KeyholderError('rate_limited', { retryAfterSeconds: decision.retryAfterSeconds });
    }

    const header = request.headers[KEYHOLDER_TOKEN_HEADER];
    const presented = typeof header === 'string' && header !== '' ? header : null;
    const token = presented === null ? null : await this.tokens.authenticate(presented);
    if (token === null && policy.tokenGate !== 'off') {
      const reason = presented === null ? 'missing' : 'invalid';
      this.metrics.keyholderRequestWithoutToken(policy.tokenGate, reason);
      if (policy.tokenGate === 'required') {
        throw new KeyholderError(
          reason === 'missing' ? 'keyholder_token_required' : 'keyholder_token_invalid',
        );
      }
    }
    CALLERS.set(request, {
      address,
      token: token ? { id: token.id, principals: token.principals } : null,
    });
    return true;
  }
}

/** The caller the guard let through (routes behind `KeyholderAccessGuard`). */
export const CurrentKeyholderCaller = createParamDecorator(
  (_data: unknown, context: ExecutionContext): KeyholderCaller => {
    const caller = CALLERS.get(context.switchToHttp().getRequest<FastifyRequest>());
    if (!caller) throw new Error('CurrentKeyholderCaller used without KeyholderAccessGuard');
    return caller;
  },
);

/** Whether the caller may read this login (unrestricted token or none: any login). */
export function mayRead(caller: KeyholderCaller, login: string): boolean {
  const principals = caller.token?.principals ?? null;
  return principals === null || principals.includes(login);
}
