import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

export const WEBHOOK_ROUTES_PREFIX = '/api/v1/admin/webhooks';

/**
 * With `CERTSVC_WEBHOOKS_ENABLED=false` the webhook admin routes stay mounted but answer 404
 * `webhooks_disabled` to every caller, before the session and role checks (a request hook of
 * the HTTP server: Nest guards run after the access guard, and its middleware bypasses the
 * error filter). The `webhooks` feature flag is false then.
 */
@Injectable()
export class WebhooksSwitch implements OnModuleInit {
  constructor(
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onModuleInit(): void {
    if (this.config.webhooks.enabled) return;
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify) return;
    fastify.addHook('onRequest', async (request, reply) => {
      const path = request.url.split('?')[0];
      if (path === WEBHOOK_ROUTES_PREFIX || path.startsWith(`${WEBHOOK_ROUTES_PREFIX}/`)) {
        await reply.code(404).send({
          code: 'webhooks_disabled',
          message: certsvcErrorMessage('webhooks_disabled'),
        });
      }
    });
  }
}
