import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { IssuerRegistry } from '../ca/issuer-registry';
import { K8sBrokerServer } from '../k8s/k8s-broker.server';
import type { FeaturesDto } from './system.dto';

type RouteFeature = Exclude<keyof FeaturesDto, 'scep' | 'k8s'>;

/**
 * The route (specification path) that serves each route-backed feature, and the setting that
 * switches it on. A flag is true only when its route is mounted in this build AND switched on;
 * a module mounted while its switch is off must answer 404 there.
 */
export const FEATURE_ROUTES: Record<
  RouteFeature,
  { method: HTTPMethods; url: string; switchedOn: (config: CertsvcConfig) => boolean }
> = {
  local_auth: {
    method: 'POST',
    url: '/api/v1/auth/local/login',
    switchedOn: (c) => c.localAuth.enabled,
  },
  oidc: { method: 'POST', url: '/api/v1/auth/callback', switchedOn: (c) => c.oidc !== undefined },
  ssh: { method: 'GET', url: '/api/v1/ssh/ca-public-key', switchedOn: (c) => c.features.ssh },
  webhooks: {
    method: 'GET',
    url: '/api/v1/admin/webhooks',
    switchedOn: (c) => c.features.webhooks,
  },
  // No switch: reported true wherever the networks module is mounted.
  networks: { method: 'GET', url: '/api/v1/admin/networks', switchedOn: () => true },
  // No switch: reported true wherever the issuance-directives module is mounted.
  issuance_directives: {
    method: 'GET',
    url: '/api/v1/admin/issuance-directives',
    switchedOn: () => true,
  },
  // No switch: reported true wherever the log-snapshots module is mounted.
  log_snapshots: {
    method: 'GET',
    url: '/api/v1/devices/:serial/logs',
    switchedOn: () => true,
  },
  // No switch: the route is mounted; whether a directory is configured is its setting's business.
  identity_sid: {
    method: 'POST',
    url: '/api/v1/enroll/identity-sid',
    switchedOn: () => true,
  },
  // No switch: the routes are mounted; without CERTSVC_APP_ATTEST_ROOTS_FILE receipts are refused.
  app_attest: {
    method: 'POST',
    url: '/api/v1/enroll/app-attest',
    switchedOn: () => true,
  },
  // No switch: attested enrollment runs wherever its vendor-root registry is mounted.
  tpm_attestation: {
    method: 'GET',
    url: '/api/v1/settings/tpm-roots',
    switchedOn: () => true,
  },
  token_recover: {
    method: 'POST',
    url: '/api/v1/enroll/token-recover',
    switchedOn: () => true,
  },
};

/** What `GET /api/v1/features` reports: what this process actually serves, never a constant. */
@Injectable()
export class ServedFeatures {
  constructor(
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
    private readonly adapterHost: HttpAdapterHost,
    private readonly issuers: IssuerRegistry,
    private readonly k8sBroker: K8sBrokerServer,
  ) {}

  current(): FeaturesDto {
    return {
      local_auth: this.served('local_auth'),
      oidc: this.served('oidc'),
      scep: this.config.features.scep && this.scepIssuerConfigured(),
      ssh: this.served('ssh'),
      // Kubernetes access is served by the credential broker on its own mutual-TLS listener
      // (CERTSVC_K8S_BROKER_URL), not by the cluster registry of this port.
      k8s: this.k8sBroker.port() !== undefined,
      webhooks: this.served('webhooks'),
      networks: this.served('networks'),
      issuance_directives: this.served('issuance_directives'),
      log_snapshots: this.served('log_snapshots'),
      identity_sid: this.served('identity_sid'),
      app_attest: this.served('app_attest'),
      tpm_attestation: this.served('tpm_attestation'),
      token_recover: this.served('token_recover'),
    };
  }

  private served(feature: RouteFeature): boolean {
    const { method, url, switchedOn } = FEATURE_ROUTES[feature];
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    return switchedOn(this.config) && fastify.hasRoute({ method, url });
  }

  /** SCEP has no route of its own: it is served when some purpose issues through a SCEP CA. */
  private scepIssuerConfigured(): boolean {
    return this.issuers
      .purposes()
      .some((purpose) => this.issuers.forPurpose(purpose).capabilities().kind === 'scep');
  }
}
