import {
  jsonErrorEnvelope,
  type FuzzCase,
  type FuzzOperation,
  type FuzzRequest,
  type FuzzResponse,
  type ValidRequest,
} from '@platform/testing';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../support/test-app';
import { sshEd25519Line, type CertificateFuzzSeed } from './fuzz-seed';

/** Path parameter values of seeded objects, by route prefix and parameter name. */
function pathValues(op: FuzzOperation, seed: CertificateFuzzSeed): Record<string, string> {
  const p = op.path;
  if (p.startsWith('/api/v1/admin/corp-allowlist/')) return { serial: seed.allowlistSerial };
  if (p.startsWith('/api/v1/admin/purpose-overrides/')) return { purpose: 'wifi' };
  if (p.startsWith('/api/v1/admin/ssh-keys/')) return { id: seed.pendingSshKeyId };
  if (p.startsWith('/api/v1/admin/principal-aliases/')) {
    return { alias: seed.aliasName, member: seed.aliasMember };
  }
  if (p.startsWith('/api/v1/admin/keyholder-tokens/')) return { id: seed.keyholderTokenId };
  if (p.startsWith('/api/v1/admin/k8s-clusters/')) return { id: seed.k8sClusterId };
  if (p.startsWith('/api/v1/admin/webhooks/')) return { id: seed.webhookId };
  if (p.startsWith('/api/v1/admin/networks/')) return { id: seed.networkId };
  if (p.startsWith('/api/v1/admin/issuance-directives/')) return { id: seed.directiveId };
  if (p.startsWith('/api/v1/enroll/issuance-directives/')) return { id: seed.directiveId };
  if (p.startsWith('/api/v1/settings/issuers/')) return { purpose: 'vpn' };
  if (p.startsWith('/api/v1/settings/tpm-roots/')) return { id: seed.tpmRootId };
  if (p.startsWith('/pki/ocsp/')) return { path: seed.ocspRequestPath };
  if (p.startsWith('/api/v1/certificates/')) return { serial: seed.issued.certificateSerial };
  if (p.startsWith('/api/v1/devices/')) {
    return { serial: seed.issued.serial, purpose: 'vpn', logId: seed.logSnapshotId };
  }
  if (p.startsWith('/api/v1/requests/')) return { id: seed.issued.requestId };
  if (p.startsWith('/api/v1/service-accounts/')) return { id: seed.targetAccountId };
  if (p.startsWith('/api/v1/users/')) {
    return { email: seed.targetUserEmail, identity: seed.targetUserEmail };
  }
  return {};
}

function bodies(seed: CertificateFuzzSeed): Record<string, unknown> {
  const issued = seed.issued;
  return {
    'POST /api/v1/admin/corp-allowlist': { serial: 'FZ-CREATED', note: 'fuzz' },
    'POST /api/v1/auth/callback': {
      code: 'fuzz-code',
      code_verifier: 'fuzz-verifier-0123456789012345678901234567890123',
      redirect_uri: 'https://example.test/callback',
    },
    'POST /api/v1/auth/change-password': {
      current_password: seed.member.password,
      new_password: `${seed.member.password}-next`,
    },
    'POST /api/v1/auth/local/login': { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    'POST /api/v1/admin/keyholder-tokens': { name: 'fuzz-created', principals: [seed.aliasName] },
    'PUT /api/v1/admin/keyholder-tokens/{id}/principals': { principals: [seed.aliasName] },
    'POST /api/v1/admin/k8s-clusters': {
      name: 'fuzz-created',
      server_url: 'https://k8s.fuzz.test:6443',
      ca_bundle: seed.k8sCaBundle,
      groups: [{ source: 'any', value: '', group: 'fuzzers' }],
    },
    'PUT /api/v1/admin/k8s-clusters/{id}': { enabled: true },
    'POST /api/v1/admin/webhooks': { url: 'https://hooks.fuzz.test/created' },
    'PUT /api/v1/admin/webhooks/{id}': { description: 'fuzz' },
    'PUT /api/v1/admin/webhooks/{id}/enabled': { enabled: true },
    'POST /api/v1/admin/networks': { kind: 'wifi', name: 'fuzz-created', ssid: 'FuzzNet' },
    'PUT /api/v1/admin/networks/{id}/agent-profile-disabled': { disabled: false },
    'PUT /api/v1/admin/networks/{id}/macos-agent-profile-disabled': { disabled: false },
    'PUT /api/v1/admin/networks/{id}/radius-server-names': {
      radius_server_names: ['radius.fuzz.test'],
    },
    'PUT /api/v1/settings/issuers/{purpose}': { kind: 'built_in' },
    // disabled, and the fuzz app has no CERTSVC_SCEP_ENC_KEY: no bind password can be stored,
    // so the directory is never enabled and look-ups answer 409 (never dial out)
    'PUT /api/v1/settings/identity-directory': {
      enabled: false,
      url: 'ldaps://dc.fuzz.test',
      bind_dn: 'cn=svc,dc=fuzz,dc=test',
      base_dn: 'dc=fuzz,dc=test',
    },
    'POST /api/v1/enroll/identity-sid': {
      serial: issued.serial,
      enrollment_token: issued.enrollmentToken,
      upn: 'fuzz@fuzz.test',
    },
    'POST /api/v1/settings/tpm-roots': {
      name: 'fuzz-created',
      certificate_pem: seed.tpmRootPem,
    },
    'POST /api/v1/admin/principal-aliases': {
      name: 'fuzz-created',
      members: ['fuzz-created@certsvc.test'],
    },
    'POST /api/v1/admin/principal-aliases/{alias}/members': { member: seed.aliasMember },
    'PUT /api/v1/admin/principal-aliases/{alias}/enabled': { enabled: true },
    'POST /api/v1/admin/ssh-keys/{id}/reject': { reason: 'fuzz' },
    'POST /api/v1/admin/ssh-keys/{id}/revoke': { reason: 'fuzz' },
    'POST /api/v1/auth/logout': { refresh_token: seed.refreshToken },
    'POST /api/v1/auth/refresh': { refresh_token: seed.refreshToken },
    'PUT /api/v1/certificates/{serial}/key-protection': { level: 'prompt' },
    'POST /api/v1/certificates/{serial}/revoke': { reason: 'superseded' },
    'PUT /api/v1/devices/{serial}/owner': { owner: 'owner@certsvc.test' },
    'PUT /api/v1/devices/{serial}/purpose-overrides': { overrides: { user_mtls: 'allow' } },
    'PUT /api/v1/devices/{serial}/purposes': { purposes: ['wifi', 'user_mtls'] },
    'POST /api/v1/devices/{serial}/purposes/{purpose}/decision': { decision: 'deny' },
    'POST /api/v1/enroll/purpose-request': {
      serial: issued.serial,
      enrollment_token: issued.enrollmentToken,
      purpose: 'ad_logon',
      note: 'fuzz',
    },
    'POST /api/v1/enroll/purposes': {
      serial: issued.serial,
      enrollment_token: issued.enrollmentToken,
    },
    'POST /api/v1/enroll/user': {
      serial: issued.serial,
      enrollment_token: issued.enrollmentToken,
      csr: seed.userCsrPem,
      purpose: 'user_mtls',
      user: 'fuzz-user@example.test',
    },
    'POST /api/v1/enroll/ssh-key': {
      serial: seed.sshDevice.serial,
      enrollment_token: seed.sshDevice.enrollmentToken,
      public_key: seed.sshKeyLine,
    },
    'POST /api/v1/enroll/ssh': {
      serial: seed.sshCertificateDevice.serial,
      enrollment_token: seed.sshCertificateDevice.enrollmentToken,
      public_key: sshEd25519Line(),
      agent_version: '2.4.1',
    },
    'POST /api/v1/enroll/ssh-key/status': {
      serial: seed.sshDevice.serial,
      enrollment_token: seed.sshDevice.enrollmentToken,
    },
    'POST /api/v1/license/decommission': { identity_key: `sn:${seed.decommissioned.serial}` },
    'POST /api/v1/requests/approve': { request_ids: [seed.pending.requestId] },
    'POST /api/v1/requests/check-conflicts': { request_ids: [seed.pending.requestId] },
    'POST /api/v1/requests/reject': { request_ids: [seed.pending.requestId], reason: 'fuzz' },
    'POST /api/v1/requests/{id}/checkin': { agent_version: '2.4.1' },
    'POST /api/v1/devices/{serial}/issuance-directives': {
      purpose: 'user_mtls',
      user: 'fuzz-directive@certsvc.test',
    },
    'POST /api/v1/enroll/issuance-directives/{id}/report': { outcome: 'done', message: 'fuzz' },
    'POST /api/v1/service-accounts': { name: 'fuzz-created', allowed_purposes: ['wifi'] },
    'PUT /api/v1/service-accounts/{id}/allowed-purposes': { allowed_purposes: ['wifi'] },
    'PUT /api/v1/service-accounts/{id}/enabled': { enabled: true },
    'PUT /api/v1/settings/enroll-source-auth': { mode: 'off' },
    'POST /api/v1/enroll/app-attest/challenge': { serial: issued.serial },
    'PUT /api/v1/settings/sa-auto-approve': { policy: 'off' },
    'POST /api/v1/users/local': {
      email: 'fuzz-created@certsvc.test',
      password: 'fuzz-password-0123',
      roles: ['cert-viewer'],
    },
    'PUT /api/v1/users/{email}/enabled': { enabled: true },
    'PUT /api/v1/users/{email}/password': { password: 'fuzz-password-0123' },
    'PUT /api/v1/users/{email}/roles': { roles: ['cert-viewer'] },
  };
}

const QUERIES: Record<string, Record<string, string>> = {
  'GET /api/v1/audit': { page: '1', limit: '5' },
  'GET /api/v1/audit.csv': { page: '1', limit: '5' },
  'GET /api/v1/devices': { page: '1', limit: '5' },
  'GET /api/v1/devices.csv': { page: '1', limit: '5' },
  'GET /api/v1/requests': { page: '1', limit: '5' },
  'GET /api/v1/requests.csv': { page: '1', limit: '5' },
  'GET /api/v1/admin/purpose-requests': { page: '1', limit: '5' },
  'GET /api/v1/admin/issuance-directives': { page: '1', limit: '5', state: 'pending' },
  'GET /api/v1/admin/ssh-keys': { page: '1', limit: '5', state: 'pending' },
  'GET /api/v1/keyholder/keys': { login: 'fuzzalias' },
  'GET /api/v1/keyholder/principals': { serial: '1', login: 'fuzzalias' },
  'GET /api/v1/keyholder/revocations': { after: '0', limit: '5' },
};

/** The valid request of each operation, with the ids of the seeded objects. */
export async function validCertificateRequest(
  op: FuzzOperation,
  seed: CertificateFuzzSeed,
): Promise<ValidRequest> {
  const valid: ValidRequest = {
    path: pathValues(op, seed),
    query: QUERIES[op.key],
    body: bodies(seed)[op.key],
  };
  if (
    op.path.startsWith('/api/v1/requests/{id}/') ||
    op.path.startsWith('/api/v1/enroll/issuance-directives/{id}/')
  ) {
    valid.headers = { 'x-agent-secret': seed.issued.agentSecret };
  }
  if (op.key === 'POST /api/v1/enroll/app-attest') {
    // A fresh one-use challenge and a valid attestation over it for every case.
    valid.body = await seed.appAttestReceipt();
    valid.prepared = true;
  }
  if (op.key === 'POST /api/v1/enroll') {
    // Re-enrollment of a known device: a fresh one-use nonce for every case.
    valid.body = {
      csr: seed.reenrolling.csr.csrPem,
      serial: seed.reenrolling.serial,
      nonce: await seed.nonce(),
      enrollment_token: seed.reenrolling.enrollmentToken,
      agent_version: '2.4.1',
      platform: 'windows',
      hostname: 'fuzz-host',
    };
    valid.prepared = true;
  }
  if (op.key === 'POST /api/v1/enroll/token-recover') {
    // A fresh one-use nonce signed with the device's pinned continuity key for every case.
    valid.body = await seed.recoverBody();
    valid.prepared = true;
  }
  return valid;
}

function jsonOf(bytes: Buffer | undefined): Record<string, unknown> {
  try {
    return JSON.parse(bytes?.toString() ?? '') as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** Replaces what a successful request consumed, so later cases still reach deep code. */
export async function replaceConsumed(
  seed: CertificateFuzzSeed,
  fuzzCase: FuzzCase,
  response: FuzzResponse,
  request: FuzzRequest,
): Promise<void> {
  const answer = jsonOf(response.body);
  switch (fuzzCase.operation.key) {
    case 'POST /api/v1/auth/refresh':
      seed.refreshToken =
        typeof answer.refresh_token === 'string' ? answer.refresh_token : seed.refreshToken;
      return;
    case 'POST /api/v1/auth/logout':
      await seed.newRefreshSession();
      await seed.reloginIfSignedOut();
      return;
    case 'POST /api/v1/auth/change-password': {
      const sent = jsonOf(request.body).new_password;
      if (typeof sent === 'string') await seed.reloginMember(sent);
      return;
    }
    case 'POST /api/v1/devices/{serial}/rotate-enrollment-token':
      if (typeof answer.enrollment_token === 'string') {
        seed.issued.enrollmentToken = answer.enrollment_token;
      }
      return;
    case 'POST /api/v1/devices/{serial}/revoke':
    case 'POST /api/v1/certificates/{serial}/revoke':
      await seed.newIssuedDevice();
      await seed.newLogSnapshot();
      return;
    case 'POST /api/v1/devices/{serial}/purposes/{purpose}/decision':
      await seed.askPurpose();
      return;
    case 'POST /api/v1/requests/approve':
    case 'POST /api/v1/requests/reject':
      await seed.newPendingDevice();
      return;
    case 'POST /api/v1/license/decommission':
      await seed.newDecommissionedDevice();
      return;
    case 'DELETE /api/v1/admin/corp-allowlist/{serial}':
      await seed.newAllowlistEntry();
      return;
    case 'DELETE /api/v1/service-accounts/{id}':
      await seed.newTargetAccount();
      return;
    case 'POST /api/v1/admin/ssh-keys/{id}/approve':
    case 'POST /api/v1/admin/ssh-keys/{id}/reject':
    case 'POST /api/v1/admin/ssh-keys/{id}/revoke':
      await seed.newPendingSshKey();
      return;
    case 'DELETE /api/v1/admin/principal-aliases/{alias}':
      await seed.newAlias();
      return;
    case 'DELETE /api/v1/admin/principal-aliases/{alias}/members/{member}':
      await seed.newAliasMember();
      return;
    case 'DELETE /api/v1/admin/keyholder-tokens/{id}':
      await seed.newKeyholderToken();
      return;
    case 'DELETE /api/v1/admin/k8s-clusters/{id}':
      await seed.newK8sCluster();
      return;
    case 'DELETE /api/v1/admin/webhooks/{id}':
      await seed.newWebhook();
      return;
    case 'DELETE /api/v1/devices/{serial}/logs/{logId}':
      await seed.newLogSnapshot();
      return;
    case 'DELETE /api/v1/admin/networks/{id}':
      await seed.newNetwork();
      return;
    case 'DELETE /api/v1/settings/tpm-roots/{id}':
      await seed.newTpmRoot();
      return;
    case 'DELETE /api/v1/admin/issuance-directives/{id}':
    case 'POST /api/v1/enroll/issuance-directives/{id}/report':
      await seed.newDirective();
      return;
    default:
      return;
  }
}

/** Certificate errors are `{code, message, details?}`. */
export const certificateEnvelopeProblem = jsonErrorEnvelope(['code', 'message']);
