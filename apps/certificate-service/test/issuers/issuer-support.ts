import type { EstStandIn } from '@platform/pki/testing';
import { bearer } from '../support/sessions';
import type { TestApp } from '../support/test-app';

/** A 32-byte CERTSVC_SCEP_ENC_KEY for tests (hex). */
export const TEST_ISSUER_KEY = '24'.repeat(32);

/** What an app calling a loopback EST stand-in needs. */
export const ISSUER_TEST_ENV = {
  CERTSVC_SCEP_ENC_KEY: TEST_ISSUER_KEY,
  CERTSVC_ISSUER_EGRESS_ALLOW_LOCAL_DIAL: 'true',
  CERTSVC_ISSUER_EGRESS_TIMEOUT_MS: '5000',
  CERTSVC_ENROLL_RATE_LIMIT_PER_MINUTE: '100000',
  CERTSVC_AGENT_RATE_LIMIT_PER_MINUTE: '100000',
};

/** A basic-auth EST profile body for the stand-in. */
export function estBasicProfile(standIn: EstStandIn, password = 'ra-secret') {
  return {
    kind: 'est',
    url: standIn.url,
    auth_mode: 'basic',
    username: 'ra',
    password,
    trust_anchor_pem: standIn.tls.certPem,
  };
}

export function putProfile(t: TestApp, token: string, purpose: string, body: object) {
  return t.http
    .put(`/api/v1/settings/issuers/${purpose}`)
    .set(...bearer(token))
    .send(body);
}

export interface ConnectionTestBody {
  ok: boolean;
  failed_step: string | null;
  steps: { step: string; ok: boolean; detail: string }[];
}

export async function testConnection(
  t: TestApp,
  token: string,
  purpose: string,
): Promise<ConnectionTestBody> {
  const res = await t.http
    .post(`/api/v1/settings/issuers/${purpose}/test-connection`)
    .set(...bearer(token))
    .send({})
    .expect(200);
  return res.body as ConnectionTestBody;
}
