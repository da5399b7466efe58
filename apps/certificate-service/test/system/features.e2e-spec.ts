import type { CertificateIssuer } from '@platform/pki';
import { IssuerRegistry } from '../../src/modules/ca/issuer-registry';
import { startTestApp, type TestApp } from '../support/test-app';

/** Where each flag is observable, by the specification's paths (not the service's table). */
type Probe = { method: 'get' | 'post'; path: string; body?: Record<string, string> };
const PROBES: Record<string, Probe> = {
  local_auth: {
    method: 'post',
    path: '/api/v1/auth/local/login',
    body: { email: 'nobody@certsvc.test', password: 'not-the-password' },
  },
  oidc: {
    method: 'post',
    path: '/api/v1/auth/callback',
    body: { code: 'c', code_verifier: 'v'.repeat(43), redirect_uri: 'https://ui.example/cb' },
  },
  ssh: { method: 'get', path: '/api/v1/ssh/ca-public-key' },
  webhooks: { method: 'get', path: '/api/v1/admin/webhooks' },
  networks: { method: 'get', path: '/api/v1/admin/networks' },
  issuance_directives: { method: 'get', path: '/api/v1/admin/issuance-directives' },
  log_snapshots: { method: 'get', path: '/api/v1/devices/ANY-SERIAL/logs' },
  identity_sid: { method: 'post', path: '/api/v1/enroll/identity-sid', body: {} },
  app_attest: { method: 'post', path: '/api/v1/enroll/app-attest', body: {} },
  tpm_attestation: { method: 'get', path: '/api/v1/settings/tpm-roots' },
  token_recover: { method: 'post', path: '/api/v1/enroll/token-recover', body: {} },
};

async function features(t: TestApp): Promise<Record<string, boolean>> {
  return (await t.http.get('/api/v1/features').expect(200)).body as Record<string, boolean>;
}

/** `true` when a well-formed request gets anything but 404 (a served route may refuse: 401). */
async function served(t: TestApp, probe: Probe): Promise<boolean> {
  const res =
    probe.method === 'get'
      ? await t.http.get(probe.path)
      : await t.http.post(probe.path).send(probe.body);
  return res.status !== 404;
}

/** Each flag true => its route serves; false => it answers 404. SCEP => a SCEP issuer exists. */
async function expectFlagsMatchRoutes(t: TestApp): Promise<Record<string, boolean>> {
  const flags = await features(t);
  expect(Object.keys(flags).sort()).toEqual([...Object.keys(PROBES), 'k8s', 'scep'].sort());
  for (const [name, probe] of Object.entries(PROBES)) {
    expect({ name, served: await served(t, probe) }).toEqual({ name, served: flags[name] });
  }
  const issuer = (await t.http.get('/api/v1/issuer').expect(200)).body as {
    by_purpose: { kind: string }[];
  };
  expect(flags.scep).toBe(issuer.by_purpose.some((p) => p.kind === 'scep'));
  // k8s means the credential broker (its own mutual-TLS listener, test/k8s/k8s-broker covers
  // it true): without CERTSVC_K8S_BROKER_URL false whatever CERTSVC_FEATURES_K8S says,
  // although the cluster registry is served here.
  expect(flags.k8s).toBe(false);
  expect(await served(t, { method: 'get', path: '/api/v1/admin/k8s-clusters' })).toBe(true);
  return flags;
}

describe('Features - /api/v1/features (GET)', () => {
  it('reports only what this build serves (SSH; no k8s, SCEP or webhooks yet)', async () => {
    const t = await startTestApp();
    try {
      expect(await expectFlagsMatchRoutes(t)).toEqual({
        local_auth: true,
        oidc: false,
        scep: false,
        ssh: true,
        k8s: false,
        webhooks: false,
        networks: true,
        issuance_directives: true,
        log_snapshots: true,
        identity_sid: true,
        app_attest: true,
        tpm_attestation: true,
        token_recover: true,
      });
    } finally {
      await t.close();
    }
  });

  it('stays false for switched-on features without routes; local sign-in and SSH follow their switch', async () => {
    const t = await startTestApp({
      env: {
        CERTSVC_FEATURES_SSH: 'false',
        CERTSVC_FEATURES_K8S: 'true',
        CERTSVC_FEATURES_SCEP: 'true',
        CERTSVC_WEBHOOKS_ENABLED: 'true',
        CERTSVC_WEBHOOK_ENC_KEY: '77'.repeat(32),
        CERTSVC_LOCAL_AUTH_ENABLED: 'false',
      },
      withoutLocalAdmin: true,
    });
    try {
      // Webhooks are served once switched on; the others stay off (no route, or switched off).
      expect(await expectFlagsMatchRoutes(t)).toEqual({
        local_auth: false,
        oidc: false,
        scep: false,
        ssh: false,
        k8s: false,
        webhooks: true,
        networks: true,
        issuance_directives: true,
        log_snapshots: true,
        identity_sid: true,
        app_attest: true,
        tpm_attestation: true,
        token_recover: true,
      });
    } finally {
      await t.close();
    }
  });

  it('turns a flag on once its route is mounted and switched on (SCEP issuer)', async () => {
    const t = await startTestApp({ env: { CERTSVC_FEATURES_SCEP: 'true' } });
    const registry = t.app.get(IssuerRegistry);
    const builtIn = registry.builtIn();
    const scep: CertificateIssuer = Object.assign(Object.create(builtIn) as CertificateIssuer, {
      capabilities: () => ({ ...builtIn.capabilities(), kind: 'scep', async: true }),
    });
    try {
      expect((await expectFlagsMatchRoutes(t)).ssh).toBe(true);
      registry.use('user_mtls', scep);
      expect((await expectFlagsMatchRoutes(t)).scep).toBe(true);
    } finally {
      registry.use('user_mtls', undefined);
      await t.close();
    }
  });
});
